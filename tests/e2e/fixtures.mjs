// Shared by the e2e specs: a `test` whose every run also fails on any console error, uncaught
// page error or CSP violation, and small helpers for the page's state and the heatmap.
import { test as base, expect } from '@playwright/test';
import BaseAxeBuilder from '@axe-core/playwright';

export { expect };
export const SHOTS = 'build/test-results/screenshots';

export const test = base.extend({
  // Console errors a test provokes on purpose (e.g. a 404 it routes), as RegExps.
  expectedErrors: [[], { option: true }],
  // Collects console errors, page errors and CSP violations; asserts none at the end.
  errors: [
    async ({ page, expectedErrors }, use) => {
      const errors = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      await use(errors);
      const unexpected = errors.filter((e) => !expectedErrors.some((pattern) => pattern.test(e)));
      expect(unexpected, 'console errors, page errors or CSP violations').toEqual([]);
    },
    { auto: true },
  ],
});

// The page's main view, <attention-explorer id="result">, which mirrors its state as data-*
// (data-status, data-model, data-text, data-run, data-config, data-layer, data-head, …). Its
// controls, heatmap and answer are in its shadow root, which Playwright's CSS locators enter.
export const app = (page) => page.locator('#result');
export const cells = (page) => page.locator('ae-attention-heatmap rect.cell');
// The main view's alert (each lesson panel has its own role="alert" region).
export const alert = (page) => page.locator('#error');

// Opens the page on the untrained model unless told otherwise (a visit without a link opens
// on coref-encoder; tests of that say so with openPage(page, '/')).
export async function openPage(page, url = '/?model=untrained') {
  const response = await page.goto(url);
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  return response;
}

// Waits until the page has rendered `text` (the input is debounced).
export async function expectRendered(page, text) {
  await expect(app(page)).toHaveAttribute('data-text', text);
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
}

// Every cell as shown: {row, col, value} with value the data-value string.
export function shownCells(page) {
  return cells(page).evaluateAll((rects) =>
    rects.map((r) => ({ row: Number(r.dataset.row), col: Number(r.dataset.col), value: r.dataset.value })),
  );
}

// @axe-core/playwright's AxeBuilder as every spec uses it (import { AxeBuilder } from here): the
// same rules over the same nodes, with two costs cut:
// - resultTypes ['violations']: axe still runs every check on every node, but lists the nodes only
//   for violations (for passes and incomplete just one each); the tests read only violations, and
//   the full lists were megabytes of JSON per scan to build, copy and parse.
// - legacy mode: axe.run in the page, instead of axe.runPartial in each frame then axe.finishRun in
//   a new blank page (which injects axe a second time). The split exists for cross-origin frames;
//   the page has no frames.
export class AxeBuilder extends BaseAxeBuilder {
  constructor(options) {
    super(options);
    this.setLegacyMode();
    this.options({});
  }

  options(options) {
    return super.options({ resultTypes: ['violations'], ...options });
  }
}

// No serious or critical axe violations on the page, or only in `selector` (a panel's section;
// {fromShadowDom: [host, selector]} for a part of a panel's shadow root).
export async function expectNoSeriousAxeViolations(page, selector = null) {
  const axe = new AxeBuilder({ page });
  const { violations } = await (selector ? axe.include(selector) : axe).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

// The same in `selector`, in light and dark colours: the dark pass checks colour contrast only,
// the rest does not depend on the scheme.
export async function expectNoSeriousAxeViolationsInSchemes(page, selector) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    const axe = new AxeBuilder({ page }).include(selector);
    if (colorScheme === 'dark') axe.withRules(['color-contrast']);
    const { violations } = await axe.analyze();
    expect(
      violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => `${v.id}: ${v.nodes.length}`),
      colorScheme,
    ).toEqual([]);
  }
}

// Selects a model and waits until it has loaded and rendered.
export async function chooseModel(page, name) {
  await page.locator('#model').selectOption(name);
  await expect(app(page)).toHaveAttribute('data-model', name);
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
}

// The console error of a file the server (or a test's route) answers with 404, for
// test.use({expectedErrors: [NOT_FOUND]}).
export const NOT_FOUND = /Failed to load resource: the server responded with a status of 404/;

// The shipped model `name`'s weights answer 404 on this page (a model that fails to load).
export function withoutWeights(page, name) {
  return page.route(`**/models/${name}/model.safetensors`, (route) =>
    route.fulfill({ status: 404, body: 'Not Found' }),
  );
}

