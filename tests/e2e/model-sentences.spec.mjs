// Each model keeps its own sentence (issue 11 item 10): a link to the decoder without a sentence
// opens on the decoder's prompt; a typed sentence goes along to a model that can read it, and
// one that cannot is kept aside with a note and comes back with the model it was typed for.
import { app, expect, openPage, test } from './fixtures.mjs';

const sentence = (page) => page.locator('#sentence');
const note = (page) => page.locator('#sentence-note');

async function choose(page, name) {
  await page.locator('#model').selectOption(name);
  await expect(app(page)).toHaveAttribute('data-model', name);
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
}

test("a link to the decoder without a sentence opens on the decoder's prompt", async ({ page }) => {
  await openPage(page, '/?model=coref-decoder');
  await expect(sentence(page)).toHaveValue(/ it =$/);
  await expect(app(page)).toHaveAttribute('data-prediction', /^(animal|street)$/);
});

test('a typed sentence travels only to a model that reads it, and comes back with its own model', async ({ page }) => {
  await openPage(page, '/');
  const typed = "The dog didn't cross the road because it was too tired.";
  await sentence(page).fill(typed);
  await expect(app(page)).toHaveAttribute('data-text', typed);

  await choose(page, 'coref-decoder'); // English: the decoder reads it, so it goes along
  await expect(sentence(page)).toHaveValue(typed);
  await expect(note(page)).toBeHidden();

  await choose(page, 'word-order-rope'); // Chinese word order cannot: its own sentence, and a note
  await expect(sentence(page)).not.toHaveValue(typed);
  await expect(app(page)).toHaveAttribute('data-prediction', /./);
  await expect(note(page)).toBeVisible();
  await expect(note(page)).toContainText('Coreference (decoder)');
  const ownSentence = await sentence(page).inputValue();

  await choose(page, 'coref-encoder'); // the encoder's own sentence is the typed one
  await expect(sentence(page)).toHaveValue(typed);
  await expect(note(page)).toBeHidden();

  await choose(page, 'word-order-rope'); // and word order kept its own
  await expect(sentence(page)).toHaveValue(ownSentence);
});
