// "Train it yourself" on several cores (issue 36): the dev server sends COOP and COEP
// (scripts/serve.mjs), so the page is cross-origin isolated and <ae-train> starts the threaded
// worker (web/lib/train-worker-threads.js) on the pthread module. Its weights are the bits of the
// single-thread SIMD128 full module's run of the same settings, trained here in Node. Without the
// headers (a host that does not send them), or without the threaded module's files, the panel
// trains on one core instead, with no error shown. The page keeps one core for itself, so it trains
// on threads only with 3 cores or more: each test's page says it has 4 (the workers still run on
// what the machine has; the bits do not depend on it).
import { readFileSync } from 'node:fs';

import { loadEngine } from '../../web/lib/engine.mjs';
import { NOT_FOUND, expect, openPage, test } from './fixtures.mjs';

const STEPS = 12;
const SETTINGS = ['task', 'positional', 'seed', 'steps', 'learningRate', 'heads', 'layers'];
const CORES = 4; // what the pages are told: 3 training threads
const panel = (page) => page.locator('ae-train');

// Starts a short one-layer run and waits for its end; returns the settings the panel sent.
async function trainShortRun(page) {
  await page.locator('#train').scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => navigator.hardwareConcurrency)).toBe(CORES);
  const p = panel(page);
  await p.locator('select[name="task"]').selectOption('coref-encoder');
  await p.locator('select[name="layers"]').selectOption('1');
  await p.locator('input[name="steps"]').fill(String(STEPS));
  const settings = {};
  for (const name of SETTINGS) {
    const value = await p.locator(`[name="${name}"]`).inputValue();
    settings[name] = ['task', 'positional'].includes(name) ? value : Number(value);
  }
  await p.locator('button[data-action="start"]').click();
  await expect(p).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
  await expect(p.locator('.ae-tr-error')).toBeHidden();
  return settings;
}

// The weights file the panel's download link gives.
async function downloadedWeights(page) {
  const link = panel(page).locator('a[data-file="model.safetensors"]');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return readFileSync(await download.path());
}

// The same run in Node, on the single-thread full module of the threaded one's instruction set.
async function singleThreadWeights(settings) {
  const wasmBinary = readFileSync(new URL('../../web/dist/attention-full.wasm', import.meta.url));
  const engine = await loadEngine({ wasmBinary }, 'full');
  const session = engine.createTrainingSession(settings);
  for (let done = 0; done < settings.steps;) done = session.step(settings.steps - done).step;
  const { weights } = session.exportFiles({ dtype: 'f16', name: 'trained-here' });
  session.delete();
  return Buffer.from(weights);
}

test.beforeEach(({ page }) =>
  page.addInitScript(
    (cores) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => cores }),
    CORES,
  ),
);

test('an isolated page trains on several cores, with the single-thread module’s bits', async ({ page }) => {
  test.setTimeout(120_000);
  await openPage(page);
  expect(await page.evaluate(() => self.crossOriginIsolated), 'the dev server isolates the page').toBe(true);
  const settings = await trainShortRun(page);
  await expect(panel(page)).toHaveAttribute('data-threads', String(CORES - 1));
  const weights = await downloadedWeights(page);
  expect(weights.equals(await singleThreadWeights(settings)), 'the same bytes as one thread').toBe(true);
});

test.describe('one core where threads cannot run', () => {
  test('a page served without COOP and COEP is not isolated and trains on one core', async ({ page }) => {
    test.setTimeout(120_000);
    await page.route('**/*', async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    await openPage(page);
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(false);
    await trainShortRun(page);
    await expect(panel(page)).toHaveAttribute('data-threads', '1');
  });

  test.describe(() => {
    test.use({ expectedErrors: [NOT_FOUND] });
    test('an isolated page whose threaded module is missing falls back to one core, without an error', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const warnings = [];
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
      await page.route('**/dist/attention-full-mt.js', (route) => route.fulfill({ status: 404, body: 'Not Found' }));
      await openPage(page);
      await trainShortRun(page);
      await expect(panel(page)).toHaveAttribute('data-threads', '1');
      expect(warnings.join('\n')).toContain('training on one core');
    });
  });
});
