// "Train it yourself": training steps per second of the page's TrainingSession in wasm (Node,
// one thread, what the worker runs) and natively (build/native/train_here), each with batched
// rows (the trainer's default: one product per linear and batch) and with the per-example loop
// it replaced (TrainOptions::batched_rows = false: `perExample` in wasm, --per-example natively;
// the same bits), all four measured in every round, in an order rotated by the round, so that a
// busy moment of the shared machine slows each. Only step() is timed (not building the corpus
// and the model), in processor time (std::clock natively, process.cpuUsage() in Node): on the
// shared 2-core machine wall time mostly measures the other work. All are single-threaded.
// Threads (TrainOptions::threads, the same bits for any number): natively, train_here with
// --threads 1 and --threads 2 in the same rounds, timed in wall time (processor time would add
// the threads up) — so they are only meaningful on a quiet machine; the load average is printed.
// In wasm, the pthread module (web/dist/attention-full-mt.*) with 1 and 2 threads, in Node and in
// Chromium (./train-threads-wasm.mjs), also in wall time, in rounds of their own.
// Writes its sections of docs/benchmarks.md (between TRAIN_START and TRAIN_END of machine.mjs,
// and between its THREADS_START and THREADS_END).
//
//   node --no-liftoff tools/bench/train-speed.mjs [--rounds N] [--native-only] [--threads-only]
//                                                 [--baseline WEB_DIR]           (npm run bench:train)
// --baseline: also the wasm trainer of another build, in the same rounds: WEB_DIR is that build's
// web/ folder (its lib/ and its built dist/attention-full.*), e.g. `git worktree add` of an earlier
// commit after its `npm run build`. Its column and the ratio to it are "–" without one.
// --native-only leaves wasm out (its columns read "–"): for a tree whose wasm module is not built.
// --threads-only measures (and writes) only the threads table.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { loadEngine } from '../../web/lib/engine.mjs';
import { chromiumWasmThreads, nodeWasmThreads } from './train-threads-wasm.mjs';
import {
  THREADS_END,
  THREADS_START,
  TRAIN_END,
  TRAIN_START,
  describeMachine,
  loadNow,
  machineLine,
  putSection,
} from './machine.mjs';
import { fmtRange, fmtRatio, median, ratio, table } from './stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outFile = path.join(root, 'docs/benchmarks.md');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const threadsOnly = process.argv.includes('--threads-only');
const wasmLeftOut = process.argv.includes('--native-only');
const nativeOnly = threadsOnly || wasmLeftOut; // the single-thread wasm columns
const log = (...a) => console.error(...a);
const baselineAt = process.argv.indexOf('--baseline');
const baselineDir = baselineAt > 0 ? path.resolve(process.argv[baselineAt + 1]) : null;

// The shipped recipes' settings; `timed` steps of the full schedule are run and timed.
const CASES = [
  {
    name: 'coreference encoder (d 64, 3 layers × 4 heads, batch 64: the recipe)',
    settings: { task: 'coref-encoder', seed: 1, steps: 2000 },
    timed: 20,
  },
  { name: 'coreference decoder (the recipe)', settings: { task: 'coref-decoder', seed: 1, steps: 2000 }, timed: 20 },
  {
    name: 'word order, RoPE (d 32, 2 layers × 2 heads, batch 32)',
    settings: { task: 'word-order', positional: 'rope', seed: 1, steps: 600 },
    timed: 200,
  },
];

// train_here's steps per CPU-second, and per second of wall time in `wall` (by thread count).
function native({ settings, timed }, perExample, threads = 1, wall = null) {
  const argv = Object.entries(settings).flatMap(([k, v]) => [`--${k}`, String(v)]);
  if (perExample) argv.push('--per-example');
  argv.push('--threads', String(threads));
  const r = JSON.parse(execFileSync(path.join(root, 'build/native/train_here'), [...argv, '--run', String(timed)]));
  wall?.[threads]?.push(r.steps_per_second);
  return r.steps_per_cpu_second;
}

