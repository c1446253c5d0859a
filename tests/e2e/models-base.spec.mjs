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

// The same for lesson panels on their own (no <attention-explorer>): a panel's models-base is its
// own; a bad one — no URL, or a directory without the model — is that panel's load error, and the
// panel beside it, on the page's base, loads. Fails if the panels load from the page's base only.
test("a lesson panel's own models-base: a bad one is its error only", async ({ page }) => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>panel bases</title><link rel="icon" href="data:,">
    <script type="module" src="/components/causal-mask.mjs"></script></head><body>
    <ae-causal-mask id="no-url" models-base="http://[::1"></ae-causal-mask>
    <ae-causal-mask id="missing" models-base="/no-such-models/"></ae-causal-mask>
    <ae-causal-mask id="own" models-base="/models/"></ae-causal-mask>
    <ae-causal-mask id="page"></ae-causal-mask></body></html>`;
  await page.route('**/panel-bases-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
  );
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto('/panel-bases-test.html');
  for (const id of ['no-url', 'missing', 'own', 'page']) await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await expect(page.locator('#own')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#page')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#no-url')).toHaveAttribute('data-state', 'error');
  await expect(page.locator('#no-url').locator('.error').first()).toContainText('models-base: url must be a URL');
  await expect(page.locator('#missing')).toHaveAttribute('data-state', 'error');
  await expect(page.locator('#missing').locator('.error').first()).toContainText('could not be loaded');
  expect(requests.some((p) => p.startsWith('/no-such-models/coref-decoder/'))).toBe(true);
  // The bad one, given a good base, loads on its next try (the panel retries when asked again).
  await page.locator('#missing').evaluate((e) => {
    e.modelsBase = '/models/';
    return e.load();
  });
  await expect(page.locator('#missing')).toHaveAttribute('data-state', 'ready');
});
