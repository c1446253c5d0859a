// Lesson panels alone on a page (no <attention-explorer>, issue 33): the panels that draw the main
// view's run show the lesson's run, made for them (web/lib/lesson-run.mjs) with the lesson model
// of the host's language — the same numbers as TrainedModel.analyze() of that sentence. A bad
// models-base is said in the panel; a panel with data of its own fetches no model.
import { CSP } from '../../scripts/serve.mjs';
import { NOT_FOUND, expect, test } from './fixtures.mjs';

async function openAlone(page, body, lang = 'en') {
  const tags = [...new Set([...body.matchAll(/<(ae-[a-z-]+)/g)].map((m) => m[1]))];
  const scripts = tags.map((t) => `<script type="module" src="/components/${t.slice(3)}.mjs"></script>`).join('');
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>alone</title>
    <link rel="icon" href="data:,">${scripts}</head><body>${body}</body></html>`;
  await page.route('**/alone-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
  );
  await page.goto('/alone-test.html');
}

// analyze() of the store's sentence with the store's model, computed here with its own engine.
const apiOf = (page) =>
  page.evaluate(async () => {
    const { store } = await import('/lib/store.mjs');
    const { loadEngine } = await import('/lib/engine.mjs');
    const s = store.get();
    const model = await (await loadEngine()).fetchTrainedModel(new URL(`/models/${s.model}/`, location.href));
    const r = model.analyze(s.sentence);
    const n = r.n;
    const it = r.prediction.position;
    const row = Array.from(r.layers[s.layer].selfAttention.heads[s.head].weights.subarray(it * n, (it + 1) * n));
    model.delete();
    return {
      ...s,
      result: null,
      config: null,
      tokens: r.tokens,
      answer: r.prediction.token,
      top: r.tokens[row.indexOf(Math.max(...row))],
    };
  });

test('alone on an English page: Q·K·V, multi-head and the head view show the lesson run', async ({ page }) => {
  await openAlone(page, '<ae-qkv-steps></ae-qkv-steps><ae-multi-head></ae-multi-head><ae-head-view></ae-head-view>');
  for (const tag of ['ae-qkv-steps', 'ae-multi-head']) {
    await page.locator(tag).evaluate((e) => e.scrollIntoView());
    await expect(page.locator(tag)).toHaveAttribute('data-state', 'ready');
  }
  const api = await apiOf(page);
  expect([api.model, api.lang, api.sentence]).toEqual(['coref-encoder', 'en', expect.stringMatching(/\bit\b/)]);
  expect(api.answer).toBe('animal');
  // The head view draws the run's words, at the model's coreference head, and its readout names
  // the word analyze() puts the most weight on.
  const view = page.locator('ae-head-view');
  await view.evaluate((e) => e.scrollIntoView());
  await expect(view.locator('line')).toHaveCount(api.tokens.length);
  await expect(view).toContainText(`“${api.top}”`);
  expect(api.top).toBe('animal');
});

test('alone on a Chinese page: the Chinese lesson model, the panel in Chinese', async ({ page }) => {
  await openAlone(page, '<ae-layer></ae-layer>', 'zh-CN');
  await expect(page.locator('ae-layer')).toHaveAttribute('data-state', 'ready');
  const api = await apiOf(page);
  expect([api.model, api.lang]).toEqual(['coref-encoder-zh', 'zh']);
  await expect(page.locator('ae-layer')).toContainText('它');
});

test.describe('a bad models-base', () => {
  test.use({ expectedErrors: [NOT_FOUND] });
  test('is said in the panel that waits for the run', async ({ page }) => {
    await openAlone(page, '<ae-qkv-steps models-base="/no-such-models/"></ae-qkv-steps>');
    const panel = page.locator('ae-qkv-steps');
    await expect(panel).toHaveAttribute('data-state', 'error');
    await expect(panel).toContainText('could not be loaded: the model files were not found on the server');
  });
});

test('a panel with data of its own fetches no model', async ({ page }) => {
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.route('**/no-model-data.json', (route) => route.fulfill({ path: 'tests/fixtures/own-attention.json' }));
  await openAlone(page, '<ae-head-grid src="/no-model-data.json"></ae-head-grid>');
  await expect(page.locator('ae-head-grid button.ae-hg-thumb')).toHaveCount(8); // the fixture's 2 layers × 4 heads
  expect(fetched.filter((p) => p.startsWith('/models/'))).toEqual([]);
});
