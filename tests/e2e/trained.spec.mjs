// End-to-end tests of the trained models on the page (web/models, listed in index.json):
// lazy loading, the task's answer, [UNK] words, load errors, and cells equal to the engine's.
import fs from 'node:fs';
import {
  SHOTS,
  alert,
  app,
  cells,
  chooseModel,
  expect,
  expectCellsMatchApi,
  expectNoSeriousAxeViolations,
  expectRendered,
  openPage,
  shownCells,
  test,
  NOT_FOUND,
  withoutWeights,
} from './fixtures.mjs';
import { format, messages } from '../../web/i18n.mjs';
import { LESSON as PAIR, DECODER_PROMPT } from '../../web/lib/lesson.mjs';

const LESSON = PAIR.tired;
const PROMPT = DECODER_PROMPT.tired;
const UNK_TITLE = '[UNK] — not in this model’s vocabulary';

const readJson = (path) => JSON.parse(fs.readFileSync(path, 'utf8'));
const shipped = fs.existsSync('web/models/index.json')
  ? readJson('web/models/index.json').models.map((m) => m.name)
  : [];
const has = (name) => shipped.includes(name);

const answer = (page) => page.locator('#answer');

async function typeSentence(page, text) {
  await page.locator('#sentence').fill(text);
  await expectRendered(page, text);
}

// The shown head as {tokens, n, w: n×n numbers}.
async function shownMatrix(page) {
  const n = Number(await cells(page).count()) ** 0.5;
  const tokens = (await page.locator('ae-attention-heatmap text.label').allTextContents()).slice(0, n);
  const w = Array.from({ length: n }, () => new Array(n));
  for (const { row, col, value } of await shownCells(page)) w[row][col] = Number(value);
  return { tokens, n, w };
}

test('a visit without a link opens on coref-encoder, at its coreference head', async ({ page }) => {
  test.skip(!has('coref-encoder'), 'coref-encoder is not in web/models');
  await openPage(page, '/');
  await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder');
  await expect(page.locator('#model')).toHaveValue('coref-encoder');
  const { coreference_head: head } = readJson('web/models/coref-encoder/config.json');
  await expect(app(page)).toHaveAttribute('data-layer', String(head.layer));
  await expect(app(page)).toHaveAttribute('data-head', String(head.head));
  await expect(page.getByRole('note')).toContainText('Trained model.');
  await expect(answer(page)).toHaveText(/^“it” → animal/);
  await expectCellsMatchApi(page);
});

test('word-order-sinusoidal loads on demand and names the agent: 猫 for 猫追狗, 狗 for 狗追猫', async ({ page }) => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  // Every file of the model waits: the weights stream beside config.json, and their progress
  // ("…: 55 KB…") would otherwise reach the status before the assertion below reads it.
  await page.route('**/models/word-order-sinusoidal/*', async (route) => {
    await gate;
    await route.continue();
  });
  await openPage(page);
  await expect(page.locator('#model option')).toHaveCount(2 + shipped.length); // untrained, shipped, "Open a model…"
  await expect(page.locator('#model option').first()).toHaveText('Untrained (random weights)');
  await expect(page.locator('#model option').last()).toHaveText('Open a model…');

  await page.locator('#model').selectOption('word-order-sinusoidal');
  await expect(page.locator('#status')).toHaveText('Loading Word order: sinusoidal…');
  await expect(app(page)).toHaveAttribute('data-status', 'loading');
  release();
  await expectRendered(page, '猫追狗'); // the task's default sentence replaces the lesson's
  await expect(answer(page)).toHaveText(/^Agent: 猫 \((> )?\d+(\.\d)?%\)$/);
  await expect(page.locator('#alternatives li')).toHaveCount(3);
  await expect(page.locator('#random-settings')).toBeHidden();
  await expect(page.locator('#swap')).toBeHidden();
  await expect(page.getByRole('note')).toContainText('Trained model.');
  await expect(page.locator('#fact-heads')).toHaveText('2');
  await expect(page.locator('#fact-layers')).toHaveText('2');
  await expect(page.locator('#fact-positional')).toHaveText('Sinusoidal');
  await expect(page.locator('#fact-task')).toHaveText('Word order (agent)');
  await expect(page.locator('#fact-size')).toHaveText(/^\d+ KB$/);
  await expect(page.locator('#layer option')).toHaveCount(2);
  await expect(page.locator('#head option')).toHaveCount(2);

  await typeSentence(page, '狗追猫');
  await expect(answer(page)).toHaveText(/^Agent: 狗 /);
  await expectCellsMatchApi(page);

  // Back to random weights: its controls return, the typed sentence stays.
  await page.locator('#model').selectOption('untrained');
  await expectRendered(page, '狗追猫');
  await expect(page.locator('#random-settings')).toBeVisible();
  await expect(page.locator('#prediction')).toBeHidden();
  await expect(page.getByRole('note')).toContainText('Untrained model.');
});

