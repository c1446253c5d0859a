// The path through the lesson (<ae-lesson-path>, web/components/lesson-path.mjs): a walk through
// every step in English and Chinese, each step's live figure checked against the number its
// panel publishes (or, for the first step, against the engine run again in the page); a step's
// link, Back and Forward; the progress kept over a reload; axe on the path's steps.
import { test, expect, app, apiAll, AxeBuilder } from './fixtures.mjs';
import { PATH_STEPS } from '../../web/lib/path-steps.mjs';

const path = (page) => page.locator('#path');
const figure = (page) => page.locator('#path .path-figure');
const param = (page, key) => new URL(page.url()).searchParams.get(key);
// The path comes with the lesson panels, fetched once the first attention is drawn: on a busy
// machine that can take longer than the default wait.
const LOADED = { timeout: 30_000 };

// Opens `url` and waits until the path shows step `id` ('' when closed).
async function openAt(page, url, id) {
  await page.goto(url);
  await expect(app(page)).toHaveAttribute('data-status', 'ready', LOADED);
  await expect(path(page)).toHaveAttribute('data-step', id, LOADED);
}

// The number each step's panel shows, read where the panel publishes it (its data-* and cells),
// independently of web/lib/path-figures.mjs.
const SHOWN = {
  qkv: (page) =>
    page
      .locator('ae-qkv-steps tr[data-raw]')
      .evaluateAll((rows) => Math.max(...rows.map((tr) => Number(tr.dataset.raw)))),
  'four-steps': (page) =>
    page.locator('ae-qkv-steps tr[data-raw]').evaluateAll((rows) => {
      const top = rows.reduce((a, b) => (Number(b.dataset.raw) > Number(a.dataset.raw) ? b : a));
      return Number(top.dataset.weight);
    }),
  scaling: async (page) => Number(await page.locator('ae-scaling').getAttribute('data-score-std')),
  'multi-head': (page) =>
    page
      .locator('ae-multi-head td[data-weight]')
      .evaluateAll((cells) => Math.max(...cells.map((td) => Number(td.dataset.weight)))),
  positions: async (page) =>
    Number(await page.locator('ae-positions tr[data-encoding="none"]').getAttribute('data-prob-a')),
  'causal-mask': async (page) => {
    const pos = Number(await page.locator('ae-causal-mask').getAttribute('data-it-position'));
    return Number(
      await page
        .locator(`ae-causal-mask .ae-cm-weights td[data-row="${pos}"][data-col="${pos + 1}"]`)
        .getAttribute('data-value'),
    );
  },
  'kv-cache': (page) => page.locator('ae-kv-cache [data-position][data-state="new"]').count(),
  cost: async (page) => Number(await page.locator('ae-cost').getAttribute('data-max-n')) ** 2,
  'cross-attention': (page) =>
    page.locator('ae-cross-attention .ae-ca-cross table').evaluate((table) => {
      const i = [...table.querySelectorAll('tbody th[data-row]')].findIndex((th) => th.textContent === 'it');
      return Math.max(...[...table.querySelectorAll(`td[data-row="${i}"]`)].map((td) => Number(td.dataset.value)));
    }),
  explanation: async (page) => Number(await page.locator('ae-explanation').getAttribute('data-largest-effect')),
  train: async (page) => Number((await page.locator('ae-train').getAttribute('data-snapshot-step')) ?? 0),
};

// The first step's figure: the weight the pronoun gives its most attended word in the coreference head
// that the model's config.json names, from the engine run again in the page (fixtures' apiAll).
async function engineFigure(page) {
  const model = await app(page).getAttribute('data-model');
  const config = await page.evaluate((name) => fetch(`/models/${name}/config.json`).then((r) => r.json()), model);
  const { layer, head } = config.coreference_head;
  const all = await apiAll(page);
  const it = all.tokens.indexOf(config.pronoun ?? 'it'); // 它 for the Chinese model
  return Math.max(...all.layers[layer][head][it]);
}

