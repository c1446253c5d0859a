// The wasm module and the native build compute the same numbers for the same inputs.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { compareArrays, loadNodeEngine, nativeFixtures, wasmFixtures } from './helpers.mjs';

// Tolerances: the two builds vectorise the same float32 sums differently (SSE vs SIMD128),
// so results differ in the last bits. A sum's rounding error scales with its largest terms,
// not with the (possibly cancelled) result, so atol is taken relative to the array's largest
// magnitude; softmax turns a score error δ into a relative weight error ≈ δ.
const TOLERANCE = {
  attention: { atol: 1e-6, rtol: 1e-5 },
  model: { atol: 1e-5, rtol: 1e-4 }, // two to four layers of accumulated rounding
  // Two models' forward and backward passes: measured ≤ 1.3e-6 apart for gradients up to 5.6, the
  // worst entry at a quarter of this tolerance.
  gradient: { atol: 2e-6, rtol: 2e-5 },
};

let engine;
let fixtures;
before(async () => {
  fixtures = nativeFixtures();
  engine = await loadNodeEngine();
});

const largestDifference = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

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

describe('training gradients agree with the native build', () => {
  test('an encoder–decoder: every parameter of both models and the decoder’s dL/dmemory', () => {
    const wasm = wasmFixtures().gradients;
    assert.equal(wasm.length, fixtures.gradients.length);
    assert.ok(wasm.length >= 3);
    for (const [i, expected] of fixtures.gradients.entries()) {
      const got = wasm[i];
      const label = `${expected.norm}-LN decoder, dropout ${expected.dropout.toFixed(2)}`;
      assert.ok(Math.abs(got.loss - expected.loss) <= TOLERANCE.gradient.rtol * expected.loss, `${label} loss`);
      let worst = 0;
      for (const model of ['encoder', 'decoder']) {
        assert.deepEqual(Object.keys(got[model]), Object.keys(expected[model]), `${label} ${model} parameters`);
        for (const [name, values] of Object.entries(expected[model])) {
          assertAgrees(got[model][name], values, TOLERANCE.gradient, `${label} ${model} ${name}`);
          worst = Math.max(worst, largestDifference(got[model][name], values));
        }
      }
      assertAgrees(got.memory, expected.memory, TOLERANCE.gradient, `${label} dL/dmemory`);
      console.log(
        `# ${label}: largest gradient difference wasm vs native ${worst.toExponential(2)}, ` +
          `dL/dmemory ${largestDifference(got.memory, expected.memory).toExponential(2)}`,
      );
    }
  });
});

describe('tokenizer agrees with the native build', () => {
  test('same words for every sample text', () => {
    for (const { text, tokens } of fixtures.tokenizer) assert.deepEqual(engine.tokenize(text), tokens, text);
  });
});
