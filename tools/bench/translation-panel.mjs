// The translation panel's first open (issue 35: "page figures, bytes and first-open time of the
// panel"), in headless Chromium against the local server (scripts/serve.mjs, which gzips what it
// sends), N runs each in a fresh browser context (empty cache): the page loads, scrolls to the
// panel (which fetches nothing), then Translate is pressed; measured from the press to the panel's
// data-state="ready" (the translation drawn), and the bytes transferred in between (encoded sizes
// from the network layer), per file. Prints a Markdown paragraph for docs/benchmarks.md.
//
//   node tools/bench/translation-panel.mjs [--runs N]
import { chromium } from '@playwright/test';
import path from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM } from '../../scripts/chromium.mjs';
import { median } from './stats.mjs';
import { root } from './runtimes.mjs';

const args = process.argv.slice(2);
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 5;

const { server, url } = await startServer({ root: path.join(root, 'web'), port: 0 });
const browser = await chromium.launch(CHROMIUM);
const times = [];
let files = null;
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const sizes = new Map(); // requestId → {url, bytes}
    let counting = false;
    cdp.on('Network.responseReceived', (e) => counting && sizes.set(e.requestId, { url: e.response.url, bytes: 0 }));
    cdp.on('Network.loadingFinished', (e) => {
      if (sizes.has(e.requestId)) sizes.get(e.requestId).bytes = e.encodedDataLength;
    });
    await page.goto(url);
    await page.locator('#result[data-status="ready"]').waitFor({ timeout: 60_000 });
    await page.locator('#translation').scrollIntoViewIfNeeded();
    await page.locator('ae-translation[data-state="idle"]').waitFor();
    await page.waitForLoadState('networkidle');
    counting = true;
    const button = page.locator('ae-translation').getByRole('button', { name: 'Translate', exact: true });
    const t0 = await page.evaluate(() => performance.now());
    await button.click();
    await page.locator('ae-translation[data-state="ready"]').waitFor({ timeout: 120_000 });
    const t1 = await page.evaluate(() => performance.now());
    await page.waitForLoadState('networkidle');
    times.push(t1 - t0);
    files = [...sizes.values()]
      .map((f) => ({ file: new URL(f.url).pathname, bytes: f.bytes }))
      .filter((f) => /^\/(dist|models)\//.test(f.file)); // not a favicon the browser asks for meanwhile
    console.error(`run ${run + 1}: ${(t1 - t0).toFixed(0)} ms`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
const total = files.reduce((a, f) => a + f.bytes, 0);
console.log(
  `Translation panel, first open (Translate pressed; ${runs} runs, fresh contexts): ${median(times).toFixed(0)} ms median ` +
    `(${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)}), ${total.toLocaleString('en')} bytes transferred:`,
);
for (const f of files.sort((a, b) => b.bytes - a.bytes)) console.log(`- ${f.file}: ${f.bytes.toLocaleString('en')}`);
