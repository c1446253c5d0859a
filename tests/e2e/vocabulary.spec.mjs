// The main view helps with the vocabulary (issue 9 item 6, issue 11 item 3): "Words this model
// knows (N)" lists the model's words (TrainedModel.vocabularyWords), filters them and inserts
// one at the caret; a word read as [UNK] gets "did you mean …" with the engine's nearest known
// words, which replace it; an answer that is not a word of the sentence gets a note; a Chinese
// sentence in the English coreference model is told that the model reads English, in both
// languages. Expected values come from the engine API in the page, never typed in.
import fs from 'node:fs';
import { AxeBuilder } from './fixtures.mjs';
import { SHOTS, alert, app, chooseModel, expect, expectRendered, openPage, test } from './fixtures.mjs';

const shipped = fs.existsSync('web/models/coref-encoder/config.json');
const CHINESE = '那只动物没有穿过马路，因为它太累了。';

// model[method](...args) in the page, on the coref-encoder the page shows (its shared copy).
function callModel(page, method, ...args) {
  return page.evaluate(
    async ({ method, args }) => {
      const { getTrainedModel } = await import('/lib/context.mjs');
      const model = await getTrainedModel('coref-encoder');
      return model[method](...args);
    },
    { method, args },
  );
}

// analyze() of each text: {text, tokens, answer} or {text, error: message}.
function analyzeAll(page, texts) {
  return page.evaluate(async (texts) => {
    const { getTrainedModel } = await import('/lib/context.mjs');
    const model = await getTrainedModel('coref-encoder');
    return texts.map((text) => {
      try {
        const r = model.analyze(text);
        return { text, tokens: r.tokens, answer: r.prediction.token };
      } catch (e) {
        return { text, error: e.message };
      }
    });
  }, texts);
}

// Every axe violation (of any impact) in the controls and the result, where the help lives
// (both in the shadow root of the main view, <attention-explorer id="result">).
async function expectNoAxeViolations(page) {
  const { violations } = await new AxeBuilder({ page })
    .include({ fromShadowDom: ['#result', '#controls'] })
    .include({ fromShadowDom: ['#result', '.result'] })
    .analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
}

async function typeSentence(page, text) {
  await page.locator('#sentence').fill(text);
  await expectRendered(page, text);
}

