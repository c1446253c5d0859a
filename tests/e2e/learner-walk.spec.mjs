// End-to-end tests of the fixes from a new user's walk through the page (issue 11, items 1, 2,
// 7, 8, 11, 12, 13): the positional-encoding conclusion follows from its table; errors a reader
// causes are worded in the page's language (the core's English stays in the title); at 375 px
// the heatmap fits and every control is at least 24×24 px; the KV cache has no empty square
// before its first step; an error hides the old heatmap and token count; a skip link; the All
// heads grid brings the chosen view into sight. Expected words come from the page's string
// tables and expected codes from the engine, never from today's figures.
import fs from 'node:fs';
import { alert, app, expect, expectRendered, openPage, test } from './fixtures.mjs';

const format = (template, params) => template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
const strings = (page, name) => page.evaluate(async (file) => (await import(`/strings/${file}.mjs`)).default, name);
const shipped = (...names) => names.every((name) => fs.existsSync(`web/models/${name}/config.json`));

// The EngineError code the engine gives for `call` on a trained model, computed in the page.
function engineCode(page, model, call, ...args) {
  return page.evaluate(async ({ model, call, args }) => {
    const { loadEngine } = await import('/lib/engine.mjs');
    const engine = await loadEngine();
    const m = await engine.fetchTrainedModel(new URL(`/models/${model}/`, location.href));
    try {
      m[call](...args);
      return null;
    } catch (error) {
      return error.code;
    } finally {
      m.delete();
    }
  }, { model, call, args });
}

async function openLessonPanel(page, id, tag, attribute = 'data-state') {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await expect(page.locator(tag)).toHaveAttribute(attribute, 'ready', { timeout: 15_000 });
  return page.locator(tag);
}

test.describe('positional encoding: the conclusion follows from the table (item 1)', () => {
  test.skip(!shipped('word-order-none'), 'the word-order models are not in web/models');

  // The "one of them is necessarily wrong" sentence may appear only when the table shows one
  // sentence right and the other wrong.
  async function expectConclusionFollows(view, text) {
    const row = view.locator('tr[data-encoding="none"]');
    const rights = [await row.getAttribute('data-right-a'), await row.getAttribute('data-right-b')];
    const summary = view.locator('.ae-pos-summary');
    const oneWrong = rights.includes('true') && rights.includes('false');
    const claim = text.sameNone.split('—').pop().trim(); // "so one of them is necessarily wrong."
    if (oneWrong) await expect(summary).toContainText(claim);
    else await expect(summary, `table: ${rights}`).not.toContainText(claim);
    return { rights, summary };
  }

  test('A = B, and two sentences outside the grammar, no longer claim one answer is wrong', async ({ page }) => {
    await openPage(page);
    const view = await openLessonPanel(page, 'positions', 'ae-positions');
    const text = (await strings(page, 'positions')).en;
    const inputA = view.getByLabel(text.sentenceA, { exact: true });
    const inputB = view.getByLabel(text.sentenceB, { exact: true });

    await inputA.fill('狗追猫');
    await inputB.fill('狗追猫');
    await expect(view).toHaveAttribute('data-a', '狗追猫');
    await expect(view.locator('.ae-pos-summary')).toHaveAttribute('data-same', 'true');
    const same = await expectConclusionFollows(view, text);
    expect(same.rights).toEqual(['true', 'true']);
    await expect(same.summary).toHaveAttribute('data-conclusion', 'sameNoneSameAgent');

    await inputA.fill('狗猫追');
    await inputB.fill('猫狗追');
    await expect(view).toHaveAttribute('data-b', '猫狗追');
    await expect(view.locator('.ae-pos-summary')).toHaveAttribute('data-same', 'true');
    const unknown = await expectConclusionFollows(view, text);
    expect(unknown.rights).toEqual(['unknown', 'unknown']);
    await expect(unknown.summary).toHaveAttribute('data-conclusion', 'sameNoneNoTruth');
    const none = view.locator('tr[data-encoding="none"]');
    const [word, p] = [await none.getAttribute('data-answer-a'), await none.getAttribute('data-prob-a')];
    expect(word).not.toBe('');
    await expect(unknown.summary).toContainText(format(text.sameNoneNoTruth, { word, p: '' }).split('(')[0]);
    await expect(unknown.summary).toContainText('A, B');

    // The lesson's own pair still draws the lesson's conclusion.
    await inputA.fill('猫追狗');
    await inputB.fill('狗追猫');
    await expect(view).toHaveAttribute('data-b', '狗追猫');
    await expectConclusionFollows(view, text);
    await expect(view.locator('.ae-pos-summary')).toHaveAttribute('data-conclusion', 'sameNone');
  });
});