test('word-order-none cannot tell 猫追狗 from 狗追猫: same answer, same weights up to the word order', async ({
  page,
}) => {
  await openPage(page);
  await chooseModel(page, 'word-order-none');
  await expect(page.getByRole('note')).toContainText('猫追狗 and 狗追猫 look the same');
  const seen = {};
  for (const sentence of ['猫追狗', '狗追猫']) {
    await typeSentence(page, sentence);
    seen[sentence] = {
      answer: await answer(page).textContent(),
      alternatives: await page.locator('#alternatives').textContent(),
      heads: [],
    };
    for (const layer of ['0', '1']) {
      for (const head of ['0', '1']) {
        await page.locator('#layer').selectOption(layer);
        await page.locator('#head').selectOption(head);
        seen[sentence].heads.push(await shownMatrix(page));
      }
    }
  }
  const [a, b] = [seen['猫追狗'], seen['狗追猫']];
  expect(b.answer).toBe(a.answer);
  expect(b.alternatives).toBe(a.alternatives);
  a.heads.forEach((x, h) => {
    const y = b.heads[h];
    const p = x.tokens.map((token) => y.tokens.indexOf(token)); // [CLS] 猫 追 狗 → its place in [CLS] 狗 追 猫
    expect(p).toEqual([0, 3, 2, 1]);
    const off = [];
    for (let i = 0; i < x.n; i++)
      for (let j = 0; j < x.n; j++)
        if (Math.abs(x.w[i][j] - y.w[p[i]][p[j]]) > 1e-6) off.push([h, i, j, x.w[i][j], y.w[p[i]][p[j]]]);
    expect(off, 'weights that differ after permuting rows and columns').toEqual([]);
  });
});

test('cells equal TrainedModel.analyze(), also with the causal and 1/√d switches changed', async ({ page }) => {
  await openPage(page);
  await chooseModel(page, 'word-order-rope');
  await page.locator('#head').selectOption('1');
  await expectCellsMatchApi(page);
  await page.locator('#causal').check();
  await page.locator('#scale').uncheck();
  await expect(app(page)).toHaveAttribute('data-run', '{"causal":true,"scale":false}');
  const { n } = await expectCellsMatchApi(page);
  const shown = await shownCells(page);
  expect(shown.filter((c) => c.col > c.row && c.value !== '0')).toEqual([]); // the mask reached the model
  expect(n).toBe(4);
});

test('words outside the vocabulary are marked [UNK] in the heatmap and listed', async ({ page }) => {
  await openPage(page);
  await chooseModel(page, 'word-order-sinusoidal');
  await typeSentence(page, '猫追 blorp');
  const marked = page.locator('ae-attention-heatmap text.label.unknown');
  await expect(marked).toHaveCount(2); // its row and its column
  await expect(marked.first()).toContainText('blorp');
  await expect(marked.first().locator('title')).toHaveText(UNK_TITLE);
  await expect(page.locator('#unknown')).toHaveText('Not in this model’s vocabulary, read as [UNK]: blorp');
  await expect(page.locator('ae-attention-heatmap text.label:not(.unknown)')).toHaveCount(6);

  // A sentence the user typed survives a change of model.
  await chooseModel(page, 'word-order-learned');
  await expectRendered(page, '猫追 blorp');
  await typeSentence(page, '猫追狗');
  await expect(marked).toHaveCount(0);
  await expect(page.locator('#unknown')).toBeHidden();
});