function wasm(engine, { settings, timed }, perExample) {
  const session = engine.createTrainingSession({ ...settings, perExample });
  try {
    session.step(1); // warm-up: the first step allocates the optimizer's buffers
    const t0 = process.cpuUsage();
    session.step(timed - 1);
    const { user, system } = process.cpuUsage(t0);
    return (timed - 1) / ((user + system) / 1e6);
  } finally {
    session.delete();
  }
}

const machine = describeMachine();
// The full module: the page's plus the trainer, which the page's worker runs.
const engine = nativeOnly
  ? null
  : await loadEngine({ wasmBinary: readFileSync(path.join(root, 'web/dist/attention-full.wasm')) }, 'full');
// Another build's trainer (--baseline), loaded from its own lib/ and dist/.
async function loadBaseline(dir) {
  const { loadEngine: loadOther } = await import(pathToFileURL(path.join(dir, 'lib/engine.mjs')).href);
  return loadOther({ wasmBinary: readFileSync(path.join(dir, 'dist/attention-full.wasm')) }, 'full');
}
const baseline = baselineDir && !nativeOnly ? await loadBaseline(baselineDir) : null;
const rows = [],
  threadRows = [];
for (const c of CASES) {
  const wall = { 1: [], 2: [] };
  const runs = [
    ['native batched', () => native(c, false, 1, wall)],
    ['native per-example', () => native(c, true)],
    ['wasm batched', () => wasm(engine, c, false)],
    ['wasm per-example', () => wasm(engine, c, true)],
    ['wasm baseline', () => wasm(baseline, c, false)],
    ['native 2 threads', () => (native(c, false, 2, wall), wall[2].at(-1))],
  ]
    .filter(([name]) => !nativeOnly || name.startsWith('native'))
    .filter(([name]) => baseline || name !== 'wasm baseline')
    .filter(([name]) => !threadsOnly || name !== 'native per-example');
  const times = { 'native per-example': [], 'wasm batched': [], 'wasm per-example': [], 'wasm baseline': [] };
  for (const [name] of runs) times[name] = [];
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < runs.length; i++) {
      const [name, run] = runs[(i + r) % runs.length];
      times[name].push(run());
    }
    log(
      `${c.settings.task} round ${r + 1}: ${runs.map(([name]) => `${name} ${times[name].at(-1).toFixed(1)}`).join(', ')}; ` +
        `wall 1 thread ${wall[1].at(-1).toFixed(1)}, 2 threads ${wall[2].at(-1).toFixed(1)}; load ${loadNow()}`,
    );
  }
  threadRows.push([
    c.name,
    fmtRange(wall[1]),
    fmtRange(wall[2]),
    fmtRatio(ratio(wall[2], wall[1])),
    `${(c.settings.steps / median(wall[1])).toFixed(0)} s / ${(c.settings.steps / median(wall[2])).toFixed(0)} s`,
  ]);
  const nb = times['native batched'],
    np = times['native per-example'],
    wb = times['wasm batched'],
    wp = times['wasm per-example'],
    wo = times['wasm baseline'];
  rows.push([
    c.name,
    fmtRange(nb),
    fmtRange(np),
    fmtRatio(ratio(nb, np)),
    fmtRange(wb),
    fmtRange(wp),
    fmtRatio(ratio(wb, wp)),
    fmtRange(wo),
    fmtRatio(ratio(wb, wo)),
    `${(c.settings.steps / median(nb)).toFixed(0)} s / ${wb.length ? (c.settings.steps / median(wb)).toFixed(0) : '–'} s`,
  ]);
}

// The pthread module's rows: 1 and 2 threads in Node, then in Chromium.
const threadedBuilt = existsSync(path.join(root, 'web/dist/attention-full-mt.js'));
if (!wasmLeftOut && !threadedBuilt) log('web/dist/attention-full-mt.js is not built: no wasm thread columns');
const wasmThreads = { node: null, chromium: null };
if (!wasmLeftOut && threadedBuilt) {
  log('wasm threads in Node…');
  wasmThreads.node = nodeWasmThreads(root, CASES, rounds);
  log('wasm threads in Chromium…');
  wasmThreads.chromium = await chromiumWasmThreads(root, CASES, rounds);
}
const threadColumns = (r) => (r ? [fmtRange(r[1]), fmtRange(r[2]), fmtRatio(ratio(r[2], r[1]))] : ['–', '–', '–']);
threadRows.forEach((row, i) =>
  row.splice(4, 0, ...threadColumns(wasmThreads.node?.[i]), ...threadColumns(wasmThreads.chromium?.[i])),
);

