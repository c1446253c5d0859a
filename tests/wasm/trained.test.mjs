// The shipped models (web/models/*) give the same answers and attention in wasm as in the
// native build (tools/inspect), and the loader's errors reach JS as Errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { compareArrays, loadNodeEngine, root, shippedConfig, shippedModel } from './helpers.mjs';
import { DECODER_PROMPT, DECODER_SENTENCE, LESSON, WORD_ORDER_PAIR } from '../../web/lib/lesson.mjs';

const modelsDir = path.join(root, 'web/models');
const modelNames = readdirSync(modelsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(modelsDir, d.name, 'config.json'))) // not the translation pair
  .map((d) => d.name);

// Per task, sentences whose analysis is compared.
const SENTENCES_ZH = [
  '那只动物没有穿过马路，因为它太累了。',
  '因为它太宽了，那只动物没有穿过马路。',
  '那只斑马没有穿过桥，因为它太累了。',
];
const SENTENCES = {
  coreference: [LESSON.tired, LESSON.wide, 'The zebra saw it.'],
  'word-order': [WORD_ORDER_PAIR.a, WORD_ORDER_PAIR.b, '今天鸟在看鱼'],
  'next-word': [DECODER_PROMPT.wide],
};
// Weights agree to float32 rounding of differently vectorised sums, through 2–3 layers.
const TOLERANCE = { atol: 2e-5, rtol: 1e-4 };

function nativeInspect(name, text) {
  const out = execFileSync(path.join(root, 'build/native/inspect'), [
    '--model',
    path.join(modelsDir, name),
    '--text',
    text,
  ]);
  return JSON.parse(out);
}

let engine;
before(async () => {
  engine = await loadNodeEngine();
});

test('models are shipped', () => {
  for (const expected of [
    'coref-encoder',
    'coref-decoder',
    'word-order-none',
    'word-order-sinusoidal',
    'word-order-learned',
    'word-order-rope',
  ])
    assert.ok(modelNames.includes(expected), `web/models/${expected} is missing: run npm run train`);
});

describe('wasm and native agree on every shipped model', () => {
  for (const name of modelNames) {
    test(name, () => {
      const model = engine.loadTrainedModel(shippedModel(name));
      try {
        const zh = shippedConfig(name).language === 'zh';
        for (const text of zh ? SENTENCES_ZH : SENTENCES[model.config.task]) {
          const wasm = model.analyze(text);
          const native = nativeInspect(name, text);
          assert.deepEqual(wasm.tokens, native.tokens, text);
          assert.deepEqual(wasm.unknown, native.unknown, text);
          assert.equal(wasm.prediction.token, native.prediction.token, `${name}: "${text}" prediction`);
          assert.ok(Math.abs(wasm.prediction.probability - native.prediction.probability) < 1e-4);
          native.attention.forEach((layer, l) =>
            layer.forEach((head, h) => {
              const r = compareArrays(wasm.layers[l].selfAttention.heads[h].weights, head.flat(), TOLERANCE);
              assert.ok(r.ok, `${name} "${text}" layer ${l} head ${h}: ${r.detail}`);
            }),
          );
        }
      } finally {
        model.delete();
      }
    });
  }
});

// The explanation panel's knock-outs and ablations read probabilities() in place of
// analyze(topK = vocabulary size): every word's probability must be analyze()'s, to the bit.
test("probabilities() gives analyze()'s probabilities exactly, with knock-outs and ablations", () => {
  const model = engine.loadTrainedModel(shippedModel('coref-encoder'));
  try {
    const { vocabSize, nLayers, nHeads } = model.config;
    const runs = [
      {},
      { knockout: [1] },
      { knockout: [9] },
      { ablate: [[nLayers - 1, nHeads - 1]] },
      {
        ablate: [
          [0, 0],
          [1, 2],
        ],
      },
    ];
    for (const text of [LESSON.tired, LESSON.wide]) {
      for (const options of runs) {
        const a = model.analyze(text, { ...options, topK: vocabSize }).prediction;
        const p = model.probabilities(text, options);
        const label = `${text} ${JSON.stringify(options)}`;
        assert.equal(p.position, a.position, label);
        assert.equal(p.best, a.token, label);
        for (const { token, probability } of a.top)
          assert.equal(p.probabilities[model.wordId(token)], probability, `${label}: ${token}`);
      }
    }
  } finally {
    model.delete();
  }
});

test('unknown words are reported, not dropped', () => {
  const model = engine.loadTrainedModel(shippedModel('coref-encoder'));
  const run = model.analyze('The zebra saw it.');
  assert.deepEqual(run.tokens, ['the', 'zebra', 'saw', 'it', '.']);
  assert.deepEqual(run.unknown, [1, 2]);
  model.delete();
});

test('the decoder completes the lesson sentence with its referent', () => {
  const model = engine.loadTrainedModel(shippedModel('coref-decoder'));
  assert.deepEqual(model.generate(DECODER_SENTENCE.wide, 4), ['it', '=', 'street']);
  assert.deepEqual(model.generate(DECODER_SENTENCE.tired, 4), ['it', '=', 'animal']);
  model.delete();
});

test('ablating every head and knocking out tokens change the analysis, bad options are Errors', () => {
  const model = engine.loadTrainedModel(shippedModel('coref-encoder'));
  const text = LESSON.wide;
  const base = model.analyze(text);
  const { nLayers, nHeads } = model.config;
  const all = [];
  for (let l = 0; l < nLayers; l++) for (let h = 0; h < nHeads; h++) all.push([l, h]);
  const ablated = model.analyze(text, { ablate: all });
  assert.notEqual(ablated.prediction.probability, base.prediction.probability);
  const knocked = model.analyze(text, { knockout: [6] });
  assert.equal(
    knocked.layers[0].selfAttention.heads[0].weights[8 * base.n + 6],
    0,
    '"it" cannot see the knocked-out street',
  );
  assert.throws(
    () => model.analyze(text, { ablate: [[nLayers, 0]] }),
    /ablate: \[\d+, 0\] is not a head of this model/,
  );
  assert.throws(() => model.analyze(text, { knockout: [99] }), /knockout position 99 is outside the sentence/);
  assert.throws(() => model.analyze('no pronoun here'), /has no "it"/);
  assert.equal(model.analyze(text).prediction.token, base.prediction.token, 'still works after errors');
  model.delete();
});

test('malformed checkpoints are rejected with the stage in the message', () => {
  const good = shippedModel('word-order-none');
  const truncated = good.weights.slice(0, 100);
  assert.throws(() => engine.loadTrainedModel({ ...good, weights: truncated }), /safetensors: /);
  assert.throws(() => engine.loadTrainedModel({ ...good, config: '{"format": 1}' }), /config/);
  assert.throws(() => engine.loadTrainedModel({ ...good, vocab: 'hello\n' }), /vocabulary line 1/);
  assert.throws(() => engine.loadTrainedModel({ ...good, weights: 'not bytes' }), /weights must be a Uint8Array/);
  const model = engine.loadTrainedModel(good);
  assert.equal(model.analyze('猫追狗').tokens[0], '[CLS]');
  model.delete();
});
