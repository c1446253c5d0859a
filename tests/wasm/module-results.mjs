// Prints, as JSON, key results of one build of the module (argv[2]: 'relaxed' | 'simd128'):
// the engine's features, the shipped models on the lesson pair (prediction and every head's
// weights), the decoder's completions, a random model's trace, and the default GEMM and fused
// attention on seeded data. tests/wasm/modules.test.mjs compares the two builds' outputs.
// Run with --experimental-wasm-relaxed-simd for the relaxed build (Node 20).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { loadNodeEngine, root } from './helpers.mjs';

const LESSON = [
  "The animal didn't cross the street because it was too tired.",
  "The animal didn't cross the street because it was too wide.",
];
const files = (name) => {
  const dir = path.join(root, 'web/models', name);
  return {
    config: readFileSync(path.join(dir, 'config.json'), 'utf8'),
    weights: new Uint8Array(readFileSync(path.join(dir, 'model.safetensors'))),
    vocab: readFileSync(path.join(dir, 'vocab.txt'), 'utf8'),
  };
};
const heads = (run) => run.layers.map((layer) => layer.selfAttention.heads.map((h) => Array.from(h.weights)));

const engine = await loadNodeEngine(process.argv[2]);
const out = { features: engine.features, lesson: {}, generate: [], random: null, gemm: {}, attention: {} };

const encoder = engine.loadTrainedModel(files('coref-encoder'));
for (const text of LESSON) {
  const run = encoder.analyze(text);
  out.lesson[text] = { prediction: run.prediction, heads: heads(run) };
}
encoder.delete();
const decoder = engine.loadTrainedModel(files('coref-decoder'));
for (const text of LESSON) out.generate.push(decoder.generate(text.toLowerCase().replace(/\.$/, ' .'), 4));
decoder.delete();

const random = engine.createRandomModel({ dModel: 32, nHeads: 4, nLayers: 2, positional: 'rope', seed: 1 });
out.random = heads(random.run(LESSON[0], { causal: false }));
random.delete();

const ws = engine.createKernelWorkspace(2 * 512 * 64);
for (const n of [64, 256]) {
  ws.fillRandom(n);
  ws.gemm(engine.features.gemm, n, n, n, false);
  out.gemm[n] = Array.from(ws.c.subarray(0, n * n));
}
for (const [n, causal] of [
  [512, false],
  [300, true],
]) {
  ws.fillRandom(n);
  ws.attentionFused(n, 64, causal, 0);
  out.attention[`${n}${causal ? ' causal' : ''}`] = Array.from(ws.c.subarray(0, n * 64));
}
ws.delete();
process.stdout.write(JSON.stringify(out));
