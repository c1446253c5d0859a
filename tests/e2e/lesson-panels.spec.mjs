// End-to-end tests of lesson panels 2, 4 and 5: <ae-qkv-steps>, <ae-scaling>, <ae-multi-head>.
// Every shown number is compared with what the engine API returns for the same input,
// computed here with a separately loaded engine (exact: the same wasm computes both);
// plus keyboard use, the language switch, a 375 px screen and an axe scan of the panels.
import fs from 'node:fs';
import { AxeBuilder, openAt } from './fixtures.mjs';
import { SHOTS, app, chooseModel, evaluateOnModel, expect, openPage, test } from './fixtures.mjs';
import qkvStrings from '../../web/strings/qkv-steps.mjs';
import scalingStrings from '../../web/strings/scaling.mjs';
import multiHeadStrings from '../../web/strings/multi-head.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';

const LESSON = PAIR.tired;
const shipped = fs.existsSync('web/models/coref-encoder/config.json');
const fixed = (x, digits = 3) => Number(x).toFixed(digits).replace(/^-/, '\u2212');

// The main panel's run recomputed from what #app publishes (model, run options, text).
async function apiRun(page) {
  const state = await app(page).evaluate((el) => ({ ...el.dataset }));
  return evaluateOnModel(
    page,
    state.model,
    ({ engine, model }, { run, text, layer, head }) => {
      const r = model.analyze(text, JSON.parse(run));
      const l = Number(layer),
        h = Number(head);
      const at = r.layers[l].selfAttention;
      const s = (a) => Array.from(a, String);
      return {
        tokens: r.tokens,
        n: r.n,
        layer: l,
        head: h,
        heads: at.heads.map((x) => ({
          q: s(x.q),
          k: s(x.k),
          v: s(x.v),
          raw: s(x.rawScores),
          scaled: s(x.scaledScores),
          weights: s(x.weights),
          output: s(x.output),
        })),
        concat: s(at.concat),
        output: s(at.output),
        x: s(r.layers[l].stages.norm1), // pre-LN: x = LN₁(layer input)
        params: engine.attentionParameterCount(at.concat.length / r.n, at.heads.length),
        oneHead: engine.attentionParameterCount(at.concat.length / r.n, 1),
      };
    },
    state,
  );
}

const rowOf = (flat, r, width) => flat.slice(r * width, (r + 1) * width);

