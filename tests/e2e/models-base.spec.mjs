// models-base per element (issue 33, item 8): each <attention-explorer> loads from its own
// models-base, the page's (setModelsBase, else the package's models/) by default. One element
// with a base that has no models shows the error in itself only; the other keeps loading models
// — its first and its next — from the page's base.
import { CSP } from '../../scripts/serve.mjs';
import { expect, test } from './fixtures.mjs';

test.use({ expectedErrors: [/Failed to load resource: the server responded with a status of 404/] });

test("a bad models-base is that element's error; the other element's loads are unaffected", async ({ page }) => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bases</title><link rel="icon" href="data:,">
    <script type="module" src="/components/attention-explorer.mjs"></script></head><body>
    <attention-explorer id="bad" model="coref-encoder" models-base="/no-such-models/"></attention-explorer>
    <attention-explorer id="good" model="coref-encoder"></attention-explorer></body></html>`;
  await page.route('**/bases-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
  );
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto('/bases-test.html');
  const bad = page.locator('#bad');
  const good = page.locator('#good');
  await expect(good.locator('[part="answer"]')).toContainText('animal');
  await expect(bad.locator('[part="error"]')).toHaveText(/the model files were not found on the server/);
  await expect(good.locator('[part="error"]')).toBeHidden();
  // The good element's next model comes from the page's base too.
  await good.evaluate((e) => {
    e.model = 'coref-decoder';
  });
  await expect(good).toHaveAttribute('data-model', 'coref-decoder');
  await expect(good).toHaveAttribute('data-status', 'ready');
  await expect(good.locator('[part="error"]')).toBeHidden();
  expect(requests.filter((p) => p.startsWith('/no-such-models/coref-decoder'))).toEqual([]);
  expect(requests.some((p) => p.startsWith('/models/coref-decoder/'))).toBe(true);
  // The bad one, pointed at a good base, recovers.
  await bad.evaluate((e) => {
    e.modelsBase = '/models/';
  });
  await expect(bad.locator('[part="answer"]')).toContainText('animal');
  await expect(bad.locator('[part="error"]')).toBeHidden();
});
