// End-to-end tests of the explorer's shared state: the URL round-trips the view (model, sentence,
// layer, head, switches, and the untrained model's recipe), and <ae-head-grid> focuses heads
// through the store. Shown numbers are checked against a separately loaded engine.
import fs from 'node:fs';
import {
  SHOTS,
  apiAll,
  apiView,
  app,
  chooseModel,
  expect,
  expectCellsMatchApi,
  expectRendered,
  openPage,
  shownCells,
  test,
  newPageAt,
} from './fixtures.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';

const WIDE = PAIR.wide;
const shipped = fs.existsSync('web/models/index.json')
  ? JSON.parse(fs.readFileSync('web/models/index.json', 'utf8')).models.map((m) => m.name)
  : [];

// What #app publishes about the view, and the cells as shown.
async function view(page) {
  const data = await app(page).evaluate((el) => ({ ...el.dataset }));
  const { model, text, run, layer, head } = data;
  const config = model === 'untrained' ? data.config : null; // a trained model's own config is its name
  return { model, text, run, layer, head, config, cells: await shownCells(page) };
}

// The page writes the URL shortly after a change (history calls are throttled by browsers).
async function settledUrl(page, params) {
  await expect
    .poll(() => {
      const search = new URL(page.url()).searchParams;
      return Object.keys(params).every((key) => search.get(key) === params[key]);
    })
    .toBe(true);
  return page.url();
}

test.describe('trained models', () => {
  test.skip(!shipped.includes('coref-encoder'), 'coref-encoder is not in web/models');

  test('the URL round-trips model, sentence, layer, head and switches', async ({ page, context }) => {
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    await page.locator('#sentence').fill(WIDE);
    await expectRendered(page, WIDE);
    await page.locator('#layer').selectOption('1');
    await page.locator('#head').selectOption('3');
    await page.locator('#scale').uncheck();
    await page.locator('#causal').check();
    await expect(app(page)).toHaveAttribute('data-run', '{"causal":true,"scale":false}');
    const url = await settledUrl(page, {
      model: 'coref-encoder',
      s: WIDE,
      layer: '2',
      head: '4',
      causal: '1',
      scale: '0',
    });
    const before = await view(page);

    const other = await newPageAt(context, url);
    await expect(app(other)).toHaveAttribute('data-model', 'coref-encoder');
    await expectRendered(other, WIDE);
    await expect(other.locator('#sentence')).toHaveValue(WIDE);
    await expect(other.locator('#causal')).toBeChecked();
    await expect(other.locator('#scale')).not.toBeChecked();
    const after = await view(other);
    expect(after).toEqual(before);
    await expectCellsMatchApi(other);
  });

  test('the head grid shows every layer × head and focuses the one chosen', async ({ page }) => {
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    const api = await apiView(page);
    const thumbs = page.locator('ae-head-grid button.ae-hg-thumb');
    await expect(thumbs).toHaveCount(api.nLayers * api.nHeads);
    // The coreference head is focused on load, and pressed in the grid.
    const { layer, head } = await app(page).evaluate((el) => ({ ...el.dataset }));
    await expect(page.locator(`ae-head-grid button[data-layer="${layer}"][data-head="${head}"]`)).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await page.getByRole('button', { name: 'Layer 1, head 2', exact: true }).click();
    await expect(app(page)).toHaveAttribute('data-layer', '0');
    await expect(app(page)).toHaveAttribute('data-head', '1');
    await expect(page.locator('#layer')).toHaveValue('0');
    await expect(page.locator('#head')).toHaveValue('1');
    await expect(page.locator('ae-head-grid [aria-pressed="true"]')).toHaveCount(1);
    await expectCellsMatchApi(page);
    expect(new URL(await settledUrl(page, { layer: '1', head: '2' })).searchParams.get('model')).toBe('coref-encoder');

    // Keyboard: one tab stop; arrows move, Enter selects.
    await expect(page.locator('ae-head-grid button[tabindex="0"]')).toHaveCount(1);
    await page.locator('ae-head-grid button[tabindex="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(app(page)).toHaveAttribute('data-layer', '1');
    await expect(app(page)).toHaveAttribute('data-head', '2');
    await expect(page.locator('ae-head-grid button[data-layer="1"][data-head="2"]')).toBeFocused();
    await expectCellsMatchApi(page);

    // The selectors drive the grid too.
    await page.locator('#head').selectOption('3');
    await expect(page.locator('ae-head-grid button[data-layer="1"][data-head="3"]')).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});

test('the URL round-trips the untrained model’s recipe and view', async ({ page, context }) => {
  await openPage(page);
  await page.locator('#heads').selectOption('8');
  await page.locator('#positional').selectOption('rope');
  await page.locator('#seed').fill('7');
  await expect(app(page)).toHaveAttribute('data-config', /"seed":7/);
  await page.locator('#layer').selectOption('1');
  await page.locator('#head').selectOption('5');
  await page.locator('#causal').check();
  await expect(app(page)).toHaveAttribute('data-run', '{"causal":true,"scale":true}');
  const url = await settledUrl(page, {
    model: 'untrained',
    heads: '8',
    pos: 'rope',
    seed: '7',
    layer: '2',
    head: '6',
    causal: '1',
  });
  const before = await view(page);

  const other = await newPageAt(context, url);
  await expect(app(other)).toHaveAttribute('data-status', 'ready');
  await expect(app(other)).toHaveAttribute('data-head', '5');
  expect(await view(other)).toEqual(before);
  const api = await expectCellsMatchApi(other);
  await expect(other.locator('ae-head-grid button.ae-hg-thumb')).toHaveCount(api.nLayers * api.nHeads);
  expect(api.nHeads).toBe(8);
});

test('a malformed link falls back to the defaults without errors', async ({ page }) => {
  await page.goto('/?model=untrained&layer=x&head=99&causal=maybe&heads=3&seed=-1');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(app(page)).toHaveAttribute('data-model', 'untrained');
  await expect(app(page)).toHaveAttribute('data-head', '0');
  await expectCellsMatchApi(page);
  // An unknown model opens the lesson's default model instead.
  await page.goto('/?model=nope');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder');
  await expectCellsMatchApi(page);
});

test('screenshots of the head grid: desktop and 375 px', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page);
  if (shipped.includes('coref-encoder')) await chooseModel(page, 'coref-encoder');
  await page.screenshot({ path: `${SHOTS}/explorer.png`, fullPage: true });
  await page.locator('#overview').screenshot({ path: `${SHOTS}/head-grid.png` });
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: `${SHOTS}/explorer-375.png`, fullPage: true });
});

