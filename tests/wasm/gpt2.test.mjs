// GPT-2-layout checkpoints in wasm (web/lib/own-model.mjs, bindings/gpt2.cpp): the tiny fixture
// against the golden outputs of the independent PyTorch implementation (tools/gpt2_reference.py),
// ≤ 1e-4 relative, with the weights streamed from a Blob; and the errors a reader can meet.
import assert from 'node:assert/strict';
import { Blob } from 'node:buffer';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { loadNodeEngine, maxScaledDiff, root } from './helpers.mjs';

const GOLDEN_VERSION = 1;
const TOLERANCE = 1e-4; // max |wasm − reference| / max |reference| per tensor
const dir = path.join(root, 'tests/fixtures/gpt2-tiny');
const read = (name) => readFileSync(path.join(dir, name));
const files = () => ({
  config: read('config.json').toString('utf8'),
  weights: new Blob([read('model.safetensors')]),
  vocab: read('vocab.json').toString('utf8'),
  merges: read('merges.txt').toString('utf8'),
});
const golden = JSON.parse(read('golden.json').toString('utf8'));

// The tiny fixture widened to `layers` layers of `heads` heads and `positions` positions, its
// layers and position rows repeated (safetensors: 8-byte header length, JSON header, data).
function widened(layers, heads, positions) {
  const bytes = read('model.safetensors');
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8'));
  const data = (t) => bytes.subarray(8 + headerLength + t.data_offsets[0], 8 + headerLength + t.data_offsets[1]);
  const tensors = [];
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const layer = /^h\.(\d+)\.(.*)$/.exec(name);
    if (name === 'wpe.weight') {
      const rows = Buffer.concat(Array.from({ length: positions / t.shape[0] }, () => data(t)));
      tensors.push({ name, shape: [positions, t.shape[1]], bytes: rows });
    } else if (!layer) tensors.push({ name, shape: t.shape, bytes: data(t) });
    else
      for (let l = Number(layer[1]); l < layers; l += 3)
        tensors.push({ name: `h.${l}.${layer[2]}`, shape: t.shape, bytes: data(t) });
  }
  const out = {};
  let offset = 0;
  for (const t of tensors) {
    out[t.name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + t.bytes.length] };
    offset += t.bytes.length;
  }
  const json = Buffer.from(JSON.stringify(out));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  const config = JSON.parse(read('config.json').toString('utf8'));
  Object.assign(config, { n_layer: layers, n_head: heads, n_positions: positions, n_ctx: positions });
  const weights = new Uint8Array(Buffer.concat([length, json, ...tensors.map((t) => t.bytes)]));
  return { config: JSON.stringify(config), weights };
}

const relativeError = (actual, expectedRows) => maxScaledDiff(actual, expectedRows.flat(Infinity));

