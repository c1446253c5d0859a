// End-to-end tests of panel 13, <ae-cross-attention>: the self- and cross-attention weights
// shown equal engine.attention() called here, in a separately loaded engine, with Q, K, V
// from TrainedModel.analyze() of the two sentences (self: all from A, which also equals A's own
// trace; cross: Q from A, K and V from B — an n×m matrix); after changing layer/head and
// swapping; the language switch, a 375 px screen, and a bad sentence that the panel recovers from.
import fs from 'node:fs';
import { SHOTS, evaluateOnModel, expect, expectNoSeriousAxeViolationsInSchemes, test } from './fixtures.mjs';
import { fitsWidth, matrixValues, openPanelAt, panelStrings } from './fixtures.mjs'; // opening and reading a lesson panel
import { LESSON } from '../../web/lib/lesson.mjs';

const A = LESSON.tired;
const B = 'The street was too wide so it was hard to cross.';
const shipped = fs.existsSync('web/models/coref-encoder/config.json');
const panel = (page) => page.locator('ae-cross-attention');

const openPanel = (page) => openPanelAt(page, '#cross', 'ae-cross-attention', { shows: { 'data-a': A } });

function api(page, a, b, layer, head) {
  return evaluateOnModel(
    page,
    'coref-encoder',
    ({ engine, model }, { a, b, layer, head }) => {
      const ra = model.analyze(a),
        rb = model.analyze(b);
      const ha = ra.layers[layer].selfAttention.heads[head],
        hb = rb.layers[layer].selfAttention.heads[head];
      const dk = model.config.headDim;
      const self = engine.attention({ q: ha.q, k: ha.k, v: ha.v, n: ra.n, m: ra.n, dk });
      const cross = engine.attention({ q: ha.q, k: hb.k, v: hb.v, n: ra.n, m: rb.n, dk });
      return {
        n: ra.n,
        m: rb.n,
        rows: ra.tokens,
        cols: rb.tokens,
        self: Array.from(self.weights, String),
        trace: Array.from(ha.weights, String),
        cross: Array.from(cross.weights, String),
        coref: JSON.parse(model.config.configJson).coreference_head,
      };
    },
    { a, b, layer, head },
  );
}

const shown = (page, which) => matrixValues(panel(page).locator(`.ae-ca-${which}`));
const headers = (page, which) => panel(page).locator(`.ae-ca-${which} thead th`).allTextContents();

test.describe('self vs cross-attention panel', () => {
  test.skip(!shipped, 'coref-encoder is not in web/models');

  test("self and cross weights equal engine.attention on the API's Q, K, V; n×m; layer, head and swap", async ({
    page,
  }) => {
    const view = await openPanel(page);
    const first = await api(page, A, B, 0, 0);
    const { layer, head } = first.coref; // the panel opens on the coreference head
    await expect(view).toHaveAttribute('data-layer', String(layer));
    await expect(view).toHaveAttribute('data-head', String(head));
    let expected = await api(page, A, B, layer, head);
    expect(expected.n).not.toBe(expected.m);
    expect(expected.self).toEqual(expected.trace); // the same machinery as the model's own head
    expect(await shown(page, 'self')).toEqual(expected.self);
    expect(await shown(page, 'cross')).toEqual(expected.cross);
    expect(await headers(page, 'cross')).toEqual(expected.cols);
    await expect(view.locator('.ae-ca-cross table')).toHaveAttribute('data-m', String(expected.m));

    await view.getByLabel('Layer', { exact: true }).selectOption({ value: '0' });
    await view.getByLabel('Head', { exact: true }).selectOption({ value: '3' });
    await expect(view).toHaveAttribute('data-head', '3');
    await expect(view).toHaveAttribute('data-layer', '0');
    expected = await api(page, A, B, 0, 3);
    expect(await shown(page, 'cross')).toEqual(expected.cross);

    await view.getByRole('button', { name: 'Swap A ↔ B' }).click();
    await expect(view).toHaveAttribute('data-a', B);
    expected = await api(page, B, A, 0, 3);
    expect(await shown(page, 'cross')).toEqual(expected.cross);
    expect(await shown(page, 'self')).toEqual(expected.self);
    await page.locator('#cross').screenshot({ path: `${SHOTS}/cross-attention.png` });
  });

  test('the link keeps both sentences and the head', async ({ page, context }) => {
    const view = await openPanel(page);
    await view.getByLabel('Head', { exact: true }).selectOption({ value: '2' });
    await view.getByRole('button', { name: 'Swap A ↔ B' }).click();
    await expect(view).toHaveAttribute('data-a', B);
    await expect.poll(() => new URL(page.url()).searchParams.get('cross.a')).toBe(B);
    const other = await context.newPage();
    await openPanelAt(other, '#cross', 'ae-cross-attention', { url: page.url() });
    await expect(panel(other)).toHaveAttribute('data-a', B);
    await expect(panel(other)).toHaveAttribute('data-head', '2');
    expect(await shown(other, 'cross')).toEqual(await shown(page, 'cross'));
  });

  test('the trained translation: tired → 动物 looking at animal, wide → 马路 looking at street', async ({ page }) => {
    test.skip(!fs.existsSync('web/models/translate-en-zh/pair.json'), 'translate-en-zh is not in web/models');
    const view = await openPanel(page);
    const strings = await panelStrings(page, 'cross-attention');
    await view.getByRole('button', { name: strings.en.translateButton }).click();
    await expect(view).toHaveAttribute('data-noun', '动物', { timeout: 20_000 });
    await expect(view).toHaveAttribute('data-noun-argmax', 'animal');
    await expect(view).toHaveAttribute('data-translation', /因为动物/);
    await expect(view.locator('.ae-ca-alignment td[data-value]')).not.toHaveCount(0);
    await view.getByLabel(strings.en.sentenceA, { exact: true }).fill(LESSON.wide);
    await expect(view).toHaveAttribute('data-noun', '马路');
    await expect(view).toHaveAttribute('data-noun-argmax', 'street');
    await expect(view).toHaveAttribute('data-translation', /因为马路/);
  });

  test('language switch, 375 px, and a bad sentence gives a message and the panel recovers', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const view = await openPanel(page);
    const strings = await panelStrings(page, 'cross-attention');
    await expect(view.locator('h2')).toHaveText(strings.en.title);
    expect(await fitsWidth(view)).toBe(true);

    const boxB = view.getByLabel(strings.en.sentenceB, { exact: true });
    await boxB.fill('The street was too wide.'); // no "it": the coreference model cannot read it
    await expect(view).toHaveAttribute('data-state', 'error');
    await expect(view.getByRole('alert')).toContainText('B');
    await expect(view.locator('.ae-ca-cross td')).toHaveCount(0);
    await boxB.fill(B);
    await expect(view).toHaveAttribute('data-state', 'ready');
    await expect(view.getByRole('alert')).toHaveText('');
    await expect(view.locator('.ae-ca-cross td[data-value]')).not.toHaveCount(0);

    // No serious or critical accessibility violations in this panel (light and dark).
    await expectNoSeriousAxeViolationsInSchemes(page, '#cross');
    await page.locator('#lang').click();
    await expect(view.locator('h2')).toHaveText(strings.zh.title);
    await expect(view.locator('label').first()).toHaveText(strings.zh.sentenceA);
    await page.locator('#cross').screenshot({ path: `${SHOTS}/cross-attention-375-zh.png` });
  });
});
