// <attention-explorer>'s events as a site author listens to them, on the document: ae-change,
// ae-model-load, ae-error, and ae-token-hover / ae-token-select from its heatmap — CustomEvents
// with their detail — while a native `change` from the author's own control inside the element
// is no event of the element's (the old `change` event collided with it).
import { CSP } from '../../scripts/serve.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';
import { expect, test } from './fixtures.mjs';

const TYPES = ['ae-change', 'ae-model-load', 'ae-error', 'ae-token-hover', 'ae-token-select', 'change'];

async function mount(page, body) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>events</title><link rel="icon" href="data:,">
    <script type="module" src="/components/attention-explorer.mjs"></script></head><body>${body}</body></html>`;
  await page.route('**/events-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
  );
  // Every event of TYPES reaching the document, from the start: {type, custom, detail}.
  await page.addInitScript((types) => {
    window.events = [];
    for (const type of types)
      document.addEventListener(type, (e) =>
        window.events.push({
          type,
          custom: e instanceof CustomEvent,
          detail: JSON.parse(JSON.stringify(e.detail ?? null)),
        }),
      );
  }, TYPES);
  await page.goto('/events-test.html');
  return page.locator('attention-explorer');
}

const events = (page, type) => page.evaluate((t) => window.events.filter((e) => e.type === t), type);

test('the element reports changes, models, errors and the token under the pointer as ae-* events', async ({ page }) => {
  const el = await mount(
    page,
    `<attention-explorer><select slot="aside" id="mine"><option>a</option><option>b</option></select></attention-explorer>`,
  );
  await expect(el.locator('[part="answer"]')).toContainText('animal');
  await expect.poll(async () => (await events(page, 'ae-change')).at(-1)?.detail.prediction?.token).toBe('animal');
  const [load] = await events(page, 'ae-model-load');
  const config = await el.evaluate((e) => JSON.parse(JSON.stringify(e.shownModel.config)));
  expect(load).toEqual({ type: 'ae-model-load', custom: true, detail: { model: 'coref-encoder', config } });
  const last = (await events(page, 'ae-change')).at(-1);
  expect(last).toMatchObject({
    custom: true,
    detail: { model: 'coref-encoder', sentence: LESSON.tired, status: 'ready' },
  });

  // The author's control: its native change reaches the document, and is no ae-change.
  const before = (await events(page, 'ae-change')).length;
  await page.locator('#mine').selectOption('b');
  await expect.poll(async () => (await events(page, 'change')).length).toBe(1);
  expect((await events(page, 'change'))[0]).toEqual({ type: 'change', custom: false, detail: null });
  expect((await events(page, 'ae-change')).length).toBe(before);

  // Hover and select a cell: row = query, col = key, with the weight shown.
  const tokens = last.detail.tokens;
  const cell = el.locator('ae-attention-heatmap rect.cell[data-row="5"][data-col="1"]');
  const weight = Number(await cell.getAttribute('data-value'));
  const expected = { row: 5, col: 1, query: tokens[5], key: tokens[1] };
  await cell.hover();
  await expect.poll(async () => (await events(page, 'ae-token-hover')).at(-1)?.detail).toMatchObject(expected);
  expect((await events(page, 'ae-token-hover')).at(-1).detail.weight).toBeCloseTo(weight, 6);
  await cell.click();
  await expect.poll(async () => (await events(page, 'ae-token-select')).at(-1)?.detail).toMatchObject(expected);
  expect((await events(page, 'ae-token-select')).at(-1).detail.weight).toBeCloseTo(weight, 6);
  await page.mouse.move(0, 0); // off the grid: hover ends with a null detail
  await expect.poll(async () => (await events(page, 'ae-token-hover')).at(-1)?.detail).toBeNull();

  // An error: ae-error with the engine's code, then ae-change with status error.
  await el.locator('textarea').fill('');
  await expect.poll(async () => (await events(page, 'ae-error')).length).toBe(1);
  const code = await el.getAttribute('data-error-code');
  expect((await events(page, 'ae-error'))[0]).toMatchObject({ custom: true, detail: { key: 'runError', code } });
  expect(code).toBeTruthy();
  await expect.poll(async () => (await events(page, 'ae-change')).at(-1)?.detail.status).toBe('error');
});
