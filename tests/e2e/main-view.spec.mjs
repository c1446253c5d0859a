// The page is built from the elements other sites embed (issue 10, item 2): its main view is
// <attention-explorer>, the same element as in tests/e2e/attention-explorer.spec.mjs — its
// controls, heatmap and answer live in the element's shadow root, the page has no copy of them,
// and the page follows the element's public face: the properties move the page's selectors, the
// link and the panels, the `ae-change` event updates the page's banner and facts, and every panel
// shares the element's store.
import { app, expect, expectCellsMatchApi, openPage, test } from './fixtures.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';

const param = (page, key) => new URL(page.url()).searchParams.get(key);

test("the page's main view is <attention-explorer>, which holds the controls, the heatmap and the answer", async ({
  page,
}) => {
  await openPage(page, '/?model=coref-encoder');
  const explorer = app(page);
  expect(await explorer.evaluate((el) => el.localName)).toBe('attention-explorer');
  // Inside its shadow root, and nowhere else on the page.
  const where = await explorer.evaluate((el) => {
    const ids = ['model', 'sentence', 'layer', 'head', 'causal', 'scale', 'status', 'error', 'prediction'];
    return {
      inside: ids.filter((id) => el.shadowRoot.getElementById(id)),
      outside: ids.filter((id) => document.getElementById(id)),
      heatmaps: {
        inside: el.shadowRoot.querySelectorAll('ae-attention-heatmap').length,
        outside: document.querySelectorAll('ae-attention-heatmap').length,
      },
      sameClass: el instanceof customElements.get('attention-explorer'),
    };
  });
  expect(where).toEqual({
    inside: ['model', 'sentence', 'layer', 'head', 'causal', 'scale', 'status', 'error', 'prediction'],
    outside: [],
    heatmaps: { inside: 1, outside: 0 },
    sameClass: true,
  });
  // The page's menu is the element's, with the page's extras: random weights and "Open a model…".
  await expect(page.locator('#model option').first()).toHaveAttribute('value', 'untrained');
  await expect(page.locator('#model option').last()).toHaveAttribute('value', 'own');
  // One store: the element's is the page's shared one, which the panels follow.
  expect(
    await explorer.evaluate(async (el) => el.store === (await import('/lib/store.mjs')).store),
    'the element shares the page store',
  ).toBe(true);
  await expect(page.locator('ae-head-view')).toHaveAttribute('data-layer', await explorer.getAttribute('data-layer'));
});

test("the element's properties drive the page: selectors, heatmap, link, panels, banner and facts", async ({
  page,
}) => {
  await openPage(page, '/?model=coref-encoder');
  const explorer = app(page);
  await explorer.evaluate((el) => {
    window.changes = [];
    el.addEventListener('ae-change', (e) => window.changes.push(e.detail));
  });

  // layer / head (1-based): the page's selectors, the caption, the head view, the grid, the link.
  await explorer.evaluate((el) => {
    el.layer = 1;
    el.head = 2;
  });
  await expect(page.locator('#layer')).toHaveValue('0');
  await expect(page.locator('#head')).toHaveValue('1');
  await expect(page.locator('ae-attention-heatmap .ae-hm-caption')).toHaveText('Layer 1, head 2');
  await expect(page.locator('ae-head-view')).toHaveAttribute('data-head', '1');
  await expect(page.locator('ae-head-grid button[data-layer="0"][data-head="1"]')).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect.poll(() => [param(page, 'layer'), param(page, 'head')]).toEqual(['1', '2']);
  await expectCellsMatchApi(page);
  expect(await page.evaluate(() => window.changes.at(-1))).toMatchObject({ model: 'coref-encoder', layer: 1, head: 2 });

  // sentence: the text box, the run, the link and the page's token count.
  const typed = LESSON.wide;
  await explorer.evaluate((el, text) => (el.sentence = text), typed);
  await expect(page.locator('#sentence')).toHaveValue(typed);
  await expect(explorer).toHaveAttribute('data-prediction', 'street');
  await expect.poll(() => param(page, 's')).toBe(typed);
  await expect(page.locator('#fact-tokens')).toHaveText(/^13 /);

  // model: the page's banner and facts follow the element's ae-change event.
  await explorer.evaluate((el) => (el.model = 'untrained'));
  await expect(explorer).toHaveAttribute('data-model', 'untrained');
  await expect(explorer).toHaveAttribute('data-status', 'ready');
  await expect(page.getByRole('note')).toContainText('Untrained model');
  await expect(page.locator('#fact-heads')).toHaveText('4');
  await expect.poll(() => param(page, 'model')).toBe('untrained');

  // …and the reader's controls still write the element's properties.
  await page.locator('#heads').selectOption('8');
  await expect(page.locator('#fact-heads')).toHaveText('8');
  expect(await explorer.evaluate((el) => [el.heads, el.model, el.view().status])).toEqual(['8', 'untrained', 'ready']);
});
