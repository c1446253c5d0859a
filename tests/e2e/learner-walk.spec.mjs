// End-to-end tests of the fixes from a new user's walk through the page (issue 11, items 1, 2,
// 7, 8, 11, 12, 13): the positional-encoding conclusion follows from its table; errors a reader
// causes are worded in the page's language (the core's English stays in the title); at 375 px
// the heatmap fits and every control is at least 24×24 px; the KV cache has no empty square
// before its first step; an error hides the old heatmap and token count; a skip link; the All
// heads grid brings the chosen view into sight. Expected words come from the page's string
// tables and expected codes from the engine, never from today's figures.
import fs from 'node:fs';
import { alert, app, expect, expectNoSeriousAxeViolations, expectRendered, openPage, test } from './fixtures.mjs';
import { LESSON, WORD_ORDER_PAIR } from '../../web/lib/lesson.mjs';

const { a: A, b: B } = WORD_ORDER_PAIR;

const format = (template, params) =>
  template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
const strings = (page, name) => page.evaluate(async (file) => (await import(`/strings/${file}.mjs`)).default, name);
const shipped = (...names) => names.every((name) => fs.existsSync(`web/models/${name}/config.json`));

// The EngineError code the engine gives for `call` on a trained model, computed in the page.
function engineCode(page, model, call, ...args) {
  return page.evaluate(
    async ({ model, call, args }) => {
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
    },
    { model, call, args },
  );
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

    await inputA.fill(B);
    await inputB.fill(B);
    await expect(view).toHaveAttribute('data-a', B);
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
    const word = await none.getAttribute('data-answer-a');
    expect(word).not.toBe('');
    await expect(unknown.summary).toContainText(format(text.sameNoneNoTruth, { word, p: '' }).split('(')[0]);
    await expect(unknown.summary).toContainText('A, B');

    // The lesson's own pair still draws the lesson's conclusion.
    await inputA.fill(A);
    await inputB.fill(B);
    await expect(view).toHaveAttribute('data-b', B);
    await expectConclusionFollows(view, text);
    await expect(view.locator('.ae-pos-summary')).toHaveAttribute('data-conclusion', 'sameNone');
  });
});

test.describe("errors a reader causes are worded in the page's language (item 2)", () => {
  test.skip(!shipped('coref-encoder', 'coref-decoder', 'word-order-none'), 'the trained models are not in web/models');

  test('main view, positional encoding, KV cache and cross-attention, in Chinese', async ({ page }) => {
    await openPage(page, '/?model=coref-encoder&lang=zh');
    const words = (await strings(page, 'errors')).zh;
    const i18n = await page.evaluate(async () => (await import('/i18n.mjs')).messages.zh);

    // Main view: a sentence without "it", then an empty one.
    for (const sentence of ['The cat sat on the mat.', '']) {
      const code = await engineCode(page, 'coref-encoder', 'analyze', sentence);
      expect(code, sentence).not.toBeNull();
      await page.locator('#sentence').fill(sentence);
      await expect(app(page)).toHaveAttribute('data-error-code', code);
      await expect(alert(page)).toHaveText(format(i18n.runError, { message: format(words[code], { pronoun: 'it' }) }));
      await expect(alert(page)).toHaveAttribute('title', /\w{4,}/); // the core's own message, for debugging
    }
    await page.locator('#sentence').fill(LESSON.tired);
    await expect(alert(page)).toHaveText('');
    await expect(alert(page)).not.toHaveAttribute('title', /./);

    // Positional encoding: an empty sentence A.
    const positions = await openLessonPanel(page, 'positions', 'ae-positions');
    const posText = (await strings(page, 'positions')).zh;
    const posCode = await engineCode(page, 'word-order-none', 'analyze', '');
    await positions.getByLabel(posText.sentenceA, { exact: true }).fill('');
    await expect(positions.getByRole('alert')).toHaveText(
      format(posText.runError, { which: 'A', message: words[posCode] }),
    );

    // KV cache: a prompt longer than the decoder reads.
    const kv = await openLessonPanel(page, 'kv-cache', 'ae-kv-cache', 'data-status');
    const kvText = (await strings(page, 'kv-cache')).zh;
    const long = 'the '.repeat(200);
    const kvCode = await engineCode(page, 'coref-decoder', 'generateSteps', long, 4, true);
    await kv.getByLabel(kvText.promptLabel, { exact: true }).fill(long);
    await expect(kv).toHaveAttribute('data-status', 'error');
    expect(kvCode).toBe('too-long'); // worded with the prompt's token count and the model's limit
    await expect(kv.getByRole('alert')).toHaveText(
      format(kvText.error, { message: format(words['too-long-count'], { count: 200, max: 48 }) }),
    );
    await expect(kv.getByRole('alert')).toHaveAttribute('title', /\w{4,}/);

    // Cross-attention: an empty sentence A.
    const cross = await openLessonPanel(page, 'cross', 'ae-cross-attention');
    const crossText = (await strings(page, 'cross-attention')).zh;
    const crossCode = await engineCode(page, 'coref-encoder', 'analyze', '');
    await cross.getByLabel(crossText.sentenceA, { exact: true }).fill('');
    await expect(cross.getByRole('alert')).toContainText(
      format(crossText.runError, { which: 'A', message: words[crossCode] }),
    );
  });
});

