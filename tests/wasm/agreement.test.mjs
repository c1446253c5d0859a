// The wasm module and the native build compute the same numbers for the same inputs.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { compareArrays, loadNodeEngine, nativeFixtures } from './helpers.mjs';

// Tolerances: the two builds vectorise the same float32 sums differently (SSE vs SIMD128),
// so results differ in the last bits. A sum's rounding error scales with its largest terms,
// not with the (possibly cancelled) result, so atol is taken relative to the array's largest
// magnitude; softmax turns a score error δ into a relative weight error ≈ δ.
const TOLERANCE = {
  attention: { atol: 1e-6, rtol: 1e-5 },
  model: { atol: 1e-5, rtol: 1e-4 }, // two to four layers of accumulated rounding
};

let engine;
let fixtures;
before(async () => {
  fixtures = nativeFixtures();
  engine = await loadNodeEngine();
});

function assertAgrees(actual, expected, { atol, rtol }, label) {
  const largest = expected.reduce((m, x) => (x === null ? m : Math.max(m, Math.abs(x))), 1);
  const r = compareArrays(actual, expected, { atol: atol * largest, rtol });
  assert.ok(r.ok, `${label}: ${r.detail}`);
}

describe('attention agrees with the native build', () => {
  test('every case and every step of the trace', () => {
    assert.ok(fixtures.attention.length >= 10);
    for (const [i, { args, expected }] of fixtures.attention.entries()) {
      const label = `case ${i} (n=${args.n} m=${args.m} dk=${args.dk} causal=${args.causal} window=${args.window} scale=${args.scale})`;
      const got = engine.attention(args);
      for (const step of ['rawScores', 'scaledScores', 'maskedScores', 'weights', 'output'])
        assertAgrees(got[step], expected[step], TOLERANCE.attention, `${label} ${step}`);
    }
  });
});

describe('random models agree with the native build', () => {
  test('same seed → same weights → same attention and output', () => {
    assert.ok(fixtures.models.length >= 4);
    for (const c of fixtures.models) {
      const label = `${c.config.positional}/${c.config.norm}/h${c.config.nHeads}/causal=${c.config.causal}`;
      const model = engine.createRandomModel(c.config);
      try {
        assert.equal(model.parameterCount, c.parameterCount, `${label} parameter count`);
        const run = model.run(c.text);
        assert.deepEqual(run.ids, c.ids, `${label} token ids`);
        c.expected.layers.forEach((layer, l) =>
          layer.heads.forEach((head, h) => {
            const got = run.layers[l].selfAttention.heads[h];
            assertAgrees(got.q, head.q, TOLERANCE.model, `${label} layer ${l} head ${h} q`);
            assertAgrees(got.weights, head.weights, TOLERANCE.model, `${label} layer ${l} head ${h} weights`);
          }),
        );
        assertAgrees(run.output, c.expected.output, TOLERANCE.model, `${label} output`);
      } finally {
        model.delete();
      }
    }
  });
});

describe('tokenizer agrees with the native build', () => {
  test('same words for every sample text', () => {
    for (const { text, tokens } of fixtures.tokenizer) assert.deepEqual(engine.tokenize(text), tokens, text);
  });
});
