// The page's module against the full one (docs/wasm-size.md): the split leaves the kernels' and
// the forward pass's object files as they were, but the page's module is linked from fewer of
// them, and binaryen's -O3 then inlines differently. This times the hot paths in both, in the
// same rounds, in the order rotated each round, and prints medians and the page/full ratio:
// GEMM (the default tile), fused attention, and the lesson sentence's analyzePacked() on the
// coreference encoder.
//
//   node --no-liftoff tools/bench/modules.mjs [--rounds N]
//   node --no-liftoff --experimental-wasm-relaxed-simd tools/bench/modules.mjs   (the relaxed builds)
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { chooseModule, loadEngine, MODULE_FILES } from '../../web/lib/engine.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';
import { describeMachine, machineLine } from './machine.mjs';
import { median, relDiff, timeRound } from './stats.mjs';
import { root } from './runtimes.mjs';

const args = process.argv.slice(2);
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 9;
const machine = describeMachine();
const builds = { page: chooseModule('page'), full: chooseModule('full') };
const load = (b) =>
  loadEngine((x) => ({ wasmBinary: readFileSync(path.join(root, 'web/dist', MODULE_FILES[x].wasm)) }), b);
const model = (engine) => {
  const dir = path.join(root, 'web/models/coref-encoder');
  return engine.loadTrainedModel({
    config: readFileSync(path.join(dir, 'config.json'), 'utf8'),
    weights: new Uint8Array(readFileSync(path.join(dir, 'model.safetensors'))),
    vocab: readFileSync(path.join(dir, 'vocab.txt'), 'utf8'),
  });
};

const entries = {};
const outputs = {};
for (const [kind, build] of Object.entries(builds)) {
  const engine = await load(build);
  const gemm = engine.features.gemm;
  const ws = engine.createKernelWorkspace(2 * 1024 * 64);
  ws.fillRandom(7);
  ws.reserveGemm(256, 256, 256);
  const encoder = model(engine);
  const ops = {
    [`GEMM ${gemm} 256³`]: () => ws.gemm(gemm, 256, 256, 256, false),
    'fused attention n = 1024, d = 64': () => ws.attentionFused(1024, 64, false, 0),
    'lesson sentence, analyzePacked()': () => encoder.analyzePacked(LESSON.tired),
  };
  for (const [name, run] of Object.entries(ops)) {
    run();
    entries[`${name} | ${kind}`] = { op: { run }, times: [] };
  }
  ws.gemm(gemm, 256, 256, 256, false);
  outputs[kind] = {
    gemm: ws.c.slice(0, 256 * 256),
    weights: encoder.analyzePacked(LESSON.tired).layers[2].selfAttention.heads[3].weights,
  };
}
// Both modules compute the same numbers (the same kernels): checked before timing.
for (const key of ['gemm', 'weights'])
  if (relDiff(outputs.page[key], outputs.full[key]) !== 0) throw new Error(`${key}: the modules differ`);

for (let r = 0; r < rounds; r++) await timeRound(entries, r);

console.log(`# The page's module (${builds.page}) vs the full one (${builds.full})`);
console.log();
console.log(machineLine(machine));
console.log(`${rounds} rounds, every case timed once per round for ≥ 25 ms; medians in ms per call.`);
console.log();
console.log("| case | page's module | full module | page / full |");
console.log('| --- | ---: | ---: | ---: |');
const cases = [...new Set(Object.keys(entries).map((k) => k.split(' | ')[0]))];
for (const c of cases) {
  const page = median(entries[`${c} | page`].times),
    full = median(entries[`${c} | full`].times);
  const ratios = entries[`${c} | page`].times.map((t, i) => t / entries[`${c} | full`].times[i]);
  console.log(`| ${c} | ${page.toFixed(3)} | ${full.toFixed(3)} | ${median(ratios).toFixed(2)} (same-round median) |`);
}
