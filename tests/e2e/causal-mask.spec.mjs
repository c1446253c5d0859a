// End-to-end tests of panel 7, <ae-causal-mask>: the masked scores and weights shown equal
// TrainedModel.analyze() of the coref-decoder (computed here with a separately loaded engine);
// with the mask every upper-triangle score is −∞ and every weight there exactly 0, without it
// not; the row of "it" is bit-identical for the tired and the wide sentence in every layer and
// head (checked here from the API) while the answer row differs; the language switch, a 375 px
// screen, and a bad sentence that the panel recovers from.
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { SHOTS, expect, openPage, test } from './fixtures.mjs';

const TIRED = "the animal didn't cross the street because it was too tired . it =";
const WIDE = TIRED.replace('tired', 'wide');
const shipped = fs.existsSync('web/models/coref-decoder/config.json');
const panel = (page) => page.locator('ae-causal-mask');

async function openPanel(page) {
  await openPage(page);
  await page.locator('#causal-mask').scrollIntoViewIfNeeded();
  await expect(panel(page)).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
  await expect(panel(page)).toHaveAttribute('data-sentence', TIRED);
}

// analyze() of the sentence and its partner; rows compared here, for every layer and head.
function api(page, text, partner, causal, layer, head) {
  return page.evaluate(async ({ text, partner, causal, layer, head }) => {
    const { loadEngine } = await import('/lib/engine.mjs');
    const engine = await loadEngine();
    const model = await engine.fetchTrainedModel(new URL('/models/coref-decoder/', location.href));
    try {
      const a = model.analyze(text, { causal, topK: 3 }), b = model.analyze(partner, { causal, topK: 3 });
      const n = a.n, it = a.tokens.indexOf('it'), last = a.prediction.position;
      const rowOf = (r, l, h, i) => Array.from(r.layers[l].selfAttention.heads[h].weights.subarray(i * n, (i + 1) * n), String);
      let itIdentical = true;
      a.layers.forEach((lay, l) => lay.selfAttention.heads.forEach((_, h) => {
        itIdentical &&= JSON.stringify(rowOf(a, l, h, it)) === JSON.stringify(rowOf(b, l, h, it));
      }));
      const h = a.layers[layer].selfAttention.heads[head];
      return {
        tokens: a.tokens, n, it, last,
        scores: Array.from(h.maskedScores, String), weights: Array.from(h.weights, String),
        itRows: [rowOf(a, layer, head, it), rowOf(b, layer, head, it)], itIdentical,
        answerRows: [rowOf(a, layer, head, last), rowOf(b, layer, head, a.prediction.position)],
        predictions: [a.prediction.token, b.prediction.token], probability: String(a.prediction.probability),
      };
    } finally {
      model.delete();
    }
  }, { text, partner, causal, layer, head });
}

const values = (locator) => locator.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => td.dataset.value));

