// End-to-end tests of panel 8, <ae-positions> (positional encoding): the answers shown for
// the sentence pair equal TrainedModel.analyze() of the four word-order models, computed here
// with a separately loaded engine; without positional encoding 猫追狗 and 狗追猫 get identical
// outputs and B's scores are A's reordered (checked here from the API's matrices); with every
// encoding both answers are right; the pictures equal sinusoidalTable / ropeRotate; the
// language switch, a 375 px screen (no page-level horizontal overflow after interacting), and a
// bad sentence that the panel recovers from.
import fs from 'node:fs';
import {
  SHOTS,
  expect,
  expectNoSeriousAxeViolationsInSchemes,
  openPanelAt,
  panelStrings,
  test,
  matrixValues,
} from './fixtures.mjs';
import { WORD_ORDER_PAIR } from '../../web/lib/lesson.mjs';

const { a: A, b: B } = WORD_ORDER_PAIR;

const ENCODINGS = ['none', 'sinusoidal', 'learned', 'rope'];
const shipped = ENCODINGS.every((e) => fs.existsSync(`web/models/word-order-${e}/config.json`));
const panel = (page) => page.locator('ae-positions');

const openPanel = (page) => openPanelAt(page, '#positions', 'ae-positions', { shows: { 'data-a': A } });

// analyze() of both sentences with every model, and — computed here from the returned
// matrices — whether B's scaled scores / weights are A's with rows and columns reordered like
// the tokens, for every layer and head ('exact', 'rounding' (≤ 1e-4) or 'no').
function api(page, a, b) {
  return page.evaluate(
    async ({ a, b, encodings }) => {
      const { loadEngine } = await import('/lib/engine.mjs');
      const engine = await loadEngine();
      const out = { roles: { a: engine.wordOrderRoles(a), b: engine.wordOrderRoles(b) } };
      for (const encoding of encodings) {
        const model = await engine.fetchTrainedModel(new URL(`/models/word-order-${encoding}/`, location.href));
        try {
          const ra = model.analyze(a, { topK: 3 }),
            rb = model.analyze(b, { topK: 3 });
          const used = new Set();
          const sigma = ra.tokens.map((t) => {
            const j = rb.tokens.findIndex((u, k) => u === t && !used.has(k));
            used.add(j);
            return j;
          });
          const n = ra.n;
          const verdicts = {};
          ra.layers.forEach((layer, l) =>
            layer.selfAttention.heads.forEach((ha, h) => {
              const hb = rb.layers[l].selfAttention.heads[h];
              for (const field of ['scaledScores', 'weights']) {
                let exact = true,
                  diff = 0;
                for (let i = 0; i < n; i++)
                  for (let j = 0; j < n; j++) {
                    const x = ha[field][i * n + j],
                      y = hb[field][sigma[i] * n + sigma[j]];
                    if (x !== y) {
                      exact = false;
                      diff = Math.max(diff, Math.abs(x - y));
                    }
                  }
                verdicts[`${l},${h},${field}`] = exact ? 'exact' : diff <= 1e-4 ? 'rounding' : 'no';
              }
            }),
          );
          out[encoding] = {
            a: { token: ra.prediction.token, p: String(ra.prediction.probability) },
            b: { token: rb.prediction.token, p: String(rb.prediction.probability) },
            // Largest difference between A's final output and B's with its rows put back in A's order.
            outputGap: ra.output.reduce((gap, v, i) => {
              const d = ra.output.length / n;
              return Math.max(gap, Math.abs(v - rb.output[sigma[Math.floor(i / d)] * d + (i % d)]));
            }, 0),
            scoresA: Array.from(ra.layers[0].selfAttention.heads[0].scaledScores, String),
            tokensA: ra.tokens,
            tokensB: rb.tokens,
            verdicts,
          };
        } finally {
          model.delete();
        }
      }
      return out;
    },
    { a, b, encodings: ENCODINGS },
  );
}

async function shownAnswers(page) {
  return panel(page)
    .locator('tbody tr[data-encoding]')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((r) => [
          r.dataset.encoding,
          {
            a: { token: r.dataset.answerA, p: r.dataset.probA, right: r.dataset.rightA },
            b: { token: r.dataset.answerB, p: r.dataset.probB, right: r.dataset.rightB },
          },
        ]),
      ),
    );
}

const compare = (page) => panel(page).locator('.ae-pos-compare');

