// End-to-end tests of <ae-train> ("Train it yourself"): a short run in the page's worker shows
// progress and the `it` rows changing, pauses (the step stops moving) and resumes, stops; the
// result joins the model menu and its heatmap equals TrainedModel.analyze() of the downloaded
// files in a separately loaded engine; the downloaded files load back with the same numbers;
// a corrupted file gives a clear message.
import { readFileSync } from 'node:fs';
import { AxeBuilder } from './fixtures.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';
import { app, chooseModel, expect, openPage, shownCells, test } from './fixtures.mjs';

const LESSON = PAIR.tired;
const panel = (page) => page.locator('ae-train');
const step = async (page) => Number(await panel(page).getAttribute('data-step'));
const rowValues = (page) =>
  panel(page)
    .locator('.ae-tr-table td')
    .evaluateAll((tds) => tds.map((td) => td.dataset.value));

// The files the panel's download links give, as Playwright saves them: {name: byte array}.
async function downloads(page) {
  const out = {};
  for (const link of await panel(page).locator('a[data-file]').all()) {
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    out[download.suggestedFilename()] = Array.from(readFileSync(await download.path()));
  }
  return out;
}

// The shown head's weights for the page's sentence, from a separately loaded engine given `files`.
function apiWeights(page, files) {
  return page.evaluate(
    async ({ files, text }) => {
      const { loadEngine } = await import('/lib/engine.mjs');
      const engine = await loadEngine();
      const decode = (name) => new TextDecoder().decode(new Uint8Array(files[name]));
      const model = engine.loadTrainedModel({
        config: decode('config.json'),
        weights: new Uint8Array(files['model.safetensors']),
        vocab: decode('vocab.txt'),
      });
      const app = document.getElementById('result'); // the main view, <attention-explorer>
      const r = model.analyze(text, JSON.parse(app.dataset.run));
      const weights = r.layers[Number(app.dataset.layer)].selfAttention.heads[Number(app.dataset.head)].weights;
      model.delete();
      return { n: r.n, values: Array.from(weights, String) };
    },
    { files, text: LESSON },
  );
}

async function expectHeatmapEquals(page, api) {
  const shown = await shownCells(page);
  expect(shown.length).toBe(api.n * api.n);
  expect(
    shown.filter(({ row, col, value }) => value !== api.values[row * api.n + col]),
    'cells ≠ API',
  ).toEqual([]);
}

test('train, pause, resume, stop; the model joins the menu, downloads and loads back; a bad file is refused', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openPage(page);
  await page.locator('#train').scrollIntoViewIfNeeded();
  const p = panel(page);
  await p.locator('select[name="task"]').selectOption('coref-encoder');
  await p.locator('select[name="layers"]').selectOption('1');
  await p.locator('input[name="steps"]').fill('3000');
  await p.locator('button[data-action="start"]').click();

  // Progress, and the rows of step 0 drawn from the first snapshot.
  await expect(p).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
  await expect.poll(() => step(page), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(p.locator('.ae-tr-status')).toContainText('steps/s');
  await expect(p.locator('.ae-tr-table')).toHaveCount(2);
  await expect
    .poll(async () => Number(await p.getAttribute('data-snapshot-step')), { timeout: 30_000 })
    .toBeGreaterThan(0);
  const later = await rowValues(page);

  // Pause: the step stops moving; resume: it moves again.
  await p.locator('button[data-action="pause"]').click();
  await expect(p).toHaveAttribute('data-state', 'paused');
  await expect(p.locator('.ae-tr-status')).toContainText('Paused');
  const pausedAt = await step(page);
  await page.waitForTimeout(800);
  expect(await step(page)).toBe(pausedAt);
  await p.locator('button[data-action="pause"]').click(); // now "Resume"
  await expect.poll(() => step(page), { timeout: 30_000 }).toBeGreaterThan(pausedAt);

  // Stop: the model is exported, the timeline scrubs back to step 0.
  await p.locator('button[data-action="stop"]').click();
  await expect(p).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(p.locator('.ae-tr-status')).toContainText('Stopped at step');
  const timeline = p.locator('input[type="range"]');
  await expect(timeline).toBeEnabled();
  await timeline.fill('0');
  await expect(p).toHaveAttribute('data-snapshot-step', '0');
  const first = await rowValues(page);
  expect(first.length).toBe(later.length);
  expect(later, 'the it rows changed with training').not.toEqual(first);
  await expect(p.locator('.ae-tr-weights polyline')).toHaveCount(2);

  // The model menu has it; its heatmap is the API's for the downloaded files.
  await expect(page.locator('#model option[value="trained-here-1"]')).toHaveCount(1);
  await chooseModel(page, 'trained-here-1');
  await page.locator('#sentence').fill(LESSON);
  await expect(app(page)).toHaveAttribute('data-text', LESSON);
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  const files = await downloads(page);
  expect(Object.keys(files).sort()).toEqual(['config.json', 'metrics.json', 'model.safetensors', 'vocab.txt']);
  const api = await apiWeights(page, files);
  await expectHeatmapEquals(page, api);

  // Load the downloaded files back from disk: a new menu entry with the same numbers.
  const asFiles = Object.entries(files)
    .filter(([name]) => name !== 'metrics.json')
    .map(([name, bytes]) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) }));
  await page.locator('#train').scrollIntoViewIfNeeded();
  await p.locator('input[type="file"]').setInputFiles(asFiles);
  await expect(p.locator('.ae-tr-load-status')).toContainText('Loaded');
  await chooseModel(page, 'loaded-1');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expectHeatmapEquals(page, api);

  // Dropped on the panel, the same files load too.
  await p.locator('.ae-tr-drop').evaluate((zone, files) => {
    const transfer = new DataTransfer();
    for (const [name, bytes] of Object.entries(files)) transfer.items.add(new File([new Uint8Array(bytes)], name));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
  await expect(p.locator('.ae-tr-load-status')).toContainText('Loaded “Loaded from disk 2”');
  await chooseModel(page, 'loaded-2');
  await expectHeatmapEquals(page, api);

  // A corrupted weights file: the shipped loader's message, and the page keeps working.
  const broken = asFiles.map((f) => (f.name === 'model.safetensors' ? { ...f, buffer: f.buffer.subarray(0, 100) } : f));
  await p.locator('input[type="file"]').setInputFiles(broken);
  await expect(p.locator('.ae-tr-load-status')).toContainText('These files do not load as a model: ');
  await expect(p.locator('.ae-tr-load-status')).toContainText('safetensors');
  await p.locator('input[type="file"]').setInputFiles(asFiles.filter((f) => f.name !== 'vocab.txt'));
  await expect(p.locator('.ae-tr-load-status')).toContainText('vocab.txt missing');
  await expectHeatmapEquals(page, api);

  // The panel with its results, light English then dark Chinese: no serious axe violation,
  // and at 375 px nothing scrolls the page sideways.
  await expectNoSeriousPanelViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('#lang').click();
  await expect(p.locator('h2')).toHaveText('自己动手训练');
  await expect(p.locator('.ae-tr-status')).toContainText('已在第');
  await expectNoSeriousPanelViolations(page);
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const small = await p.evaluate(
    (root) =>
      [...root.shadowRoot.querySelectorAll('button, input, select, a[href]')]
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width < 24 || r.height < 24).length,
  );
  expect(small, 'controls under 24×24 px').toBe(0);
});

async function expectNoSeriousPanelViolations(page) {
  const { violations } = await new AxeBuilder({ page }).include('ae-train').analyze();
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}
