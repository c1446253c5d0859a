// Generation with a KV cache in wasm (TrainedModel.generateSteps / generateCached): the same
// words as generate() and as the native build, attention rows equal to the native full pass,
// work counts that follow the closed form of src/model/kv_cache.h, and readable errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { loadNodeEngine, root, shippedConfig, shippedModel } from './helpers.mjs';
import { DECODER_PROMPT, DECODER_SENTENCE } from '../../web/lib/lesson.mjs';

const PROMPTS = [
  DECODER_SENTENCE.tired,
  DECODER_PROMPT.wide,
  'the trophy did not fit in the suitcase because it was too big .',
];
// Same rounding budget as trained.test.mjs: differently vectorised sums through 3 layers.
const ATTENTION_TOLERANCE = 2e-5;
const LOGIT_TOLERANCE = 1e-4;

function nativeInspect(args) {
  const out = execFileSync(path.join(root, 'build/native/inspect'), [
    '--model',
    path.join(root, 'web/models/coref-decoder'),
    ...args,
  ]);
  return JSON.parse(out);
}

const maxDiff = (a, b) => {
  assert.equal(a.length, b.length);
  return a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
};

let engine;
let decoder;
before(async () => {
  engine = await loadNodeEngine();
  decoder = engine.loadTrainedModel(shippedModel('coref-decoder'));
});
after(() => decoder?.delete());

test('with and without the cache: the same words as generate() and as the native build', () => {
  for (const prompt of PROMPTS) {
    const cached = decoder.generateSteps(prompt, 8, true);
    const full = decoder.generateSteps(prompt, 8, false);
    const words = cached.tokens.slice(cached.promptLength);
    assert.ok(cached.steps.length > 0, prompt);
    assert.deepEqual(full.tokens, cached.tokens, prompt);
    assert.deepEqual(decoder.generate(prompt, 8), words, prompt);
    assert.deepEqual(decoder.generateCached(prompt, 8), words, prompt);
    assert.deepEqual(nativeInspect(['--text', prompt, '--generate', '8']).generated, words, prompt);
  }
});

test('each step: rows reused and new, cache size, logits and attention agree', () => {
  const prompt = PROMPTS[0];
  const cached = decoder.generateSteps(prompt, 8, true);
  const full = decoder.generateSteps(prompt, 8, false);
  const n = cached.promptLength;
  assert.equal(cached.steps.length, full.steps.length);
  cached.steps.forEach((s, k) => {
    const f = full.steps[k];
    const p = n - 1 + k;
    assert.equal(s.position, p);
    assert.equal(s.inputToken, cached.tokens[p]);
    assert.equal(s.token, f.token);
    assert.equal(s.rowsReused, k === 0 ? 0 : p);
    assert.equal(s.rowsNew, k === 0 ? n : 1);
    assert.equal(s.cacheRows, p + 1);
    assert.equal(f.rowsReused, 0);
    assert.equal(f.rowsNew, p + 1);
    assert.ok(maxDiff(s.logits, f.logits) <= LOGIT_TOLERANCE, `step ${k} logits`);
    s.attention.forEach((layer, l) => {
      assert.equal(layer.length, cached.nHeads * (p + 1));
      assert.ok(maxDiff(layer, f.attention[l]) <= ATTENTION_TOLERANCE, `step ${k} layer ${l}`);
    });
  });
  assert.equal(cached.steps.at(-1).end, true, 'the lesson completion ends with [SEP]');
  assert.equal(cached.keys[0][0].length, (cached.steps.at(-1).position + 1) * cached.headDim);
});

test('attention rows of the cached steps equal the native full forward pass', () => {
  const prompt = PROMPTS[0];
  const g = decoder.generateSteps(prompt, 8, true);
  const words = g.tokens.slice(g.promptLength);
  const native = nativeInspect(['--text', `${prompt} ${words.join(' ')}`]);
  assert.deepEqual(native.tokens, g.tokens);
  for (const s of g.steps) {
    for (let l = 0; l < g.nLayers; l++) {
      for (let h = 0; h < g.nHeads; h++) {
        const row = native.attention[l][h][s.position].slice(0, s.position + 1);
        const shown = Array.from(s.attention[l].subarray(h * (s.position + 1), (h + 1) * (s.position + 1)));
        assert.ok(maxDiff(shown, row) <= ATTENTION_TOLERANCE, `position ${s.position} layer ${l} head ${h}`);
      }
    }
  }
});

test('work per step follows the closed form: one row with the cache, every row without', () => {
  const { dModel: d, nLayers: L, vocabSize: V } = decoder.config;
  const f = 4 * d; // d_ff = 0 in config.json: the usual 4·d
  const work = (r, m) => ({
    projections: L * 4 * r * d * d,
    scores: L * r * m * d,
    weightedSums: L * r * m * d,
    ffn: L * 2 * r * d * f,
    output: d * V,
  });
  const withTotal = (w) => ({ ...w, total: w.projections + w.scores + w.weightedSums + w.ffn + w.output });
  const prompt = PROMPTS[0];
  const cached = decoder.generateSteps(prompt, 8, true);
  const full = decoder.generateSteps(prompt, 8, false);
  cached.steps.forEach((s, k) => {
    const p = s.position;
    assert.deepEqual(s.work, withTotal(work(s.rowsNew, p + 1)), `cached step ${k}`);
    assert.deepEqual(full.steps[k].work, withTotal(work(p + 1, p + 1)), `full step ${k}`);
  });
  assert.deepEqual(cached.steps[0].work, full.steps[0].work, 'the first step computes the whole prompt either way');
});

test('errors: too long a prompt, an encoder, a negative count; the module keeps working', () => {
  const { max_len: maxLen } = shippedConfig('coref-decoder');
  assert.throws(
    () => decoder.generateSteps('the '.repeat(maxLen + 8), 3, true),
    new RegExp(`the prompt has ${maxLen + 8} tokens; this model reads at most ${maxLen}`),
  );
  assert.throws(() => decoder.generateSteps('', 3, false), /empty/);
  assert.throws(
    () => decoder.generateSteps('the animal', -1, true),
    /maxNewWords must be a whole number from 0 to 2147483647, got -1/,
  );
  const encoder = engine.loadTrainedModel(shippedModel('coref-encoder'));
  try {
    assert.throws(() => encoder.generateSteps(PROMPTS[0], 3, true), /next-word/);
    assert.throws(() => encoder.generateCached(PROMPTS[0], 3), /next-word/);
  } finally {
    encoder.delete();
  }
  assert.ok(decoder.generateSteps(PROMPTS[1], 2, true).steps.length > 0);
});
