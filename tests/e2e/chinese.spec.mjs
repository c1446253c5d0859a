// The lesson in Chinese (issue 9, item 5): a Chinese reader opens on coref-encoder-zh with its
// own pair 那只动物没有穿过马路，因为它太累了 / 太宽了, the answer and the coreference head flip
// on the swap, the English pair stays one click away, and a Chinese sentence typed into the
// English model is offered the Chinese one. Every figure comes from the shipped config.json and
// the wasm API, never from numbers typed in here.
import fs from 'node:fs';
import { alert, app, expect, expectCellsMatchApi, openPage, test } from './fixtures.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';

const CONFIG = 'web/models/coref-encoder-zh/config.json';
const shipped = fs.existsSync(CONFIG);
const config = shipped ? JSON.parse(fs.readFileSync(CONFIG, 'utf8')) : null;
const sentence = (page) => page.locator('#sentence');

// The weight the shown head puts from the pronoun's row on `word`, as the heatmap shows it.
async function weightOn(page, word) {
  const api = await expectCellsMatchApi(page);
  const row = api.tokens.lastIndexOf('它');
  return Number(api.values[row * api.n + api.tokens.indexOf(word)]);
}

test.describe('Chinese coreference model', () => {
  test.skip(!shipped, 'coref-encoder-zh is not in web/models');
  test.use({ locale: 'zh-CN' });

  test('a Chinese reader opens on the Chinese pair; the swap flips the answer and the head', async ({ page }) => {
    await openPage(page, '/');
    await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder-zh');
    await expect(sentence(page)).toHaveValue(config.lesson[0]);
    const { layer, head } = config.coreference_head;
    await expect(app(page)).toHaveAttribute('data-layer', String(layer));
    await expect(app(page)).toHaveAttribute('data-head', String(head));
    await expect(app(page)).toHaveAttribute('data-prediction', '动物');
    expect(await weightOn(page, '动物')).toBeGreaterThan(await weightOn(page, '马路'));

    const swap = page.locator('#swap');
    await expect(swap).toHaveText('切换 累 ↔ 宽');
    await swap.click();
    await expect(sentence(page)).toHaveValue(config.lesson[1]);
    await expect(app(page)).toHaveAttribute('data-text', config.lesson[1]);
    await expect(app(page)).toHaveAttribute('data-prediction', '马路');
    expect(await weightOn(page, '马路')).toBeGreaterThan(await weightOn(page, '动物'));

    // English is one click away: the lesson's model and sentence follow the language.
    await page.getByRole('button', { name: 'English' }).click();
    await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder');
    await expect(sentence(page)).toHaveValue(LESSON.tired);
    await expect(app(page)).toHaveAttribute('data-status', 'ready');
    await expect(page.locator('#swap')).toHaveText('Swap tired ↔ wide');
  });

  test('a Chinese sentence in the English model: the page says so and offers the Chinese model', async ({ page }) => {
    await openPage(page, '/?model=coref-encoder');
    const typed = '那只狗没有穿过公路，因为它太累了。';
    await sentence(page).fill(typed);
    await expect(app(page)).toHaveAttribute('data-error-code', 'no-pronoun');
    const offer = page.locator('#other-model');
    await expect(offer).toBeVisible();
    await expect(alert(page)).toContainText('只读英文');
    await offer.click();
    await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder-zh');
    await expect(app(page)).toHaveAttribute('data-status', 'ready');
    await expect(sentence(page)).toHaveValue(typed); // the reader's sentence is kept
    await expect(alert(page)).toHaveText('');
    await expect(offer).toBeHidden();
  });

  test('a sentence without 它 is refused in Chinese, naming 它', async ({ page }) => {
    await openPage(page, '/');
    await sentence(page).fill('那只动物没有穿过马路。');
    await expect(app(page)).toHaveAttribute('data-error-code', 'no-pronoun');
    await expect(alert(page)).toContainText('句子里没有 “它”');
  });
});
