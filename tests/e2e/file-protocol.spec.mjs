// web/index.html opened from disk: the browser blocks its modules (CORS, origin "null"), so
// web/file-protocol.js must replace "Loading…" with the command that serves the page.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { expect, test, newPageAt } from './fixtures.mjs';

const FROM_DISK = pathToFileURL(path.resolve('web/index.html')).href;

// The module and preload requests the browser refuses at file:// are the point of the test.
test.use({ expectedErrors: [/CORS policy|net::ERR_FAILED|Failed to load resource/] });

test('the page opened from disk says it needs a server and names the command', async ({ page }) => {
  await page.goto(FROM_DISK);
  await expect(page.locator('#result')).toHaveAttribute('data-status', 'needs-server');
  const status = page.locator('#page-status');
  await expect(status).toBeVisible();
  await expect(status).toHaveAttribute('role', 'alert');
  await expect(status).toContainText('served over HTTP');
  await expect(status.locator('code').first()).toHaveText('npm start');
  await expect(status).not.toContainText('Loading');
});

test('in a Chinese browser the message is in Chinese', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await newPageAt(context, FROM_DISK);
  await expect(page.locator('#page-status')).toContainText('需要通过 HTTP 打开');
  await expect(page.locator('#page-status code').first()).toHaveText('npm start');
  await context.close();
});

test('served over http, the script leaves the page alone', async ({ page }) => {
  await page.goto('/?model=untrained');
  await expect(page.locator('#result')).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('#page-status')).toBeHidden();
  await expect(page.locator('#status')).not.toContainText('npm start');
});
