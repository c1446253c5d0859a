// The package loaded twice on one page (two bundles, or a CDN copy beside an installed one): the
// second copy's modules are other instances with the same element names. It must load without
// NotSupportedError (the fixtures fail a test on any page error), and the first copy's elements
// keep working.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP } from '../../scripts/serve.mjs';
import { expect, test } from './fixtures.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

test('a second copy of the elements loads beside the first, which keeps working', async ({ page }) => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>twice</title><link rel="icon" href="data:,">
    <script type="module" src="/components/attention-explorer.mjs"></script></head>
    <body><attention-explorer></attention-explorer></body></html>`;
  await page.route('**/twice-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
  );
  // /copy/… is web/ again, under another URL: a second instance of every module.
  await page.route('**/copy/**', (route) => {
    const file = path.join(web, new URL(route.request().url()).pathname.replace(/^\/copy\//, ''));
    const type = file.endsWith('.mjs') ? 'text/javascript' : undefined;
    return route.fulfill({ path: file, ...(type && { contentType: type }) });
  });
  await page.goto('/twice-test.html');
  const el = page.locator('attention-explorer');
  await expect(el.locator('[part="answer"]')).toContainText('animal');

  const loaded = await page.evaluate(async () => {
    const copy = await import('/copy/components/attention-explorer.mjs');
    await import('/copy/components/head-view.mjs');
    return {
      other: copy.AttentionExplorer !== customElements.get('attention-explorer'),
      kept: customElements.get('attention-explorer') === document.querySelector('attention-explorer').constructor,
    };
  });
  expect(loaded).toEqual({ other: true, kept: true });
  await el.locator('textarea').fill("The animal didn't cross the street because it was too wide.");
  await expect(el.locator('[part="answer"]')).toContainText('street');
});
