// Panel 10, KV cache and generation (<ae-kv-cache>): stepping through the decoder's completion
// gives the words of the engine's generate(); each step's cache rows (reused vs new), attention
// weights and multiply-add counts are the API's (generateSteps with and without the cache);
// the cache grows by one row per step after the prompt; the time measurement shows figures;
// positions on screen count from 1 (data-position stays 0-based); the tired ↔ wide switch, a bad
// prompt, 375 px (no page-level horizontal overflow), the language switch and an accessibility scan.
import fs from 'node:fs';
import { AxeBuilder, openPanelAt, newPageAt, NOT_FOUND, withoutWeights } from './fixtures.mjs';
import { SHOTS, expect, openPage, test } from './fixtures.mjs';
import { DECODER_PROMPT } from '../../web/lib/lesson.mjs';

const panel = (page) => page.locator('ae-kv-cache');

const openPanel = (page) => openPanelAt(page, '#kv-cache', 'ae-kv-cache', { state: 'data-status' });

// What the engine API gives for the prompt the panel shows.
function api(page, prompt) {
  return page.evaluate(async (text) => {
    const { getTrainedModel } = await import('/lib/context.mjs');
    const model = await getTrainedModel('coref-decoder');
    const cached = model.generateSteps(text, 8, true);
    const full = model.generateSteps(text, 8, false);
    return {
      words: model.generate(text, 8),
      promptLength: cached.promptLength,
      tokens: cached.tokens,
      steps: cached.steps.map((s, k) => ({
        position: s.position,
        token: s.token,
        rowsReused: s.rowsReused,
        rowsNew: s.rowsNew,
        cacheRows: s.cacheRows,
        with: String(s.work.total),
        without: String(full.steps[k].work.total),
        rowsWithout: String(full.steps[k].rowsNew),
        attention: s.attention.map((layer) => Array.from(layer, String)),
        fullAttention: full.steps[k].attention.map((layer) => Array.from(layer, String)),
      })),
    };
  }, prompt);
}

const shownRows = (view) =>
  view.locator('g.ae-kv-row').evaluateAll((rows) =>
    rows.map((r) => ({
      position: Number(r.dataset.position),
      state: r.dataset.state,
      token: r.dataset.token,
      weight: r.dataset.weight,
    })),
  );

