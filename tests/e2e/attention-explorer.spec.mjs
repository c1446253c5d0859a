// <attention-explorer> (web/components/attention-explorer.mjs) through its public face: the
// attributes and properties, the ae-change event, errors, language, and the panels inside it.
// The element is put on a page of this server's origin, under its CSP (scripts from 'self' only).
import { CSP } from '../../scripts/serve.mjs';
import { expect, test } from './fixtures.mjs';
import { LESSON as LESSON_PAIR } from '../../web/lib/lesson.mjs';

// The models-base test asks for a directory that is not there.
test.use({ expectedErrors: [/Failed to load resource: the server responded with a status of 404/] });

// A page of this origin (served by the test, with the server's CSP) holding `body`, the
// element's module loaded before the head view's.
async function mount(page, body) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embed</title><link rel="icon" href="data:,">
    <script type="module" src="/components/attention-explorer.mjs"></script></head><body>${body}</body></html>`;
  await page.route('**/embed-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
  );
  await page.goto('/embed-test.html');
  await page.addScriptTag({ type: 'module', url: '/components/head-view.mjs' });
  return page.locator('attention-explorer');
}

// Keeps every ae-change event's detail in window.changes, from now on.
const recordChanges = (el) =>
  el.evaluate((e) => {
    window.changes = [];
    e.addEventListener('ae-change', (event) => window.changes.push(event.detail));
  });
const changes = (page) => page.evaluate(() => window.changes);

const answer = (el) => el.locator('[part="answer"]');
const caption = (el) => el.locator('.ae-hm-caption');
const view = (el) => el.evaluate((e) => e.view());

test('attributes and properties drive the view; the ae-change event reports it', async ({ page }) => {
  const el = await mount(page, '<attention-explorer><ae-head-view></ae-head-view></attention-explorer>');
  await expect(answer(el)).toContainText('animal');
  // Defaults: the lesson sentence, the model's coreference head (config.json, 0-based there).
  const head = await page.evaluate(
    async () => JSON.parse(await (await fetch('/models/coref-encoder/config.json')).text()).coreference_head,
  );
  expect(await view(el)).toMatchObject({
    model: 'coref-encoder',
    sentence: LESSON_PAIR.tired,
    layer: head.layer + 1,
    head: head.head + 1,
    causal: false,
    scale: true,
  });
  // The panel inside shares the element's run and head.
  await expect(page.locator('ae-head-view')).toHaveAttribute('data-head', String(head.head));

  // The menu: models/index.json's in the lesson's order, then a model added to the shared context.
  const menu = el.locator('#model');
  await expect(menu.locator('option').first()).toHaveAttribute('value', 'coref-encoder');
  await page.evaluate(async () => {
    const { addLocalModel, getTrainedModel } = await import('/lib/context.mjs');
    addLocalModel('mine', getTrainedModel('coref-encoder'), 'My model');
  });
  await expect(menu.locator('option').last()).toHaveText('My model');

  await recordChanges(el);
  await el.evaluate((e, wide) => {
    e.sentence = wide;
  }, LESSON_PAIR.wide);
  await expect.poll(async () => (await changes(page)).at(-1)?.prediction.token).toBe('street');
  await expect(answer(el)).toContainText('street');

  // Typing: the property follows the text box.
  await el.locator('textarea').fill(LESSON_PAIR.tired);
  await expect(answer(el)).toContainText('animal');
  expect(await el.evaluate((e) => e.sentence)).toBe(LESSON_PAIR.tired);

  await el.evaluate((e) => {
    e.causal = true;
    e.scale = false;
  });
  await expect.poll(async () => (await changes(page)).at(-1)).toMatchObject({ causal: true, scale: false });
  await expect(el.locator('#causal')).toBeChecked();
  await expect(el.locator('#scale')).not.toBeChecked();
  expect(await el.evaluate((e) => [e.hasAttribute('causal'), e.hasAttribute('no-scale')])).toEqual([true, true]);

  // The selects set the head; the properties read back 1-based.
  await el.locator('#layer').selectOption({ index: 0 });
  await el.locator('#head').selectOption({ index: 1 });
  await expect(caption(el)).toHaveText('Layer 1, head 2');
  expect(await el.evaluate((e) => [e.layer, e.head])).toEqual([1, 2]);
  await expect(page.locator('ae-head-view')).toHaveAttribute('data-head', '1');
});

test('errors are worded in the element, which keeps working; lang follows the host unless set', async ({ page }) => {
  const el = await mount(page, '<attention-explorer></attention-explorer>');
  await expect(answer(el)).toContainText('animal');
  await recordChanges(el);
  await el.locator('textarea').fill('');
  await expect.poll(async () => (await changes(page)).at(-1)).toMatchObject({ sentence: '', prediction: null });
  await expect(el.locator('[part="error"]')).toHaveText('The model could not run: the text is empty; type a sentence.');
  await expect(answer(el)).toBeHidden();
  await expect(el.locator('ae-attention-heatmap')).toBeHidden();
  await el.locator('textarea').fill(LESSON_PAIR.tired);
  await expect(el.locator('[part="error"]')).toBeHidden();
  await expect(answer(el)).toContainText('animal');

  await page.evaluate(() => document.documentElement.setAttribute('lang', 'zh-Hans'));
  await expect(el.locator('label').first()).toHaveText('模型');
  await el.evaluate((e) => {
    e.lang = 'en';
  });
  await expect(el.locator('label').first()).toHaveText('Model');

  // A models-base without the model: the element says so.
  await el.evaluate((e) => {
    e.modelsBase = '/no-such-models/';
    e.model = 'word-order-rope';
  });
  await expect(el.locator('[part="error"]')).toHaveText(/the model files were not found on the server/);
});

test('a models-base that is no URL is an error shown in the element, which still defines itself', async ({ page }) => {
  const el = await mount(page, '<attention-explorer models-base="http://[::1"></attention-explorer>');
  await expect(el.locator('[part="error"]')).toContainText('models-base is not a URL');
});
