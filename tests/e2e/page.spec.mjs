// End-to-end tests of the Attention Explorer page in Debian's Chromium, served by
// scripts/serve.mjs with its real CSP. Every test also fails on any console error or
// uncaught page error (the `errors` fixture in fixtures.mjs).
import fs from 'node:fs';
import {
  SHOTS,
  alert,
  app,
  cells,
  expect,
  expectCellsMatchApi,
  expectNoSeriousAxeViolations,
  expectRendered,
  openPage,
  shownCells,
  test,
} from './fixtures.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';

const DEFAULT_SENTENCE = LESSON.tired;

const upper = (shown) => shown.filter((c) => c.col > c.row);
const lowerOrDiagonal = (shown) => shown.filter((c) => c.col <= c.row);

test('loads, shows the untrained-model banner and the default heatmap', async ({ page }) => {
  await openPage(page);
  await expect(page).toHaveTitle('Attention Explorer');
  await expect(page.getByRole('note')).toContainText('Untrained model');
  await expect(page.getByRole('note')).toContainText('seed 42');
  await expect(page.locator('#sentence')).toHaveValue(DEFAULT_SENTENCE);
  await expect(page.locator('#status')).toBeHidden();
  await expect(cells(page)).toHaveCount(13 * 13);
  await expect(page.locator('#fact-params')).not.toHaveText('–');
  await expect(page.locator('#fact-headdim')).toHaveText('8');
  await expect(page.locator('#fact-simd')).toHaveText(/^(on|off)$/);
  await expect(page.locator('#fact-arithmetic')).toHaveText(
    /^(fused, one rounding \(relaxed SIMD\)|multiply, then add \(SIMD128\))$/,
  );
  await expect(page.locator('ae-attention-heatmap .values text')).toHaveCount(13 * 13);
  await expectCellsMatchApi(page);
});

test('Chromium runs relaxed SIMD: the page loads the fused multiply-add build, and only that one', async ({ page }) => {
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto('/');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('#fact-arithmetic')).toHaveText('fused, one rounding (relaxed SIMD)');
  expect(
    await page.evaluate(async () => (await (await import('/lib/context.mjs')).getEngine()).features),
  ).toMatchObject({ build: 'relaxed', relaxedSimd: true, fma: true, gemm: 'f32_gemm_ukernel_6x8__wasmrelaxedsimd' });
  expect(fetched).toContain('/dist/attention-relaxed.wasm');
  expect(fetched.filter((p) => /\/dist\/attention\.(mjs|wasm)$/.test(p))).toEqual([]);
  await page.locator('#lang').click();
  await expect(page.locator('#fact-arithmetic')).toHaveText('融合乘加，只舍入一次（relaxed SIMD）');
});

test('shows "Loading…" until the wasm module has arrived', async ({ page }) => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  await page.route(/\/dist\/attention(-relaxed)?\.wasm$/, async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto('/');
  await expect(page.locator('#status')).toHaveText('Loading…');
  await expect(app(page)).toHaveAttribute('data-status', 'loading');
  release();
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('#status')).toBeHidden();
});

test('typed sentences render exactly the weights the wasm API returns', async ({ page }) => {
  await openPage(page);
  const sentence = page.locator('#sentence');

  await sentence.fill('');
  await sentence.pressSequentially('Attention lets every word look at every other word.');
  await expectRendered(page, 'Attention lets every word look at every other word.');
  expect((await expectCellsMatchApi(page)).n).toBe(10);

  // Another model and another head: 8 heads, 3 layers, RoPE, seed 7, no scaling.
  await page.locator('#heads').selectOption('8');
  await page.locator('#layers').selectOption('3');
  await page.locator('#positional').selectOption('rope');
  await page.locator('#seed').fill('7');
  await page.locator('#scale').uncheck();
  await expect(app(page)).toHaveAttribute(
    'data-config',
    /"nHeads":8,"nLayers":3,"positional":"rope","causal":false,"seed":7/,
  );
  await expect(app(page)).toHaveAttribute('data-run', '{"causal":false,"scale":false}');
  await page.locator('#layer').selectOption({ label: 'Layer 3' });
  await page.locator('#head').selectOption({ label: 'Head 6' });
  await expect(app(page)).toHaveAttribute('data-head', '5');
  await expect(app(page)).toHaveAttribute('data-layer', '2');
  await expectCellsMatchApi(page);

  // CJK text is split per character by the core tokenizer.
  await sentence.fill('小猫坐在垫子上。');
  await expectRendered(page, '小猫坐在垫子上。');
  expect((await expectCellsMatchApi(page)).tokens).toEqual([...'小猫坐在垫子上。']);
});

