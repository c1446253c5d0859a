// "Open a model…" (issue 16): the tiny GPT-2-layout fixture opened through the file picker,
// its attention on the heatmap equal to the independent PyTorch reference (golden.json), the
// note that nothing leaves the machine, and a clear message for an incomplete set of files.
import fs from 'node:fs';
import path from 'node:path';
import { app, cells, expect, expectRendered, openPage, shownCells, test } from './fixtures.mjs';

const DIR = 'tests/fixtures/gpt2-tiny';
const FILES = ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt'].map((f) => path.join(DIR, f));
const golden = JSON.parse(fs.readFileSync(path.join(DIR, 'golden.json'), 'utf8'));

test('a GPT-2 checkpoint opened from disk shows its heads as the reference computes them', async ({ page }) => {
  await openPage(page);
  await page.locator('#model').selectOption('own');
  await expect(page.locator('#own-model')).toBeVisible();
  await expect(page.locator('.own-local')).toContainText('never leave this machine');
  await page.locator('#own-files').setInputFiles(FILES);
  await expect(page.locator('#own-model')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#own-status')).toContainText('3 layers × 4 heads');
  await expect(app(page)).toHaveAttribute('data-model', 'own');
  // The Q, K, V and layer panels read the shown model's config from the shared context: it must
  // hand them the opened model, not request models/own/ (a 404 fails the test's console check).
  for (const section of ['#qkv', '#transformer-layer']) await page.locator(section).scrollIntoViewIfNeeded();
  await expect(page.locator('ae-layer .ae-layer-stage-name').first()).toBeVisible();
  await page.waitForTimeout(500);
  await page.locator('#app').scrollIntoViewIfNeeded();

  const prompt = golden.prompts[0];
  await page.locator('#sentence').fill(prompt.text);
  await expectRendered(page, prompt.text);
  for (const [layer, head] of [
    [0, 0],
    [2, 3],
  ]) {
    await page.locator('#layer').selectOption(String(layer));
    await page.locator('#head').selectOption(String(head));
    await expect(app(page)).toHaveAttribute('data-head', String(head));
    const n = prompt.ids.length;
    await expect(cells(page)).toHaveCount(n * n);
    const expected = prompt.attention[layer][head];
    const off = (await shownCells(page)).filter(
      ({ row, col, value }) => Math.abs(Number(value) - expected[row][col]) > 1e-4,
    );
    expect(off, `layer ${layer + 1}, head ${head + 1}: cells off the reference`).toEqual([]);
  }
  await expect(page.locator('#prediction')).toBeVisible();
  await expect(page.locator('#banner-text')).toContainText('nothing is uploaded');
});

test('an incomplete set of files says which are missing', async ({ page }) => {
  await openPage(page);
  await page.locator('#model').selectOption('own');
  await page.locator('#own-files').setInputFiles(FILES.slice(0, 3));
  await expect(page.locator('#own-status')).toContainText('Missing: merges.txt');
  await expect(page.locator('#own-model')).toHaveAttribute('data-state', 'error');
});
