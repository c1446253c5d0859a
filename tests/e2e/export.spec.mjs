// End-to-end tests of the exports (web/lib/export.mjs, <ae-export-buttons>, docs/export.md):
// the downloaded SVGs parse and hold the drawn cells / lines with the shown values, the PNG is
// a PNG of the SVG's size at 2×, and the JSON holds the tokens and every layer × head × n × n
// weight exactly as analyze() returns them (computed here with a separately loaded engine).
import fs from 'node:fs';
import { app, apiAll, apiView, chooseModel, expect, openPage, shownCells, test } from './fixtures.mjs';

const shipped = fs.existsSync('web/models/coref-encoder/config.json');
// The page opens coref-encoder at its coreference head; the file names carry it, 1-based.
const corefHead = () => {
  const { layer, head } = JSON.parse(fs.readFileSync('web/models/coref-encoder/config.json', 'utf8')).coreference_head;
  return `l${layer + 1}h${head + 1}`;
};
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// Clicks (or presses Enter on) a button and returns the download: {name, bytes}.
async function downloadOf(page, button, { keyboard = false } = {}) {
  const waiting = page.waitForEvent('download');
  if (keyboard) {
    await button.focus();
    await page.keyboard.press('Enter');
  } else {
    await button.click();
  }
  const download = await waiting;
  expect(await download.failure()).toBeNull();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

// Parses SVG text in the page: parse errors, the root's size, and what the test asks for.
function parseSvg(page, text) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    const all = [...doc.querySelectorAll('*')];
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: root.localName,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      cells: [...doc.querySelectorAll('rect.cell, rect[data-value]')].map((r) => ({
        row: r.dataset.row,
        col: r.dataset.col,
        value: r.dataset.value,
        fill: r.getAttribute('fill'),
        layer: r.parentNode.dataset?.layer,
        head: r.parentNode.dataset?.head,
      })),
      lines: [...doc.querySelectorAll('line')].map((l) => ({
        to: l.dataset.to,
        weight: l.dataset.weight,
        stroke: l.getAttribute('stroke'),
        head: l.dataset.head,
      })),
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      styled: all.filter((e) => e.hasAttribute('style')).length,
      unresolved: all.filter((e) => [...e.attributes].some((a) => a.value.includes('var('))).length,
    };
  }, text);
}

