// The npm package on somebody else's site: the tarball `npm pack` makes, installed into a fresh
// directory with its own index.html, its own aggressive CSS (on *, body, button, table) and the
// CSP script-src 'self' 'wasm-unsafe-eval' (scripts/serve.mjs's), served as static files, and
// none of the package's CSS. It embeds <attention-explorer> with two panels inside and one panel
// next to it. The lesson pair must flip, the host's styles must stay the host's, and the
// element's and the panels' (in their shadow roots) must not take the host's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { expect, test } from './fixtures.mjs';

const HOST_CSS = `
* { font-family: "Comic Sans MS", cursive; letter-spacing: 3px; text-transform: uppercase; color: rgb(200, 0, 0); box-sizing: content-box; }
body { background: rgb(255, 240, 200); font-size: 22px; line-height: 3; margin: 40px; }
button { background: rgb(0, 128, 0); border: 6px dotted rgb(0, 0, 255); padding: 20px; border-radius: 0; }
table { border-collapse: separate; border: 4px solid rgb(0, 0, 0); }
select, textarea, label, p, svg, rect, text { font-size: 40px !important; fill: rgb(0, 255, 0) !important; }
`;

// The embed as docs/embedding.md shows it: one import, the element, panels inside.
const INDEX = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Someone else's blog</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="site.css"><script type="module" src="site.mjs"></script></head>
<body><h1>My blog</h1><p id="host-text">Host text.</p><button id="host-button">Host button</button>
<table id="host-table"><tr><td>cell</td></tr></table>
<attention-explorer id="explorer"><ae-flip-pair></ae-flip-pair><ae-head-view></ae-head-view></attention-explorer>
<ae-scaling id="beside"></ae-scaling>
</body></html>`;
const SITE_JS = "import './node_modules/attention-explorer/elements.mjs';\n";

// Styles a host could break: the font, the colours, the boxes.
const STYLE_KEYS = [
  'font-family',
  'font-size',
  'letter-spacing',
  'text-transform',
  'color',
  'background-color',
  'border-top-width',
  'border-top-style',
  'padding-top',
  'line-height',
  'box-sizing',
  'fill',
];
function computed(element, keys) {
  const style = getComputedStyle(element);
  return Object.fromEntries(keys.map((k) => [k, style.getPropertyValue(k)]));
}

let dir, server, base;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(tmpdir(), 'ae-foreign-'));
  const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  run('node', ['scripts/dist.mjs'], process.cwd());
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], process.cwd()));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'blog', private: true }));
  run(
    'npm',
    ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', path.join(dir, packed.filename)],
    dir,
  );
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'site.css'), HOST_CSS);
  writeFileSync(path.join(dir, 'site.mjs'), SITE_JS);
  writeFileSync(path.join(dir, 'plain.html'), INDEX.replace('<link rel="stylesheet" href="site.css">', ''));
  ({ server, url: base } = await startServer({ root: dir, port: 0 }));
});

test.afterAll(() => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the packed element flips on the lesson pair inside a hostile host page, and styles hold both ways', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The host's own elements, first without the package (same page, element hidden and undefined).
  const hostOnly = await (await browser.newContext()).newPage();
  await hostOnly.route('**/site.mjs', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
  await hostOnly.goto(`${base}index.html`);
  const hostIds = ['body', '#host-text', '#host-button', '#host-table'];
  const hostBefore = await Promise.all(hostIds.map((s) => hostOnly.locator(s).evaluate(computed, STYLE_KEYS)));
  await hostOnly.context().close();

  // The element's own styles on a page without any host CSS.
  await page.goto(`${base}plain.html`);
  const explorer = page.locator('attention-explorer');
  const parts = ['root', 'sentence', 'answer', 'select', 'button'];
  const inside = (p) =>
    p.locator('attention-explorer').evaluate(
      (el, [names, keys]) =>
        names.map((name) => {
          const style = getComputedStyle(el.shadowRoot.querySelector(`[part~="${name}"]`));
          return Object.fromEntries(keys.map((k) => [k, style.getPropertyValue(k)]));
        }),
      [parts, STYLE_KEYS],
    );
  await expect(explorer.locator('[part="answer"]')).toContainText('animal');
  const plainInside = await inside(page);
  // A panel's own: next to the element (its heading, intro, a button) and inside it (the pair's button).
  const panelParts = [
    ['ae-scaling', '[part~="title"]'],
    ['ae-scaling', '[part~="intro"]'],
    ['ae-scaling', 'button'],
    ['ae-flip-pair', 'button'],
  ];
  const inPanels = (p) =>
    p.evaluate(
      ([where, keys]) =>
        where.map(([tag, selector]) => {
          const style = getComputedStyle(document.querySelector(tag).shadowRoot.querySelector(selector));
          return Object.fromEntries(keys.map((k) => [k, style.getPropertyValue(k)]));
        }),
      [panelParts, STYLE_KEYS],
    );
  await expect(page.locator('ae-scaling [part~="title"]')).toHaveText('Why divide by √d');
  const plainPanels = await inPanels(page);
  expect(plainPanels[0]['font-family']).toContain('system-ui'); // its own font, not the browser's default

  // The real host page.
  await page.goto(`${base}index.html`);
  await expect(explorer.locator('[part="answer"]')).toContainText('animal');
  const answer = await explorer.evaluate((el) => el.view());
  // The view opens on the head the shipped config.json names (1-based in view()).
  const named = JSON.parse(readFileSync('web/models/coref-encoder/config.json', 'utf8')).coreference_head;
  expect(answer).toMatchObject({
    model: 'coref-encoder',
    layer: named.layer + 1,
    head: named.head + 1,
    causal: false,
    scale: true,
    lang: 'en',
  });
  expect(answer.prediction.token).toBe('animal');

  // The element's styles are its own, and so are the panels'…
  expect(await inside(page)).toEqual(plainInside);
  await expect(page.locator('ae-scaling [part~="title"]')).toHaveText('Why divide by √d');
  expect(await inPanels(page)).toEqual(plainPanels);
  // …and the host's are unchanged.
  const hostAfter = await Promise.all(hostIds.map((s) => page.locator(s).evaluate(computed, STYLE_KEYS)));
  expect(hostAfter).toEqual(hostBefore);

  // The panel inside shares the element's run: open the pair, tired → animal, wide → street.
  const pair = page.locator('ae-flip-pair');
  await pair.getByRole('button', { name: 'Compare tired and wide side by side' }).click();
  await expect(pair).toHaveAttribute('data-status', 'ready');
  await expect(pair).toHaveAttribute('data-tired-prediction', 'animal');
  await expect(pair).toHaveAttribute('data-wide-prediction', 'street');
  await expect(page.locator('ae-head-view line').first()).toBeAttached();

  // Swap the sentence in the element: the answer flips and an ae-change event says so.
  const changed = explorer.evaluate(
    (el) => new Promise((resolve) => el.addEventListener('ae-change', (e) => resolve(e.detail), { once: true })),
  );
  await explorer.getByRole('button', { name: 'Swap tired ↔ wide' }).click();
  expect((await changed).prediction.token).toBe('street');
  await expect(explorer.locator('[part="answer"]')).toContainText('street');

  // Attributes drive it too: another head, then Chinese from the host's lang.
  await explorer.evaluate((el) => {
    el.setAttribute('layer', '1');
    el.setAttribute('head', '2');
  });
  await expect(explorer.locator('.ae-hm-caption')).toHaveText('Layer 1, head 2');
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'zh-CN'));
  await expect(explorer.locator('.ae-hm-caption')).toHaveText('第 1 层，第 2 个头');
});