test.describe('a 375 px phone (item 7)', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

  test('the heatmap fits without a sideways scroll, and every control is at least 24×24 px', async ({ page }) => {
    test.slow(); // every panel built, two whole-page axe scans, and the Chinese model loaded for the second
    await openPage(page, '/');
    const plot = page.locator('ae-attention-heatmap .ae-hm-plot');
    const overflow = await plot.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow, 'heatmap columns hidden in a sideways scroll').toBeLessThanOrEqual(0);
    // A tap on the last column's cell still reads its value.
    const last = page.locator('ae-attention-heatmap rect.cell').last();
    await last.tap();
    await expect(page.locator('ae-attention-heatmap .ae-hm-readout')).toContainText(
      await last.getAttribute('data-value').then((v) => Number(v).toFixed(2)),
    );

    // Walk the page so that every lesson panel is built, then measure every control.
    for (const section of await page.locator('main > section[id]').all()) await section.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    const small = await page.evaluate(() => {
      // every control, those in the panels' shadow roots included
      const all = (root) =>
        [...root.querySelectorAll('*')].flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
      const controls = all(document).filter((e) =>
        e.matches(
          'button, input:not([type="hidden"]), select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])',
        ),
      );
      return controls
        .filter((el) => {
          if (el.closest('p, li:not(.toc li)') && el.matches('a') && !el.closest('.toc')) return false; // links in running text are exempt (WCAG 2.5.8)
          if (el.matches('.skip-link')) return false; // off screen until focused
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) return false; // not rendered
          return r.width < 24 || r.height < 24;
        })
        .map((el) => {
          const r = el.getBoundingClientRect();
          return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`;
        });
    });
    expect(small).toEqual([]);

    // No serious or critical accessibility violations at this width, light, then dark Chinese.
    await expectNoSeriousAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('#lang').click();
    await expectNoSeriousAxeViolations(page);
  });
});

test.describe('KV cache before the first step (item 8)', () => {
  test.skip(!shipped('coref-decoder'), 'the decoder is not in web/models');

  test('no empty space where the cache will be drawn', async ({ page }) => {
    await openPage(page, '/');
    const kv = await openLessonPanel(page, 'kv-cache', 'ae-kv-cache', 'data-status');
    await expect(kv).toHaveAttribute('data-step', '0');
    await expect(kv.locator('.ae-kv-grid')).toBeHidden();
    const gap = await kv.evaluate((el) => {
      const legend = el.shadowRoot.querySelector('.ae-kv-legend').getBoundingClientRect();
      const note = el.shadowRoot.querySelector('.ae-kv-rows').getBoundingClientRect();
      return note.top - legend.bottom;
    });
    expect(gap).toBeLessThan(40);
    // The first step draws the grid.
    await kv.locator('.ae-kv-step').click();
    await expect(kv.locator('.ae-kv-grid')).toBeVisible();
  });
});

test('an error hides the old heatmap, answer and token count; a good sentence brings them back (item 11)', async ({
  page,
}) => {
  await openPage(page);
  const heatmap = page.locator('#heatmap');
  await expect(heatmap).toBeVisible();
  await expect(page.locator('#fact-tokens')).not.toHaveText('–');
  await page.locator('#sentence').fill('');
  await expect(app(page)).toHaveAttribute('data-status', 'error');
  await expect(heatmap).toBeHidden();
  await expect(page.locator('#fact-tokens')).toHaveText('–');
  await page.locator('#lang').click(); // a language switch keeps the error state
  await expect(page.locator('#fact-tokens')).toHaveText('–');
  await page.locator('#lang').click();
  await page.locator('#sentence').fill('It works again.');
  await expectRendered(page, 'It works again.');
  await expect(heatmap).toBeVisible();
  await expect(page.locator('#fact-tokens')).not.toHaveText('–');
});

test('a skip link is the first Tab stop and leads to the model menu (item 12)', async ({ page }) => {
  await openPage(page);
  // Once the panels have arrived (after the first draw): none of them took the focus meanwhile.
  await page.waitForFunction(() => customElements.get('ae-lesson-path'));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  const i18n = await page.evaluate(async () => (await import('/i18n.mjs')).messages);
  await page.keyboard.press('Tab');
  const skip = page.locator('.skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText(i18n.en.skip);
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.locator('#model')).toBeFocused();
  await page.locator('#lang').click();
  await expect(skip).toHaveText(i18n.zh.skip);
});

test.describe('All heads grid: the chosen view comes into sight (item 13)', () => {
  // Records every scrollIntoView call with its options.
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const original = Element.prototype.scrollIntoView;
      window.scrolls = [];
      Element.prototype.scrollIntoView = function (options) {
        window.scrolls.push({ id: this.id, behavior: options?.behavior ?? 'auto' });
        return original.call(this, options);
      };
    });
  });

  for (const reducedMotion of ['no-preference', 'reduce']) {
    test(`choosing a thumbnail scrolls the heatmap into view (${reducedMotion} motion)`, async ({ page }) => {
      await page.emulateMedia({ reducedMotion });
      await openPage(page);
      await page.locator('#overview').scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 200)); // the heatmap is well out of sight
      await expect(page.locator('#result-title')).not.toBeInViewport();
      const thumb = page.locator('ae-head-grid button.ae-hg-thumb[aria-pressed="false"]').first();
      const [layer, head] = [await thumb.getAttribute('data-layer'), await thumb.getAttribute('data-head')];
      await thumb.click();
      await expect(app(page)).toHaveAttribute('data-layer', layer);
      await expect(app(page)).toHaveAttribute('data-head', head);
      await expect(page.locator('#result-title')).toBeInViewport();
      const scrolls = await page.evaluate(() => window.scrolls.filter((s) => s.id === 'result'));
      expect(scrolls.map((s) => s.behavior)).toEqual([reducedMotion === 'reduce' ? 'instant' : 'smooth']);
    });
  }
});

// Guidance (issue 11): Show me sets the view where a panel's point shows, from the model's own
// metrics — the config.json served here names another coreference head than the shipped one,
// so a fixed head number would fail; Predict, then reveal hides a panel's numbers until the
// reader guesses, and the verdict's answer is the model's (recomputed here by the engine or read
// from the panel's mirrored numbers); Reset brings a panel's controls and link entries back.
test.describe('guidance: Show me, Predict then reveal, Reset', () => {
  test.skip(!shipped('coref-encoder', 'coref-decoder'), 'the coreference models are not in web/models');
  const guide = (panel) => ({
    show: panel.locator('.ae-guide-show'),
    reset: panel.locator('.ae-guide-reset'),
    ask: panel.locator('.ae-guide-ask'),
    verdict: panel.locator('.ae-guide-verdict'),
  });
  const linked = (page, prefix) =>
    Object.fromEntries([...new URL(page.url()).searchParams].filter(([k]) => k.startsWith(prefix)));

  test("Show me opens the model's own coreference head, which the grid marks", async ({ page }) => {
    const config = JSON.parse(fs.readFileSync('web/models/coref-encoder/config.json', 'utf8'));
    const named = { layer: 0, head: config.n_heads - 1 }; // not the shipped head (the last layer's)
    expect(named.layer).not.toBe(config.coreference_head.layer);
    config.coreference_head = { ...config.coreference_head, ...named };
    await page.route('**/models/coref-encoder/config.json', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify(config) }),
    );
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openPage(page); // the untrained model: Show me must change the model too
    const qkv = page.locator('ae-qkv-steps');
    await qkv.scrollIntoViewIfNeeded();
    await guide(qkv).show.click();
    await expect(app(page)).toHaveAttribute('data-model', 'coref-encoder');
    await expect(app(page)).toHaveAttribute('data-layer', String(named.layer));
    await expect(app(page)).toHaveAttribute('data-head', String(named.head));
    await expect.poll(() => linked(page, 'head')).toEqual({ head: String(named.head + 1) });
    await expect(page.locator('#head option:checked')).toContainText('coreference');

    const badge = page.locator('ae-head-grid button[data-coreference]');
    await expect(badge).toHaveCount(1);
    await expect(badge).toHaveAttribute('data-layer', String(named.layer));
    await expect(badge).toHaveAttribute('data-head', String(named.head));
    await expect(badge).toContainText('coreference head');
    // Another head, then the grid's Show me: back on the named head, and the heatmap in sight.
    const grid = page.locator('ae-head-grid');
    await grid.locator(`button[data-layer="1"][data-head="0"]`).click();
    await expect(app(page)).toHaveAttribute('data-layer', '1');
    await grid.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    await guide(grid).show.click();
    await expect(app(page)).toHaveAttribute('data-layer', String(named.layer));
    await expect(page.locator('#result-title')).toBeInViewport();
  });

  test('Predict, then reveal: remembered, the numbers wait for a guess, the answer is the model’s', async ({
    page,
  }) => {
    await openPage(page);
    const toggle = page.locator('#ae-predict');
    await toggle.check();
    expect(await page.evaluate(() => localStorage.getItem('ae-predict'))).toBe('1');
    await openPage(page);
    await expect(page.locator('#ae-predict')).toBeChecked();

    // Causal mask: "can it see the adjective?" — the answer is the mask's -∞ above the diagonal.
    const causal = await openLessonPanel(page, 'causal-mask', 'ae-causal-mask');
    const g = guide(causal);
    await expect(g.ask).toBeVisible();
    await expect(causal.locator('.ae-cm-answer')).toBeHidden();
    await g.ask.getByRole('button', { name: 'no', exact: true }).click();
    await expect(g.verdict).toHaveAttribute('data-answer', 'no');
    await expect(causal).toHaveAttribute('data-upper-minus-inf', 'true');
    await expect(g.verdict).toHaveAttribute('data-agreed', 'true');
    await expect(causal.locator('.ae-cm-answer')).toBeVisible();
    await causal.getByLabel((await strings(page, 'causal-mask')).en.mask).uncheck(); // a new experiment asks again
    await expect(g.ask).toBeVisible();
    await g.ask.getByRole('button', { name: 'no', exact: true }).click();
    await expect(causal).toHaveAttribute('data-upper-minus-inf', 'false');
    await expect(g.verdict).toHaveAttribute('data-answer', 'yes');
    await expect(g.verdict).toHaveAttribute('data-agreed', 'false');

    // ÷√d at d = 1024: sharper or flatter, from the engine's mean entropies scaled and not.
    const scaling = page.locator('ae-scaling');
    await scaling.scrollIntoViewIfNeeded();
    await scaling.locator('input[type="range"]').first().fill('10');
    const s = guide(scaling);
    await expect(s.ask).toBeVisible();
    await expect(scaling.locator('.ae-sc-demo')).toBeHidden();
    await expectNoSeriousAxeViolations(page, { fromShadowDom: ['ae-scaling', '.ae-guide'] }); // the question and its choices
    const expected = await page.evaluate(async () => {
      const { getEngine } = await import('/lib/context.mjs');
      const engine = await getEngine();
      const mean = (scale) => engine.scalingDemo({ d: 1024, keys: 8, queries: 200, seed: 1, scale }).meanEntropy;
      return mean(false) < mean(true) ? 'sharper' : 'flatter';
    });
    await s.ask.getByRole('button', { name: 'flatter' }).click();
    await expect(s.verdict).toHaveAttribute('data-answer', expected);
    await expect(s.verdict).toHaveAttribute('data-agreed', String(expected === 'flatter'));
    await expect(scaling.locator('.ae-sc-demo')).toBeVisible();

    // Q, K, V and the explanation panel ask too, their numbers hidden until then.
    for (const [id, tag, hidden] of [
      ['qkv', 'ae-qkv-steps', '.ae-qkv-readout'],
      ['explanation', 'ae-explanation', '.ae-ex-table'],
    ]) {
      const panel = page.locator(tag);
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await expect(guide(panel).ask).toBeVisible({ timeout: 15_000 });
      await expect(panel.locator(hidden)).toBeHidden();
    }
  });

  test("Reset brings a panel's controls and link entries back to its defaults", async ({ page }) => {
    await openPage(page, '/?model=untrained&scaling.d=1024&scaling.noscale=1&causal.layer=1&causal.head=1');
    const scaling = page.locator('ae-scaling');
    await scaling.scrollIntoViewIfNeeded();
    expect(linked(page, 'scaling.')).toEqual({ 'scaling.d': '1024', 'scaling.noscale': '1' });
    await guide(scaling).reset.click();
    await expect.poll(() => linked(page, 'scaling.')).toEqual({});
    await expect(scaling.locator('input[type="range"]').first()).toHaveValue('6');

    const causal = await openLessonPanel(page, 'causal-mask', 'ae-causal-mask');
    await expect(causal).toHaveAttribute('data-layer', '0');
    await guide(causal).reset.click();
    await expect.poll(() => linked(page, 'causal.')).toEqual({});
    const { coreference_head: head } = JSON.parse(fs.readFileSync('web/models/coref-decoder/config.json', 'utf8'));
    await expect(causal).toHaveAttribute('data-layer', String(head.layer));
    await expect(causal).toHaveAttribute('data-head', String(head.head));
  });
});
