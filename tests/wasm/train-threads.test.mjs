// The trainer on threads in wasm (issue 36): build/wasm/attention-full-mt.cjs, the core and the
// bindings compiled with -pthread (CMakeLists.txt), trains the same bits with 1, 2 and 4 threads
// as the page's single-thread full module does. Each step's examples are shared among the threads
// and every gradient is summed in example order (util/worker_pool.h, util/turns.h), so the number
// of threads must not show in the weights.
//
// Emscripten 3.1.6 runs pthreads from a classic script only: the module is a CommonJS link, run
// in a child Node (`--no-experimental-fetch`, or its loader fetches the .wasm by path) from a
// scratch directory outside this package (whose "type": "module" would make its .worker.js an
// ES module). A request for more threads than the module's prestarted workers is capped, and two
// sessions alive at once share them (util/worker_pool.cpp), so each finishes with the same bits
// instead of waiting forever for a worker that cannot start.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';

import { loadNodeFullEngine, root } from './helpers.mjs';

const SETTINGS = { task: 'coref-encoder', seed: 3, steps: 12 };
const THREADS = [1, 2, 4, 16]; // 16: more than the module's workers (AE_WASM_THREAD_POOL + 1)
const FILES = ['attention-full-mt.cjs', 'attention-full-mt.wasm', 'attention-full-mt.worker.js'];
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// Trains SETTINGS once per thread count in the threaded module; prints one JSON line:
// [{threads, settingsThreads, weights: sha256 of the F32 safetensors}].
const CHILD = `
const { createHash } = require('node:crypto');
const [settings, threads] = JSON.parse(process.argv[2]);
require('./attention-full-mt.cjs')().then((M) => {
  const out = threads.map((n) => {
    const s = new M.TrainingSession({ ...settings, threads: n });
    for (let done = 0; done < settings.steps; ) done = s.step(Math.min(5, settings.steps - done)).step;
    const weights = createHash('sha256').update(Buffer.from(s.exportFiles(false, 'threads').weights)).digest('hex');
    s.delete();
    return { threads: n, weights };
  });
  // Two sessions alive at once, 4 threads each: they share the workers, the second runs on what
  // the first left (none), and both finish with the same bits.
  const [a, b] = [0, 1].map(() => new M.TrainingSession({ ...settings, threads: 4 }));
  for (let done = 0; done < settings.steps; ) {
    done = a.step(1).step;
    b.step(1);
  }
  for (const s of [a, b]) {
    const weights = createHash('sha256').update(Buffer.from(s.exportFiles(false, 'threads').weights)).digest('hex');
    out.push({ threads: 'two sessions', weights });
    s.delete();
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}, (e) => { console.error(String(e)); process.exit(1); });
`;

let single; // the single-thread full module's weights for SETTINGS
before(async () => {
  const engine = await loadNodeFullEngine();
  const session = engine.createTrainingSession(SETTINGS);
  for (let done = 0; done < SETTINGS.steps;) done = session.step(Math.min(5, SETTINGS.steps - done)).step;
  single = sha256(session.exportFiles({ dtype: 'f32', name: 'threads' }).weights);
  session.delete();
});

test('1, 2, 4 and 16 threads, and two sessions at once, train the bits of the single-thread module', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'train-threads-'));
  for (const file of FILES) copyFileSync(path.join(root, 'build/wasm', file), path.join(scratch, file));
  writeFileSync(path.join(scratch, 'child.cjs'), CHILD);
  const run = spawnSync(
    process.execPath,
    ['--no-experimental-fetch', 'child.cjs', JSON.stringify([SETTINGS, THREADS])],
    { cwd: scratch, encoding: 'utf8', timeout: 240_000 },
  );
  assert.equal(run.status, 0, `child: ${run.error ?? ''} ${run.stderr}`);
  const results = JSON.parse(run.stdout.trim().split('\n').at(-1));
  assert.deepEqual(
    results.map((r) => r.threads),
    [...THREADS, 'two sessions', 'two sessions'],
  );
  for (const r of results) assert.equal(r.weights, single, `${r.threads} threads`);
});