// --- <ae-head-view> ---

const LESSON = PAIR.tired;
const corefHead = () => JSON.parse(fs.readFileSync('web/models/coref-encoder/config.json', 'utf8')).coreference_head;

// The selected query's row in analyze() for the head the page shows.
async function apiRow(page, from) {
  const state = await app(page).evaluate((el) => ({ ...el.dataset }));
  return page.evaluate(
    async ({ model: name, run, text, layer, head, from }) => {
      const { loadEngine } = await import('/lib/engine.mjs');
      const engine = await loadEngine();
      const model = await engine.fetchTrainedModel(new URL(`/models/${name}/`, location.href));
      try {
        const result = model.analyze(text, JSON.parse(run));
        const w = result.layers[Number(layer)].selfAttention.heads[Number(head)].weights;
        return { tokens: result.tokens, row: Array.from(w.subarray(from * result.n, (from + 1) * result.n), String) };
      } finally {
        model.delete();
      }
    },
    { ...state, from },
  );
}

// The lines as shown: [{to, weight}] and the token each points at.
async function shownLines(page) {
  return page
    .locator('ae-head-view line')
    .evaluateAll((lines) =>
      lines.map((l) => ({ from: Number(l.dataset.from), to: Number(l.dataset.to), weight: l.dataset.weight })),
    );
}

test.describe('head view', () => {
  test.skip(!shipped.includes('coref-encoder'), 'coref-encoder is not in web/models');

  test('“it” draws its thickest line to animal when tired, to street when wide; weights equal analyze()', async ({
    page,
  }) => {
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    await expectRendered(page, LESSON);
    const { layer, head } = corefHead();
    await expect(app(page)).toHaveAttribute('data-layer', String(layer));
    await expect(app(page)).toHaveAttribute('data-head', String(head));
    const view = page.locator('ae-head-view');
    const it = view.getByRole('button', { name: /^it \(word \d+\)$/ });
    await it.hover();
    await expect(it).toHaveAttribute('aria-pressed', 'true');

    for (const [text, referent] of [
      [LESSON, 'animal'],
      [LESSON.replace('tired', 'wide'), 'street'],
    ]) {
      await page.locator('#sentence').fill(text);
      await expectRendered(page, text);
      const from = Number(await it.getAttribute('data-index'));
      const api = await apiRow(page, from);
      expect(api.tokens[from]).toBe('it');
      await expect(page.locator('ae-head-view line')).toHaveCount(api.tokens.length);
      const lines = await shownLines(page);
      expect(lines.every((l) => l.from === from)).toBe(true);
      expect(lines.map((l) => l.weight)).toEqual(api.row);
      const thickest = lines.reduce((a, b) => (Number(b.weight) > Number(a.weight) ? b : a));
      expect(api.tokens[thickest.to], text).toBe(referent);
      await expect(view).toHaveAttribute('data-strongest', String(thickest.to));
      await expect(view.locator('.ae-hv-readout')).toContainText(`“it” attends most to “${referent}”`);
    }
    await page.locator('#overview').scrollIntoViewIfNeeded();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.locator('#lines').screenshot({ path: `${SHOTS}/head-view.png` });
  });

  test('keyboard: arrows move the selected query, and the lines follow the head grid', async ({ page }) => {
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    const view = page.locator('ae-head-view');
    await view.locator('button[tabindex="0"]').focus();
    const start = Number(await view.getAttribute('data-from'));
    await page.keyboard.press('ArrowUp');
    await expect(view).toHaveAttribute('data-from', String(start - 1));
    await expect(view.locator(`button[data-index="${start - 1}"]`)).toBeFocused();
    await page.getByRole('button', { name: 'Layer 1, head 3', exact: true }).click();
    await expect(view).toHaveAttribute('data-layer', '0');
    await expect(view).toHaveAttribute('data-head', '2');
    // apiRow reads the head from the main view, which follows the shared store on its own update:
    // wait until it shows the grid's head too (it may lag the head view by a frame).
    await expect(app(page)).toHaveAttribute('data-layer', '0');
    await expect(app(page)).toHaveAttribute('data-head', '2');
    const api = await apiRow(page, start - 1);
    await expect.poll(async () => (await shownLines(page)).map((l) => l.weight)).toEqual(api.row);
  });
});