// Answers a panel's predict-then-reveal question (its first choice), if it asks one.
async function guessIfAsked(page, section) {
  const host = page.locator(`#${section} > *`).first();
  if ((await host.getAttribute('data-guessing')) === null) return false;
  await expect(figure(page)).not.toHaveAttribute('data-figure', /./); // the figure waits for the guess
  await host.locator('.ae-guide-choices button').first().click();
  await expect(host).not.toHaveAttribute('data-guessing', '');
  return true;
}

for (const lang of ['en', 'zh']) {
  test(`the path, step by step in ${lang}: each figure is the number its panel shows`, async ({ page }) => {
    test.setTimeout(240_000);
    await openAt(page, `/?lang=${lang}`, '');
    // Closed: the panels are as without the path (no guess asked, the switch off).
    await expect(page.locator('#ae-predict')).not.toBeChecked();
    await path(page).locator('.path-begin').click();
    let guessed = 0;
    for (const [i, { id, section }] of PATH_STEPS.entries()) {
      if (i > 0) await path(page).locator('.path-next').click();
      await expect(path(page)).toHaveAttribute('data-step', id);
      await expect.poll(() => param(page, 'step')).toBe(id);
      await expect(page.locator(`#${section}`)).toHaveAttribute('data-path-highlight', '');
      await expect(path(page).locator('.path-count')).toBeFocused();
      await expect(path(page).locator('.path-count')).toContainText(lang === 'zh' ? `第 ${i + 1} 步` : `Step ${i + 1}`);
      // Above its panel (the first step's panel is the main view: the card stays under it).
      const neighbour = await path(page).evaluate((el) => [el.previousElementSibling?.id, el.nextElementSibling?.id]);
      expect(neighbour[section === 'result' ? 0 : 1]).toBe(section);
      await expect(page.locator('#ae-predict')).toBeChecked(); // predict-then-reveal is on in the path
      if (await guessIfAsked(page, section)) guessed += 1;
      await expect(figure(page)).toHaveAttribute('data-figure', /./, { timeout: 30_000 });
      const shown = id === 'sentence' ? await engineFigure(page) : await SHOWN[id](page);
      await expect.poll(async () => Number(await figure(page).getAttribute('data-figure')), id).toBe(shown);
      if (id === 'kv-cache') {
        // Two steps of generation: the second computes one new row, the rest comes from the cache.
        const step = page.locator('ae-kv-cache .ae-kv-step');
        await step.click();
        await expect(page.locator('ae-kv-cache')).toHaveAttribute('data-step', '1');
        await step.click();
        await expect(page.locator('ae-kv-cache')).toHaveAttribute('data-step', '2');
        await expect(figure(page)).toHaveAttribute('data-figure', '1');
        expect(await SHOWN['kv-cache'](page)).toBe(1);
      }
      if (id === 'causal-mask') await expect(figure(page)).toHaveAttribute('data-figure', '0'); // masked: exactly 0
      const words = await figure(page).textContent();
      expect(words, id).toMatch(lang === 'zh' ? /[\u4e00-\u9fff]/ : /^[^\u4e00-\u9fff]*[a-z]/i);
      expect(words, id).toMatch(/\d/); // the figure itself, not a wait
    }
    expect(guessed, 'panels that asked for a guess').toBeGreaterThanOrEqual(3);
    await expect(path(page).locator('.path-next')).toBeDisabled();
    await path(page).locator('.path-leave').click();
    await expect(path(page)).toHaveAttribute('data-step', '');
    await expect(path(page).locator('.path-begin')).toBeFocused(); // the keyboard is not lost
    await expect(page.locator('[data-path-highlight]')).toHaveCount(0);
    await expect(page.locator('#ae-predict')).not.toBeChecked(); // the reader's own setting is back
    await expect.poll(() => param(page, 'step')).toBe(null);
  });
}