test.describe('KV cache panel', () => {
  test("stepping gives generate()'s words, and the cache rows, weights and work counts of the API", async ({
    page,
  }) => {
    const view = await openPanel(page);
    const prompt = await view.getAttribute('data-prompt');
    const expected = await api(page, prompt);
    expect(expected.steps.length).toBeGreaterThan(1);
    await expect(view.locator('g.ae-kv-row')).toHaveCount(0);
    const layer = Number(await view.getAttribute('data-layer'));
    const head = Number(await view.getAttribute('data-head'));

    let previousRows = 0;
    for (const [k, step] of expected.steps.entries()) {
      await view.getByRole('button', { name: 'Step', exact: true }).click();
      await expect(view).toHaveAttribute('data-step', String(k + 1));
      const rows = step.position + 1;
      await expect(view).toHaveAttribute('data-cache-rows', String(rows));
      expect(step.cacheRows).toBe(rows);
      // After the prompt the cache grows by exactly one row per step.
      expect(rows - previousRows).toBe(k === 0 ? expected.promptLength : 1);
      previousRows = rows;
      const shown = await shownRows(view);
      expect(shown).toHaveLength(rows);
      const weights = step.attention[layer].slice(head * rows, (head + 1) * rows);
      expect(shown).toEqual(
        shown.map((_, j) => ({
          position: j,
          state: j < step.rowsReused ? 'reused' : 'new',
          token: expected.tokens[j],
          weight: weights[j],
        })),
      );
      expect(shown.filter((r) => r.state === 'new')).toHaveLength(step.rowsNew);
      // On screen the positions count from 1, as in the other panels.
      expect(await view.locator('g.ae-kv-row text.pos').allTextContents()).toEqual(shown.map((_, j) => String(j + 1)));
      await expect(view.locator('.ae-kv-status')).toContainText(`position ${step.position + 1} (“`);
      await expect(view.locator('.ae-kv-rows')).toContainText(`(positions 1–${rows})`);
      // Work per step, both ways, as the core counted it.
      const work = await view.locator('tbody tr[data-step]').evaluateAll((trs) =>
        trs.map((tr) => ({
          with: tr.dataset.with,
          without: tr.dataset.without,
          rowsWithout: tr.dataset.rowsWithout,
        })),
      );
      expect(work).toEqual(
        expected.steps.slice(0, k + 1).map((s) => ({ with: s.with, without: s.without, rowsWithout: s.rowsWithout })),
      );
    }
    await expect(view.getByRole('button', { name: 'Step', exact: true })).toBeDisabled();
    expect(JSON.parse(await view.getAttribute('data-generated'))).toEqual(expected.words);
    await expect(view.locator('.ae-kv-words mark')).toHaveText(expected.words);
    await expect(view.locator('.ae-kv-status')).toContainText('[SEP]');
    // The totals are the sums of the rows; the cache saves work once past the prompt.
    const total = view.locator('tfoot tr');
    const sum = (key) => expected.steps.reduce((s, x) => s + Number(x[key]), 0);
    await expect(total).toHaveAttribute('data-with', String(sum('with')));
    await expect(total).toHaveAttribute('data-without', String(sum('without')));
    expect(sum('with')).toBeLessThan(sum('without'));

    // The same step without a cache: every row is computed again, with the full pass's weights.
    const last = expected.steps.at(-1);
    const rows = last.position + 1;
    await view.getByLabel('Show the same step without a cache').check();
    await expect(view).toHaveAttribute('data-mode', 'full');
    const recomputed = await shownRows(view);
    expect(recomputed).toEqual(
      recomputed.map((_, j) => ({
        position: j,
        state: 'new',
        token: expected.tokens[j],
        weight: last.fullAttention[layer][head * rows + j],
      })),
    );
    expect(recomputed).toHaveLength(rows);
    await view.getByLabel('Show the same step without a cache').uncheck();
    await expect(view.locator('g.ae-kv-row[data-state="new"]')).toHaveCount(1);

    // Reset empties the cache; Play reveals every step again.
    await view.getByRole('button', { name: 'Reset' }).click();
    await expect(view).toHaveAttribute('data-step', '0');
    await expect(view.locator('g.ae-kv-row')).toHaveCount(0);
    // Play shows the first step at once and names the button Pause; Pause holds the step.
    const setPlayMs = (ms) =>
      view.evaluate((el, value) => {
        el.playMs = value;
      }, ms);
    await setPlayMs(60_000);
    await view.getByRole('button', { name: 'Play' }).click();
    await expect(view).toHaveAttribute('data-step', '1');
    await expect(view.getByRole('button', { name: 'Pause' })).toHaveAttribute('aria-pressed', 'true');
    await view.getByRole('button', { name: 'Pause' }).click();
    await expect(view.getByRole('button', { name: 'Play' })).toHaveAttribute('aria-pressed', 'false');
    await expect(view).toHaveAttribute('data-step', '1');
    await setPlayMs(100);
    await view.getByRole('button', { name: 'Play' }).click();
    await expect(view).toHaveAttribute('data-step', String(expected.steps.length));
    await expect(view.getByRole('button', { name: 'Play' })).toHaveAttribute('aria-pressed', 'false');

    // Time, measured in the page: figures and bars for both ways.
    await view.getByRole('button', { name: 'Measure time' }).click();
    await expect(view).toHaveAttribute('data-ms-with', /^\d/, { timeout: 15_000 });
    expect(Number(await view.getAttribute('data-ms-with'))).toBeGreaterThan(0);
    expect(Number(await view.getAttribute('data-ms-without'))).toBeGreaterThan(0);
    await expect(view.locator('.ae-kv-time-row svg.ae-kv-bar')).toHaveCount(2);
    // Each way: the median of 7 runs and their range, on screen as "1.234 ms (1.100–1.500, 7 runs)".
    await expect(view).toHaveAttribute('data-runs', '7');
    const fmt = (x) => Number(x).toFixed(3);
    for (const way of ['with', 'without']) {
      const median = await view.getAttribute(`data-ms-${way}`);
      const [min, max] = (await view.getAttribute(`data-ms-${way}-range`)).split(' ').map(Number);
      expect(min).toBeLessThanOrEqual(Number(median));
      expect(max).toBeGreaterThanOrEqual(Number(median));
      await expect(view.locator('.ae-kv-time-result')).toContainText(
        `${way === 'with' ? 'With the cache' : 'without'} ${fmt(median)} ms (${fmt(min)}–${fmt(max)}, 7 runs)`,
      );
    }
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.locator('#kv-cache').screenshot({ path: `${SHOTS}/kv-cache.png` });
  });

  test("tired ↔ wide changes the completion to the API's; a too long prompt is an error in place", async ({ page }) => {
    const view = await openPanel(page);
    await view.getByRole('button', { name: 'tired ↔ wide' }).click();
    await expect(view).toHaveAttribute('data-prompt', /too wide/);
    const prompt = await view.getAttribute('data-prompt');
    const expected = await api(page, prompt);
    for (let k = 0; k < expected.steps.length; k++)
      await view.getByRole('button', { name: 'Step', exact: true }).click();
    expect(JSON.parse(await view.getAttribute('data-generated'))).toEqual(expected.words);
    expect(expected.words).toContain('street');

    const { max_len: maxLen } = JSON.parse(fs.readFileSync('web/models/coref-decoder/config.json', 'utf8'));
    await view.getByLabel('Prompt for the decoder').fill('the '.repeat(maxLen + 8));
    await expect(view.getByRole('alert')).toHaveText(
      `Could not generate: the text has ${maxLen + 8} tokens; the limit is ${maxLen}. Shorten it.`,
    );
    await expect(view.getByRole('alert')).toHaveAttribute(
      'title',
      new RegExp(`the prompt has ${maxLen + 8} tokens; this model reads at most ${maxLen}`),
    );
    await expect(view).toHaveAttribute('data-status', 'error');
    await view.getByLabel('Prompt for the decoder').fill(DECODER_PROMPT.tired);
    await expect(view).toHaveAttribute('data-status', 'ready');
    await expect(view.getByRole('alert')).toHaveText('');
    await view.getByRole('button', { name: 'Step', exact: true }).click();
    await expect(view.locator('.ae-kv-words mark')).toHaveText(['animal']);
  });

  test('the link keeps the prompt, layer and head, not the progress; nonsense in a link is ignored', async ({
    page,
    context,
  }) => {
    const view = await openPanel(page);
    // The head the panel opened on (the decoder's coreference head, or the fallback).
    const defaults = { layer: await view.getAttribute('data-layer'), head: await view.getAttribute('data-head') };
    const chosen = { layer: defaults.layer === '2' ? 1 : 2, head: defaults.head === '0' ? 1 : 0 }; // another head, 0-based
    await view.getByRole('button', { name: 'tired ↔ wide' }).click();
    await expect(view).toHaveAttribute('data-prompt', /too wide/);
    const prompt = await view.getAttribute('data-prompt');
    await view.getByLabel('Layer', { exact: true }).selectOption({ value: String(chosen.layer) });
    await view.getByLabel('Head', { exact: true }).selectOption({ value: String(chosen.head) });
    for (const k of [1, 2]) {
      await view.getByRole('button', { name: 'Step', exact: true }).click();
      await expect(view).toHaveAttribute('data-step', String(k));
    }
    const linked = () =>
      Object.fromEntries([...new URL(page.url()).searchParams].filter(([k]) => k.startsWith('kvcache.')));
    await expect.poll(linked).toEqual({
      'kvcache.prompt': prompt,
      'kvcache.layer': String(chosen.layer + 1),
      'kvcache.head': String(chosen.head + 1),
    });
    const before = await shownRows(view);
    expect(before.length).toBeGreaterThan(10);

    const other = await newPageAt(context, page.url());
    await other.locator('#kv-cache').scrollIntoViewIfNeeded();
    const again = panel(other);
    await expect(again).toHaveAttribute('data-status', 'ready');
    for (const [key, value] of Object.entries({
      prompt,
      layer: String(chosen.layer),
      head: String(chosen.head),
      step: '0',
    }))
      await expect(again).toHaveAttribute(`data-${key}`, value);
    expect(await again.getByLabel('Layer', { exact: true }).inputValue()).toBe(String(chosen.layer));
    for (const k of [1, 2]) {
      await again.getByRole('button', { name: 'Step', exact: true }).click();
      await expect(again).toHaveAttribute('data-step', String(k));
    }
    expect(await shownRows(again)).toEqual(before);
    // …which are the API's weights for that layer and head.
    const step = (await api(page, prompt)).steps[1];
    const rows = step.position + 1;
    expect(before.map((r) => r.weight)).toEqual(
      step.attention[chosen.layer].slice(chosen.head * rows, (chosen.head + 1) * rows),
    );
    // Back at the defaults, the controls leave the link.
    await view.getByRole('button', { name: 'tired ↔ wide' }).click();
    await view.getByLabel('Layer', { exact: true }).selectOption({ value: defaults.layer });
    await view.getByLabel('Head', { exact: true }).selectOption({ value: defaults.head });
    await expect.poll(linked).toEqual({});
    await other.close();

    // Out-of-range or malformed values are ignored: the defaults stay.
    const bad = await newPageAt(
      context,
      `/?model=untrained&kvcache.layer=4&kvcache.head=-1&kvcache.prompt=${'the '.repeat(51)}`,
    );
    await bad.locator('#kv-cache').scrollIntoViewIfNeeded();
    await expect(panel(bad)).toHaveAttribute('data-status', 'ready');
    for (const [key, value] of Object.entries({ ...defaults, prompt: /too tired \.$/ }))
      await expect(panel(bad)).toHaveAttribute(`data-${key}`, value);
  });

  test('the keyboard entering the panel loads the decoder before it is in view', async ({ page }) => {
    await openPage(page);
    const view = panel(page);
    await expect(view).toHaveAttribute('data-status', 'waiting');
    // Focus as the Tab key gives it: no pointer, and no scrolling that would bring the panel near.
    await view.getByRole('button', { name: 'Step', exact: true }).evaluate((b) => b.focus({ preventScroll: true }));
    await expect(view).toHaveAttribute('data-status', 'ready');
    expect(
      await page.locator('#kv-cache').evaluate((s) => s.getBoundingClientRect().top - innerHeight),
    ).toBeGreaterThan(300);
  });

  test.describe('when the decoder fails to load', () => {
    test.use({ expectedErrors: [NOT_FOUND] });

    test('the panel waits until it is in view, shows the error in place, and Step retries', async ({ page }) => {
      await withoutWeights(page, 'coref-decoder');
      await openPage(page);
      const view = panel(page);
      await expect(view).toHaveAttribute('data-status', 'waiting'); // nothing loaded at page start
      await page.locator('#kv-cache').scrollIntoViewIfNeeded();
      await expect(view.getByRole('alert')).toHaveText(
        'The decoder model failed to load: the model files were not found on the server.',
      );
      await expect(view.getByRole('alert')).toHaveAttribute('title', /^could not load model\.safetensors .*HTTP 404$/);
      await expect(view).toHaveAttribute('data-status', 'error');
      await page.unroute('**/models/coref-decoder/model.safetensors');
      // A slow press: the model must not arrive (and move the panel) between press and release,
      // or the release misses the button and the click is lost.
      const step = view.getByRole('button', { name: 'Step', exact: true });
      const box = await step.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.waitForTimeout(1000);
      await page.mouse.up();
      await expect(view).toHaveAttribute('data-status', 'ready');
      await expect(view.getByRole('alert')).toHaveText('');
      await expect(view).toHaveAttribute('data-step', '1');
    });
  });

  test('375 px wide, keyboard, Chinese labels, dark, accessibility scan', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const view = await openPanel(page);
    await view.getByRole('button', { name: 'Step', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect(view).toHaveAttribute('data-step', '2');
    // The panel fits: nothing in it is wider than the section, and the section fits the screen.
    const section = page.locator('#kv-cache');
    expect(await section.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const wide = await section.evaluate((el) =>
      // every element, the panel's shadow root included
      (function all(root) {
        return [...root.querySelectorAll('*')].flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
      })(el)
        .filter((node) => node.getBoundingClientRect().right > 375)
        .map((node) => node.className?.baseVal ?? node.className),
    );
    expect(wide).toEqual([]);
    // The page itself does not scroll sideways (the other lesson panels set aside, so only this one is judged).
    await view.getByLabel('Show the same step without a cache').check();
    await expect(view).toHaveAttribute('data-mode', 'full');
    const overflow = await page.evaluate(() => {
      const others = [...document.querySelectorAll('main > section.lesson-panel:not(#kv-cache)')];
      for (const s of others) s.style.display = 'none';
      const width = document.documentElement.scrollWidth;
      for (const s of others) s.style.removeProperty('display');
      return width - window.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await view.getByLabel('Show the same step without a cache').uncheck();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.locator('#kv-cache').screenshot({ path: `${SHOTS}/kv-cache-375.png` });

    await page.getByRole('button', { name: '中文' }).click();
    await expect(view.getByRole('heading', { level: 2 })).toHaveText('KV 缓存与逐词生成');
    await expect(view.getByRole('button', { name: '下一步' })).toBeVisible();
    await expect(view.locator('.ae-kv-status')).toContainText('第 2 步');
    await expect(view.locator('thead th').nth(1)).toHaveText('有缓存');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('#kv-cache').screenshot({ path: `${SHOTS}/kv-cache-dark-zh.png` });
    const { violations } = await new AxeBuilder({ page }).include('#kv-cache').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });
});
