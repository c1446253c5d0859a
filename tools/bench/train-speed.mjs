// "Train it yourself": training steps per second of the page's TrainingSession in wasm (Node,
// one thread, what the worker runs) next to the same session native (build/native/train_here),
// measured in the same run, the two taking turns in each round so that a busy moment of the
// shared machine slows both. Only step() is timed (not building the corpus and the model), in
// processor time (std::clock natively, process.cpuUsage() in Node): on the shared 2-core machine
// wall time mostly measures the other work. Both are single-threaded.
// Writes its section of docs/benchmarks.md (between TRAIN_START and TRAIN_END of machine.mjs).
//
//   node --no-liftoff tools/bench/train-speed.mjs [--rounds N]      (npm run bench:train)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../../web/lib/engine.mjs';
import { TRAIN_END, TRAIN_START, describeMachine, machineLine, section } from './machine.mjs';
import { median, table } from './stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outFile = path.join(root, 'docs/benchmarks.md');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
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

function native({ settings, timed }) {
  const argv = Object.entries(settings).flatMap(([k, v]) => [`--${k}`, String(v)]);
  const r = JSON.parse(execFileSync(path.join(root, 'build/native/train_here'), [...argv, '--run', String(timed)]));
  return r.steps_per_cpu_second;
}

function wasm(engine, { settings, timed }) {
  const session = engine.createTrainingSession(settings);
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
const engine = await loadEngine({ wasmBinary: readFileSync(path.join(root, 'web/dist/attention-full.wasm')) }, 'full');
const rows = [];
for (const c of CASES) {
  const n = [],
    w = [];
  for (let r = 0; r < rounds; r++) {
    n.push(native(c));
    w.push(wasm(engine, c));
    log(
      `${c.settings.task} round ${r + 1}: native ${n.at(-1).toFixed(1)}, wasm ${w.at(-1).toFixed(1)} steps per CPU-second`,
    );
  }
  const [mn, mw] = [median(n), median(w)];
  rows.push([
    c.name,
    mn.toFixed(1),
    mw.toFixed(1),
    `${(mn / mw).toFixed(2)}×`,
    `${(c.settings.steps / mn).toFixed(0)} s / ${(c.settings.steps / mw).toFixed(0)} s`,
  ]);
}

const out = [
  TRAIN_START,
  '## Training in the page ("Train it yourself")',
  '',
  `\`npm run bench:train\` (tools/bench/train-speed.mjs), ${machine.date}, ${rounds} rounds, medians; ${machineLine(machine)}.`,
  `Node ${machine.node}, one thread, \`--no-liftoff\`. The same TrainingSession (src/train/session.h) runs natively`,
  "(build/native/train_here) and in wasm (what the page's worker runs), taking turns in every round; only `step()` is timed,",
  'in processor time (std::clock, process.cpuUsage()), so the figures are steps per CPU-second of one core.',
  '',
  table(['task', 'native steps/CPU-s', 'wasm steps/CPU-s', 'native ÷ wasm', 'whole run native / wasm (CPU)'], rows),
  '',
  'The issue\'s target is at most 1.5× native time in the page; "native ÷ wasm" is that factor for one core.',
  TRAIN_END,
].join('\n');
console.log(out);
const existing = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const old = section(existing, TRAIN_START, TRAIN_END);
writeFileSync(outFile, old ? existing.replace(old, out) : `${existing.trimEnd()}\n\n${out}\n`);
log(`wrote the training section of ${path.relative(root, outFile)}`);
