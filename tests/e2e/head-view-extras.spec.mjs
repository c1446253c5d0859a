// End-to-end tests of the head view's extras: the "all heads" overlay (every head of the
// layer in its own colour, with a legend) and <ae-flip-pair> (the tired and the wide sentence
// side by side, same layer and head). Line weights are compared with analyze() run here by a
// separately loaded engine.
import fs from 'node:fs';
import {
  SHOTS,
  expectNoSeriousAxeViolations,
  app,
  chooseModel,
  expect,
  openPage,
  test,
  newPageAt,
} from './fixtures.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';

const LESSON = PAIR.tired;
const WIDE = LESSON.replace('tired', 'wide');
const shipped = fs.existsSync('web/models/coref-encoder/config.json');
const corefHead = () => JSON.parse(fs.readFileSync('web/models/coref-encoder/config.json', 'utf8')).coreference_head;

// The weights of query `from` in every head of `layer`, for `text`, as analyze() gives them.
function apiRows(page, text, layer, from) {
  return page.evaluate(
    async ({ text, layer, from }) => {
      const { loadEngine } = await import('/lib/engine.mjs');
      const engine = await loadEngine();
      const model = await engine.fetchTrainedModel(new URL('/models/coref-encoder/', location.href));
      try {
        const r = model.analyze(text, { causal: false, scale: true });
        return {
          tokens: r.tokens,
          rows: r.layers[layer].selfAttention.heads.map((h) =>
            Array.from(h.weights.subarray(from * r.n, (from + 1) * r.n), String),
          ),
          prediction: r.prediction.token,
        };
      } finally {
        model.delete();
      }
    },
    { text, layer, from },
  );
}

const linesOf = (locator) =>
  locator.evaluateAll((lines) =>
    lines.map((l) => ({
      head: l.dataset.head === undefined ? null : Number(l.dataset.head),
      to: Number(l.dataset.to),
      from: Number(l.dataset.from),
      weight: l.dataset.weight,
      stroke: getComputedStyle(l).stroke,
    })),
  );

const thickest = (lines) => lines.reduce((a, b) => (Number(b.weight) > Number(a.weight) ? b : a));