test('a step’s link opens that step, after a reload too; Back and Forward move between steps', async ({ page }) => {
  await openAt(page, '/?step=4', 'scaling');
  await expect.poll(() => param(page, 'step')).toBe('scaling'); // the number becomes the step's name
  await expect(path(page)).toBeInViewport();
  expect(await path(page).evaluate((el) => el.nextElementSibling.id)).toBe('scaling');
  await path(page).locator('.path-next').click();
  await expect.poll(() => param(page, 'step')).toBe('multi-head');
  await page.goBack();
  await expect(path(page)).toHaveAttribute('data-step', 'scaling');
  await page.goForward();
  await expect(path(page)).toHaveAttribute('data-step', 'multi-head');
  await page.reload();
  await expect(path(page)).toHaveAttribute('data-step', 'multi-head', LOADED);
  await expect(path(page)).toBeInViewport();
  await openAt(page, '/?step=nope', '');
  await expect.poll(() => param(page, 'step')).toBe(null);
});

test('the progress survives a reload, and the path works without storage', async ({ page, context }) => {
  await openAt(page, '/?step=causal-mask', 'causal-mask');
  await path(page).locator('.path-next').click();
  await expect(path(page)).toHaveAttribute('data-step', 'kv-cache');
  await openAt(page, '/', '');
  const begin = path(page).locator('.path-begin');
  await expect(begin).toHaveText('Continue at step 8');
  await expect(path(page).locator('a[data-step="causal-mask"]')).toContainText('✓');
  await expect(path(page).locator('a[data-step="kv-cache"]')).toContainText('✓');
  await expect(path(page).locator('a[data-step="qkv"]')).not.toContainText('✓');
  await begin.click();
  await expect(path(page)).toHaveAttribute('data-step', 'kv-cache');

  const blocked = await context.newPage();
  await blocked.addInitScript(() =>
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('blocked', 'SecurityError');
      },
    }),
  );
  await openAt(blocked, '/', '');
  await expect(path(blocked).locator('.path-begin')).toHaveText('Start the path');
  await path(blocked).locator('.path-begin').click();
  await expect(path(blocked)).toHaveAttribute('data-step', 'sentence');
  await blocked.close();
});

// No serious or critical axe violation in the path's card and the step's panel: every rule in
// light, the contrast rule in dark.
async function expectAccessibleStep(page, id, section) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    const axe = new AxeBuilder({ page }).include('#path').include(`#${section}`);
    if (colorScheme === 'dark') axe.withRules(['color-contrast']);
    const { violations } = await axe.analyze();
    expect(
      violations
        .filter((v) => ['serious', 'critical'].includes(v.impact))
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${id} ${colorScheme}`,
    ).toEqual([]);
  }
}

// axe on the first, a middle and the last step (the card and the step's panel, with its
// question asked), light and dark, opened by their links: the screen × language cases that the
// every-step test below does not walk (phone in Chinese, laptop in English).
const SCREENS = { phone: { width: 375, height: 812 }, laptop: { width: 1366, height: 768 } };
for (const [screen, lang] of [
  ['phone', 'zh'],
  ['laptop', 'en'],
]) {
  const viewport = SCREENS[screen];
  test(`axe: no serious violation on the path's steps (${screen}, ${lang})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    for (const id of ['sentence', 'causal-mask', 'train']) {
      const { section } = PATH_STEPS.find((s) => s.id === id);
      await openAt(page, `/?step=${id}&lang=${lang}`, id);
      await expect(figure(page).locator('.path-figure-text')).not.toBeEmpty();
      await expectAccessibleStep(page, id, section);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  });
}

// Every step, its question asked by the panel: light (every rule) and dark (contrast), on a phone
// in English and on a laptop in Chinese — each screen, language and scheme on every step.
for (const [screen, lang] of [
  ['phone', 'en'],
  ['laptop', 'zh'],
])
  test(`axe: no serious violation on any step of the path (${screen}, ${lang}, light and dark)`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize(SCREENS[screen]);
    await openAt(page, `/?step=1&lang=${lang}`, 'sentence');
    for (const [i, { id, section }] of PATH_STEPS.entries()) {
      if (i > 0) await path(page).locator('.path-next').click();
      await expect(path(page)).toHaveAttribute('data-step', id);
      await expect(figure(page).locator('.path-figure-text')).not.toBeEmpty();
      await expectAccessibleStep(page, id, section);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), id).toBeLessThanOrEqual(
        SCREENS[screen].width,
      );
    }
  });
