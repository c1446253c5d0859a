// A teacher's link opens the panel and the language it was sent from; the table of contents
// reaches every lesson panel that the page shows.
import { test, expect, app, openPage, openAt, newPageAt } from './fixtures.mjs';

const param = (page, key) => new URL(page.url()).searchParams.get(key);

test('a link with panel and lang opens that panel, in that language', async ({ page }) => {
  await page.goto('/?panel=overview&lang=zh');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(page.locator('#overview')).toBeInViewport();
  await expect.poll(() => param(page, 'lang')).toBe('zh');
});

test('scrolling to a panel puts it in the URL; back at the top it leaves', async ({ page }) => {
  await openPage(page);
  await page.locator('#result').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await expect.poll(() => param(page, 'panel')).toBe('result');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => param(page, 'panel')).toBe(null);
});

test('every table-of-contents link leads to a panel that is shown', async ({ page }) => {
  await openPage(page);
  const targets = await page.locator('#toc a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(targets.length).toBeGreaterThan(2);
  for (const href of targets) await expect(page.locator(href), href).toBeVisible();
});

test('a malformed panel or language in the link is ignored', async ({ page }) => {
  await page.goto('/?panel=<script>&lang=xx');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => param(page, 'lang')).toMatch(/^(en|zh)$/);
  expect(param(page, 'panel')).toBe(null);
});

test('a panel’s own controls travel in the link (the ÷√d panel: d, scaling, seed)', async ({ page, context }) => {
  const panel = await openAt(page, 'ae-scaling');
  await expect(panel).toHaveAttribute('data-d', '64');
  await panel.locator('input[type="range"]').first().focus();
  await page.keyboard.press('End'); // d = 1024
  await panel.locator('input[type="checkbox"]').first().check();
  await panel.locator('input[type="checkbox"]').first().uncheck(); // ÷√d off
  await panel.locator('.ae-sc-reseed button').click(); // seed 2
  await expect
    .poll(() => [param(page, 'scaling.d'), param(page, 'scaling.scaled'), param(page, 'scaling.seed')])
    .toEqual(['1024', '0', '2']);

  const other = await newPageAt(context, page.url());
  const opened = other.locator('ae-scaling');
  await expect(opened).toHaveAttribute('data-d', '1024');
  await expect(opened).toHaveAttribute('data-scale', 'false');
  await expect(opened).toHaveAttribute('data-seed', '2');
  await expect(opened).toHaveAttribute('data-weights', await panel.getAttribute('data-weights'));

  // Back at the defaults, the controls leave the link; nonsense in a link is ignored.
  await other.goto('/?model=untrained&scaling.d=3&scaling.seed=-4&scaling.scaled=maybe');
  await expect(other.locator('ae-scaling')).toHaveAttribute('data-d', '64');
  await expect(other.locator('ae-scaling')).toHaveAttribute('data-seed', '1');
  await expect(other.locator('ae-scaling')).toHaveAttribute('data-scale', 'true');
});
