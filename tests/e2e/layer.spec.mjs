// End-to-end tests of <ae-layer> (the Transformer layer): every shown stage vector and norm
// equals the trace the engine API returns for the same run (layers[l].stages / stageNorms,
// computed here with a separately loaded engine: exact, the same wasm computes both); the
// default word agrees across the head view, Q·K·V, multi-head and layer panels; keyboard and
// pointer readouts; the "in parallel" counts; a 375 px screen, the language switch, and axe.
import fs from 'node:fs';
import { AxeBuilder, openAt } from './fixtures.mjs';
import { SHOTS, app, chooseModel, expect, expectRendered, openPage, test } from './fixtures.mjs';
import strings from '../../web/strings/layer.mjs';

const shipped = fs.existsSync('web/models/coref-encoder/config.json');
const PRE = ['input', 'norm1', 'attention', 'residual1', 'norm2', 'ffnHidden', 'ffn', 'output'];

// The main panel's run recomputed from what #app publishes: the stages of every layer.
async function apiStages(page) {
  const state = await app(page).evaluate((el) => ({ ...el.dataset }));
  return page.evaluate(async ({ model: name, run, text, config }) => {
    const { loadEngine } = await import('/lib/engine.mjs');
    const engine = await loadEngine();
    const trained = name !== 'untrained';
    const model = trained
      ? await engine.fetchTrainedModel(new URL(`/models/${name}/`, location.href))
      : engine.createRandomModel(JSON.parse(config));
    try {
      const r = trained ? model.analyze(text, JSON.parse(run)) : model.run(text, JSON.parse(run));
      const s = (a) => Array.from(a, String);
      return {
        tokens: r.tokens,
        n: r.n,
        norm: model.config.norm,
        nLayers: r.layers.length,
        layers: r.layers.map((l) => ({
          stages: Object.fromEntries(Object.entries(l.stages).map(([k, v]) => [k, s(v)])),
          norms: Object.fromEntries(Object.entries(l.stageNorms).map(([k, v]) => [k, s(v)])),
        })),
      };
    } finally {
      model.delete();
    }
  }, state);
}

const rowOf = (flat, r, width) => flat.slice(r * width, (r + 1) * width);

// Every stage row of the panel against the API's trace for word i of layer l.
async function expectStagesMatch(panel, api, l, i) {
  await expect(panel).toHaveAttribute('data-layer', String(l));
  await expect(panel).toHaveAttribute('data-token', String(i));
  const rows = await panel.locator('li[data-stage]').evaluateAll((lis) =>
    lis.map((li) => ({
      ...li.dataset,
      values: JSON.parse(li.querySelector('svg.ae-strip').dataset.values),
      text: li.querySelector('.ae-layer-norm').textContent,
    })),
  );
  expect(rows.map((r) => r.stage)).toEqual(PRE); // the shipped and the page's random models are pre-LN
  const { stages, norms } = api.layers[l];
  for (const row of rows) {
    const width = stages[row.stage].length / api.n;
    expect(row.values, `${row.stage} values`).toEqual(rowOf(stages[row.stage], i, width));
    expect(row.norm, `${row.stage} norm`).toBe(norms[row.stage][i]);
    expect(row.text).toContain(Number(norms[row.stage][i]).toFixed(3));
  }
  const d = stages.input.length / api.n;
  expect(rows.find((r) => r.stage === 'ffnHidden').values).toHaveLength(4 * d); // the FFN is 4× wide
  expect(rows.find((r) => r.stage === 'norm1').values).toHaveLength(d);
}

