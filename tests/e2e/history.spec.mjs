// Back and Forward (issue 11 item 9): each discrete experiment — the model, a layer, a head, a
// switch — is a history entry of its own, typing only updates the entry shown, and Back brings
// the previous view back (its controls and the heatmap the API gives for them).
import { app, expect, expectCellsMatchApi, openPage, test } from './fixtures.mjs';

const length = (page) => page.evaluate(() => history.length);
const param = (page, key) => new URL(page.url()).searchParams.get(key);

async function settled(page) {
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await page.waitForTimeout(400); // the link is written 150 ms after the last change
}

test('layer, head and switches push entries, typing does not, and Back restores each view', async ({ page }) => {
  await openPage(page, '/');
  await settled(page);
  const start = await length(page);
  const first = {
    layer: await page.locator('#layer').inputValue(),
    head: await page.locator('#head').inputValue(),
    sentence: await page.locator('#sentence').inputValue(),
  };

  const otherHead = first.head === '0' ? '1' : '0';
  await page.locator('#head').selectOption(otherHead);
  await settled(page);
  expect(await length(page)).toBe(start + 1);

  const typed = "The dog didn't cross the road because it was too tired.";
  await page.locator('#sentence').fill(typed);
  await expect(app(page)).toHaveAttribute('data-text', typed);
  await settled(page);
  expect(await length(page)).toBe(start + 1); // typing replaced the entry
  expect(param(page, 's')).toBe(typed);

  const otherLayer = first.layer === '0' ? '1' : '0';
  await page.locator('#layer').selectOption(otherLayer);
  await settled(page);
  await page.locator('#scale').uncheck();
  await settled(page);
  expect(await length(page)).toBe(start + 3);

  await page.goBack(); // ÷√d back on
  await settled(page);
  await expect(page.locator('#scale')).toBeChecked();
  await expect(page.locator('#layer')).toHaveValue(otherLayer);

  await page.goBack(); // the typed sentence with the other head, on the first layer
  await settled(page);
  await expect(page.locator('#layer')).toHaveValue(first.layer);
  await expect(page.locator('#head')).toHaveValue(otherHead);
  await expect(page.locator('#sentence')).toHaveValue(typed);
  await expect(app(page)).toHaveAttribute('data-text', typed);
  await expectCellsMatchApi(page);

  await page.goBack(); // the view the page opened with
  await settled(page);
  await expect(page.locator('#head')).toHaveValue(first.head);
  await expect(page.locator('#sentence')).toHaveValue(first.sentence);
  await expectCellsMatchApi(page);
  expect(await length(page)).toBe(start + 3); // going back pushed nothing

  await page.goForward();
  await settled(page);
  await expect(page.locator('#head')).toHaveValue(otherHead);
});

test('choosing another model is an entry; Back returns to the first model and its sentence', async ({ page }) => {
  await openPage(page, '/');
  await settled(page);
  const start = await length(page);
  const sentence = await page.locator('#sentence').inputValue();
  await page.locator('#model').selectOption('word-order-rope');
  await expect(app(page)).toHaveAttribute('data-model', 'word-order-rope');
  await settled(page);
  expect(await length(page)).toBe(start + 1);
  await page.goBack();
  await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder');
  await settled(page);
  await expect(page.locator('#sentence')).toHaveValue(sentence);
  await expectCellsMatchApi(page);
});