test('each model is fetched once, however often the menu switches', async ({ page }) => {
  const fetched = [];
  page.on('request', (r) => r.url().endsWith('model.safetensors') && fetched.push(new URL(r.url()).pathname));
  await openPage(page);
  for (const name of [
    'word-order-none',
    'word-order-rope',
    'untrained',
    'word-order-none',
    'word-order-rope',
    'untrained',
  ]) {
    await chooseModel(page, name);
    if (name !== 'untrained') await expect(answer(page)).toHaveText(/^Agent: /);
  }
  expect(fetched.sort()).toEqual([
    '/models/word-order-none/model.safetensors',
    '/models/word-order-rope/model.safetensors',
  ]);
});

test.describe('when a model fails to load', () => {
  test.use({ expectedErrors: [NOT_FOUND] });

  test('the error shows in the alert, and other models (and a retry) still work', async ({ page }) => {
    await withoutWeights(page, 'word-order-rope');
    await openPage(page);
    await page.locator('#model').selectOption('word-order-rope');
    await expect(alert(page)).toHaveText(
      'The model “Word order: RoPE” could not be loaded: the model files were not found on the server.',
    );
    await expect(alert(page)).toHaveAttribute(
      'title',
      /^could not load model.safetensors from .*\/models\/word-order-rope\/: HTTP 404$/,
    );
    await expect(app(page)).toHaveAttribute('data-status', 'error');
    await expect(page.locator('#status')).toBeHidden();
    await expect(page.locator('#prediction')).toBeHidden();

    await chooseModel(page, 'word-order-sinusoidal');
    await expect(alert(page)).toHaveText('');
    await expect(answer(page)).toHaveText(/^Agent: 猫 /);

    await page.unroute('**/models/word-order-rope/model.safetensors');
    await chooseModel(page, 'word-order-rope');
    await expect(alert(page)).toHaveText('');
    await expectCellsMatchApi(page);
  });
});

test('coref-encoder resolves “it”: animal when tired, street when wide', async ({ page }) => {
  test.skip(!has('coref-encoder'), 'web/models/index.json does not list coref-encoder yet');
  const { coreference_head: head } = readJson('web/models/coref-encoder/config.json');
  await openPage(page);
  await chooseModel(page, 'coref-encoder');
  await expectRendered(page, LESSON);
  await expect(app(page)).toHaveAttribute('data-layer', String(head.layer));
  await expect(app(page)).toHaveAttribute('data-head', String(head.head));
  await expect(answer(page)).toHaveText(/^“it” → animal /);
  await expectCellsMatchApi(page);

  await page.locator('#swap').click();
  await expectRendered(page, LESSON.replace('tired', 'wide'));
  await expect(answer(page)).toHaveText(/^“it” → street /);
  await expectCellsMatchApi(page); // the heatmap relabels in place: "wide" where "tired" was

  await page.locator('#sentence').fill('The animal was tired.'); // an error: no ready state to wait for
  await expect(alert(page)).toHaveText(/^The model could not run: the sentence has no “it”/);
  await expect(alert(page)).toHaveAttribute('title', /no "it" for the coreference model/);
  await expect(page.locator('#prediction')).toBeHidden();
  await typeSentence(page, LESSON);
  await expect(alert(page)).toHaveText('');
  await expect(answer(page)).toHaveText(/^“it” → animal /);
});

