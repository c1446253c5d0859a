// Every declared control of the main view (web/lib/main-controls.mjs), walked from the declaration
// as tests/e2e/panel-controls.spec.mjs walks the panels': changing it on screen changes its link
// parameter; a control declared `history` is one history entry, Back shows the previous value and
// Forward the new one again, and the others only update the entry shown; the link reloaded shows
// the same value; the link without the parameter opens the default; "Back to defaults" returns it
// to what a page opened without a link shows. The parameters are checked against the names links
// have always used, so that an old shared link still opens the same view.
import { expect, app, openPage, test } from './fixtures.mjs';
import { MAIN_CONTROLS, paramOf } from '../../web/lib/main-controls.mjs';
import { LESSON, LESSON_MODELS } from '../../web/lib/lesson.mjs';

// The link parameters of the main view since its first shared links (web/lib/url-state.mjs).
const PARAMS = {
  model: 'model',
  sentence: 's',
  layer: 'layer',
  head: 'head',
  causal: 'causal',
  scale: 'scale',
  heads: 'heads',
  layers: 'layers',
  positional: 'pos',
  seed: 'seed',
};
const START = '/?model=untrained'; // the untrained model shows every control, its recipe too

const linked = (page, key) => new URL(page.url()).searchParams.get(key);
const entries = (page) => page.evaluate(() => history.length);
const fieldOf = (page, name) => app(page).locator(`#${name}`);

async function valueOf(field) {
  return (await field.getAttribute('type')) === 'checkbox' ? field.isChecked() : field.inputValue();
}

// A value other than `before` that the control offers.
async function otherValue(field, name, before) {
  if (typeof before === 'boolean') return !before;
  if (name === 'sentence') return before === LESSON.wide ? LESSON.tired : LESSON.wide;
  if (name === 'seed') return String(Number(before) + 1);
  return field.evaluate((node, b) => [...node.querySelectorAll('option')].find((o) => o.value !== b)?.value, before);
}

async function setValue(field, value) {
  if (typeof value === 'boolean') return field.setChecked(value);
  if ((await field.evaluate((node) => node.tagName)) === 'SELECT') return field.selectOption({ value });
  return field.fill(value);
}

test('the main view declares its controls with the link parameters links have always used', () => {
  expect(Object.fromEntries(Object.keys(MAIN_CONTROLS).map((name) => [name, paramOf(name)]))).toEqual(PARAMS);
});

for (const [name, spec] of Object.entries(MAIN_CONTROLS))
  test(`the main view's ${name}: link, reload, Back/Forward and default`, async ({ page }) => {
    test.setTimeout(120_000);
    const param = paramOf(name);
    const field = fieldOf(page, name);
    await openPage(page, '/'); // what the page opens with, and Reset returns to
    const opening = await valueOf(field);
    await openPage(page, START);
    await page.waitForTimeout(400); // the page's own first link is written
    const before = await valueOf(field);
    const linkedBefore = linked(page, param);
    const next = await otherValue(field, name, before);
    expect(next, `${name}: another value`).toBeDefined();
    const start = await entries(page);
    await setValue(field, next);
    await expect.poll(() => linked(page, param), name).not.toBe(linkedBefore);
    await expect(app(page)).toHaveAttribute('data-status', 'ready');
    await page.waitForTimeout(400); // the link is written 150 ms after the last change
    expect(await entries(page), `${name}: history entries`).toBe(start + (spec.history ? 1 : 0));
    expect(await valueOf(field), name).toBe(next);

    if (spec.history) {
      await page.goBack();
      await expect.poll(() => valueOf(field), `${name}: Back`).toBe(before);
      expect(linked(page, param), `${name}: Back's link`).toBe(linkedBefore);
      await page.goForward();
      await expect.poll(() => valueOf(field), `${name}: Forward`).toBe(next);
    }

    const link = page.url();
    await openPage(page, link); // the link, opened afresh
    await expect.poll(() => valueOf(field), `${name}: reloaded link`).toBe(next);

    // Without the parameter: the default (the model's: the lesson's model, the link having none).
    const without = new URL(link);
    without.searchParams.delete(param);
    await openPage(page, `${without.pathname}${without.search}`);
    const fallback = name === 'model' ? LESSON_MODELS.en : before;
    await expect.poll(() => valueOf(field), `${name}: default`).toBe(fallback);

    await openPage(page, link);
    await resetView(page);
    await expect.poll(() => valueOf(field), `${name}: Back to defaults`).toBe(opening);
  });

async function resetView(page) {
  await app(page).locator('#reset').click();
  await expect(app(page)).toHaveAttribute('data-model', LESSON_MODELS.en);
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
}

// The fresh page's view and link, after every control was changed: the same, as one history entry
// that Back undoes.
test("Back to defaults returns the whole main view and its link to a fresh page's", async ({ page }) => {
  test.setTimeout(120_000);
  const names = Object.keys(MAIN_CONTROLS);
  const values = () => Promise.all(names.map((name) => valueOf(fieldOf(page, name))));
  const search = () => new URL(page.url()).search;
  await openPage(page, '/');
  await page.waitForTimeout(400); // the page's own first link is written
  const [opening, openingLink] = [await values(), search()];
  await openPage(page, START);
  for (const name of names.filter((n) => n !== 'model')) {
    const field = fieldOf(page, name);
    await setValue(field, await otherValue(field, name, await valueOf(field)));
  }
  await fieldOf(page, 'sentence').fill('the cat sat on the mat because it was tired');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await page.waitForTimeout(400);
  const [changed, changedLink, start] = [await values(), search(), await entries(page)];
  expect(changed).not.toEqual(opening);
  await resetView(page);
  await expect.poll(values).toEqual(opening);
  await expect.poll(search).toBe(openingLink);
  expect(await entries(page)).toBe(start + 1);
  await page.goBack();
  await expect.poll(search).toBe(changedLink);
  await expect.poll(values).toEqual(changed);
});
