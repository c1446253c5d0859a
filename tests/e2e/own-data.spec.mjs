// Your own attention (issue 33): examples/own-data/ — a plain page with an import map and no
// other element of the package — draws tests/fixtures/own-attention.json (2 layers × 4 heads in
// the format of docs/own-attention.md) in the heatmap, the head view, the head grid and the
// attention pattern, in light and in dark (the page's color-scheme follows the system's). Cell
// colours are read back: never black, and monotone in the weight (darker with the weight in
// light, lighter in dark). Bad data shows an error in that element only.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP } from '../../scripts/serve.mjs';
import { SHOTS, expect, expectNoSeriousAxeViolations, test } from './fixtures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE = '/node_modules/attention-explorer/';
const EXAMPLE = '/examples/own-data/';
const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/own-attention.json'), 'utf8'));

// The example's page under the server's CSP (its inline import map allowed by hash), its files
// and the package's from this tree.
async function openExample(page) {
  const html = readFileSync(path.join(root, 'examples/own-data/index.html'), 'utf8');
  const map = html.match(/<script type="importmap">([\s\S]*?)<\/script>/)[1];
  const hash = createHash('sha256').update(map).digest('base64');
  const csp = CSP.replace("script-src 'self'", `script-src 'self' 'sha256-${hash}'`);
  const type = (file) =>
    ({ '.mjs': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.css': 'text/css' })[
      path.extname(file)
    ];
  const serve = (prefix, dir) => (route) => {
    const file = path.join(dir, decodeURIComponent(new URL(route.request().url()).pathname.slice(prefix.length)));
    if (!existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    const headers = file.endsWith('.html') ? { 'Content-Security-Policy': csp } : {};
    return route.fulfill({ path: file, contentType: type(file), headers });
  };
  await page.route(`**${PACKAGE}**`, serve(PACKAGE, root));
  await page.route(`**${EXAMPLE}**`, serve(EXAMPLE, path.join(root, 'examples/own-data')));
  await page.goto(`${EXAMPLE}index.html`);
}

const luminance = (hex) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const rgbToHex = (rgb) =>
  '#' +
  rgb
    .match(/\d+/g)
    .slice(0, 3)
    .map((c) => Number(c).toString(16).padStart(2, '0'))
    .join('');

// [weight, colour] pairs sorted by weight: the colours' luminance must move one way only, span
// a real range, and no colour may be black.
function expectRamp(pairs, scheme) {
  const sorted = pairs.toSorted((a, b) => a[0] - b[0]);
  const lum = sorted.map(([, colour]) => luminance(colour));
  expect(
    sorted.filter(([, c]) => c === '#000000'),
    'no black cell',
  ).toEqual([]);
  for (let i = 1; i < lum.length; i++) {
    if (scheme === 'light') expect(lum[i], `weight ${sorted[i][0]}`).toBeLessThanOrEqual(lum[i - 1] + 1e-9);
    else expect(lum[i], `weight ${sorted[i][0]}`).toBeGreaterThanOrEqual(lum[i - 1] - 1e-9);
  }
  expect(Math.abs(lum.at(-1) - lum[0]), 'the colours span the ramp').toBeGreaterThan(0.1);
  // the low end is the panel: white-ish in light, dark in dark
  if (scheme === 'light') expect(lum[0]).toBeGreaterThan(0.8);
  else expect(lum[0]).toBeLessThan(0.2);
}

test('the example page is the fixture: examples/own-data/attention.json is tests/fixtures/own-attention.json', () => {
  const a = readFileSync(path.join(root, 'examples/own-data/attention.json'), 'utf8');
  expect(a).toBe(readFileSync(path.join(root, 'tests/fixtures/own-attention.json'), 'utf8'));
  expect(fixture).toMatchObject({ format: 'attention-explorer/attention', version: 1 });
  expect([fixture.weights.length, fixture.weights[0].length]).toEqual([2, 4]);
});

for (const scheme of ['light', 'dark']) {
  test(`own data, ${scheme}: heatmap, head view, head grid and pattern draw the 2 × 4 fixture alone`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await openExample(page);
    expect(await page.locator('attention-explorer').count()).toBe(0);
    const n = fixture.tokens.length;

    // Heatmap: layer 2, head 1 as its attributes say, every cell the file's weight.
    const heatmap = page.locator('#heatmap');
    await expect(heatmap.locator('rect.cell')).toHaveCount(n * n);
    await expect(heatmap.locator('.ae-hm-caption')).toHaveText('Layer 2, head 1');
    const cells = await heatmap
      .locator('rect.cell')
      .evaluateAll((rects) => rects.map((r) => [Number(r.dataset.value), r.getAttribute('fill')]));
    const expected = fixture.weights[1][0].flat();
    cells.forEach(([v], i) => expect(v).toBeCloseTo(expected[i], 4));
    expectRamp(cells, scheme);
    // Nothing covers the cells: the frame is an outline and the keyboard marker hidden (without
    // the element's own CSS they were black rectangles over the grid — the "solid black grid").
    const cover = await heatmap.locator('svg[aria-hidden]').evaluate((svg) => ({
      frame: getComputedStyle(svg.querySelector('rect.frame')).fill,
      marker: getComputedStyle(svg.querySelector('rect.marker')).display,
      highlight: getComputedStyle(svg.querySelector('rect.highlight')).display,
    }));
    expect(cover).toEqual({ frame: 'none', marker: 'none', highlight: 'none' });
    // Its labels and background follow the scheme too (the CSS is the element's own).
    const ink = await heatmap
      .locator('text.label')
      .first()
      .evaluate((t) => getComputedStyle(t).fill);
    expect(luminance(rgbToHex(ink)) > 0.5).toBe(scheme === 'dark');
    // The pickers choose another matrix.
    await heatmap.getByRole('combobox', { name: 'Head', exact: true }).selectOption({ label: 'Head 3' });
    await expect(heatmap.locator('.ae-hm-caption')).toHaveText('Layer 2, head 3');
    await expect(heatmap.locator('rect.cell').first()).toHaveAttribute(
      'data-value',
      String(Math.fround(fixture.weights[1][2][0][0])),
    );

    // Head view: a line to every key, weighted as the file says for the default query ("it").
    const view = page.locator('#head-view');
    await expect(view.locator('line:not(.ae-hv-overlay)')).toHaveCount(n);
    const from = fixture.tokens.indexOf('it');
    await expect(view).toHaveAttribute('data-from', String(from));
    const lines = await view
      .locator('line:not(.ae-hv-overlay)')
      .evaluateAll((ls) => ls.map((l) => [Number(l.dataset.weight), getComputedStyle(l).stroke]));
    lines.forEach(([w], j) => expect(w).toBeCloseTo(fixture.weights[0][0][from][j], 4));
    expect(lines.filter(([, stroke]) => stroke === 'rgb(0, 0, 0)')).toEqual([]);

    // Head grid: 2 rows of 4 thumbnails; a thumbnail's pixels are the ramp, not black.
    const grid = page.locator('#head-grid');
    await expect(grid).toHaveAttribute('data-shape', '2×4');
    await expect(grid.locator('button.ae-hg-thumb')).toHaveCount(8);
    const pixels = await grid
      .locator('button.ae-hg-thumb canvas')
      .first()
      .evaluate((canvas, size) => {
        const ctx = canvas.getContext('2d');
        const cell = canvas.width / size;
        const out = [];
        for (let i = 0; i < size; i++)
          for (let j = 0; j < size; j++) {
            const [r, g, b] = ctx.getImageData(j * cell + cell / 2, i * cell + cell / 2, 1, 1).data;
            out.push(`rgb(${r}, ${g}, ${b})`);
          }
        return out;
      }, n);
    expectRamp(
      pixels.map((c, i) => [fixture.weights[0][0].flat()[i], rgbToHex(c)]),
      scheme,
    );

    // Pattern: the query "it" chosen, every token shaded by its weight.
    const pattern = page.locator('#pattern');
    await expect(pattern.locator('.ae-ap-queries button.ae-ap-token')).toHaveCount(n);
    await expect(pattern).toHaveAttribute('data-from', String(from));
    const shades = await pattern.locator('.ae-ap-queries button.ae-ap-token').evaluateAll((bs) => {
      // color-mix() computes to oklab(…): painted on a canvas, read back as sRGB
      const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      return bs.map((b) => {
        ctx.fillStyle = getComputedStyle(b).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, bl] = ctx.getImageData(0, 0, 1, 1).data;
        return [Number(b.dataset.weight), `rgb(${r}, ${g}, ${bl})`];
      });
    });
    shades.forEach(([w], j) => expect(w).toBeCloseTo(fixture.weights[0][0][from][j], 4));
    expectRamp(
      shades.map(([w, c]) => [w, rgbToHex(c)]),
      scheme,
    );
    // Choosing another query and head redraws from the file.
    await pattern.locator('.ae-ap-queries button.ae-ap-token').nth(1).click();
    await pattern.getByRole('combobox', { name: 'Head', exact: true }).selectOption({ label: '4' });
    await expect(pattern).toHaveAttribute('data-head', '3');
    const weight = await pattern.locator('.ae-ap-queries button.ae-ap-token').nth(0).getAttribute('data-weight');
    expect(Number(weight)).toBeCloseTo(fixture.weights[0][3][1][0], 4);
    // No model, no engine: the page fetched its modules and the one attention file, nothing else.
    expect(fetched.filter((p) => /\/models\/|\.wasm$/.test(p))).toEqual([]);
    expect(fetched.filter((p) => p.endsWith('.json'))).toEqual(Array(4).fill(`${EXAMPLE}attention.json`));
    await expectNoSeriousAxeViolations(page); // contrast of the labels, tokens and pickers in this scheme
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/own-data-${scheme}.png`, fullPage: true });
  });
}

test('bad data: the error shows in that element only (and as ae-error); the others keep drawing', async ({ page }) => {
  await openExample(page);
  const n = fixture.tokens.length;
  await expect(page.locator('#heatmap rect.cell')).toHaveCount(n * n);
  await expect(page.locator('#head-view line:not(.ae-hv-overlay)')).toHaveCount(n);
  const errors = await page.evaluate(() => {
    const seen = [];
    document.addEventListener('ae-error', (e) => seen.push([e.target.id, e.detail.key, e.detail.message]));
    // 3 tokens but rows of 2 keys
    document.getElementById('heatmap').data = {
      tokens: ['a', 'b', 'c'],
      weights: [
        [
          [
            [0.5, 0.5],
            [0.5, 0.5],
            [0.5, 0.5],
          ],
        ],
      ],
    };
    document.getElementById('head-view').data = {
      tokens: ['a', 'b'],
      weights: [
        [
          [
            [0.5, 2],
            [1, 0],
          ],
        ],
      ],
    };
    return seen;
  });
  expect(errors).toEqual([
    ['heatmap', 'dataError', 'weights[0][0][0] has 2 keys, expected 3 (the number of key tokens)'],
    [
      'head-view',
      'dataError',
      'weights[0][0][0][1] is 2: attention weights must be numbers from 0 to 1 (after softmax)',
    ],
  ]);
  const heatmap = page.locator('#heatmap');
  await expect(heatmap.getByRole('alert')).toHaveText(/Cannot draw this attention: weights\[0\]\[0\]\[0\] has 2 keys/);
  await expect(heatmap).toHaveAttribute('data-state', 'error');
  await expect(heatmap.locator('rect.cell')).toHaveCount(0); // no grid drawn from bad values
  await expect(heatmap.locator('.ae-hm-plot')).toBeHidden();
  const view = page.locator('#head-view');
  await expect(view.getByRole('alert')).toHaveText(/weights\[0\]\[0\]\[0\]\[1\] is 2/);
  await expect(view.locator('.ae-hv-board')).toBeHidden();
  // The other two are untouched.
  await expect(page.locator('#head-grid button.ae-hg-thumb')).toHaveCount(8);
  await expect(page.locator('#pattern .ae-ap-queries button.ae-ap-token')).toHaveCount(n);
  for (const id of ['head-grid', 'pattern'])
    await expect(page.locator(`#${id}`)).not.toHaveAttribute('data-state', 'error');
  // Good data again clears the error: a flat Float32Array with its shape.
  await page.evaluate(() => {
    document.getElementById('heatmap').data = {
      queryTokens: ['x', 'y'],
      keyTokens: ['a', 'b', 'c'],
      weights: new Float32Array([0.2, 0.3, 0.5, 1, 0, 0]),
      shape: [1, 1, 2, 3],
    };
  });
  await expect(heatmap.locator('rect.cell')).toHaveCount(6);
  await expect(heatmap.getByRole('alert')).toHaveText('');
  await expect(heatmap).not.toHaveAttribute('data-state', 'error');
});

test.describe(() => {
  test.use({ expectedErrors: [/status of 404/] });
  test('a src that does not load is an error in that element', async ({ page }) => {
    await openExample(page);
    await page.evaluate(() => document.getElementById('pattern').setAttribute('src', 'missing.json'));
    await expect(page.locator('#pattern').getByRole('alert')).toHaveText(/could not load .*missing\.json: HTTP 404/);
    await expect(page.locator('#heatmap rect.cell')).toHaveCount(fixture.tokens.length ** 2);
  });
});

test('cross-attention (query tokens ≠ key tokens) in the heatmap, head view, head grid and pattern', async ({
  page,
}) => {
  await openExample(page);
  await expect(page.locator('#heatmap rect.cell')).toHaveCount(fixture.tokens.length ** 2);
  await page.evaluate(() => {
    const data = {
      queryTokens: ['le', 'chat'],
      keyTokens: ['the', 'black', 'cat'],
      weights: [
        [
          [
            [0.8, 0.1, 0.1],
            [0.05, 0.15, 0.8],
          ],
        ],
        [
          [
            [0.3, 0.3, 0.4],
            [0.2, 0.2, 0.6],
          ],
        ],
      ],
      labels: { layers: ['enc-dec 1', 'enc-dec 2'], heads: ['cross'] },
    };
    for (const id of ['heatmap', 'head-view', 'head-grid', 'pattern']) document.getElementById(id).data = data;
  });
  const heatmap = page.locator('#heatmap');
  await expect(heatmap.locator('rect.cell')).toHaveCount(6);
  expect(await heatmap.locator('text.label').allTextContents()).toEqual(['le', 'chat', 'the', 'black', 'cat']);
  await expect(heatmap.getByRole('combobox', { name: 'Layer', exact: true })).toHaveValue('2'); // layer="2" kept
  await expect(heatmap.locator('.ae-hm-caption')).toHaveText('Layer enc-dec 2, head cross');
  const view = page.locator('#head-view');
  await expect(view.locator('line:not(.ae-hv-overlay)')).toHaveCount(3);
  await expect(view.locator('.ae-hv-keys .ae-hv-token')).toHaveText(['the', 'black', 'cat']);
  await expect(view.locator('.ae-hv-queries .ae-hv-token')).toHaveText(['le', 'chat']);
  await expect(view.locator('.ae-hv-readout')).toContainText('cat'); // "chat" (the last query) → cat
  await expect(page.locator('#head-grid')).toHaveAttribute('data-shape', '2×1');
  const pattern = page.locator('#pattern');
  await expect(pattern.locator('.ae-ap-keys .ae-ap-token')).toHaveText(['the', 'black', 'cat']);
  await expect(pattern.locator('.ae-ap-keys .ae-ap-token').nth(2)).toHaveAttribute('data-weight', /^0\.8/);
  // Its pickers: the layers by the data's names; one head, so no head picker.
  const patternLayer = pattern.getByRole('combobox', { name: 'Layer', exact: true });
  await expect(patternLayer.locator('option')).toHaveText(['enc-dec 1', 'enc-dec 2']);
  await expect(pattern.getByRole('combobox', { name: 'Head', exact: true })).toBeHidden();
  await patternLayer.selectOption({ label: 'enc-dec 2' });
  await expect(pattern).toHaveAttribute('data-layer', '1');
  await expect(pattern.locator('.ae-ap-keys .ae-ap-token').nth(2)).toHaveAttribute('data-weight', /^0\.6/);
});
