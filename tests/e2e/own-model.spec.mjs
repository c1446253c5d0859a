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
  await page.locator('#result').scrollIntoViewIfNeeded();

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

  // The trace is computed for the layer on view only: All heads has one traced row (4 heads),
  // and choosing a thumbnail of another layer traces that one.
  const traced = page.locator('ae-head-grid button.ae-hg-thumb[data-traced="true"]');
  await page.locator('#overview').scrollIntoViewIfNeeded();
  await expect(traced).toHaveCount(4);
  await expect(traced.first()).toHaveAttribute('data-layer', '2');
  await page.locator('ae-head-grid button[data-layer="1"][data-head="2"]').click();
  await expect(app(page)).toHaveAttribute('data-layer', '1');
  await expect(traced).toHaveCount(4);
  await expect(traced.first()).toHaveAttribute('data-layer', '1');
});

test('the causal panels run the opened model and say so', async ({ page }) => {
  test.setTimeout(60_000);
  await openPage(page);
  await page.locator('#model').selectOption('own');
  await page.locator('#own-files').setInputFiles(FILES);
  await expect(app(page)).toHaveAttribute('data-model', 'own');
  const own = /your model opened from disk \(3 layers × 4 heads\)/;

  // Causal mask: the opened model's answer for the panel's sentence is the main view's.
  const causal = page.locator('ae-causal-mask');
  await causal.scrollIntoViewIfNeeded();
  await expect(causal).toHaveAttribute('data-model', 'own');
  await expect(causal.locator('.ae-cm-model')).toHaveText(own);
  const answer = causal.locator('.ae-cm-answer');
  await expect(answer).not.toHaveAttribute('data-prediction', '');
  const sentence = await causal.getAttribute('data-sentence');
  await page.locator('#result').scrollIntoViewIfNeeded();
  await page.locator('#sentence').fill(sentence);
  await expectRendered(page, sentence);
  await expect(app(page)).toHaveAttribute('data-prediction', await answer.getAttribute('data-prediction'));

  // KV cache: generation step by step on the opened model, with the next-token probabilities.
  const kv = page.locator('ae-kv-cache');
  await kv.scrollIntoViewIfNeeded();
  await expect(kv.locator('.ae-kv-model')).toHaveText(own);
  await expect(kv).toHaveAttribute('data-status', 'ready');
  await kv.locator('.ae-kv-step').click();
  await expect(kv).toHaveAttribute('data-step', '1');
  await expect(kv.locator('.ae-kv-next')).toContainText('Next-token probabilities');
  const next = JSON.parse(await kv.getAttribute('data-next'));
  expect(next).toHaveLength(5);
  expect(JSON.parse(await kv.getAttribute('data-generated'))[0]).toBe(next[0]); // the greedy choice

  // The n² cost times one head as wide as the opened model's (32 / 4 = 8).
  const cost = page.locator('ae-cost');
  await cost.scrollIntoViewIfNeeded();
  await expect(cost).toHaveAttribute('data-head-dim', '8');
  await expect(cost.locator('.ae-cost-model')).toContainText('d = 8');

  // Knock-outs: one row per BPE token of the panel's sentence, on the opened model.
  const explanation = page.locator('ae-explanation');
  await explanation.scrollIntoViewIfNeeded();
  await expect(explanation).toHaveAttribute('data-model', 'own');
  await expect(explanation.locator('.ae-ex-model')).toHaveText(own);
  await expect(explanation).toHaveAttribute('data-status', 'ready');
  const tokens = golden.prompts[0].ids.length; // the panel's sentence is the lesson's, golden prompt 0
  expect(golden.prompts[0].text).toBe(await explanation.locator('textarea').inputValue());
  await expect(explanation.locator('tbody tr')).toHaveCount(tokens);
});

test('an incomplete set of files says which are missing', async ({ page }) => {
  await openPage(page);
  await page.locator('#model').selectOption('own');
  await page.locator('#own-files').setInputFiles(FILES.slice(0, 3));
  await expect(page.locator('#own-status')).toContainText('Missing: merges.txt');
  await expect(page.locator('#own-model')).toHaveAttribute('data-state', 'error');
});