test('the head grid and head view switch language with the page', async ({ page }) => {
  await openPage(page);
  await expect(page.getByRole('button', { name: 'Layer 1, head 2', exact: true })).toBeVisible();
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('#overview h2')).toHaveText('所有注意力头');
  await expect(page.getByRole('button', { name: '第 1 层，第 2 个头', exact: true })).toBeVisible();
  await expect(page.locator('ae-head-view .ae-hv-readout')).toContainText('最关注');
  await expect(page.locator('ae-head-view .ae-hv-caption')).toHaveText(/^第 \d 层，第 \d 个头$/);
  await page.emulateMedia({ colorScheme: 'dark' });
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/explorer-dark-zh.png`, fullPage: true });
});

test('the URL keeps the head view’s selected word', async ({ page, context }) => {
  test.skip(!shipped.includes('coref-encoder'), 'coref-encoder is not in web/models');
  await openPage(page);
  await chooseModel(page, 'coref-encoder');
  const view = page.locator('ae-head-view');
  await view.getByRole('button', { name: 'was (word 10)', exact: true }).hover();
  await expect(view).toHaveAttribute('data-from', '9');
  const url = await settledUrl(page, { model: 'coref-encoder', tok: '10' });
  const lines = await shownLines(page);

  const other = await newPageAt(context, url);
  await expect(app(other)).toHaveAttribute('data-status', 'ready');
  await expect(other.locator('ae-head-view')).toHaveAttribute('data-from', '9');
  expect(await shownLines(other)).toEqual(lines);
});

// Each thumbnail shows its head's weights: every cell's colour is the panel colour moved toward the
// high end of the ramp by that weight (±2 levels per channel for rounding), as the API computes them;
// in the dark scheme too, to which the grid repaints when the scheme changes.
test('the head grid’s thumbnails are painted from each head’s weights, light and dark', async ({ page }) => {
  await openPage(page);
  const api = await apiAll(page);
  await expect(page.locator('ae-head-grid button.ae-hg-thumb')).toHaveCount(api.layers.length * api.layers[0].length);
  const light = await thumbnails(page);
  expect(light.thumbs).toHaveLength(api.layers.length * api.layers[0].length);
  expect(misPainted(light, api)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => (await thumbnails(page)).colours).not.toEqual(light.colours);
  const dark = await thumbnails(page);
  expect(misPainted(dark, api)).toEqual([]);
});

// The ramp's ends as #rrggbb and each thumbnail's pixels.
function thumbnails(page) {
  return page.locator('ae-head-grid').evaluate((grid) => {
    const style = getComputedStyle(grid);
    const ctx = document.createElement('canvas').getContext('2d'); // reads any CSS colour as #rrggbb
    const colours = ['--ae-heat-0', '--ae-heat-2'].map((name) => {
      ctx.fillStyle = style.getPropertyValue(name).trim();
      return ctx.fillStyle;
    });
    const thumbs = [...(grid.shadowRoot ?? grid).querySelectorAll('button.ae-hg-thumb')].map((button) => {
      const canvas = button.querySelector('canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      return {
        layer: Number(button.dataset.layer),
        head: Number(button.dataset.head),
        size: canvas.width,
        data: [...data],
      };
    });
    return { colours, thumbs };
  });
}

// The cells whose colour is not the one their weight gives.
function misPainted(shown, api) {
  const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const [low, high] = shown.colours.map(rgb);
  const wrong = [];
  for (const { layer, head, size, data } of shown.thumbs) {
    const cell = size / api.n;
    api.layers[layer][head].forEach((row, i) =>
      row.forEach((w, j) => {
        const at = 4 * (Math.floor((i + 0.5) * cell) * size + Math.floor((j + 0.5) * cell));
        const expected = low.map((c, k) => c + (high[k] - c) * w);
        if (expected.some((c, k) => Math.abs(data[at + k] - c) > 2)) wrong.push({ layer, head, i, j, w });
      }),
    );
  }
  return wrong;
}
