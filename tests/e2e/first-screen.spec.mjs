// First screen = the lesson (issue 32, item 1): on a phone (375 × 812) and a laptop (1366 × 768),
// in English and Chinese, without scrolling, the page shows the sentence (editable), the swap,
// the answer and what the pronoun looks at in the coreference head (the focus strip, #focus):
// one weight per word, equal to the trace's row at the pronoun, the word it weighs most
// outlined, and one sentence naming that word and the model's answer. The strip follows the
// swap and a sentence the learner types, with the pronoun wherever it is.
import fs from 'node:fs';
import { apiAll, app, expect, expectNoSeriousAxeViolationsInSchemes, expectRendered, test } from './fixtures.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';

const SCREENS = {
  phone: { width: 375, height: 812 },
  laptop: { width: 1366, height: 768 },
};
const config = (model) => JSON.parse(fs.readFileSync(`web/models/${model}/config.json`, 'utf8'));
const FIRST_SCREEN = ['#sentence', '#swap', '#answer', '#focus'];
// What a learner types, one per language; the second English one puts "it" in the first clause.
const TYPED = {
  en: [
    'The dog did not chase the cat because it was too slow.',
    'Because it was too tired, the animal did not cross the street.',
  ],
  zh: ['那只狗没有穿过公路，因为它太累了。'],
};

// The box of `selector` (in the main view's shadow root) lies inside the first viewport.
async function expectInFirstScreen(page, selector, { width, height }) {
  const box = await page.locator(selector).boundingBox();
  expect(box, `${selector} is shown`).not.toBeNull();
  const where = `${selector}: y ${Math.round(box.y)}–${Math.round(box.y + box.height)}`;
  expect(box.y, where).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, where).toBeLessThanOrEqual(height);
  expect(box.x, where).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, where).toBeLessThanOrEqual(width);
  return where;
}

// The strip as shown: its words, their published weights, the outlined word, the row it reads.
const strip = (page) =>
  page.locator('#focus').evaluate((box) => ({
    words: [...box.querySelectorAll('li .w')].map((w) => w.textContent),
    values: [...box.querySelectorAll('li')].map((li) => li.dataset.value),
    top: [...box.querySelectorAll('li.top .w')].map((w) => w.textContent),
    query: [...box.querySelectorAll('li.query .w')].map((w) => w.textContent),
    row: Number(box.dataset.row),
    note: box.querySelector('.focus-note').textContent,
  }));

// The strip equals the coreference head's row at the pronoun's last occurrence, recomputed by a
// separate engine from the state the page publishes; it outlines the row's largest weight, and
// its note names that word and the answer. Returns the strip.
async function expectStripMatchesTrace(page) {
  const model = await app(page).getAttribute('data-model');
  const { coreference_head: named, pronoun } = config(model);
  const all = await apiAll(page);
  const row = all.tokens.lastIndexOf(pronoun);
  expect(row, `the sentence has “${pronoun}”`).toBeGreaterThanOrEqual(0);
  const weights = all.layers[named.layer][named.head][row];
  const shown = await strip(page);
  expect(shown.words).toEqual(all.tokens);
  expect(shown.row).toBe(row);
  expect(shown.query).toEqual([pronoun]);
  expect(shown.values).toEqual(weights.map(String));
  const top = all.tokens[weights.indexOf(Math.max(...weights))];
  expect(shown.top).toEqual([top]);
  expect(shown.note).toContain(`“${top}”`);
  expect(shown.note).toContain(`“${all.prediction}”`);
  return { ...shown, top: shown.top[0], prediction: all.prediction };
}

for (const [screen, viewport] of Object.entries(SCREENS))
  for (const lang of ['en', 'zh'])
    test(`${screen} ${lang}: the sentence, the swap, the answer and what the pronoun looks at fill the first screen`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`/?lang=${lang}`);
      await expect(app(page)).toHaveAttribute('data-status', 'ready');
      await expect(page.locator('#prediction')).toBeVisible();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const boxes = [];
      for (const selector of FIRST_SCREEN) boxes.push(await expectInFirstScreen(page, selector, viewport));
      console.log(`first screen ${screen} ${lang}: ${boxes.join('; ')}`);
      await expect(page.locator('#sentence')).toBeEditable();

      // The strip is the trace's row at the pronoun in the coreference head, outlining the answer.
      const first = await expectStripMatchesTrace(page);
      expect(first.top).toBe(first.prediction);

      // The swap: the answer and the word the pronoun looks at move together (to street).
      await page.locator('#swap').click();
      await expect(app(page)).not.toHaveAttribute('data-prediction', first.prediction);
      const swapped = await expectStripMatchesTrace(page);
      expect(swapped.top).not.toBe(first.top);
      expect(swapped.top).toBe(swapped.prediction);
      if (lang === 'en') expect(swapped.top).toBe('street');

      // Sentences the learner types, the pronoun wherever it is: the strip follows each.
      for (const typed of TYPED[lang]) {
        await page.locator('#sentence').fill(typed);
        await expectRendered(page, typed);
        await expectStripMatchesTrace(page);
      }
    });

test('the strip names the shown words in Chinese and English, and hides for a model without a coreference head', async ({
  page,
}) => {
  await page.setViewportSize(SCREENS.phone);
  await page.goto('/?lang=en');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expectNoSeriousAxeViolationsInSchemes(page, { fromShadowDom: ['#result', '#prediction'] });
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('#focus .focus-title')).toContainText('What “it” looks at');
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('#focus .focus-title')).toContainText('在看哪里');
  await page.locator('#model').selectOption('word-order-sinusoidal');
  await expect(app(page)).toHaveAttribute('data-model', 'word-order-sinusoidal');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('#focus')).toBeHidden();
  await page.locator('#model').selectOption('coref-encoder');
  await expectRendered(page, LESSON.tired);
  await expect(page.locator('#focus')).toBeVisible();
});
