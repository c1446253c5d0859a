// End-to-end tests of panel 9, <ae-causal-mask>: the masked scores and weights shown equal
// TrainedModel.analyze() of the coref-decoder (computed here with a separately loaded engine);
// with the mask every upper-triangle score is −∞ and every weight there exactly 0, without it
// not; the row of "it" is bit-identical for the tired and the wide sentence in every layer and
// head (checked here from the API) while the answer row differs; positions on screen count from 1;
// the sliding window on the coref-encoder equals analyze(text, {window}) and cuts "it" off from
// "animal" once |i − j| ≥ w; the language switch, a 375 px screen (no page-level horizontal
// overflow after interacting), and a bad sentence that the panel recovers from.
import fs from 'node:fs';
import { SHOTS, evaluateOnModel, expect, expectNoSeriousAxeViolationsInSchemes, test } from './fixtures.mjs';
import { fitsWidth, matrixValues, newPageAt, openPanelAt, panelStrings } from './fixtures.mjs'; // opening and reading a lesson panel
import { DECODER_PROMPT } from '../../web/lib/lesson.mjs';

const TIRED = DECODER_PROMPT.tired;
const WIDE = DECODER_PROMPT.wide;
const shipped = fs.existsSync('web/models/coref-decoder/config.json');
const panel = (page) => page.locator('ae-causal-mask');

const openPanel = (page) => openPanelAt(page, '#causal-mask', 'ae-causal-mask', { shows: { 'data-sentence': TIRED } });

// analyze() of the sentence and its partner; rows compared here, for every layer and head.
function api(page, text, partner, causal, layer, head) {
  return evaluateOnModel(
    page,
    'coref-decoder',
    ({ model }, { text, partner, causal, layer, head }) => {
      const a = model.analyze(text, { causal, topK: 3 }),
        b = model.analyze(partner, { causal, topK: 3 });
      const n = a.n,
        it = a.tokens.indexOf('it'),
        last = a.prediction.position;
      const rowOf = (r, l, h, i) =>
        Array.from(r.layers[l].selfAttention.heads[h].weights.subarray(i * n, (i + 1) * n), String);
      let itIdentical = true;
      a.layers.forEach((lay, l) =>
        lay.selfAttention.heads.forEach((_, h) => {
          itIdentical &&= JSON.stringify(rowOf(a, l, h, it)) === JSON.stringify(rowOf(b, l, h, it));
        }),
      );
      const h = a.layers[layer].selfAttention.heads[head];
      return {
        tokens: a.tokens,
        n,
        it,
        last,
        scores: Array.from(h.maskedScores, String),
        weights: Array.from(h.weights, String),
        itRows: [rowOf(a, layer, head, it), rowOf(b, layer, head, it)],
        itIdentical,
        answerRows: [rowOf(a, layer, head, last), rowOf(b, layer, head, a.prediction.position)],
        predictions: [a.prediction.token, b.prediction.token],
        probability: String(a.prediction.probability),
      };
    },
    { text, partner, causal, layer, head },
  );
}

// The coref-encoder with a sliding window: the row of "it" in the coreference head and the answers.
function apiWindow(page, text, window) {
  return evaluateOnModel(
    page,
    'coref-encoder',
    ({ model }, { text, window }) => {
      const { layer, head } = JSON.parse(model.config.configJson).coreference_head;
      const full = model.analyze(text, { topK: 3 }),
        run = model.analyze(text, { window, topK: 3 });
      const it = full.prediction.position,
        n = run.n;
      return {
        tokens: run.tokens,
        it,
        referent: full.tokens.indexOf(full.prediction.token),
        layer,
        head,
        row: Array.from(run.layers[layer].selfAttention.heads[head].weights.subarray(it * n, (it + 1) * n), String),
        prediction: run.prediction.token,
        probability: String(run.prediction.probability),
        fullPrediction: full.prediction.token,
        fullProbability: String(full.prediction.probability),
      };
    },
    { text, window },
  );
}

// Page-level horizontal overflow at the current viewport, with the other lesson panels set aside
// (CSSOM) so that only this panel is judged; they are shown again afterwards.
async function pageOverflow(page, id) {
  return page.evaluate((id) => {
    const others = [...document.querySelectorAll(`main > section.lesson-panel:not(#${id})`)];
    for (const s of others) s.style.display = 'none';
    const width = document.documentElement.scrollWidth;
    for (const s of others) s.style.removeProperty('display');
    return width - window.innerWidth;
  }, id);
}

const values = matrixValues;