test.describe('export', () => {
  test.skip(!shipped, 'coref-encoder is not in web/models');

  test('heatmap as SVG and PNG; attention JSON equals analyze()', async ({ page }) => {
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    const result = page.locator('#result');

    // SVG: standalone (no style attributes, no CSS variables), every cell with its value and colour.
    const svgFile = await downloadOf(
      page,
      result.getByRole('button', { name: 'Download the heatmap as an SVG image' }),
    );
    expect(svgFile.name).toBe(`attention-coref-encoder-heatmap-${corefHead()}.svg`);
    const svg = await parseSvg(page, svgFile.bytes.toString('utf8'));
    expect(svg.error).toBeNull();
    expect(svg.root).toBe('svg');
    expect(svg.styled).toBe(0);
    expect(svg.unresolved).toBe(0);
    const shown = await shownCells(page);
    const api = await apiView(page);
    expect(svg.cells).toHaveLength(api.n * api.n);
    expect(svg.cells.map((c) => c.value)).toEqual(shown.map((c) => c.value));
    expect(svg.cells.map((c) => c.value)).toEqual(api.values);
    expect(svg.cells.every((c) => /^(#[0-9a-f]{6}|rgb\()/i.test(c.fill))).toBe(true);
    for (const token of api.tokens) expect(svg.texts).toContain(token);

    // PNG, pressed from the keyboard: the PNG signature, and 2× the SVG's size.
    const png = await downloadOf(page, result.getByRole('button', { name: 'Download the heatmap as a PNG image' }), {
      keyboard: true,
    });
    expect(png.name).toBe(`attention-coref-encoder-heatmap-${corefHead()}.png`);
    expect([...png.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(png.bytes.length).toBeGreaterThan(1000);
    expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([svg.width * 2, svg.height * 2]);

    // JSON: tokens and layers × heads × n × n, equal to the engine's numbers.
    const jsonFile = await downloadOf(page, result.getByRole('button', { name: /^Download the attention weights/ }));
    expect(jsonFile.name).toBe('attention-coref-encoder.json');
    const data = JSON.parse(jsonFile.bytes.toString('utf8'));
    const all = await apiAll(page);
    expect(data.format).toBe('attention-explorer/attention-1');
    expect(data.model).toBe('coref-encoder');
    expect(data.sentence).toBe(await app(page).getAttribute('data-text'));
    expect(data.tokens).toEqual(all.tokens);
    expect(data.n).toBe(all.n);
    expect([data.layers.length, data.layers[0].length, data.layers[0][0].length, data.layers[0][0][0].length]).toEqual([
      all.layers.length,
      all.layers[0].length,
      all.n,
      all.n,
    ]);
    expect(data.layers).toEqual(all.layers);
    expect(data.prediction.token).toBe(await app(page).getAttribute('data-prediction'));
  });

  test('head view, overlay, side-by-side and head grid as SVG / PNG', async ({ page }) => {
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    const view = page.locator('ae-head-view');

    // Head view: one line per key with the shown weights, and the words as text.
    const lines = page.locator('#lines');
    const svgFile = await downloadOf(
      page,
      lines.getByRole('button', { name: 'Download the head view as an SVG image' }),
    );
    const svg = await parseSvg(page, svgFile.bytes.toString('utf8'));
    expect(svg.error).toBeNull();
    expect(svg.styled + svg.unresolved).toBe(0);
    const shownLines = await view.locator('line').evaluateAll((ls) => ls.map((l) => l.dataset.weight));
    expect(svg.lines.map((l) => l.weight)).toEqual(shownLines);
    expect(svg.lines.every((l) => /^rgb/.test(l.stroke))).toBe(true);
    const tokens = await view.locator('.ae-hv-keys .ae-hv-token').allTextContents();
    for (const token of tokens) expect(svg.texts).toContain(token);

    // Overlay: every head's lines, in as many colours as heads.
    await view.getByRole('button', { name: 'All heads of this layer' }).click();
    const overlay = await parseSvg(
      page,
      (
        await downloadOf(page, lines.getByRole('button', { name: 'Download the head view as an SVG image' }))
      ).bytes.toString('utf8'),
    );
    const nHeads = await view.locator('.ae-hv-legend button').count();
    expect(overlay.lines).toHaveLength(nHeads * tokens.length);
    expect(new Set(overlay.lines.map((l) => l.stroke)).size).toBe(nHeads);
    const png = await downloadOf(page, lines.getByRole('button', { name: 'Download the head view as a PNG image' }));
    expect([...png.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([overlay.width * 2, overlay.height * 2]);

    // Side by side: both sentences' lines in one file.
    const pair = page.locator('ae-flip-pair');
    await pair.getByRole('button', { name: 'Compare tired and wide side by side' }).click();
    await expect(pair).toHaveAttribute('data-status', 'ready');
    const both = await parseSvg(
      page,
      (
        await downloadOf(page, pair.getByRole('button', { name: 'Download the side-by-side view as an SVG image' }))
      ).bytes.toString('utf8'),
    );
    expect(both.error).toBeNull();
    expect(both.lines).toHaveLength(2 * tokens.length);
    expect(both.texts).toContain('tired');
    expect(both.texts).toContain('wide');

    // Head grid: every layer × head, its cells carrying the run's weights.
    const all = await apiAll(page);
    const grid = await parseSvg(
      page,
      (
        await downloadOf(
          page,
          page.locator('#overview').getByRole('button', { name: 'Download the grid of all heads as an SVG image' }),
        )
      ).bytes.toString('utf8'),
    );
    expect(grid.error).toBeNull();
    const heads = new Set(grid.cells.map((c) => `${c.layer},${c.head}`));
    expect(heads.size).toBe(all.layers.length * all.layers[0].length);
    for (const c of grid.cells.slice(0, 50)) expect(Number(c.value)).toBeGreaterThan(0);
    const gridPng = await downloadOf(
      page,
      page.locator('#overview').getByRole('button', { name: 'Download the grid of all heads as a PNG image' }),
    );
    expect([...gridPng.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  });

  test('export buttons are labelled in Chinese too', async ({ page }) => {
    await openPage(page);
    await page.getByRole('button', { name: '中文' }).click();
    await expect(page.locator('#result').getByRole('button', { name: '将热力图下载为 SVG 图片' })).toBeEnabled();
    await expect(page.locator('#result').getByRole('button', { name: /^将这个句子的注意力权重/ })).toBeEnabled();
    const file = await downloadOf(
      page,
      page.locator('#overview').getByRole('button', { name: '将全部注意力头的缩略图下载为 PNG 图片' }),
    );
    expect([...file.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  });
});
