// `npm run build:single`'s one HTML file (scripts/single.mjs), opened from disk with every
// network request refused: the page runs the lesson pair on its inlined module and models,
// under its own CSP, with no console error.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { app as mainView, expect, test } from './fixtures.mjs';

const FILE = path.resolve('build/single/attention-explorer.html');

test.beforeAll(() => {
  test.setTimeout(120_000);
  execFileSync('node', ['scripts/single.mjs'], { stdio: 'pipe' });
});

test("the single file opened from disk and offline shows the lesson pair's attention", async ({ page, context }) => {
  const requests = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url === pathToFileURL(FILE).href) return route.continue();
    requests.push(url);
    return route.abort('internetdisconnected');
  });
  await page.goto(pathToFileURL(FILE).href);
  const app = mainView(page);
  await expect(app).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(app).toHaveAttribute('data-model', 'coref-encoder');
  await expect(app).toHaveAttribute('data-prediction', 'animal');
  await expect(page.locator('ae-attention-heatmap rect.cell').first()).toBeVisible();
  await page.locator('#swap').click();
  await expect(app).toHaveAttribute('data-prediction', 'street');
  // A lesson panel that loads other models: the word-order pair through the four models.
  await page.locator('#positions').scrollIntoViewIfNeeded();
  await expect(page.locator('ae-positions')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  expect(requests).toEqual([]);
  // Its CSP: no 'unsafe-eval', scripts only by hash and blob:.
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toMatch(/script-src 'sha256-[^']+' blob: 'wasm-unsafe-eval'/);
  expect(csp).not.toContain("'unsafe-eval'");
  expect(csp).not.toContain('unsafe-inline');
});
