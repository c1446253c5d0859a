// Loading on a slow link (issue 11 item 5): until the trained model has arrived the page says it
// is loading, with the bytes received so far, and never describes a model it is not showing
// (it used to say "Untrained model … weights are random" for seconds).
import { alert, app, expect, test } from './fixtures.mjs';

test('a slow model download shows its progress, never the untrained model', async ({ page }) => {
  const messages = await (async () => {
    await page.goto('/?model=untrained');
    return page.evaluate(async () => (await import('/i18n.mjs')).messages.en);
  })();
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await page.route('**/models/coref-encoder/model.safetensors', async (route) => {
    const response = await route.fetch();
    await held; // the weights arrive only when the test says so
    await route.fulfill({ response });
  });
  await page.goto('/');
  await expect(page.locator('#status')).toContainText('Loading');
  await expect(app(page)).not.toHaveAttribute('data-status', 'ready');
  await page.waitForTimeout(1500); // the engine and the small files are here; the weights are not
  await expect(page.locator('#banner-title')).not.toHaveText(messages.bannerTitle);
  await expect(page.locator('#banner-text')).not.toContainText('random');
  release();
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('#banner-title')).toHaveText(messages.bannerTrainedTitle);
  await expect(page.locator('#status')).toBeHidden();
});

test('the model download reports its bytes', async ({ page }) => {
  await page.goto('/?model=untrained');
  const progress = await page.evaluate(async () => {
    const { loadEngine } = await import('/lib/engine.mjs');
    const engine = await loadEngine();
    const seen = [];
    const model = await engine.fetchTrainedModel('/models/word-order-rope/', fetch, {
      onProgress: (p) => seen.push(p),
    });
    model.delete();
    return seen;
  });
  expect(progress.length).toBeGreaterThan(0);
  const last = progress.at(-1);
  expect(last.loaded).toBeGreaterThan(1000);
  if (last.total !== null) expect(last.loaded).toBe(last.total);
  for (let i = 1; i < progress.length; i++) expect(progress[i].loaded).toBeGreaterThanOrEqual(progress[i - 1].loaded);
});

// The model's files download beside the wasm, not once the engine is ready (the wasm is held
// back here, so only an early request can be seen).
test('the model downloads while the engine is still arriving', async ({ page }) => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.route(/\/dist\/attention(-relaxed)?\.wasm$/, async (route) => {
    await held; // the engine cannot start until the test says so
    await route.continue();
  });
  await page.goto('/');
  await expect.poll(() => requested).toContain('/models/coref-encoder/model.safetensors');
  await expect(app(page)).toHaveAttribute('data-status', 'loading');
  release();
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
});

test.describe('a wasm file the server cannot send', () => {
  test.use({ expectedErrors: [/Failed to load resource.*404/] });
  test('is reported with its HTTP status, not waited for', async ({ page }) => {
    await page.route(/\/dist\/attention(-relaxed)?\.wasm$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto('/');
    await expect(alert(page)).toContainText('The WebAssembly engine failed to load');
    await expect(alert(page)).toContainText('HTTP 404');
    await expect(app(page)).toHaveAttribute('data-status', 'error');
  });
});