test.describe('with the coreference model', () => {
  test.skip(!shipped, 'coref-encoder is not in web/models');

  test('Q, K, V steps show the trace of the selected word and mark its heatmap cell', async ({ page }) => {
    const panel = await openAt(page, 'ae-qkv-steps', { model: 'coref-encoder' });
    const api = await apiRun(page);
    const it = api.tokens.indexOf('it');
    await expect(panel).toHaveAttribute('data-query', String(it)); // default: "it"
    await expect(panel).toHaveAttribute('data-layer', String(api.layer));
    await expect(panel).toHaveAttribute('data-head', String(api.head));
    const head = api.heads[api.head];
    const d = head.q.length / api.n;
    await expect(panel).toHaveAttribute('data-d', String(d));

    const check = async (i) => {
      const rows = panel.locator('tbody tr');
      await expect(rows).toHaveCount(api.n);
      const shown = await rows.evaluateAll((trs) =>
        trs.map((tr) => ({ ...tr.dataset, text: [...tr.cells].map((c) => c.textContent) })),
      );
      shown.forEach((row, j) => {
        expect(row.raw, `q·k of key ${j}`).toBe(head.raw[i * api.n + j]);
        expect(row.scaled, `÷√d of key ${j}`).toBe(head.scaled[i * api.n + j]);
        expect(row.weight, `weight of key ${j}`).toBe(head.weights[i * api.n + j]);
        expect(row.text[0]).toBe(api.tokens[j]);
        expect(row.text[2]).toBe(fixed(head.raw[i * api.n + j]));
        expect(row.text[3]).toBe(fixed(head.scaled[i * api.n + j]));
        expect(row.text[4]).toBe(fixed(head.weights[i * api.n + j]));
      });
      const strips = await panel
        .locator('tbody svg.ae-strip')
        .evaluateAll((svgs) => svgs.map((s) => JSON.parse(s.dataset.values)));
      strips.forEach((values, idx) => {
        const j = Math.floor(idx / 2);
        expect(values).toEqual(rowOf(idx % 2 ? head.v : head.k, j, d));
      });
      const [q, out] = await panel
        .locator('code.ae-qkv-values[data-values]')
        .evaluateAll((c) => c.map((x) => JSON.parse(x.dataset.values)));
      expect(q).toEqual(rowOf(head.q, i, d));
      expect(out).toEqual(rowOf(head.output, i, d));
    };
    await check(it);

    // The formula, and step 0: x (the layer input after LayerNorm: the model is pre-LN) and the
    // q, k, v this head makes from it, all from the trace.
    await expect(panel.locator('.ae-qkv-formula code')).toHaveText(
      'Attention(Q, K, V) = softmax(QK\u1d40 / \u221ad_k) \u00b7 V',
    );
    await expect(panel).toHaveAttribute('data-norm', 'pre');
    const zero = Object.fromEntries(
      await panel
        .locator('code.ae-qkv-zero-values')
        .evaluateAll((c) => c.map((x) => [x.dataset.vector, JSON.parse(x.dataset.values)])),
    );
    expect(zero.x).toEqual(rowOf(api.x, it, api.concat.length / api.n));
    expect(zero.q).toEqual(rowOf(head.q, it, d));
    expect(zero.k).toEqual(rowOf(head.k, it, d));
    expect(zero.v).toEqual(rowOf(head.v, it, d));
    await expect(panel.locator('.ae-qkv-zero-text')).toContainText(`${api.concat.length / api.n} → ${d}`);

    // Keyboard: the rows are one tab stop; focusing a row marks its cell in the heatmap.
    await panel.locator('tbody tr[tabindex="0"]').focus();
    await page.keyboard.press('ArrowDown');
    const mark = page.locator('#heatmap rect.highlight.on');
    await expect(mark).toHaveAttribute('data-row', String(it));
    await expect(mark).toHaveAttribute('data-col', '1');
    await expect(panel.locator('tbody tr[data-key="1"]')).toBeFocused();
    const cellValue = await page
      .locator(`#heatmap rect.cell[data-row="${it}"][data-col="1"]`)
      .getAttribute('data-value');
    expect(cellValue).toBe(head.weights[it * api.n + 1]);
    await expect(panel.locator('.ae-qkv-readout')).toContainText(fixed(cellValue, 4));
    await expect(panel.locator('.ae-qkv-rowvalues')).toContainText(
      `k(${api.tokens[1]}) = [${rowOf(head.k, 1, d)
        .map((v) => fixed(v))
        .join(', ')}]`,
    );
    await page.keyboard.press('End');
    await expect(mark).toHaveAttribute('data-col', String(api.n - 1));
    // Pointing at a row marks its cell too.
    await panel.locator('tbody tr[data-key="3"]').hover();
    await expect(mark).toHaveAttribute('data-col', '3');

    // Another query word: chosen here, followed by the head view; chosen there, followed here.
    await panel.locator('select').selectOption('1');
    await expect(panel).toHaveAttribute('data-query', '1');
    await expect(page.locator('ae-head-view')).toHaveAttribute('data-from', '1');
    await check(1);
    await page.locator('ae-head-view button.ae-hv-token[data-index="4"]').focus();
    await expect(panel).toHaveAttribute('data-query', '4');
    await check(4);

    // With the causal mask, the keys after the query are masked: weight exactly 0, as in the trace.
    await page.locator('#causal').check();
    await expect(app(page)).toHaveAttribute('data-run', /"causal":true/);
    await panel.scrollIntoViewIfNeeded(); // off screen it waits to redraw (StoreElement.redrawWhenVisible)
    await expect(panel.locator('tbody tr').nth(5)).toHaveAttribute('data-masked', 'true');
    const masked = await apiRun(page);
    const rows = await panel.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => ({ ...tr.dataset })));
    rows.forEach((row, j) => {
      expect(row.weight).toBe(masked.heads[masked.head].weights[4 * masked.n + j]);
      expect(row.masked === 'true', `key ${j} masked`).toBe(j > 4);
      if (j > 4) expect(row.weight).toBe('0');
    });
  });

  test('the ÷√d knob on the trained model changes the answer exactly as analyze() says', async ({ page }) => {
    await openPage(page);
    const panel = page.locator('ae-scaling');
    await panel.locator('h3').nth(1).scrollIntoViewIfNeeded(); // the model loads when its part comes into view
    const out = panel.locator('.ae-sc-model');
    await expect(out).toBeVisible({ timeout: 15_000 });
    // analyze() for every setting the test visits, with one separately loaded engine and model.
    const settings = [
      {},
      { scale: true, scoreMultiplier: 0.25 },
      { scale: true, scoreMultiplier: 4 },
      { scale: false, scoreMultiplier: 4 },
    ];
    const [normal, low, high, raw] = await evaluateOnModel(
      page,
      'coref-encoder',
      ({ engine, model }, { text, settings }) => {
        const { layer, head } = JSON.parse(model.config.configJson).coreference_head;
        return settings.map((options) => {
          const r = model.analyze(text, options);
          const it = r.prediction.position,
            n = r.n;
          const row = r.layers[layer].selfAttention.heads[head].weights.slice(it * n, it * n + n);
          return {
            referent: r.prediction.token,
            probability: String(r.prediction.probability),
            layer,
            head,
            weights: Array.from(row, String),
            entropy: String(engine.rowEntropy(row)),
            factor: String(engine.attentionScoreScale(model.config.headDim, options)),
          };
        });
      },
      { text: LESSON, settings },
    );
    const expectShown = async (expected, multiplier, scale) => {
      await expect(out).toHaveAttribute('data-multiplier', String(multiplier));
      await expect(out).toHaveAttribute('data-scale', String(scale));
      await expect(out).toHaveAttribute('data-referent', expected.referent);
      await expect(out).toHaveAttribute('data-probability', expected.probability);
      await expect(out).toHaveAttribute('data-entropy', expected.entropy);
      await expect(out).toHaveAttribute('data-factor', expected.factor);
      const shown = await out.locator('tbody td.now').evaluateAll((tds) => tds.map((td) => td.dataset.weight));
      expect(shown).toEqual(expected.weights);
      await expect(panel.locator('.ae-sc-answer.now dd')).toContainText(`→ ${expected.referent}`);
    };
    await expectShown(normal, 1, true);
    await expect(out).toHaveAttribute('data-normal-probability', normal.probability);

    // Keyboard: ×1 → ×0.25 with two Left presses.
    const slider = panel.locator('input[type="range"]').nth(1);
    await slider.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expectShown(low, 0.25, true);
    expect(low.probability).not.toBe(normal.probability); // the knob really moves the answer
    await page.keyboard.press('End');
    await expectShown(high, 4, true);
    await panel.locator('input[type="checkbox"]').nth(1).check();
    await expectShown(raw, 4, false);
  });

  test('multi-head shows the run’s heads, concatenation and W_O, and one layer’s parameters', async ({ page }) => {
    const panel = await openAt(page, 'ae-multi-head', { model: 'coref-encoder' });
    const api = await apiRun(page);
    const it = api.tokens.indexOf('it');
    const h = api.heads.length,
      d = api.concat.length / api.n,
      dh = d / h;
    await expect(panel).toHaveAttribute('data-heads', String(h));
    await expect(panel).toHaveAttribute('data-d-model', String(d));
    await expect(panel).toHaveAttribute('data-query', String(it));
    const cells = await panel.locator('tbody td[data-head]').evaluateAll((tds) => tds.map((td) => ({ ...td.dataset })));
    expect(cells).toHaveLength(api.n * h);
    for (const c of cells) expect(c.weight).toBe(api.heads[Number(c.head)].weights[it * api.n + Number(c.key)]);
    const strips = Object.fromEntries(
      await panel
        .locator('[data-strip]')
        .evaluateAll((els) => els.map((e) => [e.dataset.strip, JSON.parse(e.dataset.values)])),
    );
    api.heads.forEach((head, k) => expect(strips[`head${k}`]).toEqual(rowOf(head.output, it, dh)));
    expect(strips.concat).toEqual(rowOf(api.concat, it, d));
    expect(strips.output).toEqual(rowOf(api.output, it, d));
    // The concatenation is the heads' outputs side by side.
    expect(strips.concat).toEqual(api.heads.flatMap((head) => rowOf(head.output, it, dh)));

    // Parameters: equal to one full-width head, and the same in every row of the table.
    const params = panel.locator('.ae-mh-params');
    await expect(params).toHaveAttribute('data-total', String(api.params));
    await expect(params).toHaveAttribute('data-one-head', String(api.oneHead));
    expect(api.params).toBe(api.oneHead);
    const totals = await panel
      .locator('.ae-mh-paramtable tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.dataset.total));
    expect(totals.length).toBeGreaterThan(2);
    expect(new Set(totals)).toEqual(new Set([String(api.params)]));

    // Focusing a strip spells out its numbers.
    await panel.locator('[data-strip="concat"]').focus();
    await expect(panel.locator('.ae-mh-values')).toHaveAttribute('data-strip', 'concat');
    await expect(panel.locator('.ae-mh-values')).toContainText(fixed(api.concat[it * d]));

    // Another layer, chosen in the panel, moves the page's layer too.
    await panel.locator('select').nth(1).selectOption('0');
    await expect(app(page)).toHaveAttribute('data-layer', '0');
    await expect(panel).toHaveAttribute('data-layer', '0');
    const api0 = await apiRun(page);
    const first = await panel.locator('tbody td[data-head="0"][data-key="1"]').getAttribute('data-weight');
    expect(first).toBe(api0.heads[0].weights[it * api.n + 1]);
  });
});