test('cells carry a hover title; long sentences drop printed values and share one title', async ({ page }) => {
  await openPage(page);
  const cell = page.locator('rect.cell[data-row="1"][data-col="4"]');
  const value = Number(await cell.getAttribute('data-value')).toFixed(4);
  await expect(cell.locator('title')).toHaveText(`animal → cross: ${value}`);
  await expect(page.locator('ae-attention-heatmap rect.cell > title')).toHaveCount(13 * 13);

  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
  await page.locator('#sentence').fill(words.join(' '));
  await expectRendered(page, words.join(' '));
  await expect(cells(page)).toHaveCount(1600);
  await expect(page.locator('ae-attention-heatmap .values text')).toHaveCount(0);
  await expectCellsMatchApi(page);
  const big = page.locator('rect.cell[data-row="30"][data-col="7"]');
  await big.hover();
  const bigValue = Number(await big.getAttribute('data-value')).toFixed(4);
  await expect(page.locator('ae-attention-heatmap rect.cell > title')).toHaveCount(1);
  await expect(big.locator('title')).toHaveText(`w30 → w7: ${bigValue}`);
});

test('the causal mask zeroes the upper triangle, and unchecking restores it', async ({ page }) => {
  await openPage(page);
  const before = await shownCells(page);
  expect(upper(before).every((c) => c.value !== '0')).toBe(true);

  await page.locator('#causal').check();
  await expect(app(page)).toHaveAttribute('data-run', '{"causal":true,"scale":true}');
  const masked = await shownCells(page);
  expect(upper(masked).length).toBe((13 * 12) / 2);
  expect(upper(masked).filter((c) => c.value !== '0')).toEqual([]);
  expect(lowerOrDiagonal(masked).some((c) => Number(c.value) > 0)).toBe(true);
  expect(masked.find((c) => c.row === 0 && c.col === 0).value).toBe('1'); // first word sees only itself
  await expectCellsMatchApi(page);

  await page.locator('#causal').uncheck();
  await expect(app(page)).toHaveAttribute('data-run', '{"causal":false,"scale":true}');
  const restored = await shownCells(page);
  expect(upper(restored).filter((c) => c.value === '0')).toEqual([]);
  expect(restored).toEqual(before);
});

test('engine errors show in the alert and the page recovers', async ({ page }) => {
  await openPage(page);
  const sentence = page.locator('#sentence');

  await sentence.fill('');
  await expect(alert(page)).toHaveText('The model could not run: the text is empty; type a sentence.');
  await expect(alert(page)).toHaveAttribute('title', /the sequence is empty/); // the core's words, for debugging
  await expect(app(page)).toHaveAttribute('data-status', 'error');

  await sentence.fill('It works again.');
  await expectRendered(page, 'It works again.');
  await expect(alert(page)).toHaveText('');
  await expect(cells(page)).toHaveCount(16);
  await expectCellsMatchApi(page);

  await sentence.fill('word '.repeat(129));
  await expect(app(page)).toHaveAttribute('data-error-code', 'too-long');
  await expect(alert(page)).toHaveAttribute('title', /the sequence has 129 tokens; this model reads at most 128/);
  await sentence.fill('Short again.');
  await expectRendered(page, 'Short again.');
  await expect(alert(page)).toHaveText('');

  await page.locator('#seed').fill('-3');
  await expect(alert(page)).toHaveText('The seed must be a whole number from 0 to 4294967295.');
  await page.locator('#seed').fill('3');
  await expect(alert(page)).toHaveText('');
  await expect(app(page)).toHaveAttribute('data-config', /"seed":3\}/);
  await expect(page.getByRole('note')).toContainText('seed 3');
  await expectCellsMatchApi(page);
});

