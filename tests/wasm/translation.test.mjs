// The trained encoder–decoder in wasm (Engine.loadTranslationModel, full module only): the same
// words as the native build (inspect on the pair directory), the lesson pair's nouns, the chosen
// head's cross-attention, and coded errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { loadNodeEngine, loadNodeFullEngine, modelFiles, root } from './helpers.mjs';

const PAIR = path.join(root, 'web/models/translate-en-zh');
const TIRED = "The animal didn't cross the street because it was too tired.";
const WIDE = "The animal didn't cross the street because it was too wide.";
const SENTENCES = [
  TIRED,
  WIDE,
  'The trophy did not fit in the suitcase because it was too big.',
  'the cat chased the dog',
];

const pairFiles = () => ({
  pair: readFileSync(path.join(PAIR, 'pair.json'), 'utf8'),
  encoder: modelFiles(path.join(PAIR, 'encoder')),
  decoder: modelFiles(path.join(PAIR, 'decoder')),
});

const nativeInspect = (text) =>
  JSON.parse(execFileSync(path.join(root, 'build/native/inspect'), ['--model', PAIR, '--text', text]));

let model;
before(async () => {
  model = (await loadNodeFullEngine()).loadTranslationModel(pairFiles());
});
after(() => model?.delete());

test('wasm and native write the same words, with the same cross- and causal self-attention', () => {
  for (const sentence of SENTENCES) {
    const wasm = model.translate(sentence);
    const native = nativeInspect(sentence);
    assert.deepEqual(wasm.tokens, native.tokens, sentence);
    assert.deepEqual(wasm.source, native.source, sentence);
    assert.equal(wasm.steps.length, native.steps.length, sentence);
    wasm.steps.forEach((step, s) => {
      assert.equal(step.token, native.steps[s].token);
      assert.equal(step.crossAttention.length, native.steps[s].cross_attention.length);
      for (const [l, heads] of step.crossAttention.entries())
        for (const [h, row] of heads.entries())
          row.forEach((w, j) => assert.ok(Math.abs(w - native.steps[s].cross_attention[l][h][j]) < 1e-4));
      // The decoder's causal self-attention: step s reads the start token and the s words before.
      assert.equal(step.selfAttention.length, native.steps[s].self_attention.length);
      for (const [l, heads] of step.selfAttention.entries())
        for (const [h, row] of heads.entries()) {
          assert.equal(row.length, s + 1, `${sentence}: step ${s} layer ${l} head ${h}`);
          assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
          row.forEach((w, k) => assert.ok(Math.abs(w - native.steps[s].self_attention[l][h][k]) < 1e-4));
        }
    });
    assert.deepEqual(wasm.head, native.head);
  }
});

test('the lesson pair: 动物 for tired, 马路 for wide, and the head looks at the referent', () => {
  const argmaxAt = (t, noun) => {
    const step = t.steps.findLast((s) => s.token === noun);
    assert.ok(step, `${noun} in ${t.text}`);
    const row = step.crossAttention[t.head.layer][t.head.head];
    return t.source[row.indexOf(Math.max(...row))];
  };
  const tired = model.translate(TIRED);
  const wide = model.translate(WIDE);
  assert.match(tired.text, /因为动物/);
  assert.match(wide.text, /因为马路/);
  assert.equal(argmaxAt(tired, '动物'), 'animal');
  assert.equal(argmaxAt(wide, '马路'), 'street');
});

test('errors are coded: empty-input, too-long, bad-model; the page module refuses with unavailable', async () => {
  assert.throws(() => model.translate('  '), { name: 'EngineError', code: 'empty-input' });
  assert.throws(() => model.translate('animal '.repeat(200)), { name: 'EngineError', code: 'too-long' });
  const engine = await loadNodeFullEngine();
  const files = pairFiles();
  assert.throws(() => engine.loadTranslationModel({ ...files, pair: '{}' }), {
    name: 'EngineError',
    code: 'bad-model',
  });
  assert.throws(() => engine.loadTranslationModel({ ...files, decoder: files.encoder }), {
    name: 'EngineError',
    code: 'bad-model',
  });
  const page = await loadNodeEngine();
  assert.throws(() => page.loadTranslationModel(files), { name: 'EngineError', code: 'unavailable' });
});