test('÷√d on random vectors: the shown statistics are the core’s for the same d and seed', async ({ page }) => {
  const panel = await openAt(page, 'ae-scaling');
  const demo = (d, seed, scale) =>
    page.evaluate(
      async (args) => {
        const { loadEngine } = await import('/lib/engine.mjs');
        const engine = await loadEngine();
        const r = engine.scalingDemo({ ...args, keys: 8, queries: 200 });
        const curve = (s) =>
          [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].map((dd) =>
            String(engine.scalingDemo({ d: dd, keys: 8, queries: 200, seed: args.seed, scale: s }).meanEntropy),
          );
        return {
          weights: Array.from(r.weights.slice(0, 8), String),
          entropy: String(r.entropy[0]),
          scoreStd: String(r.scoreStd),
          meanEntropy: String(r.meanEntropy),
          maxWeight: String(r.maxWeight[0]),
          scaled: curve(true),
          raw: curve(false),
        };
      },
      { d, seed, scale },
    );
  const expectShown = async (d, seed, scale) => {
    await expect(panel).toHaveAttribute('data-d', String(d));
    await expect(panel).toHaveAttribute('data-scale', String(scale));
    await expect(panel).toHaveAttribute('data-seed', String(seed));
    const api = await demo(d, seed, scale);
    for (const key of ['entropy', 'scoreStd', 'meanEntropy', 'maxWeight'])
      await expect(panel).toHaveAttribute(`data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, api[key]);
    expect(JSON.parse(await panel.getAttribute('data-weights'))).toEqual(api.weights);
    const bars = await panel.locator('.ae-sc-bar').evaluateAll((gs) => gs.map((g) => g.dataset.weight));
    expect(bars).toEqual(api.weights);
    await expect(panel.locator('.ae-sc-entropy .ae-sc-value')).toHaveText(fixed(api.entropy));
    await expect(panel.locator('.ae-sc-spread .ae-sc-value')).toHaveText(fixed(api.scoreStd, 2));
    expect(JSON.parse(await panel.locator('polyline.scaled').getAttribute('data-values'))).toEqual(api.scaled);
    expect(JSON.parse(await panel.locator('polyline.raw').getAttribute('data-values'))).toEqual(api.raw);
    return api;
  };
  await expectShown(64, 1, true);

  // Keyboard: the slider to d = 1024, then the scaling switched off: the weights collapse.
  await panel.locator('input[type="range"]').first().focus();
  await page.keyboard.press('End');
  await expectShown(1024, 1, true);
  await expect(panel).toHaveAttribute('data-collapsed', 'false');
  await panel.locator('input[type="checkbox"]').first().focus();
  await page.keyboard.press('Space');
  const raw = await expectShown(1024, 1, false);
  expect(Number(raw.maxWeight)).toBeGreaterThan(0.9);
  await expect(panel).toHaveAttribute('data-collapsed', 'true');
  await expect(panel.locator('.ae-sc-verdict')).toHaveClass(/collapsed/);
  await panel.locator('.ae-sc-reseed button').click(); // new random vectors
  await expectShown(1024, 2, false);
});

test('the head-count calculator: heads and parameters from the core, a message when it does not divide', async ({
  page,
}) => {
  const panel = await openAt(page, 'ae-multi-head');
  const result = panel.locator('.ae-mh-calcresult');
  const count = (d, h) =>
    page.evaluate(
      async ([d, h]) => {
        const { loadEngine } = await import('/lib/engine.mjs');
        return (await loadEngine()).attentionParameterCount(d, h);
      },
      [d, h],
    );
  await expect(result).toHaveAttribute('data-heads', '32'); // 4096 / 128
  await expect(result).toHaveAttribute('data-total', String(await count(4096, 32)));
  const [dInput, hInput] = [
    panel.locator('input[type="number"]').first(),
    panel.locator('input[type="number"]').nth(1),
  ];
  await hInput.fill('100');
  await expect(panel.getByRole('alert').last()).toContainText('100');
  await expect(result).not.toHaveAttribute('data-heads', /./);
  await hInput.fill('64');
  await dInput.fill('768');
  await expect(result).toHaveAttribute('data-heads', '12');
  await expect(result).toHaveAttribute('data-total', String(await count(768, 12)));
  await expect(panel.getByRole('alert').last()).toHaveText('');
  await dInput.fill('');
  await expect(panel.getByRole('alert').last()).not.toHaveText('');
  // The inputs travel in the link: 768 with heads of 64 opens as 12 heads.
  await dInput.fill('768');
  await expect.poll(() => new URL(page.url()).searchParams.get('multihead.d')).toBe('768');
  await page.goto(page.url());
  await expect(page.locator('ae-multi-head .ae-mh-calcresult')).toHaveAttribute('data-heads', '12');
});

test('the three panels switch language and fit a 375 px screen', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await openPage(page);
  if (shipped) await chooseModel(page, 'coref-encoder');
  const panels = [
    ['ae-qkv-steps', qkvStrings],
    ['ae-scaling', scalingStrings],
    ['ae-multi-head', multiHeadStrings],
  ];
  for (const [tag, strings] of panels) await expect(page.locator(`${tag} h2`)).toHaveText(strings.en.title);
  await page.locator('#lang').click();
  for (const [tag, strings] of panels) await expect(page.locator(`${tag} h2`)).toHaveText(strings.zh.title);
  await expect(page.locator('ae-multi-head .ae-mh-calcresult')).toContainText('个头');
  if (shipped) {
    await page.locator('ae-scaling h3').nth(1).scrollIntoViewIfNeeded();
    await expect(page.locator('ae-scaling .ae-sc-model')).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('ae-scaling caption')).toHaveText(/“it”的注意力/);
    await expect(page.locator('ae-qkv-steps caption')).toContainText('查询');
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const { violations } = await new AxeBuilder({ page })
    .include('ae-qkv-steps')
    .include('ae-scaling')
    .include('ae-multi-head')
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, 'axe: serious or critical violations in the three panels').toEqual([]);
  for (const [tag] of panels) {
    const box = await page.locator(tag).boundingBox();
    expect(box.x + box.width, `${tag} fits`).toBeLessThanOrEqual(375);
    await page.locator(tag).screenshot({ path: `${SHOTS}/${tag.slice(3)}-375.png` });
  }
  await page.locator('#lang').click();
  await expect(page.locator('ae-qkv-steps h2')).toHaveText(qkvStrings.en.title);
});

// With predict-then-reveal on, Q/K/V's step table is wider than a phone: its scrolling region must
// take the keyboard focus (axe scrollable-region-focusable, the one serious violation it had).
test('375 px with predict-then-reveal on: Q, K, V has no serious axe violation', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.addInitScript(() => localStorage.setItem('ae-predict', '1'));
  await openPage(page);
  if (shipped) await chooseModel(page, 'coref-encoder');
  const panel = page.locator('ae-qkv-steps');
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.locator('caption')).not.toHaveText('', { timeout: 15_000 });
  const { violations } = await new AxeBuilder({ page }).include('ae-qkv-steps').analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
});