test.describe('vocabulary help', () => {
  test.skip(!shipped, 'coref-encoder is not in web/models');

  test('"Words this model knows (N)" lists the vocabulary, filters it and inserts a word at the caret', async ({
    page,
  }) => {
    await openPage(page, '/');
    const words = await callModel(page, 'vocabularyWords');
    const vocab = page.locator('#vocab');
    await expect(vocab).toBeVisible();
    await expect(page.locator('#vocab-summary')).toHaveText(`Words this model knows (${words.length})`);
    await page.locator('#vocab-summary').click();
    const buttons = page.locator('#vocab-list button');
    expect((await buttons.allTextContents()).sort()).toEqual([...words].sort());
    expect(words.some((w) => w.startsWith('['))).toBe(false);

    // The filter keeps exactly the words containing what was typed.
    const word = words.find((w) => w.length >= 5 && /^[a-z]+$/.test(w));
    const part = word.slice(1, 4);
    await page.getByLabel('Find a word').fill(part);
    const visible = page.locator('#vocab-list li:not([hidden]) button');
    expect((await visible.allTextContents()).sort()).toEqual(words.filter((w) => w.includes(part)).sort());
    await page.getByLabel('Find a word').fill('qqqqq');
    await expect(page.locator('#vocab-none')).toBeVisible();
    await page.getByLabel('Find a word').fill(word);

    // Clicking inserts the word at the caret, with the spaces it needs.
    const sentence = page.locator('#sentence');
    const start = await sentence.inputValue();
    const caret = start.indexOf(' ') + 1; // after the first word
    await sentence.evaluate((el, at) => el.setSelectionRange(at, at), caret);
    await page.getByRole('button', { name: `Insert “${word}”`, exact: true }).click();
    const inserted = `${start.slice(0, caret)}${word} ${start.slice(caret)}`;
    await expectRendered(page, inserted);
    // …and by keyboard, after the word just inserted.
    await page.getByRole('button', { name: `Insert “${word}”`, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expectRendered(page, `${start.slice(0, caret)}${word} ${word} ${start.slice(caret)}`);

    // The whole list is one Tab stop; arrows, Home and End move inside it.
    await page.getByLabel('Find a word').fill('');
    const sorted = [...words].sort((a, b) => a.localeCompare(b, 'en'));
    // The focused element, inside the main view's shadow root.
    const focused = () =>
      page.evaluate(() => {
        let active = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active.dataset.word ?? active.id;
      });
    await page.getByLabel('Find a word').press('Tab');
    expect(await focused()).toBe(sorted[0]);
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe(sorted[1]);
    await page.keyboard.press('End');
    expect(await focused()).toBe(sorted.at(-1));
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('layer'); // the next control after the list (the answer's box has none)
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe(sorted.at(-1)); // the list remembers where the reader was

    await page.locator('#lang').click();
    await expect(page.locator('#vocab-summary')).toHaveText(`此模型认识的词（${words.length} 个）`);
    await expectNoAxeViolations(page);

    // The untrained model has no vocabulary: no list.
    await chooseModel(page, 'untrained');
    await expect(vocab).toBeHidden();
  });

  test('a word read as [UNK] gets "did you mean" with the nearest known words, which replace it (375 px, dark)', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await openPage(page, '/');
    const words = await callModel(page, 'vocabularyWords');
    const word = words.find((w) => w.length >= 6 && /^[a-z]+$/.test(w) && w[1] !== w[2]);
    const typo = word[0] + word[2] + word[1] + word.slice(3); // two letters swapped
    const offered = (await callModel(page, 'nearestWords', typo, 3)).map((n) => n.word);
    expect(words).not.toContain(typo);

    await typeSentence(page, `The ${typo} didn't cross the street because it was too tired.`);
    const suggestion = page.locator('#suggestions li');
    await expect(suggestion).toHaveCount(1);
    await expect(suggestion).toContainText(`“${typo}” is not a word this model knows — did you mean`);
    const choices = (await suggestion.locator('button').allTextContents()).map((c) => c.replace(/[“”]/g, ''));
    expect(choices).toContain(word); // one swap away
    expect(choices.every((c) => offered.includes(c))).toBe(true);
    await expect(page.locator('#unknown')).toContainText(typo);
    await page.locator('#vocab-summary').click();
    await page.getByLabel('Find a word').fill(word.slice(0, 2));
    await page.locator('#controls').screenshot({ path: `${SHOTS}/vocabulary.png` });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
      'no sideways scrolling at 375 px',
    ).toBe(true);
    await page.locator('#result .prediction ~ .suggestions').screenshot({ path: `${SHOTS}/suggestions.png` });
    await expectNoAxeViolations(page);

    await page.locator('#lang').click();
    await expect(suggestion).toContainText(`此模型不认识“${typo}”`);
    await page.getByRole('button', { name: `把“${typo}”换成“${word}”` }).click();
    await expectRendered(page, `The ${word} didn't cross the street because it was too tired.`);
    await expect(page.locator('#suggestions')).toBeHidden();
    await expect(page.locator('#unknown')).toBeHidden();
  });

  test('an answer that is not a word of the sentence says so, in both languages', async ({ page }) => {
    await openPage(page, '/');
    // Sentences without a noun for "it": whatever the model names, it cannot be in them.
    const candidates = [
      'it was too tired.',
      'it was too wide.',
      'because it was too tired.',
      'yesterday it was too wide.',
    ];
    const runs = await analyzeAll(page, candidates);
    const outside = runs.find((r) => r.answer && !r.tokens.includes(r.answer));
    expect(outside, JSON.stringify(runs)).toBeTruthy();

    const note = page.locator('#answer-note');
    await expect(note).toBeHidden(); // the lesson sentence: the answer is one of its words
    await expect(app(page)).toHaveAttribute('data-answer-in-sentence', 'true');
    await typeSentence(page, outside.text);
    await expect(app(page)).toHaveAttribute('data-prediction', outside.answer);
    await expect(note).toHaveText(
      `“${outside.answer}” is not a word of this sentence: the model named a word it remembers from training instead of one it read here.`,
    );
    await expect(app(page)).toHaveAttribute('data-answer-in-sentence', 'false');
    await page.locator('#lang').click();
    await expect(note).toContainText(`“${outside.answer}”不是这个句子里的词`);
  });

  test('a Chinese sentence in the English coreference model: "this model reads English", not "has no it"', async ({
    page,
  }) => {
    await openPage(page, '/');
    const [refused] = await analyzeAll(page, [CHINESE]);
    expect(refused.error).toContain('"it"'); // the engine refuses it for want of "it"…
    await page.locator('#sentence').fill(CHINESE);
    await expect(app(page)).toHaveAttribute('data-status', 'error');
    await expect(alert(page)).toContainText('This model reads English, and this sentence is Chinese'); // …the page says why
    await expect(alert(page)).not.toContainText(/["“]it["”]/);
    await page.locator('#lang').click();
    await expect(alert(page)).toContainText('这个模型只读英文');

    // An English sentence without "it" still gets the engine's reason (worded by its code).
    await page.locator('#lang').click();
    await page.locator('#sentence').fill("The animal didn't cross the street.");
    await expect(alert(page)).toContainText(/has no [“"]it[”"]/);

    // The decoder runs any sentence; with a Chinese one the note says the same instead of
    // listing every character as [UNK]; an English sentence with one unknown word still lists it.
    await chooseModel(page, 'coref-decoder');
    await page.locator('#sentence').fill(CHINESE);
    await expect(app(page)).toHaveAttribute('data-text', CHINESE);
    await expect(app(page)).toHaveAttribute('data-status', 'ready');
    await expect(page.locator('#unknown')).toContainText('This model reads English, and this sentence is Chinese');
    await typeSentence(page, 'the zzzz animal');
    await expect(page.locator('#unknown')).toHaveText(/read as \[UNK\]: zzzz$/);
  });
});