describe('GPT-2 checkpoints in wasm', () => {
  let engine, model;
  const progress = [];
  before(async () => {
    assert.equal(
      golden.version,
      GOLDEN_VERSION,
      'golden.json has another version: python3 tools/gpt2_reference.py tiny tests/fixtures/gpt2-tiny',
    );
    engine = await loadNodeEngine();
    model = await engine.openGpt2Model(files(), { onProgress: (p) => progress.push(p) });
  });

  test('the weights stream into wasm memory with progress up to the file size', () => {
    const size = read('model.safetensors').length;
    assert.ok(progress.length >= 1);
    assert.deepEqual(progress.at(-1), { loaded: size, total: size });
    assert.equal(model.config.task, 'next-word');
    assert.equal(model.config.architecture, 'gpt2');
    assert.equal(model.config.nLayers, 3);
  });

  for (const [i, prompt] of golden.prompts.entries()) {
    test(`prompt ${i} (${JSON.stringify(prompt.text.slice(0, 24))}): ids, logits and every head's attention match the reference`, () => {
      assert.deepEqual(model.encode(prompt.text).ids, prompt.ids);
      const logitsError = relativeError(model.logits(prompt.text), prompt.logits);
      assert.ok(logitsError <= TOLERANCE, `logits: relative error ${logitsError}`);
      const run = model.analyzePacked(prompt.text);
      let attentionError = 0;
      run.layers.forEach((layer, l) =>
        layer.selfAttention.heads.forEach((head, h) => {
          attentionError = Math.max(attentionError, relativeError(head.weights, prompt.attention[l][h]));
        }),
      );
      assert.ok(attentionError <= TOLERANCE, `attention: relative error ${attentionError}`);
      assert.equal(run.prediction.position, prompt.ids.length - 1); // the next token after the last
    });
  }

  test('layers: [l] keeps that layer exactly as the full trace has it; the others are null', () => {
    for (const prompt of golden.prompts) {
      const full = model.analyzePacked(prompt.text);
      for (let l = 0; l < full.layers.length; l++) {
        const one = model.analyzePacked(prompt.text, { layers: [l] });
        assert.deepEqual(one.tracedLayers, [l]);
        assert.deepEqual(
          one.layers.map((layer) => layer === null),
          full.layers.map((_, i) => i !== l),
        );
        const [a, b] = [one.layers[l], full.layers[l]];
        assert.equal(a.selfAttention.heads.length, 4);
        a.selfAttention.heads.forEach((head, h) => assert.deepEqual(head, b.selfAttention.heads[h], `head ${h}`));
        assert.deepEqual(a.stages, b.stages);
        assert.deepEqual(a.stageNorms, b.stageNorms);
        assert.deepEqual(one.prediction, full.prediction);
      }
    }
  });

  test('the trace budget applies to the layers traced: 600 tokens refused with every layer fit with one', async () => {
    const wide = await engine.openGpt2Model({ ...files(), ...widened(12, 8, 1024) });
    try {
      const sentence = "The animal didn't cross the street. ";
      const text = sentence.repeat(Math.ceil(600 / wide.encode(sentence).ids.length));
      assert.ok(wide.encode(text).ids.length >= 600);
      assert.throws(() => wide.analyzePacked(text, { topK: 1 }), { code: 'too-long', message: /at most \d+ tokens/ });
      const run = wide.analyzePacked(text, { layers: [11], topK: 1 });
      assert.deepEqual(run.tracedLayers, [11]);
      assert.equal(run.layers[11].selfAttention.heads[7].weights.length, run.n * run.n);
    } finally {
      wide.delete();
    }
  });

  test('generation step by step agrees with and without the KV cache', () => {
    const cached = model.generateSteps('The animal', 4, true);
    const full = model.generateSteps('The animal', 4, false);
    assert.deepEqual(cached.ids, full.ids);
    assert.equal(cached.steps.at(-1).rowsNew, 1);
  });

  test('bad files are EngineErrors with code bad-model that name the file, and the module keeps working', async () => {
    const wrongConfig = { ...files(), config: JSON.stringify({ ...JSON.parse(files().config), model_type: 'llama' }) };
    await assert.rejects(engine.openGpt2Model(wrongConfig), {
      code: 'bad-model',
      message: /config\.json: model_type "llama" is not GPT-2/,
    });
    const truncated = { ...files(), weights: new Uint8Array(read('model.safetensors').subarray(0, 1000)) };
    await assert.rejects(engine.openGpt2Model(truncated), { code: 'bad-model', message: /model\.safetensors: / });
    await assert.rejects(engine.openGpt2Model({ ...files(), weights: 'model.safetensors' }), { code: 'bad-option' });
    assert.deepEqual(model.encode(golden.prompts[0].text).ids, golden.prompts[0].ids);
  });

  test("a text over the model's 32 positions is too-long; an empty one empty-input", () => {
    assert.throws(() => model.analyzePacked('word '.repeat(40)), { code: 'too-long' });
    assert.throws(() => model.analyzePacked(''), { code: 'empty-input' });
  });
});