test.describe('causal mask panel', () => {
  test.skip(!shipped, 'coref-decoder is not in web/models');

  test('with the mask: −∞ above the diagonal, weights exactly 0, equal to analyze(); without: not', async ({ page }) => {
    await openPanel(page);
    const view = panel(page);
    for (const causal of [true, false]) {
      if (!causal) {
        await view.getByRole('checkbox').uncheck();
        await expect(view).toHaveAttribute('data-causal', 'false');
      }
      const expected = await api(page, TIRED, WIDE, causal, 0, 0);
      const scores = await values(view.locator('.ae-cm-scores'));
      const weights = await values(view.locator('.ae-cm-weights'));
      expect(scores).toEqual(expected.scores);
      expect(weights).toEqual(expected.weights);
      const n = expected.n;
      const upper = (list) => list.filter((_, k) => k % n > Math.floor(k / n));
      if (causal) {
        expect(new Set(upper(weights))).toEqual(new Set(['0']));
        expect(new Set(upper(scores))).toEqual(new Set(['-Infinity']));
      } else {
        expect(upper(weights).some((v) => v !== '0')).toBe(true);
        expect(upper(scores)).not.toContain('-Infinity');
      }
      await expect(view).toHaveAttribute('data-upper-zero', String(causal));
      await expect(view.locator('.ae-cm-answer')).toHaveAttribute('data-probability', expected.probability);
    }
  });

  test('the "it" row is bit-identical for tired and wide; the answer row differs and answers animal / street', async ({ page }) => {
    await openPanel(page);
    const view = panel(page);
    await view.getByLabel('Layer', { exact: true }).selectOption({ value: '1' });
    await view.getByLabel('Head', { exact: true }).selectOption({ value: '2' });
    await expect(view).toHaveAttribute('data-head', '2');
    const expected = await api(page, TIRED, WIDE, true, 1, 2);
    expect(expected.itIdentical).toBe(true);
    expect(expected.itRows[0]).toEqual(expected.itRows[1]);
    await expect(view).toHaveAttribute('data-identical', 'true');
    await expect(view).toHaveAttribute('data-identical-all', 'true');
    const [itOwn, itPartner] = await Promise.all([0, 1].map((k) => values(view.locator('.ae-cm-compare').nth(1).locator(':scope > div').nth(k))));
    expect(itOwn).toEqual(expected.itRows[0]);
    expect(itPartner).toEqual(expected.itRows[1]);

    expect(expected.answerRows[0]).not.toEqual(expected.answerRows[1]);
    await expect(view).toHaveAttribute('data-answer-rows-differ', 'true');
    const decision = view.locator('.ae-cm-compare').nth(2).locator(':scope > div');
    expect(await values(decision.nth(0))).toEqual(expected.answerRows[0]);
    expect(await values(decision.nth(1))).toEqual(expected.answerRows[1]);
    expect(expected.predictions).toEqual(['animal', 'street']);
    await expect(decision.nth(0).locator('table')).toHaveAttribute('data-prediction', 'animal');
    await expect(decision.nth(1).locator('table')).toHaveAttribute('data-prediction', 'street');

    // Without the mask "it" sees the ending, and its rows part.
    await view.getByRole('checkbox').uncheck();
    await expect(view).toHaveAttribute('data-causal', 'false');
    const unmasked = await api(page, TIRED, WIDE, false, 1, 2);
    await expect(view).toHaveAttribute('data-identical-all', String(unmasked.itIdentical));
    expect(unmasked.itIdentical).toBe(false);
    await page.locator('#causal-mask').screenshot({ path: `${SHOTS}/causal-mask.png` });
  });

  test('language switch, 375 px, swap, and a bad sentence gives a message and the panel recovers', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openPanel(page);
    const view = panel(page);
    const strings = await page.evaluate(async () => (await import('/strings/causal-mask.mjs')).default);
    await expect(view.locator('h2')).toHaveText(strings.en.title);
    expect(await view.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth && el.scrollWidth <= el.clientWidth)).toBe(true);

    await view.getByRole('button', { name: strings.en.swap }).click();
    await expect(view).toHaveAttribute('data-sentence', WIDE);
    await expect(view.locator('.ae-cm-answer')).toHaveAttribute('data-prediction', 'street');

    const box = view.getByRole('textbox');
    await box.fill('');
    await expect(view.getByRole('alert')).not.toHaveText('');
    await expect(view).toHaveAttribute('data-state', 'error');
    await expect(view.locator('.ae-cm-weights td')).toHaveCount(0);
    await box.fill(TIRED);
    await expect(view).toHaveAttribute('data-state', 'ready');
    await expect(view.getByRole('alert')).toHaveText('');
    await expect(view).toHaveAttribute('data-identical-all', 'true');

    // No serious or critical accessibility violations in this panel (light and dark).
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      const axe = new AxeBuilder({ page }).include('#causal-mask');
      if (colorScheme === 'dark') axe.withRules(['color-contrast']); // the rest does not depend on the scheme
      const { violations } = await axe.analyze();
      expect(violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => `${v.id}: ${v.nodes.length}`), colorScheme).toEqual([]);
    }
    await page.locator('#lang').click();
    await expect(view.locator('h2')).toHaveText(strings.zh.title);
    await expect(view.locator('.ae-cm-kinds li').first()).toHaveText(strings.zh.encoder);
    await page.locator('#causal-mask').screenshot({ path: `${SHOTS}/causal-mask-375-zh.png` });
  });
});
