// End-to-end tests of panel 14, <ae-translation>: nothing is fetched until the reader asks
// (the page's first view and a scroll past the panel fetch neither the pair nor the full module);
// Translate, then the tired ↔ wide swap: the noun written in place of 它 and the strongest
// English word of the step, read from the page (the output's marked word, the lines' strongest
// word), are 动物 / animal and then 马路 / street, and equal what TranslationModel.translate()
// answers here in a separately opened model; the heatmaps hold the engine's numbers (cross- and
// causal self-attention of every step); the step select moves the step shown; axe in both
// colour schemes, Chinese, and a 375 px screen.
import fs from 'node:fs';
import { SHOTS, expectNoSeriousAxeViolationsInSchemes, expect, openPage, test } from './fixtures.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';
import strings from '../../web/strings/translation.mjs';

const shipped = fs.existsSync('web/models/translate-en-zh/pair.json');
const panel = (page) => page.locator('ae-translation');
const FULL_MODULE = /\/dist\/attention-full(-relaxed)?\.(wasm|mjs)$/;
const PAIR = /\/models\/translate-en-zh\//;

// translate() of `text` in a model opened here, and the step that writes the referent.
function api(page, text) {
  return page.evaluate(async (text) => {
    const { getEngine } = await import('/lib/context.mjs');
    const { resolvingStep } = await import('/components/translation.mjs');
    const engine = await getEngine();
    const model = await engine.openTranslationModel(new URL('/models/translate-en-zh/', location.href));
    try {
      const r = model.translate(text);
      const step = resolvingStep(r.steps.map((s) => s.token));
      const row = r.steps[step].crossAttention[r.head.layer][r.head.head];
      return { result: r, step, noun: r.steps[step].token, argmax: r.source[row.indexOf(Math.max(...row))] };
    } finally {
      model.delete();
    }
  }, text);
}

test.describe('encoder–decoder translation panel', () => {
  test.skip(!shipped, 'translate-en-zh is not in web/models');

  test('fetches nothing until asked; tired ↔ wide moves the noun and its cross-attention, as the engine says', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const requests = [];
    context.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await openPage(page);
    await page.locator('#translation').scrollIntoViewIfNeeded();
    const view = panel(page);
    await expect(view).toHaveAttribute('data-state', 'idle');
    await page.waitForLoadState('networkidle');
    expect(requests.filter((p) => FULL_MODULE.test(p) || PAIR.test(p))).toEqual([]);

    await view.getByRole('button', { name: strings.en.translateButton }).click();
    await expect(view).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    expect(requests.filter((p) => PAIR.test(p)).length).toBeGreaterThan(0);
    const sentence = view.getByLabel(strings.en.sentence, { exact: true });
    await expect(sentence).toHaveValue(LESSON.tired);

    const swap = view.getByRole('button', { name: strings.en.swap });
    const seen = {};
    for (const [text, noun, word] of [
      [LESSON.tired, '动物', 'animal'],
      [LESSON.wide, '马路', 'street'],
      [LESSON.tired, '动物', 'animal'],
    ]) {
      if ((await sentence.inputValue()) !== text) await swap.click();
      await expect(sentence).toHaveValue(text);
      await expect(view).toHaveAttribute('data-sentence', text);
      const engine = await api(page, text);
      // The panel opens on the resolving step: the output's marked word and the lines' strongest.
      const shownNoun = await view.locator('.ae-tr-output .ae-tr-current').textContent();
      const shownArgmax = await view.locator('.ae-tr-lines .ae-tr-strongest').textContent();
      await expect(view.locator('.ae-tr-output .ae-tr-current')).toHaveClass(/ae-tr-noun/);
      expect({ noun: shownNoun, argmax: shownArgmax }).toEqual({ noun, argmax: word });
      expect({ noun: engine.noun, argmax: engine.argmax }).toEqual({ noun, argmax: word });
      await expect(view).toHaveAttribute('data-translation', engine.result.text);
      await expect(view).toHaveAttribute('data-noun', noun);
      await expect(view).toHaveAttribute('data-noun-argmax', word);
      seen[text] = engine;
    }

    // The heatmaps: every step's cross-attention over the English words and its causal
    // self-attention over the start token and the words before, in the pair's head.
    const { result } = seen[LESSON.tired];
    const { layer, head } = result.head;
    const cross = await view
      .locator('.ae-tr-cross td[data-value]')
      .evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
    const self = await view
      .locator('.ae-tr-self td[data-value]')
      .evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
    const n = result.steps.length;
    expect(cross).toEqual(result.steps.flatMap((s) => s.crossAttention[layer][head]).map((v) => Math.fround(v)));
    const causal = result.steps.flatMap((s, i) => {
      const row = s.selfAttention[layer][head];
      expect(row).toHaveLength(i + 1);
      return [...row, ...Array(n - row.length).fill(0)];
    });
    expect(self).toEqual(causal.map((v) => Math.fround(v)));

    // The step select: the first step writes the first word, and the lines follow it.
    await view.getByLabel(strings.en.step, { exact: true }).selectOption({ index: 0 });
    await expect(view).toHaveAttribute('data-step', '0');
    await expect(view.locator('.ae-tr-output .ae-tr-current')).toHaveText(result.steps[0].token);
    const first = result.steps[0].crossAttention[layer][head];
    await expect(view.locator('.ae-tr-lines .ae-tr-strongest')).toHaveText(
      result.source[first.indexOf(Math.max(...first))],
    );
  });

  test('axe in both schemes, Chinese, and a 375 px screen', async ({ page }) => {
    test.setTimeout(120_000);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await openPage(page, `/?tr.s=${encodeURIComponent(LESSON.wide)}`); // a link with tr.* opens it translated
    const view = panel(page);
    await page.locator('#translation').scrollIntoViewIfNeeded();
    await expect(view).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(view).toHaveAttribute('data-noun', '马路');
    await expectNoSeriousAxeViolationsInSchemes(page, '#translation');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scroll at 375 px').toBeLessThanOrEqual(375);
    await view.screenshot({ path: `${SHOTS}/translation-375.png` });
    await page.locator('#lang').click();
    await expect(view.locator('h2')).toHaveText(strings.zh.title);
    await expect(view.getByRole('button', { name: strings.zh.swap })).toBeVisible();
  });
});