test.describe('head view extras', () => {
  test.skip(!shipped, 'coref-encoder is not in web/models');

  test('“all heads” overlay: every head of the layer in its own colour, weights equal analyze()', async ({ page }) => {
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    const { layer, head } = corefHead();
    const view = page.locator('ae-head-view');
    const toggle = view.getByRole('button', { name: 'All heads of this layer' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(view.locator('line.ae-hv-overlay')).toHaveCount(0);
    // Keyboard: the toggle is reachable and pressed with Space.
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(view).toHaveAttribute('data-overlay', 'on');

    const from = Number(await view.getAttribute('data-from'));
    const api = await apiRows(page, LESSON, layer, from);
    expect(api.tokens[from]).toBe('it');
    const nHeads = api.rows.length;
    const n = api.tokens.length;
    const overlay = view.locator('line.ae-hv-overlay');
    await expect(overlay).toHaveCount(nHeads * n);
    const lines = await linesOf(overlay);
    for (let h = 0; h < nHeads; h++) {
      const mine = lines.filter((l) => l.head === h);
      expect(
        mine.map((l) => l.weight),
        `head ${h + 1}`,
      ).toEqual(api.rows[h]);
      expect(mine.every((l) => l.from === from)).toBe(true);
      expect(new Set(mine.map((l) => l.stroke)).size).toBe(1);
    }
    const colours = new Set(lines.map((l) => l.stroke));
    expect(colours.size, 'one distinct colour per head').toBe(nHeads);
    // The single-head lines are hidden while the overlay is on.
    const single = view.locator('line:not(.ae-hv-overlay)');
    expect(await single.evaluateAll((ls) => ls.every((l) => getComputedStyle(l).display === 'none'))).toBe(true);
    // In the coreference head, "it"'s thickest line goes to animal.
    expect(api.tokens[thickest(lines.filter((l) => l.head === head)).to]).toBe('animal');

    // Legend: one entry per head with that head's colour; the readout names each head's target.
    const legend = view.getByRole('group', { name: `Heads of layer ${layer + 1}` });
    await expect(legend.getByRole('button')).toHaveCount(nHeads);
    const swatches = await legend
      .locator('.ae-hv-swatch')
      .evaluateAll((ss) => ss.map((s) => getComputedStyle(s).backgroundColor));
    for (let h = 0; h < nHeads; h++) expect(swatches[h]).toBe(lines.find((l) => l.head === h).stroke);
    await expect(view.locator('.ae-hv-readout')).toContainText(`head ${head + 1} → “animal”`);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.locator('#lines').screenshot({ path: `${SHOTS}/head-view-overlay.png` });

    // A legend entry shows that head alone.
    await legend.getByRole('button', { name: 'Head 2: show it alone' }).click();
    await expect(view).toHaveAttribute('data-overlay', 'off');
    await expect(app(page)).toHaveAttribute('data-head', '1');
    await expect(view.locator('line.ae-hv-overlay')).toHaveCount(0);
    const shown = await linesOf(view.locator('line'));
    expect(shown.map((l) => l.weight)).toEqual(api.rows[1]);
  });

  test('side by side: thickest line to animal on the tired side, to street on the wide side', async ({ page }) => {
    await openPage(page);
    const pair = page.locator('ae-flip-pair');
    await expect(pair).toBeHidden(); // the untrained model has no minimal pair to compare
    await chooseModel(page, 'coref-encoder');
    await expect(pair).toBeVisible();
    const toggle = pair.getByRole('button', { name: 'Compare tired and wide side by side' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(pair).toHaveAttribute('data-status', 'ready');
    const { layer, head } = corefHead();

    for (const [side, text, referent] of [
      ['tired', LESSON, 'animal'],
      ['wide', WIDE, 'street'],
    ]) {
      const view = pair.locator(`[data-side="${side}"] ae-flip-view`);
      await expect(view).toHaveAttribute('data-layer', String(layer));
      await expect(view).toHaveAttribute('data-head', String(head));
      const from = Number(await view.getAttribute('data-from'));
      const api = await apiRows(page, text, layer, from);
      expect(api.tokens[from]).toBe('it');
      const lines = await linesOf(view.locator('line'));
      expect(
        lines.map((l) => l.weight),
        side,
      ).toEqual(api.rows[head]);
      expect(api.tokens[thickest(lines).to], side).toBe(referent);
      await expect(view).toHaveAttribute('data-strongest', String(thickest(lines).to));
      await expect(pair).toHaveAttribute(`data-${side}-prediction`, api.prediction);
    }

    // Another head from the grid: both sides follow.
    await page.getByRole('button', { name: 'Layer 1, head 2', exact: true }).click();
    for (const [side, text] of [
      ['tired', LESSON],
      ['wide', WIDE],
    ]) {
      const view = pair.locator(`[data-side="${side}"] ae-flip-view`);
      await expect(view).toHaveAttribute('data-head', '1');
      const from = Number(await view.getAttribute('data-from'));
      const api = await apiRows(page, text, 0, from);
      expect((await linesOf(view.locator('line'))).map((l) => l.weight)).toEqual(api.rows[1]);
    }
    // A word chosen on one side is chosen on both, and in the page's head view.
    await pair.locator('[data-side="wide"]').getByRole('button', { name: 'street (word 7)' }).hover();
    for (const side of ['tired', 'wide'])
      await expect(pair.locator(`[data-side="${side}"] ae-flip-view`)).toHaveAttribute('data-from', '6');
    await expect(page.locator('ae-head-view')).toHaveAttribute('data-from', '6');

    // A sentence without the pair hides it.
    await page.locator('#sentence').fill('The cat sat on the mat because it was warm.');
    await expect(app(page)).toHaveAttribute('data-status', 'ready');
    await expect(pair).toBeHidden();
  });

  test('the overlay and the open pair are kept in the link, and leave it when switched off', async ({
    page,
    context,
  }) => {
    await page.goto('/'); // the page opens on coref-encoder, the lesson sentence
    await expect(app(page)).toHaveAttribute('data-status', 'ready');
    const param = (p, key) => new URL(p.url()).searchParams.get(key);
    await page.locator('ae-head-view').getByRole('button', { name: 'All heads of this layer' }).click();
    await page.locator('ae-flip-pair').getByRole('button', { name: 'Compare tired and wide side by side' }).click();
    await expect.poll(() => [param(page, 'view.overlay'), param(page, 'pair.open')]).toEqual(['1', '1']);

    const other = await newPageAt(context, page.url());
    await expect(other.locator('ae-head-view')).toHaveAttribute('data-overlay', 'on');
    await expect(
      other.locator('ae-head-view').getByRole('button', { name: 'All heads of this layer' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(other.locator('ae-flip-pair')).toHaveAttribute('data-status', 'ready');
    await expect(other.locator('ae-flip-pair [data-side="wide"] ae-flip-view')).toHaveAttribute(
      'data-head',
      String(corefHead().head),
    );

    await other.locator('ae-head-view').getByRole('button', { name: 'All heads of this layer' }).click();
    await other.locator('ae-flip-pair').getByRole('button', { name: 'Compare tired and wide side by side' }).click();
    await expect(other.locator('ae-head-view')).toHaveAttribute('data-overlay', 'off');
    await expect.poll(() => [param(other, 'view.overlay'), param(other, 'pair.open')]).toEqual([null, null]);
  });

  test('side by side at 375 px and in Chinese', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openPage(page);
    await chooseModel(page, 'coref-encoder');
    const pair = page.locator('ae-flip-pair');
    await pair.getByRole('button', { name: 'Compare tired and wide side by side' }).click();
    await expect(pair).toHaveAttribute('data-status', 'ready');
    await page.locator('ae-head-view').getByRole('button', { name: 'All heads of this layer' }).click();
    // Only this spec's section is judged here: the other lesson panels are set aside (CSSOM).
    await page.evaluate(() => {
      for (const s of document.querySelectorAll('main > section.lesson-panel:not(#lines)')) s.style.display = 'none';
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.locator('#lines').screenshot({ path: `${SHOTS}/flip-pair-375.png` });
    await expectNoSeriousAxeViolations(page, '#lines');
    await page.getByRole('button', { name: '中文' }).click();
    await expect(pair.getByRole('button', { name: '并排对比 tired 与 wide' })).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('ae-head-view').getByRole('button', { name: '显示本层全部注意力头' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(pair.locator('.ae-fp-answer').first()).toContainText('“it” → animal');
    await expect(page.locator('ae-head-view .ae-hv-readout')).toContainText('在各个头中最关注的词');
  });
});