test.describe('with the coreference model', () => {
  test.skip(!shipped, 'coref-encoder is not in web/models');

  test('every stage and norm is the trace’s, and all panels start on the same word', async ({ page }) => {
    const panel = await openAt(page, 'ae-layer', { model: 'coref-encoder' });
    const api = await apiStages(page);
    expect(api.norm).toBe('pre');
    const it = api.tokens.indexOf('it');
    expect(it).toBeGreaterThan(0);
    // The default word: the first "it", in the head view, Q·K·V, multi-head and layer panels.
    await expect(page.locator('ae-head-view')).toHaveAttribute('data-from', String(it));
    // (Each is scrolled to first: off screen these panels wait to redraw, see StoreElement.)
    for (const tag of ['ae-qkv-steps', 'ae-multi-head']) {
      await page.locator(tag).scrollIntoViewIfNeeded();
      await expect(page.locator(tag)).toHaveAttribute('data-query', String(it));
    }
    await panel.scrollIntoViewIfNeeded();
    await expect(panel).toHaveAttribute('data-token', String(it));
    await expect(panel).toHaveAttribute('data-norm', 'pre');
    await expect(panel.locator('.ae-layer-placement')).toHaveText(strings.en.pre);
    const layer = Number((await app(page).getAttribute('data-layer')) ?? 0);
    await expectStagesMatch(panel, api, layer, it);

    // "In parallel": 1 step for all n×n scores vs n RNN steps, with this sentence's n.
    const parallel = panel.locator('.ae-layer-parallel');
    await expect(parallel).toHaveAttribute('data-n', String(api.n));
    await expect(parallel).toHaveAttribute('data-scores', String(api.n * api.n));
    await expect(parallel).toContainText(`${api.n} × ${api.n} = ${api.n * api.n}`);

    // Another layer and another word, chosen in the panel: the store follows (the head view too).
    await panel
      .locator('select')
      .nth(1)
      .selectOption(String(api.nLayers - 1));
    await panel.locator('select').first().selectOption('1');
    await expectStagesMatch(panel, api, api.nLayers - 1, 1);
    await expect(page.locator('ae-head-view')).toHaveAttribute('data-from', '1');
    await page.locator('ae-qkv-steps').scrollIntoViewIfNeeded();
    await expect(page.locator('ae-qkv-steps')).toHaveAttribute('data-query', '1');
    await panel.scrollIntoViewIfNeeded();
    await expect(panel.locator('.ae-layer-stack')).toHaveText(strings.en.stackLast.replace('{n}', api.nLayers));

    // Keyboard: the stages are one tab stop; the focused one spells out its exact values.
    await panel.locator('li[data-stage][tabindex="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await expect(panel.locator('li[data-stage="norm1"]')).toBeFocused();
    const readout = panel.locator('.ae-layer-readout');
    await expect(readout).toHaveAttribute('data-stage', 'norm1');
    const norm1 = rowOf(api.layers[api.nLayers - 1].stages.norm1, 1, api.layers[0].stages.input.length / api.n);
    expect(JSON.parse(await readout.getAttribute('data-values'))).toEqual(norm1);
    await expect(readout).toContainText(Number(norm1[0]).toFixed(4).replace(/^-/, '\u2212'));
    await page.keyboard.press('End');
    await expect(readout).toHaveAttribute('data-stage', 'output');
    // Pointing at a stage shows it too.
    await panel.locator('li[data-stage="ffnHidden"]').hover();
    await expect(readout).toHaveAttribute('data-stage', 'ffnHidden');
    expect(JSON.parse(await readout.getAttribute('data-values'))).toHaveLength(
      api.layers[0].stages.ffnHidden.length / api.n,
    );
  });
});

test('untrained model: a new sentence redraws the stages from its own trace', async ({ page }) => {
  await openPage(page);
  const text = 'a cat sat on the warm mat';
  await page.locator('#sentence').fill(text);
  await expectRendered(page, text);
  const panel = page.locator('ae-layer');
  await panel.scrollIntoViewIfNeeded();
  const api = await apiStages(page);
  expect(api.tokens).not.toContain('it');
  // No "it": every panel starts on the last word.
  await expect(panel).toHaveAttribute('data-token', String(api.n - 1));
  await expect(page.locator('ae-head-view')).toHaveAttribute('data-from', String(api.n - 1));
  // The heavy panels catch up when they come near the window (StoreElement.redrawWhenVisible).
  for (const name of ['ae-qkv-steps', 'ae-multi-head']) {
    await page.locator(name).scrollIntoViewIfNeeded();
    await expect(page.locator(name)).toHaveAttribute('data-query', String(api.n - 1));
  }
  await panel.scrollIntoViewIfNeeded();
  await expectStagesMatch(panel, api, 0, api.n - 1);
  await expect(panel.locator('.ae-layer-parallel')).toContainText(`${api.n} × ${api.n} = ${api.n * api.n}`);
});

test('Q, K, V step 0 says when q and k are rotated by RoPE', async ({ page }) => {
  await openPage(page, '/?model=untrained&pos=rope');
  const qkv = page.locator('ae-qkv-steps');
  await qkv.scrollIntoViewIfNeeded(); // off screen it waits to redraw (StoreElement.redrawWhenVisible)
  await expect(qkv).toHaveAttribute('data-rope', 'true');
  await expect(qkv.locator('.ae-qkv-zero-text')).toContainText('RoPE');
  await page.locator('#positional').selectOption('sinusoidal');
  await qkv.scrollIntoViewIfNeeded();
  await expect(qkv).toHaveAttribute('data-rope', 'false');
  await expect(qkv.locator('.ae-qkv-zero-text')).not.toContainText('RoPE');
});

test('the layer panel switches language, fits a 375 px screen and passes axe', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await openPage(page);
  if (shipped) await chooseModel(page, 'coref-encoder');
  const panel = page.locator('ae-layer');
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.locator('h2')).toHaveText(strings.en.title);
  // The section's id must not clash with the main panel's #layer selector: ids are unique.
  const duplicates = await page.evaluate(() => {
    // every element's id, those in the panels' shadow roots included
    const all = (root) =>
      [...root.querySelectorAll('*')].flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
    const ids = all(document)
      .filter((e) => e.id)
      .map((e) => e.id);
    return ids.filter((id, k) => ids.indexOf(id) !== k);
  });
  expect(duplicates).toEqual([]);
  await expect(page.locator('#toc a[href="#transformer-layer"]')).toHaveText('The Transformer layer');
  await page.locator('#toc a[href="#transformer-layer"]').click();
  await expect(page.locator('#transformer-layer')).toBeInViewport();
  await page.locator('#lang').click();
  await expect(panel.locator('h2')).toHaveText(strings.zh.title);
  await expect(page.locator('#toc a[href="#transformer-layer"]')).toHaveText('Transformer 层');
  await expect(panel.locator('.ae-layer-placement')).toHaveText(strings.zh.pre);
  await expect(panel.locator('li[data-stage="ffnHidden"] .ae-layer-stage-name')).toContainText(
    strings.zh.stage.ffnHidden,
  );
  await expect(panel.locator('.ae-layer-parallel')).toContainText('步');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const box = await panel.boundingBox();
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await panel.screenshot({ path: `${SHOTS}/layer-375.png` });
  const { violations } = await new AxeBuilder({ page }).include('ae-layer').analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, 'axe: serious or critical violations in the layer panel').toEqual([]);
  await page.locator('#lang').click();
  await expect(panel.locator('h2')).toHaveText(strings.en.title);
});