test.describe('positional encoding panel', () => {
  test.skip(!shipped, 'the word-order models are not in web/models');

  test('answers equal analyze(); no encoding: same output, scores a permutation; every encoding: right', async ({
    page,
  }) => {
    await openPanel(page);
    const expected = await api(page, A, B);
    const shown = await shownAnswers(page);
    for (const encoding of ENCODINGS)
      for (const side of ['a', 'b']) {
        expect(shown[encoding][side].token, `${encoding} ${side}`).toBe(expected[encoding][side].token);
        expect(shown[encoding][side].p, `${encoding} ${side}`).toBe(expected[encoding][side].p);
        expect(shown[encoding][side].right).toBe(String(expected[encoding][side].token === expected.roles[side].agent));
      }
    // Without positions: the same answer and probability, and the whole output reordered.
    expect(expected.none.a.token).toBe(expected.none.b.token);
    expect(Math.abs(Number(expected.none.a.p) - Number(expected.none.b.p))).toBeLessThan(1e-6); // rounding only
    expect(expected.none.outputGap).toBeLessThan(1e-5); // float rounding only
    expect(expected.sinusoidal.outputGap).toBeGreaterThan(1e-2);
    await expect(panel(page).locator('.ae-pos-summary')).toHaveAttribute('data-same', 'true');
    // With any encoding both sentences get their own agent.
    for (const encoding of ['sinusoidal', 'learned', 'rope']) {
      expect(shown[encoding].a.right, encoding).toBe('true');
      expect(shown[encoding].b.right, encoding).toBe('true');
    }
    // The "why": layer 1 head 1 scores of the model without positions, an exact reordering.
    expect(expected.none.verdicts['0,0,scaledScores']).toBe('exact');
    await expect(compare(page)).toHaveAttribute('data-permutation', 'exact');
    const cellsA = await matrixValues(compare(page).locator('.ae-pos-matrix').first());
    expect(cellsA).toEqual(expected.none.scoresA);
    // Every other view the panel offers says what the API's matrices say.
    for (const [encoding, layer, kind] of [
      ['none', 1, 'weights'],
      ['sinusoidal', 0, 'scores'],
      ['rope', 1, 'scores'],
    ]) {
      await panel(page).getByLabel('Encoding shown in detail').selectOption(encoding);
      await panel(page)
        .getByLabel('Layer', { exact: true })
        .selectOption({ value: String(layer) });
      await panel(page).getByLabel('Show', { exact: true }).selectOption(kind);
      const field = kind === 'scores' ? 'scaledScores' : 'weights';
      await expect(compare(page)).toHaveAttribute('data-encoding', encoding);
      await expect(compare(page)).toHaveAttribute('data-kind', kind);
      await expect(compare(page)).toHaveAttribute('data-layer', String(layer));
      await expect(compare(page)).toHaveAttribute(
        'data-permutation',
        expected[encoding].verdicts[`${layer},0,${field}`],
      );
    }
    expect(expected.sinusoidal.verdicts['0,0,scaledScores']).toBe('no');
    await page.locator('#positions').screenshot({ path: `${SHOTS}/positions.png` });
  });

  test("the pictures are the core's sinusoidal table and RoPE rotation; swap exchanges the sentences", async ({
    page,
  }) => {
    const view = await openPanel(page);
    await view.getByRole('slider', { name: 'Positions' }).fill('8');
    await expect(view.locator('svg.ae-pos-sin')).toHaveAttribute('data-n', '8');
    await view.getByLabel('Dimension pair', { exact: true }).selectOption({ value: '1' });
    await expect(view.locator('svg.ae-pos-rope')).toHaveAttribute('data-pair', '1');
    const shownSin = await view.locator('svg.ae-pos-sin rect').evaluateAll((rs) => rs.map((r) => r.dataset.value));
    const shownRope = await view
      .locator('svg.ae-pos-rope line[data-pos]')
      .evaluateAll((ls) => ls.map((l) => [l.dataset.x, l.dataset.y]));
    const expected = await page.evaluate(async () => {
      const { loadEngine } = await import('/lib/engine.mjs');
      const engine = await loadEngine();
      const unit = new Float32Array(16);
      unit[2] = 1; // pair 1 = dimensions 2, 3 of the RoPE model's 16-wide heads
      return {
        sin: Array.from(engine.sinusoidalTable(8, 32), String),
        rope: Array.from({ length: 16 }, (_, p) => {
          const v = engine.ropeRotate(unit, p, 10000);
          return [String(v[2]), String(v[3])];
        }),
      };
    });
    expect(shownSin).toEqual(expected.sin);
    expect(shownRope).toEqual(expected.rope);

    await view.getByRole('button', { name: 'Swap A ↔ B' }).click();
    await expect(view).toHaveAttribute('data-a', B);
    await expect(view).toHaveAttribute('data-b', A);
    const expectedSwapped = await api(page, B, A);
    const shown = await shownAnswers(page);
    expect(shown.rope.a.token).toBe(expectedSwapped.rope.a.token);
    expect(shown.rope.a.token).toBe('狗');
  });

  test('the link keeps the pair, the encoding, layer, head and scores/weights; nonsense in a link is ignored', async ({
    page,
    context,
  }) => {
    const view = await openPanel(page);
    await view.getByRole('button', { name: 'Swap A ↔ B' }).click();
    await expect(view).toHaveAttribute('data-a', B);
    await view.getByLabel('Encoding shown in detail').selectOption('rope');
    await view.getByLabel('Layer', { exact: true }).selectOption({ value: '1' });
    await view.getByLabel('Head', { exact: true }).selectOption({ value: '1' });
    await view.getByLabel('Show', { exact: true }).selectOption('weights');
    await expect(compare(page)).toHaveAttribute('data-kind', 'weights');
    const linked = () =>
      Object.fromEntries([...new URL(page.url()).searchParams].filter(([k]) => k.startsWith('positions.')));
    await expect.poll(linked).toEqual({
      'positions.a': B,
      'positions.b': A,
      'positions.enc': 'rope',
      'positions.layer': '2',
      'positions.head': '2',
      'positions.show': 'weights',
    });
    const cellsOf = (p) => matrixValues(compare(p));
    const other = await context.newPage();
    await openPanelAt(other, '#positions', 'ae-positions', { url: page.url() });
    await expect(panel(other)).toHaveAttribute('data-a', B);
    await expect(panel(other)).toHaveAttribute('data-b', A);
    for (const [key, value] of Object.entries({ encoding: 'rope', layer: '1', head: '1', kind: 'weights' }))
      await expect(compare(other)).toHaveAttribute(`data-${key}`, value);
    expect(await panel(other).getByLabel('Encoding shown in detail').inputValue()).toBe('rope');
    expect(await panel(other).getByLabel('Layer', { exact: true }).inputValue()).toBe('1');
    const cells = await cellsOf(page);
    expect(cells.length).toBe(2 * 4 * 4); // two 4×4 matrices ([CLS] + three characters)
    expect(await cellsOf(other)).toEqual(cells);
    expect(await shownAnswers(other)).toEqual(await shownAnswers(page));
    // Back at the defaults, the controls leave the link.
    await view.getByLabel('Encoding shown in detail').selectOption('none');
    await view.getByLabel('Show', { exact: true }).selectOption('scores');
    await view.getByRole('button', { name: 'Swap A ↔ B' }).click();
    await expect.poll(linked).toEqual({ 'positions.layer': '2', 'positions.head': '2' });
    await other.close();

    // Out-of-range or malformed values are ignored: the defaults stay.
    const bad = await context.newPage();
    await bad.goto(
      `/?model=untrained&positions.enc=bogus&positions.layer=3&positions.head=0&positions.show=probabilities&positions.a=${'猫'.repeat(201)}`,
    );
    await bad.locator('#positions').scrollIntoViewIfNeeded();
    await expect(panel(bad)).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
    await expect(panel(bad)).toHaveAttribute('data-a', A);
    for (const [key, value] of Object.entries({ encoding: 'none', layer: '0', head: '0', kind: 'scores' }))
      await expect(compare(bad)).toHaveAttribute(`data-${key}`, value);
  });

  test('language switch, 375 px, and a bad sentence gives a message and the panel recovers', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const view = await openPanel(page);
    const strings = await panelStrings(page, 'positions');
    await expect(view.locator('h2')).toHaveText(strings.en.title);
    const fits = await view.evaluate(
      (el) => el.getBoundingClientRect().right <= window.innerWidth && el.scrollWidth <= el.clientWidth,
    );
    expect(fits).toBe(true);
    // After interacting, the page itself does not scroll sideways (the other lesson panels set
    // aside, so that only this one is judged).
    await view.getByLabel(strings.en.encoding, { exact: true }).selectOption('rope');
    await view.getByLabel(strings.en.show, { exact: true }).selectOption('weights');
    await view.getByLabel(strings.en.positions, { exact: true }).fill('64');
    const overflow = () =>
      page.evaluate(() => {
        const others = [...document.querySelectorAll('main > section.lesson-panel:not(#positions)')];
        for (const s of others) s.style.display = 'none';
        const width = document.documentElement.scrollWidth;
        for (const s of others) s.style.removeProperty('display');
        return width - window.innerWidth;
      });
    expect(await overflow()).toBeLessThanOrEqual(0);

    const inputA = view.getByLabel('Sentence A', { exact: true });
    await inputA.fill('');
    await expect(view.getByRole('alert')).toContainText('A:');
    await expect(view.locator('tr[data-encoding="none"]')).toHaveAttribute('data-answer-a', '');
    await inputA.fill('猫追龙');
    await expect(view).toHaveAttribute('data-a', '猫追龙');
    await expect(view.getByRole('alert')).toContainText('龙');
    await inputA.fill(A);
    await expect(view).toHaveAttribute('data-a', A);
    await expect(view.getByRole('alert')).toHaveText('');
    await expect(view.locator('tr[data-encoding="rope"]')).toHaveAttribute('data-right-a', 'true');

    // No serious or critical accessibility violations in this panel (light and dark).
    await expectNoSeriousAxeViolationsInSchemes(page, '#positions');
    await page.locator('#lang').click();
    await expect(view.locator('h2')).toHaveText(strings.zh.title);
    await expect(view.locator('tr[data-encoding="none"] th')).toHaveText(strings.zh.enc.none);
    await view.getByLabel(strings.zh.encoding, { exact: true }).selectOption('none');
    await expect(view.getByText(strings.zh.whyHowTo.replace('{encoding}', strings.zh.enc.none))).toBeVisible(); // “无位置编码”模型
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.locator('#positions').screenshot({ path: `${SHOTS}/positions-375-zh.png` });
  });
});
