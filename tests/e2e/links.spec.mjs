// A teacher's link opens the panel and the language it was sent from; the table of contents
// reaches every lesson panel that the page shows.
import { test, expect, app, openPage } from './fixtures.mjs';

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