test.describe('causal mask panel', () => {
  test.skip(!shipped, 'coref-decoder is not in web/models');

  test('with the mask: −∞ above the diagonal, weights exactly 0, equal to analyze(); without: not', async ({
    page,
  }) => {
    const view = await openPanel(page);
    for (const causal of [true, false]) {
      if (!causal) {
        await view.getByRole('checkbox').uncheck();
        await expect(view).toHaveAttribute('data-causal', 'false');
      }
      const [layer, head] = await Promise.all(
        ['data-layer', 'data-head'].map(async (name) => Number(await view.getAttribute(name))),
      );
      const expected = await api(page, TIRED, WIDE, causal, layer, head); // the head the panel opened on
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

  test('the "it" row is bit-identical for tired and wide; the answer row differs and answers animal / street', async ({
    page,
  }) => {
    const view = await openPanel(page);
    await view.getByLabel('Layer', { exact: true }).selectOption({ value: '1' });
    await view.getByLabel('Head', { exact: true }).selectOption({ value: '2' });
    await expect(view).toHaveAttribute('data-head', '2');
    const expected = await api(page, TIRED, WIDE, true, 1, 2);
    expect(expected.itIdentical).toBe(true);
    expect(expected.itRows[0]).toEqual(expected.itRows[1]);
    await expect(view).toHaveAttribute('data-identical', 'true');
    await expect(view).toHaveAttribute('data-identical-all', 'true');
    // Positions on screen count from 1, as in the other panels (data-it-position stays 0-based).
    const strings = await panelStrings(page, 'causal-mask');
    await expect(view).toHaveAttribute('data-it-position', String(expected.it));
    await expect(view.getByText(strings.en.itHowTo.replace('{pos}', expected.it + 1))).toBeVisible();
    await expect(
      view.getByText(
        strings.en.decisionHowTo.replace('{last}', expected.tokens[expected.last]).replace('{pos}', expected.last + 1),
      ),
    ).toBeVisible();
    const [itOwn, itPartner] = await Promise.all(
      [0, 1].map((k) => values(view.locator('.ae-cm-compare').nth(1).locator(':scope > div').nth(k))),
    );
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
    const view = await openPanel(page);
    const strings = await panelStrings(page, 'causal-mask');
    await expect(view.locator('h2')).toHaveText(strings.en.title);
    expect(await fitsWidth(view)).toBe(true);
    // After interacting, the page itself does not scroll sideways (it did: ~814 px); the wide
    // matrices scroll inside their own focusable regions instead.
    await view.getByRole('checkbox').uncheck();
    await expect(view).toHaveAttribute('data-causal', 'false');
    await view.getByLabel('Layer', { exact: true }).selectOption({ value: '1' });
    await expect(view).toHaveAttribute('data-layer', '1');
    await view.locator('.ae-cm-window').scrollIntoViewIfNeeded();
    await expect(view.locator('.ae-cm-window')).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    await view.getByLabel(strings.en.windowLabel).fill('2');
    await expect(view.locator('.ae-cm-window')).toHaveAttribute('data-window', '2');
    expect(await pageOverflow(page, 'causal-mask')).toBeLessThanOrEqual(0);
    const scroller = view.locator('.ae-cm-weights .ae-nm');
    await expect(scroller).toHaveAttribute('tabindex', '0');
    await expect(scroller).toHaveAttribute('role', 'region');
    // A 15-word matrix fits a phone as colour-only cells (it showed 4 of 15 columns behind a
    // sideways scroll); the numbers stay in the cells, and the toggle shows them: then the
    // matrix scrolls sideways inside its own region, never the page.
    const fits = (el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth;
    expect(await scroller.evaluate(fits)).toBe(true);
    for (const matrix of ['.ae-cm-scores', '.ae-cm-weights'])
      expect(await view.locator(`${matrix} .ae-nm`).evaluate(fits), matrix).toBe(true);
    expect(await values(view.locator('.ae-cm-weights'))).toHaveLength(15 * 15); // every number still there
    const showNumbers = scroller.getByRole('button', { name: 'Show the numbers' });
    await showNumbers.click();
    await expect(scroller.getByRole('button', { name: 'Fit to the screen (colours only)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      await scroller.evaluate(
        (el) => el.scrollWidth > el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth,
      ),
    ).toBe(true);
    expect(await pageOverflow(page, 'causal-mask')).toBeLessThanOrEqual(0);
    await view.getByRole('checkbox').check();

    await view.getByRole('button', { name: strings.en.swap }).click();
    await expect(view).toHaveAttribute('data-sentence', WIDE);
    await expect(view.locator('.ae-cm-answer')).toHaveAttribute('data-prediction', 'street');

    const box = view.getByRole('textbox');
    await box.fill('');
    await expect(view.getByRole('alert').first()).not.toHaveText('');
    await expect(view).toHaveAttribute('data-state', 'error');
    await expect(view.locator('.ae-cm-weights td')).toHaveCount(0);
    await box.fill(TIRED);
    await expect(view).toHaveAttribute('data-state', 'ready');
    await expect(view.getByRole('alert').first()).toHaveText('');
    await expect(view).toHaveAttribute('data-identical-all', 'true');

    // No serious or critical accessibility violations in this panel (light and dark).
    await expectNoSeriousAxeViolationsInSchemes(page, '#causal-mask');
    await page.locator('#lang').click();
    await expect(view.locator('h2')).toHaveText(strings.zh.title);
    await expect(view.locator('.ae-cm-kinds li').first()).toHaveText(strings.zh.encoder);
    await expect(view.locator('.ae-cm-window h3')).toHaveText(strings.zh.windowTitle);
    await expect(view.locator('.ae-cm-window-value')).toHaveText(
      strings.zh.windowValue.replace('{w}', '2').replace('{seen}', '3'),
    );
    expect(await pageOverflow(page, 'causal-mask')).toBeLessThanOrEqual(0);
    await page.locator('#causal-mask').screenshot({ path: `${SHOTS}/causal-mask-375-zh.png` });
  });

  test('the link keeps the sentence, mask, layer, head, tired/wide and w; nonsense in a link is ignored', async ({
    page,
    context,
  }) => {
    const view = await openPanel(page);
    const part = view.locator('.ae-cm-window');
    // A head other than the one the panel opens on (the decoder's coreference head), 0-based.
    const opened = {
      layer: Number(await view.getAttribute('data-layer')),
      head: Number(await view.getAttribute('data-head')),
    };
    const chosen = { layer: opened.layer === 2 ? 1 : 2, head: opened.head === 1 ? 2 : 1 };
    await view.getByRole('button', { name: 'Swap tired ↔ wide' }).click();
    await view.getByRole('checkbox').uncheck();
    await view.getByLabel('Layer', { exact: true }).selectOption({ value: String(chosen.layer) });
    await view.getByLabel('Head', { exact: true }).selectOption({ value: String(chosen.head) });
    await part.scrollIntoViewIfNeeded();
    await expect(part).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    await view.getByLabel('Sentence for the encoder').selectOption('wide');
    await view.getByLabel('Window width w').fill('6');
    await expect(part).toHaveAttribute('data-window', '6');
    await expect(view).toHaveAttribute('data-sentence', WIDE);
    await expect(view).toHaveAttribute('data-causal', 'false');
    const linked = () =>
      Object.fromEntries([...new URL(page.url()).searchParams].filter(([k]) => k.startsWith('causal.')));
    await expect.poll(linked).toEqual({
      'causal.s': WIDE,
      'causal.mask': '0',
      'causal.layer': String(chosen.layer + 1),
      'causal.head': String(chosen.head + 1),
      'causal.adjective': 'wide',
      'causal.window': '6',
    });
    // Every number the panel shows (matrices, rows, window row) and what it says about them.
    const state = (p) =>
      panel(p).evaluate((el) => ({
        values: [...el.shadowRoot.querySelectorAll('td[data-value]')].map((td) => td.dataset.value),
        data: { ...el.dataset },
        window: { ...el.shadowRoot.querySelector('.ae-cm-window').dataset },
      }));
    const before = await state(page);
    expect(before.values.length).toBeGreaterThan(200);
    const other = await newPageAt(context, page.url());
    await other.locator('#causal-mask .ae-cm-window').scrollIntoViewIfNeeded();
    await expect(panel(other)).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    await expect(panel(other).locator('.ae-cm-window')).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    await expect(panel(other)).toHaveAttribute('data-sentence', WIDE);
    await expect(panel(other)).toHaveAttribute('data-layer', String(chosen.layer));
    await expect(panel(other)).toHaveAttribute('data-head', String(chosen.head));
    await expect(panel(other).getByRole('checkbox')).not.toBeChecked();
    expect(await panel(other).getByLabel('Window width w').inputValue()).toBe('6');
    const after = await state(other);
    expect(after).toEqual(before);
    expect(after.window.sentence).toContain('too wide');
    // The same numbers as the API for that state.
    const expected = await api(page, WIDE, TIRED, false, chosen.layer, chosen.head);
    expect(await values(panel(other).locator('.ae-cm-weights'))).toEqual(expected.weights);
    // Back at the defaults, the controls leave the link.
    await view.getByRole('button', { name: 'Swap tired ↔ wide' }).click();
    await view.getByRole('checkbox').check();
    await view.getByLabel('Window width w').fill('4');
    await expect.poll(linked).toEqual({
      'causal.layer': String(chosen.layer + 1),
      'causal.head': String(chosen.head + 1),
      'causal.adjective': 'wide',
    });
    await other.close();

    // Out-of-range or malformed values are ignored: the defaults stay.
    const bad = await context.newPage();
    await bad.goto(
      '/?model=untrained&causal.mask=no&causal.layer=4&causal.head=x&causal.adjective=hungry&causal.window=14',
    );
    await bad.locator('#causal-mask .ae-cm-window').scrollIntoViewIfNeeded();
    await expect(panel(bad)).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    await expect(panel(bad).locator('.ae-cm-window')).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    // The default head: the decoder's coreference head, or layer 1 head 1 without one.
    const named = JSON.parse(fs.readFileSync('web/models/coref-decoder/config.json', 'utf8')).coreference_head ?? {
      layer: 0,
      head: 0,
    };
    for (const [key, value] of Object.entries({
      sentence: TIRED,
      causal: 'true',
      layer: String(named.layer),
      head: String(named.head),
    }))
      await expect(panel(bad)).toHaveAttribute(`data-${key}`, value);
    await expect(panel(bad).locator('.ae-cm-window')).toHaveAttribute('data-window', '4');
    await expect(panel(bad).locator('.ae-cm-window')).toHaveAttribute('data-sentence', /too tired/);
  });

  test('sliding window: the row of "it" and the answer equal analyze({window}); "animal" is cut off once |i − j| ≥ w', async ({
    page,
  }) => {
    const view = await openPanel(page);
    const part = view.locator('.ae-cm-window');
    const strings = await panelStrings(page, 'causal-mask');
    // The window rule as the lesson states it: |i − j| < w, at most 2w − 1 words.
    for (const lang of ['en', 'zh']) {
      expect(strings[lang].windowHowTo).toContain('|i − j| < w');
      expect(strings[lang].windowHowTo).toContain('2w − 1');
    }
    await part.scrollIntoViewIfNeeded();
    await expect(part).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    const sentence = await part.getAttribute('data-sentence');
    const slider = view.getByLabel(strings.en.windowLabel);
    const check = async (w) => {
      await expect(part).toHaveAttribute('data-window', String(w));
      const a = await apiWindow(page, sentence, w);
      expect(a.fullPrediction).toBe('animal');
      const distance = Math.abs(a.it - a.referent);
      await expect(part).toHaveAttribute('data-it', String(a.it));
      await expect(part).toHaveAttribute('data-referent', String(a.referent));
      await expect(part).toHaveAttribute('data-distance', String(distance));
      await expect(part).toHaveAttribute('data-prediction', a.prediction);
      await expect(part).toHaveAttribute('data-probability', a.probability);
      await expect(part).toHaveAttribute('data-full-probability', a.fullProbability);
      const shown = await values(part);
      expect(shown).toEqual(a.row);
      // Outside the window the weights are exactly 0, inside they sum to ≈ 1.
      const outside = shown.filter((_, j) => Math.abs(j - a.it) >= w);
      expect(new Set(outside).size <= 1 && (outside.length === 0 || outside[0] === '0')).toBe(true);
      const reaches = distance < w;
      await expect(part).toHaveAttribute('data-reaches', String(reaches));
      const verdict = part.locator('.ae-cm-verdict');
      await expect(verdict).toContainText(`“it” (word ${a.it + 1})`);
      await expect(verdict).toContainText(`“animal” (word ${a.referent + 1})`);
      await expect(verdict).toContainText(reaches ? 'still sees' : 'can no longer see');
      return a;
    };
    // Default w = 4: "it" (token 9) cannot reach "animal" (token 2, 7 positions away); the answer changes.
    const cut = await check(4);
    expect(cut.prediction).not.toBe('animal');
    await expect(part.locator('.ae-cm-verdict')).toContainText(`The answer changes from animal`);
    // With the keyboard up to w = distance + 1: the link is back, and so is "animal".
    const distance = Math.abs(cut.it - cut.referent);
    await slider.focus();
    for (let w = 4; w < distance + 1; w++) await page.keyboard.press('ArrowRight');
    const back = await check(distance + 1);
    expect(back.prediction).toBe('animal');
    await expect(view.locator('.ae-cm-window-value')).toHaveText(
      strings.en.windowValue.replace('{w}', distance + 1).replace('{seen}', 2 * distance + 1),
    );
    await page.locator('#causal-mask .ae-cm-window').screenshot({ path: `${SHOTS}/causal-mask-window.png` });
  });
});
