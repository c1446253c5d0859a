// The default in-page training run, timed as a learner meets it: `npm start`'s page (the dev
// server with its isolation headers) in Debian's Chromium, the training panel's Start pressed with
// every setting left at its default, until the panel says the run is done. Wall time from the
// click; the load average before and after (the machine is shared). Issue 36's target: ≤ 120 s
// on the 2-core machine when quiet. Writes its section of docs/benchmarks.md.
//
//   node tools/bench/train-page.mjs [--runs N] [--web DIR]                (npm run bench:train-page)
// --web: serve another build's web/ folder (with its dist/ built) instead of this tree's, e.g. an
// earlier commit's, for a figure to compare with on the same day: printed, not written to the doc.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

import { CHROMIUM } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import {
  PAGE_RUN_END as END,
  PAGE_RUN_START as START,
  THREADS_END,
  describeMachine,
  loadNow,
  machineLine,
  putSection,
} from './machine.mjs';
import { median, spread, table } from './stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outFile = path.join(root, 'docs/benchmarks.md');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 1;
const webAt = process.argv.indexOf('--web');
const webDir = webAt > 0 ? path.resolve(process.argv[webAt + 1]) : path.join(root, 'web');
const RUN_LIMIT_MS = 15 * 60_000;

// One run in a fresh page: {seconds, steps, threads, task}, read from the panel itself.
async function timedRun(browser, url) {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await page.locator('[data-status="ready"]').first().waitFor({ timeout: 60_000 });
    const panel = page.locator('ae-train');
    await page.locator('#train').scrollIntoViewIfNeeded();
    await panel.locator('button[data-action="start"]').waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForTimeout(1000); // panels that scrolling brought near finish loading
    const task = await panel.locator('select[name="task"]').inputValue();
    const steps = Number(await panel.locator('input[name="steps"]').inputValue());
    const started = Date.now();
    await panel.locator('button[data-action="start"]').click();
    await page.waitForSelector('ae-train[data-state="done"]', { timeout: RUN_LIMIT_MS });
    const seconds = (Date.now() - started) / 1000;
    const threads = Number((await panel.getAttribute('data-threads')) ?? 1);
    return { seconds, steps, threads, task };
  } finally {
    await page.close();
  }
}

const machine = describeMachine();
const { server, url } = await startServer({ root: webDir, port: 0, isolated: true });
const browser = await chromium.launch(CHROMIUM);
const results = [];
try {
  for (let r = 0; r < runs; r++) {
    const before = loadNow();
    const run = await timedRun(browser, url);
    results.push({ ...run, before, after: loadNow() });
    console.error(
      `run ${r + 1}: ${run.task}, ${run.steps} steps on ${run.threads} thread(s): ${run.seconds.toFixed(1)} s ` +
        `(load ${results.at(-1).before} → ${results.at(-1).after})`,
    );
  }
} finally {
  await browser.close();
  server.close();
}

const seconds = results.map((r) => r.seconds);
const s = spread(seconds);
const first = results[0];
const markdown = [
  START,
  '### The default run in the page',
  '',
  `\`npm run bench:train-page\` (tools/bench/train-page.mjs), ${machine.date}, ${runs} run(s); ${machineLine(machine)}.`,
  "npm start's page (isolated) in Chromium, the training panel's Start with every setting at its default, wall time",
  "from the click until the panel says done (building the corpus and the model included). Issue 36's target: ≤ 120 s",
  'on this machine when quiet.',
  '',
  table(
    ['task', 'steps', 'threads', 'run (s)', 'load average before → after'],
    results.map((r) => [r.task, r.steps, r.threads, r.seconds.toFixed(1), `${r.before} → ${r.after}`]),
  ),
  '',
  `Median ${median(seconds).toFixed(1)} s (${s.min.toFixed(1)}–${s.max.toFixed(1)}) for ${first.steps} steps of ${first.task}.`,
  END,
].join('\n');
if (webAt > 0) {
  console.log(markdown);
} else {
  writeFileSync(outFile, putSection(readFileSync(outFile, 'utf8'), START, END, markdown, THREADS_END));
  console.error('wrote the in-page run section of docs/benchmarks.md');
}
