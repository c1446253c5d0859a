// The trainer on 1 and 2 threads in wasm, for tools/bench/train-speed.mjs: the pthread module
// (web/dist/attention-full-mt.*, CMakeLists.txt attention_full_mt) in Node and in Chromium.
//   - Node: a child `node --no-experimental-fetch` runs the module (a classic script) from a
//     scratch directory, as tests/wasm/train-threads.test.mjs does, and times step() in wall time.
//   - Chromium: the page's own threaded training worker (web/lib/train-worker-threads.js) on an
//     isolated server (scripts/serve.mjs, COOP + COEP), asked for 1 or 2 threads; its steps/s is the
//     runner's (steps ÷ the wall time of step(): web/lib/train-runner.mjs).
// Each returns, per case, {1: [steps/s per round], 2: [...]}: the two thread counts take turns in
// every round (the order rotated by the round), after one warm-up run per case (tier-up).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

import { CHROMIUM } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

const FILES = ['attention-full-mt.js', 'attention-full-mt.wasm', 'attention-full-mt.worker.js'];
const THREADS = [1, 2];

// The child: cases and rounds in argv, one JSON line out.
const CHILD = `
const [cases, rounds, threads] = JSON.parse(process.argv[2]);
require('./attention-full-mt.cjs')().then((M) => {
  const rate = ({ settings, timed }, n) => {
    const s = new M.TrainingSession({ ...settings, threads: n });
    s.step(1); // the optimizer's buffers
    const t0 = process.hrtime.bigint();
    s.step(timed - 1);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    s.delete();
    return (1000 * (timed - 1)) / ms;
  };
  const out = cases.map((c) => {
    rate(c, 1); // warm-up
    const r = Object.fromEntries(threads.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++)
      for (let i = 0; i < threads.length; i++) {
        const n = threads[(i + round) % threads.length];
        r[n].push(rate(c, n));
      }
    return r;
  });
  console.log(JSON.stringify(out));
  process.exit(0);
}, (e) => { console.error(String(e)); process.exit(1); });
`;

export function nodeWasmThreads(root, cases, rounds) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'bench-threads-'));
  try {
    for (const file of FILES)
      copyFileSync(path.join(root, 'web/dist', file), path.join(scratch, file.replace(/-mt\.js$/, '-mt.cjs')));
    writeFileSync(path.join(scratch, 'child.cjs'), CHILD);
    const run = spawnSync(
      process.execPath,
      ['--no-experimental-fetch', '--no-liftoff', 'child.cjs', JSON.stringify([cases, rounds, THREADS])],
      { cwd: scratch, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`the threaded module in Node failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split('\n').at(-1));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// In the page: the threaded worker, one run per call; resolves to the last progress's steps/s.
function pageRuns(cases, rounds, threads) {
  const run = (worker, settings) =>
    new Promise((resolve, reject) => {
      let last = null;
      worker.onmessage = ({ data }) => {
        if (data.type === 'progress') last = data;
        else if (data.type === 'error') reject(new Error(data.message));
        else if (data.type === 'done') resolve(last.stepsPerSecond);
      };
      worker.postMessage({ type: 'start', settings, snapshots: 1 });
    });
  return (async () => {
    const worker = new globalThis.Worker('/lib/train-worker-threads.js');
    const out = [];
    for (const { settings, timed } of cases) {
      const steps = { ...settings, steps: timed };
      await run(worker, { ...steps, threads: 1 }); // warm-up
      const r = Object.fromEntries(threads.map((n) => [n, []]));
      for (let round = 0; round < rounds; round++)
        for (let i = 0; i < threads.length; i++) {
          const n = threads[(i + round) % threads.length];
          r[n].push(await run(worker, { ...steps, threads: n }));
        }
      out.push(r);
    }
    worker.terminate();
    return out;
  })();
}

export async function chromiumWasmThreads(root, cases, rounds) {
  const { server, url } = await startServer({ root: path.join(root, 'web'), port: 0, isolated: true });
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    await page.goto(`${url}favicon.svg`);
    if (!(await page.evaluate(() => globalThis.crossOriginIsolated))) throw new Error('the bench page is not isolated');
    return await page.evaluate(`(${pageRuns})(${JSON.stringify(cases)}, ${rounds}, ${JSON.stringify(THREADS)})`);
  } finally {
    await browser.close();
    server.close();
  }
}