test('layer and head selectors follow the model config', async ({ page }) => {
  // Tall enough that the seed field and the layer and head menus (under the answer) show without
  // scrolling: a scroll rewrites the link (the panel being read), which would count below.
  await page.setViewportSize({ width: 1280, height: 1400 });
  await openPage(page);
  await expect(page.locator('#layer option')).toHaveCount(2);
  await expect(page.locator('#head option')).toHaveCount(4);

  await page.locator('#heads').selectOption('8');
  await page.locator('#layers').selectOption('4');
  await expect(page.locator('#layer option')).toHaveCount(4);
  await expect(page.locator('#head option')).toHaveCount(8);
  await expect(page.locator('#fact-headdim')).toHaveText('4');
  await page.locator('#layer').selectOption('3');
  await page.locator('#head').selectOption('7');
  await expect(page.locator('ae-attention-heatmap .ae-hm-caption')).toHaveText('Layer 4, head 8');

  await page.locator('#heads').selectOption('2');
  await page.locator('#layers').selectOption('1');
  await expect(page.locator('#head option')).toHaveCount(2);
  await expect(page.locator('#layer option')).toHaveCount(1);
  await expect(app(page)).toHaveAttribute('data-head', '0');
  await expect(app(page)).toHaveAttribute('data-layer', '0');
  await expect(page.locator('#fact-headdim')).toHaveText('16');
  await expectCellsMatchApi(page);

  // The query string is the page's own link to this view (url-state.mjs). Wait until it is
  // written: history.replaceState also counts as a navigation of the frame.
  await expect.poll(() => new URL(page.url()).search).toContain('heads=2&layers=1&');
  const link = page.url();

  // Enter in the seed field must not submit the form (which would reload the page).
  let navigations = 0;
  page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations++);
  await page.locator('#seed').press('Enter');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('#head option')).toHaveCount(2);
  expect(navigations).toBe(0);
  expect(page.url()).toBe(link);
});

test('the heatmap can be read with the keyboard', async ({ page }) => {
  await openPage(page);
  const plot = page.locator('ae-attention-heatmap .ae-hm-plot');
  const readout = page.locator('ae-attention-heatmap .ae-hm-readout');
  await expect(plot).toHaveAttribute('role', 'img');
  await expect(plot).toHaveAttribute('aria-label', /13 query words/);
  await expect(readout).toHaveAttribute('aria-live', 'polite');

  await plot.focus();
  await expect(readout).toHaveText(/^Query “the” \(row 1\) → key “the” \(column 1\): /);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const value = await page.locator('rect.cell[data-row="1"][data-col="1"]').getAttribute('data-value');
  await expect(readout).toHaveText(`Query “animal” (row 2) → key “animal” (column 2): ${Number(value).toFixed(4)}`);
  await page.keyboard.press('End');
  await expect(readout).toContainText('key “.” (column 13)');
  await page.keyboard.press('ArrowRight'); // stays inside the grid
  await expect(readout).toContainText('key “.” (column 13)');
  await expect(page.locator('ae-attention-heatmap rect.marker.on')).toHaveCount(1);

  await page.locator('rect.cell[data-row="2"][data-col="4"]').click(); // pointer users too
  await expect(readout).toContainText('Query “did” (row 3) → key “cross” (column 5)');
});