const out = [
  TRAIN_START,
  '## Training in the page ("Train it yourself")',
  '',
  `\`npm run bench:train\` (tools/bench/train-speed.mjs), ${machine.date}, ${rounds} rounds; ${machineLine(machine)}.`,
  `Node ${machine.node}, one thread, \`--no-liftoff\`. The same TrainingSession (src/train/session.h) runs natively`,
  "(build/native/train_here) and in wasm (what the page's worker runs), each with batched rows (the trainer's default) and",
  'with the per-example loop it replaced (the same bits); the four take turns in every round, in an order rotated by the',
  'round. Only `step()` is timed, in processor time (std::clock, process.cpuUsage()), so the figures are steps per',
  'CPU-second of one core: medians over the rounds (least–most), and the same-round ratios batched ÷ per-example',
  '(median, least–most).',
  '',
  table(
    [
      'task',
      'native batched',
      'native per-example',
      'native batched ÷ per-example',
      'wasm batched',
      'wasm per-example',
      'wasm batched ÷ per-example',
      'wasm baseline build',
      'wasm batched ÷ baseline',
      'whole run batched native / wasm (CPU)',
    ],
    rows,
  ),
  '',
  "Issue 36's target for batched rows: ≥ 1.5× one-thread steps/s against the trainer before them. In wasm the",
  "products of training run on the project's SIMD128 tiles (ops/matmul.h; Eigen has no wasm SIMD), in both loops, so",
  'the baseline column is the wasm trainer of another build, in the same rounds' +
    (baselineDir
      ? ` (\`--baseline ${path.relative(root, baselineDir) || '.'}\`).`
      : ': none was given (`--baseline WEB_DIR`).'),
  TRAIN_END,
].join('\n');
const threadsOut = [
  THREADS_START,
  '### Training on two threads',
  '',
  `\`node --no-liftoff tools/bench/train-speed.mjs${threadsOnly ? ' --threads-only' : ''}\`, ${machine.date}, ${rounds} rounds; ` +
    `${machineLine(machine)}.`,
  'Natively (build/native/train_here), the trainer with `--threads 1` (its default: batched rows) and `--threads 2`',
  "(TrainOptions::threads: each step's examples on a pool of threads, every gradient summed in example order, so the",
  'same bits), taking turns in every round. In wasm, the module compiled with pthreads (attention-full-mt) asked for',
  "1 and 2 threads, in Node (a child `node --no-liftoff`) and in Chromium (the page's threaded training worker on a",
  'cross-origin isolated server), in rounds of their own after a warm-up run. Steps per second of **wall time**',
  '(processor time would add the threads up): medians over the rounds (least–most), and the same-round ratio',
  '2 threads ÷ 1 (median, least–most). Wall time counts every other process on the 2 cores: compare the load average.',
  '',
  table(
    [
      'task',
      'native 1 thread',
      'native 2 threads',
      'native 2 ÷ 1',
      'Node wasm 1',
      'Node wasm 2',
      'Node wasm 2 ÷ 1',
      'Chromium wasm 1',
      'Chromium wasm 2',
      'Chromium wasm 2 ÷ 1',
      'whole run native 1 / 2 threads',
    ],
    threadRows,
  ),
  '',
  "Issue 36's target: ≥ 1.7× with 2 threads on this 2-core machine when quiet.",
  THREADS_END,
].join('\n');
console.log(threadsOut);
let existing = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
if (!threadsOnly) {
  console.log(out);
  existing = putSection(existing, TRAIN_START, TRAIN_END, out);
}
existing = putSection(existing, THREADS_START, THREADS_END, threadsOut, TRAIN_END);
writeFileSync(outFile, existing);
log(`wrote the training sections of ${path.relative(root, outFile)}`);
