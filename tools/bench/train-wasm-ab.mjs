// The wasm trainer of two builds of the same tree, in turns: for a link flag or an allocator
// (CMakeLists.txt AE_WASM_MALLOC, docs/benchmarks.md "The allocator"). Each build directory is an
// emcmake build (build/wasm, or one configured beside it) with attention-full.wasm and the pthread
// module attention-full-mt.{cjs,wasm,worker.js}. In every round, in an order rotated by the round:
//   - the page's full module (one thread, what the training worker runs where the page is not
//     cross-origin isolated), its .wasm loaded into this tree's glue (web/lib/engine.mjs: the
//     modules differ only inside the .wasm), steps per second of wall time;
//   - the pthread module with 1 and 2 threads (./train-threads-wasm.mjs, a child node).
// Prints a markdown table: medians over the rounds (least–most) and the same-round ratios B ÷ A.
//   node --no-liftoff tools/bench/train-wasm-ab.mjs --a build/wasm-dlmalloc --b build/wasm [--rounds N]
//                                                  [--tasks coref-encoder,coref-decoder,word-order] [--mt-only]
// The full module's .wasm runs in this tree's glue, which fits only a build of the same sources (a
// link flag, an allocator); for builds of different sources, --mt-only leaves its rows out (each
// pthread module runs with its own glue).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { loadEngine } from '../../web/lib/engine.mjs';
import { nodeWasmThreads } from './train-threads-wasm.mjs';
import { describeMachine, machineLine } from './machine.mjs';
import { fmtRange, fmtRatio, ratio, table } from './stats.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const builds = { A: arg('--a'), B: arg('--b') };
const mtOnly = process.argv.includes('--mt-only');
const rounds = Number(arg('--rounds', '5'));
if (!builds.A || !builds.B || !(rounds >= 1)) {
  console.error(
    'usage: node --no-liftoff tools/bench/train-wasm-ab.mjs --a BUILD_DIR --b BUILD_DIR [--rounds N] [--tasks a,b] [--mt-only]',
  );
  process.exit(2);
}
// --tasks a,b: which of these (default: the two coreference recipes).
const ALL_CASES = [
  { name: 'coreference encoder (the recipe)', settings: { task: 'coref-encoder', seed: 1, steps: 2000 }, timed: 60 },
  { name: 'coreference decoder (the recipe)', settings: { task: 'coref-decoder', seed: 1, steps: 2000 }, timed: 60 },
  {
    name: 'word order, RoPE (the recipe)',
    settings: { task: 'word-order', positional: 'rope', seed: 1, steps: 600 },
    timed: 400,
  },
];
const tasks = arg('--tasks', 'coref-encoder,coref-decoder').split(',');
const CASES = ALL_CASES.filter((c) => tasks.includes(c.settings.task));
if (CASES.length !== tasks.length) {
  console.error(`--tasks: give some of ${ALL_CASES.map((c) => c.settings.task).join(', ')}`);
  process.exit(2);
}

// nodeWasmThreads reads a tree's web/dist: a scratch one per build, its glue named as dist names it.
const scratch = mkdtempSync(path.join(tmpdir(), 'train-wasm-ab-'));
const roots = {};
const engines = {};
for (const [key, dir] of Object.entries(builds)) {
  const dist = path.join(scratch, key, 'web/dist');
  mkdirSync(dist, { recursive: true });
  copyFileSync(path.join(dir, 'attention-full-mt.cjs'), path.join(dist, 'attention-full-mt.js'));
  for (const f of ['attention-full-mt.wasm', 'attention-full-mt.worker.js'])
    copyFileSync(path.join(dir, f), path.join(dist, f));
  roots[key] = path.join(scratch, key);
  if (!mtOnly) engines[key] = await fullEngine(key, dir);
}

async function fullEngine(key, dir) {
  try {
    return await loadEngine({ wasmBinary: readFileSync(path.join(dir, 'attention-full.wasm')) }, 'full');
  } catch (error) {
    throw new Error(
      `${key}'s attention-full.wasm does not run in this tree's glue (${error.message}): ` +
        'it fits only a build of the same sources; --mt-only compares the pthread modules alone',
      { cause: error },
    );
  }
}

function oneThread(engine, { settings, timed }) {
  const session = engine.createTrainingSession(settings);
  try {
    session.step(1); // the optimizer's buffers
    const t0 = performance.now();
    session.step(timed - 1);
    return (timed - 1) / ((performance.now() - t0) / 1000);
  } finally {
    session.delete();
  }
}

const machine = describeMachine();
// results[key][case] = {full: [], mt1: [], mt2: []}: steps/s per round
const results = Object.fromEntries(
  Object.keys(builds).map((k) => [k, CASES.map(() => ({ full: [], mt1: [], mt2: [] }))]),
);
if (!mtOnly) for (const k of Object.keys(builds)) CASES.forEach((c) => oneThread(engines[k], c)); // warm-up
try {
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 ? ['B', 'A'] : ['A', 'B']) {
      if (!mtOnly) CASES.forEach((c, i) => results[k][i].full.push(oneThread(engines[k], c)));
      nodeWasmThreads(roots[k], CASES, 1).forEach((t, i) => {
        results[k][i].mt1.push(t[1][0]);
        results[k][i].mt2.push(t[2][0]);
      });
    }
    console.error(`round ${r + 1} of ${rounds} done`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const rows = [];
CASES.forEach((c, i) => {
  const a = results.A[i],
    b = results.B[i];
  if (!mtOnly)
    rows.push([
      `${c.name}, full module, 1 thread`,
      fmtRange(a.full),
      fmtRange(b.full),
      fmtRatio(ratio(b.full, a.full)),
    ]);
  rows.push([`${c.name}, pthread module, 1 thread`, fmtRange(a.mt1), fmtRange(b.mt1), fmtRatio(ratio(b.mt1, a.mt1))]);
  rows.push([`${c.name}, pthread module, 2 threads`, fmtRange(a.mt2), fmtRange(b.mt2), fmtRatio(ratio(b.mt2, a.mt2))]);
  rows.push([
    `${c.name}, pthread module, 2 ÷ 1 threads`,
    fmtRatio(ratio(a.mt2, a.mt1)),
    fmtRatio(ratio(b.mt2, b.mt1)),
    '',
  ]);
});
const flags = `--rounds ${rounds} --tasks ${tasks.join(',')}${mtOnly ? ' --mt-only' : ''}`;
console.log(`node --no-liftoff tools/bench/train-wasm-ab.mjs --a ${builds.A} --b ${builds.B} ${flags}`);
console.log(`${machine.date}, ${rounds} rounds; ${machineLine(machine)}\n`);
console.log(table(['steps per second (wall time), Node', `A: ${builds.A}`, `B: ${builds.B}`, 'B ÷ A'], rows));