test('the language toggle switches between English and Chinese', async ({ page }) => {
  await openPage(page);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(page.locator('h1')).toHaveText('注意力探索器');
  await expect(page.locator('#layer option').first()).toHaveText('第 1 层');
  await expect(page.getByRole('note')).toContainText('随机种子 42');
  await page.locator('#sentence').fill('');
  await expect(alert(page)).toHaveText(/^模型无法运行：/);

  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.locator('h1')).toHaveText('Attention Explorer');
  await expect(alert(page)).toHaveText(/^The model could not run: /);
});

test.describe('with a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('starts in Chinese', async ({ page }) => {
    await openPage(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
    await expect(page.locator('h1')).toHaveText('注意力探索器');
    await expect(page).toHaveTitle('注意力探索器');
  });
});

test('is served with the CSP and uses no inline script or style', async ({ page }) => {
  const response = await openPage(page);
  const csp = response.headers()['content-security-policy'];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toMatch(/'unsafe-eval'/);
  const inline = await page.evaluate(() => ({
    scripts: document.querySelectorAll('script:not([src])').length,
    styles: document.querySelectorAll('style').length,
    styleAttributesInHtml: /\sstyle=/.test(document.documentElement.outerHTML.split('<ae-attention-heatmap')[0]),
  }));
  expect(inline).toEqual({ scripts: 0, styles: 0, styleAttributesInHtml: false });
});

test('axe finds no serious or critical violations (light, English)', async ({ page }) => {
  await openPage(page);
  await expectNoSeriousAxeViolations(page);
  await page.locator('#sentence').fill(''); // error state too
  await expect(alert(page)).not.toHaveText('');
  await expectNoSeriousAxeViolations(page);
});

test('axe finds no serious or critical violations (dark, Chinese)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openPage(page);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('h1')).toHaveText('注意力探索器');
  await expectNoSeriousAxeViolations(page);
});

test('screenshots: desktop, dark Chinese, and 375 px without horizontal overflow', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page);
  await page.screenshot({ path: `${SHOTS}/page.png`, fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: `${SHOTS}/page-375.png`, fullPage: true });
  await page.locator('#sentence').fill('word '.repeat(129)); // a long error message must wrap too
  await expect(alert(page)).not.toHaveText('');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: `${SHOTS}/page-375-error.png`, fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('#sentence').fill(DEFAULT_SENTENCE);
  await page.locator('#causal').check();
  await page.getByRole('button', { name: '中文' }).click();
  await expectRendered(page, DEFAULT_SENTENCE);
  await page.locator('ae-attention-heatmap .ae-hm-plot').focus();
  await page.keyboard.press('ArrowDown');
  await page.screenshot({ path: `${SHOTS}/page-dark-zh.png`, fullPage: true });
});

test('on a projector (1920 × 1080) the text and the heatmap grow, without sideways scrolling', async ({ page }) => {
  // Root font size, and the drawn height of a heatmap label (the SVG scales with its width).
  const sizes = async () => ({
    root: await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize)),
    label: await page
      .locator('ae-attention-heatmap text.label')
      .first()
      .evaluate((label) => label.getBoundingClientRect().height),
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPage(page);
  const laptop = await sizes();
  await page.setViewportSize({ width: 1920, height: 1080 });
  await expect.poll(async () => (await sizes()).root).toBeGreaterThan(laptop.root); // style.css: clamp(1rem, 0.85rem + 0.3vw, 1.3rem)
  const projector = await sizes();
  expect(projector.root).toBeGreaterThanOrEqual(1.2 * 16);
  expect(projector.label).toBeGreaterThan(1.1 * laptop.label);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1920);
  // The panel list lines up with the header and the panels, on a wide screen as on a phone.
  const left = (selector) => page.locator(selector).evaluate((e) => Math.round(e.getBoundingClientRect().left));
  expect(await left('#toc')).toBe(await left('main'));
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/page-projector.png` });
});
