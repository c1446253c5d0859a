// "Train it yourself": training steps per second of the page's TrainingSession in wasm (Node,
// one thread, what the worker runs) and natively (build/native/train_here), each with batched
// rows (the trainer's default: one product per linear and batch) and with the per-example loop
// it replaced (TrainOptions::batched_rows = false: `perExample` in wasm, --per-example natively;
// the same bits), all four measured in every round, in an order rotated by the round, so that a
// busy moment of the shared machine slows each. Only step() is timed (not building the corpus
// and the model), in processor time (std::clock natively, process.cpuUsage() in Node): on the
// shared 2-core machine wall time mostly measures the other work. All are single-threaded.
// Writes its section of docs/benchmarks.md (between TRAIN_START and TRAIN_END of machine.mjs).
//
//   node --no-liftoff tools/bench/train-speed.mjs [--rounds N] [--native-only]    (npm run bench:train)
// --native-only leaves wasm out (its columns read "–"): for a tree whose wasm module is not built.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../../web/lib/engine.mjs';
import { TRAIN_END, TRAIN_START, describeMachine, machineLine, section } from './machine.mjs';
import { fmtRatio, median, ratio, spread, table } from './stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outFile = path.join(root, 'docs/benchmarks.md');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const nativeOnly = process.argv.includes('--native-only');
const log = (...a) => console.error(...a);

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

function native({ settings, timed }, perExample) {
  const argv = Object.entries(settings).flatMap(([k, v]) => [`--${k}`, String(v)]);
  if (perExample) argv.push('--per-example');
  const r = JSON.parse(execFileSync(path.join(root, 'build/native/train_here'), [...argv, '--run', String(timed)]));
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
const rows = [];
const range = (xs) => {
  if (xs.length === 0) return '–';
  const s = spread(xs);
  return `${median(xs).toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
};
for (const c of CASES) {
  const runs = [
    ['native batched', () => native(c, false)],
    ['native per-example', () => native(c, true)],
    ['wasm batched', () => wasm(engine, c, false)],
    ['wasm per-example', () => wasm(engine, c, true)],
  ].filter(([name]) => !nativeOnly || name.startsWith('native'));
  const times = { 'wasm batched': [], 'wasm per-example': [] };
  for (const [name] of runs) times[name] = [];
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < runs.length; i++) {
      const [name, run] = runs[(i + r) % runs.length];
      times[name].push(run());
    }
    log(
      `${c.settings.task} round ${r + 1}: ${runs.map(([name]) => `${name} ${times[name].at(-1).toFixed(1)}`).join(', ')}`,
    );
  }
  const nb = times['native batched'],
    np = times['native per-example'],
    wb = times['wasm batched'],
    wp = times['wasm per-example'];
  rows.push([
    c.name,
    range(nb),
    range(np),
    fmtRatio(ratio(nb, np)),
    range(wb),
    range(wp),
    fmtRatio(ratio(wb, wp)),
    `${(c.settings.steps / median(nb)).toFixed(0)} s / ${wb.length ? (c.settings.steps / median(wb)).toFixed(0) : '–'} s`,
  ]);
}

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
      'whole run batched native / wasm (CPU)',
    ],
    rows,
  ),
  '',
  "Issue 36's target for batched rows: ≥ 1.5× one-thread steps/s against the per-example trainer. In wasm every",
  "dL/dx product stays per example (Eigen's, whose sums depend on the number of rows: ops/matmul.h), so only the",
  'forward products are batched there.',
  TRAIN_END,
].join('\n');
console.log(out);
const existing = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const old = section(existing, TRAIN_START, TRAIN_END);
writeFileSync(outFile, old ? existing.replace(old, out) : `${existing.trimEnd()}\n\n${out}\n`);
log(`wrote the training section of ${path.relative(root, outFile)}`);