// A share of a split as the page should write it, formatted here from config.json's number.
const rate = (x, locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(x);

test('Model facts list coref-encoder’s checks on unseen sentences from config.json, in English and Chinese', async ({
  page,
}) => {
  test.skip(!has('coref-encoder'), 'coref-encoder is not in web/models');
  const { splits } = readJson('web/models/coref-encoder/config.json');
  expect(Object.keys(splits).length, 'config.json has splits').toBeGreaterThan(0);
  const row = page.locator('#fact-splits-row');
  const items = page.locator('#fact-splits li');
  await openPage(page, '/?model=coref-encoder'); // a linked model stays when the language changes
  await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder');
  // The page starts in English; the language button then names the other language.
  for (const [lang, locale, htmlLang, next] of [
    ['en', 'en', 'en', '中文'],
    ['zh', 'zh-CN', 'zh-Hans', 'English'],
  ]) {
    await expect(page.locator('html')).toHaveAttribute('lang', htmlLang);
    await expect(row).toBeVisible();
    await expect(row.locator('dt')).toHaveText(messages[lang].factSplits);
    // Validation first, then the held-out splits, in the order of the strings' splitNames.
    const order = Object.keys(messages[lang].splitNames).filter((name) => name in splits);
    expect(order.length).toBe(Object.keys(splits).length);
    await expect(items).toHaveText(
      order
        .map((name) => [name, splits[name]])
        .map(([name, { accuracy, flip_rate: flip }]) =>
          format(messages[lang].factSplitValue, {
            name: messages[lang].splitNames[name],
            accuracy: rate(accuracy, locale),
            flip: rate(flip, locale),
          }),
        ),
    );
    await page.getByRole('button', { name: next }).click();
  }
  // Back in English: the validation line spelled out, so a wrong template or number format also fails.
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const { accuracy, flip_rate: flip } = splits.validation;
  await expect(items.first()).toHaveText(
    `validation: ${+(accuracy * 100).toFixed(1)}% right, head follows ${+(flip * 100).toFixed(1)}% of pairs`,
  );

  // Models without held-out splits hide the row.
  await chooseModel(page, 'word-order-rope');
  await expect(row).toBeHidden();
  await chooseModel(page, 'untrained');
  await expect(row).toBeHidden();
});

test('coref-decoder writes the referent after “it =”', async ({ page }) => {
  test.skip(!has('coref-decoder'), 'web/models/index.json does not list coref-decoder yet');
  await openPage(page);
  await chooseModel(page, 'coref-decoder');
  await expectRendered(page, PROMPT);
  await expect(page.locator('#causal')).toBeChecked(); // the mask it was trained with
  await expect(answer(page)).toHaveText(/^Next word: animal /);
  await page.locator('#swap').click();
  await expectRendered(page, PROMPT.replace('tired', 'wide'));
  await expect(answer(page)).toHaveText(/^Next word: street /);
  await page.locator('#layer').selectOption('2');
  await expectCellsMatchApi(page);
});

test('axe finds no serious or critical violations with a trained model (light English, dark Chinese)', async ({
  page,
}) => {
  await openPage(page);
  await chooseModel(page, 'word-order-sinusoidal');
  await typeSentence(page, '猫追 blorp');
  await expect(page.locator('#unknown')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: '中文' }).click();
  await expect(answer(page)).toHaveText(/^施事者：猫/);
  await expectNoSeriousAxeViolations(page);
});

test('screenshots of trained models: desktop, 375 px light and dark Chinese', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const coref = has('coref-encoder') ? 'coref-encoder' : 'coref-decoder';
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page);
  await chooseModel(page, coref);
  await page.screenshot({ path: `${SHOTS}/trained.png`, fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await chooseModel(page, 'word-order-sinusoidal');
  await typeSentence(page, '猫追 blorp');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: `${SHOTS}/trained-375.png`, fullPage: true });

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: '中文' }).click();
  // The sentence first: the coreference model would reject the Chinese one (no "it").
  await typeSentence(
    page,
    coref === 'coref-encoder' ? LESSON.replace('animal', 'zebra') : PROMPT.replace('animal', 'zebra'),
  );
  await chooseModel(page, coref);
  await expect(page.locator('#unknown')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: `${SHOTS}/trained-375-dark-zh.png`, fullPage: true });
});
