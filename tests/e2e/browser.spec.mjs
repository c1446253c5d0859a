// The browser the other specs run in is started as scripts/chromium.mjs says: Chromium keeps only
// the last --disable-features of its command line, so the one the project adds must still hold
// every feature Playwright's own (earlier) switch turns off.
import { test, expect } from './fixtures.mjs';

test("the browser's --disable-features keeps Playwright's list and adds the project's", async ({ page }) => {
  await page.goto('chrome://version');
  const commandLine = await page.locator('#command_line').textContent();
  const lists = commandLine
    .split(/\s+/)
    .filter((a) => a.startsWith('--disable-features='))
    .map((a) => a.split('=')[1].split(','));
  expect(lists.length, 'Playwright’s switch and the project’s').toBe(2);
  const [playwright, effective] = lists;
  expect(
    playwright.filter((f) => !effective.includes(f)),
    'features Playwright turns off that ours turns back on',
  ).toEqual([]);
  expect(effective).toContain('WebUIOmniboxPopup');
});