// The link `url` opened afresh in a new page of the browser context (as a reader would paste it).
export async function newPageAt(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

// Opens the page (on the trained model `model`, if given) and scrolls to the element
// `selector`, which it returns (a lesson panel that follows the main view's run).
export async function openAt(page, selector, { model } = {}) {
  await openPage(page);
  if (model) await chooseModel(page, model);
  const target = page.locator(selector);
  await target.scrollIntoViewIfNeeded();
  return target;
}

// Opens the page at the lesson panel <tag> in the section `#section` and waits until it is ready
// (in its state attribute: data-state, or data-status) and shows `shows` ({attribute: value});
// `url`: a link to open instead of the page's default. Returns the panel.
export async function openPanelAt(page, section, tag, { state = 'data-state', shows = {}, url } = {}) {
  await openPage(page, url);
  await page.locator(section).scrollIntoViewIfNeeded();
  const panel = page.locator(tag);
  await expect(panel).toHaveAttribute(state, 'ready', { timeout: 15_000 }); // its model loads in view
  for (const [name, value] of Object.entries(shows)) await expect(panel).toHaveAttribute(name, value);
  return panel;
}

// A panel's strings ({en, zh}, web/strings/<name>.mjs), as the page has them.
export function panelStrings(page, name) {
  return page.evaluate(async (name) => (await import(`/strings/${name}.mjs`)).default, name);
}

// The data-value of every cell of the number matrices in `locator` (number-matrix.mjs), as shown.
export function matrixValues(locator) {
  return locator.locator('td[data-value]').evaluateAll((tds) => tds.map((td) => td.dataset.value));
}

// Whether the element fits the screen's width and does not scroll sideways itself.
export function fitsWidth(locator) {
  return locator.evaluate(
    (el) => el.getBoundingClientRect().right <= window.innerWidth && el.scrollWidth <= el.clientWidth,
  );
}

// fn({ engine, model }, arg) in the page, with a separately loaded engine and the trained model
// `name` from /models/ (deleted afterwards, also when fn throws); fn is passed as to page.evaluate.
export async function evaluateOnModel(page, name, fn, arg) {
  const loaded = await page.evaluateHandle(async (name) => {
    const { loadEngine } = await import('/lib/engine.mjs');
    const engine = await loadEngine();
    return { engine, model: await engine.fetchTrainedModel(new URL(`/models/${name}/`, location.href)) };
  }, name);
  try {
    return await loaded.evaluate(fn, arg);
  } finally {
    await loaded.evaluate(({ model }) => model.delete());
    await loaded.dispose();
  }
}

// Recomputes the page's current run with a separately loaded engine in the page, from the
// state the main view publishes (data-model, data-config, data-run, data-text):
// {tokens, n, prediction, layers: [layer][head] → n×n weights as nested arrays of numbers}.
export async function apiAll(page) {
  const state = await app(page).evaluate((el) => ({ ...el.dataset }));
  return page.evaluate(async ({ model: name, config, run, text }) => {
    const { loadEngine } = await import('/lib/engine.mjs');
    const engine = await loadEngine();
    const untrained = name === 'untrained';
    const model = untrained
      ? engine.createRandomModel(JSON.parse(config))
      : await engine.fetchTrainedModel(new URL(`/models/${name}/`, location.href));
    try {
      const r = untrained ? model.run(text, JSON.parse(run)) : model.analyze(text, JSON.parse(run));
      return {
        tokens: r.tokens,
        n: r.n,
        prediction: r.prediction?.token ?? null,
        layers: r.layers.map((l) =>
          l.selfAttention.heads.map((h) =>
            Array.from({ length: r.n }, (_, i) => Array.from(h.weights.subarray(i * r.n, (i + 1) * r.n))),
          ),
        ),
      };
    } finally {
      model.delete();
    }
  }, state);
}

// The shown head (the main view's data-layer, data-head) of apiAll(), its weights as the strings the
// heatmap publishes (String of the same float32 values).
export async function apiView(page) {
  const [all, { layer, head }] = await Promise.all([apiAll(page), app(page).evaluate((el) => ({ ...el.dataset }))]);
  return {
    tokens: all.tokens,
    n: all.n,
    nLayers: all.layers.length,
    nHeads: all.layers[0].length,
    values: all.layers[Number(layer)][Number(head)].flat().map(String),
    prediction: all.prediction,
  };
}

// Every shown cell and token label equals the recomputed head (exactly: the same wasm computes
// both); for a trained model the published prediction does too.
export async function expectCellsMatchApi(page) {
  const api = await apiView(page);
  await expect(cells(page)).toHaveCount(api.n * api.n);
  const shown = await shownCells(page);
  expect(
    shown.filter(({ row, col, value }) => value !== api.values[row * api.n + col]),
    'cells ≠ API',
  ).toEqual([]);
  const labels = await page.locator('ae-attention-heatmap text.label').allTextContents();
  expect(labels.slice(0, api.n)).toEqual(api.tokens);
  if (api.prediction !== null) await expect(app(page)).toHaveAttribute('data-prediction', api.prediction);
  return api;
}
