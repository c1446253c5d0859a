// The page's wasm module and the full one (issue 9: a smaller first view). The first view — and
// every lesson panel after it — runs on the page's module (attention-relaxed.wasm in Chromium)
// and never fetches the full module (attention-full-relaxed.wasm: the trainer and the GPT-2
// loader); opening a model from disk fetches it once, and "Train it yourself" fetches it in its
// worker: on a 2-core machine (what the page is told here), the single-thread one, never the
// threaded attention-full-mt.js, which needs a core beside the page's (train-threads.spec.mjs). Sizes are not asserted here: npm run size:wasm and npm run bench:page print them.
import path from 'node:path';
import { app, cells, expect, openPage, test } from './fixtures.mjs';

const PAGE_MODULE = /\/dist\/attention-relaxed\.(wasm|mjs)$/;
const FULL_MODULE = /\/dist\/attention-full(-relaxed)?\.(wasm|mjs)$/;
const THREADED_MODULE = /\/dist\/attention-full-mt\.(wasm|js)$/; // its pthread workers load the .js again
const GPT2 = ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt'].map((f) =>
  path.join('tests/fixtures/gpt2-tiny', f),
);

// Every request of the page and its workers, as paths, in order.
function recordRequests(context) {
  const paths = [];
  context.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}
const matching = (paths, pattern) => paths.filter((p) => pattern.test(p));

test("the first view and every lesson panel run on the page's module, without fetching the full one", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const requests = recordRequests(context);
  await page.goto('/');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  await expect(cells(page).first()).toBeVisible();
  // Up to the first attention: the page's module of this browser's build, once, and nothing else.
  expect(matching(requests, PAGE_MODULE)).toEqual(['/dist/attention-relaxed.mjs', '/dist/attention-relaxed.wasm']);
  expect(matching(requests, /\.wasm$/)).toEqual(['/dist/attention-relaxed.wasm']);
  expect(matching(requests, FULL_MODULE)).toEqual([]);
  expect(await page.evaluate(async () => (await (await import('/lib/context.mjs')).getEngine()).features.full)).toBe(
    false,
  );

  // Every lesson panel loads (each fetches its models as it nears the window), the training panel
  // included: until its Start is pressed, still no full module.
  const sections = await page.locator('main section[id]').evaluateAll((nodes) => nodes.map((n) => n.id));
  expect(sections).toContain('train');
  for (const id of sections) await page.locator(`section#${id}`).scrollIntoViewIfNeeded();
  await expect(page.locator('ae-positions')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.locator('ae-kv-cache')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(matching(requests, FULL_MODULE)).toEqual([]);
  expect(matching(requests, /\.wasm$/)).toEqual(['/dist/attention-relaxed.wasm']);
});

test('opening a model from disk fetches the full module once, and the model runs on it', async ({ page, context }) => {
  const requests = recordRequests(context);
  await openPage(page);
  expect(matching(requests, FULL_MODULE)).toEqual([]);
  await page.locator('#model').selectOption('own');
  await page.locator('#own-files').setInputFiles(GPT2);
  await expect(page.locator('#own-model')).toHaveAttribute('data-state', 'ready');
  await expect(app(page)).toHaveAttribute('data-model', 'own');
  await expect(app(page)).toHaveAttribute('data-status', 'ready');
  expect(matching(requests, FULL_MODULE)).toEqual([
    '/dist/attention-full-relaxed.mjs',
    '/dist/attention-full-relaxed.wasm',
  ]);
  const shown = await cells(page).count();
  expect(shown > 0 && Number.isInteger(Math.sqrt(shown)), `${shown} cells: an n × n heatmap`).toBe(true);
  // A second model opened (it replaces the first) reuses the full module: no second fetch.
  await page.locator('#own-files').setInputFiles(GPT2);
  await expect(page.locator('#own-status')).toContainText('Opened');
  await expect(page.locator('#own-model')).toHaveAttribute('data-state', 'ready');
  expect(matching(requests, FULL_MODULE)).toHaveLength(2);
  // The page's own engine stayed the page's module.
  expect(await page.evaluate(async () => (await (await import('/lib/context.mjs')).getEngine()).features.full)).toBe(
    false,
  );
});

test('"Train it yourself" runs on the full module in its worker', async ({ page, context }) => {
  test.setTimeout(90_000);
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 2 }));
  const requests = recordRequests(context);
  await openPage(page);
  await page.locator('#train').scrollIntoViewIfNeeded();
  const panel = page.locator('ae-train');
  await panel.locator('select[name="task"]').selectOption('word-order');
  await panel.locator('input[name="steps"]').fill('40');
  expect(matching(requests, FULL_MODULE)).toEqual([]);
  expect(matching(requests, THREADED_MODULE)).toEqual([]);
  await panel.locator('button[data-action="start"]').click();
  await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(matching(requests, FULL_MODULE)).toEqual([
    '/dist/attention-full-relaxed.mjs',
    '/dist/attention-full-relaxed.wasm',
  ]);
  expect(matching(requests, THREADED_MODULE)).toEqual([]);
  // The trained model came back as its files and runs in the page's module.
  await expect(page.locator('#model option[value="trained-here-1"]')).toHaveCount(1);
});
