// Panel 11, the n² cost (<ae-cost>): measuring a few small n gives points whose memory figures
// are the core's byte counts (recomputed here through the engine API); the traced kernel's cap
// shows its message with the bytes it would need; Cancel stops a long measurement; 375 px,
// the language switch and an accessibility scan of the panel.
import fs from 'node:fs';
import { AxeBuilder } from './fixtures.mjs';
import { SHOTS, expect, openPage, test } from './fixtures.mjs';

const ONE_DECIMAL = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

const panel = (page) => page.locator('ae-cost');

async function openPanel(page) {
  await openPage(page);
  await page.locator('#cost').scrollIntoViewIfNeeded();
  // The memory plot is drawn from the core's counts as soon as the panel is in view.
  await expect(panel(page).locator('svg[data-chart="memory"] [data-bytes]')).toHaveCount(3 * 8);
}

// Byte counts from the engine API, per kernel and n (d = 64).
function apiBytes(page, sizes) {
  return page.evaluate(async (ns) => {
    const { getEngine } = await import('/lib/context.mjs');
    const engine = await getEngine();
    return Object.fromEntries(
      ns.flatMap((n) => [
        [`fused ${n}`, engine.fusedAttentionScratchBytes(n, 64, false)],
        [`window ${n}`, engine.fusedAttentionScratchBytes(n, 64, true)],
        [`traced ${n}`, engine.tracedAttentionBytes(n, 64)],
      ]),
    );
  }, sizes);
}

// Every time cell's figures: {`kernel n`: {ms, min, max, runs, ratio, overhead, text}}.
const shownTimes = (view) =>
  view.locator('td.ae-cost-time[data-ms]').evaluateAll((tds) =>
    Object.fromEntries(
      tds.map((td) => [
        `${td.dataset.kernel} ${td.dataset.n}`,
        {
          ...Object.fromEntries(['ms', 'min', 'max', 'runs', 'ratio'].map((k) => [k, Number(td.dataset[k])])),
          overhead: 'overhead' in td.dataset,
          text: td.textContent,
        },
      ]),
    ),
  );

const shownBytes = (locator) =>
  locator.evaluateAll((nodes) =>
    Object.fromEntries(nodes.map((n) => [`${n.dataset.kernel} ${n.dataset.n}`, Number(n.dataset.bytes)])),
  );

test.describe('n² cost panel', () => {
  test("nothing is measured at page load; measuring n ≤ 256 shows the core's byte counts", async ({ page }) => {
    await openPanel(page);
    const view = panel(page);
    await expect(view).toHaveAttribute('data-status', 'idle');
    await expect(view.locator('td.ae-cost-time')).toHaveCount(0);
    const all = [64, 128, 256, 512, 1024, 2048, 4096, 8192];
    const api = await apiBytes(page, all);
    expect(await shownBytes(view.locator('svg[data-chart="memory"] [data-bytes]'))).toEqual(api);

    await view.getByLabel('Longest sequence n').fill('8');
    await expect(view.locator('output')).toHaveText('256 tokens');
    await view.getByRole('button', { name: 'Measure' }).click();
    await expect(view).toHaveAttribute('data-status', 'done');
    await expect(view.locator('.ae-cost-status')).toHaveText('Done: 9 measurements up to n = 256.');

    const small = Object.fromEntries(Object.entries(api).filter(([key]) => Number(key.split(' ')[1]) <= 256));
    expect(await shownBytes(view.locator('td.ae-cost-memory'))).toEqual(small);
    expect(await shownBytes(view.locator('svg[data-chart="time"] [data-ms]'))).toEqual(small);
    const times = await view.locator('td.ae-cost-time').evaluateAll((tds) => tds.map((td) => Number(td.dataset.ms)));
    expect(times).toHaveLength(9);
    for (const ms of times) expect(ms).toBeGreaterThan(0);
    // The n² reference goes through the fused kernel's largest point.
    const fused256 = await view
      .locator('svg[data-chart="time"] [data-kernel="fused"][data-n="256"]')
      .getAttribute('data-ms');
    const reference = view.locator('svg[data-chart="time"] .k-reference');
    await expect(reference).toHaveAttribute('data-reference-n', '256');
    await expect(reference).toHaveAttribute('data-reference-ms', fused256);
    await expect(view.locator('.ae-cost-cap')).toBeHidden();

    // Each time is the median of 7 runs with their range; the ratio per doubling is the ratio
    // of the medians; a point is marked as mostly overhead exactly when the fixed cost per call
    // (timed at n = 1) is ≥ 20 % of its median, and the note says which.
    const note = view.locator('.ae-cost-overhead-note');
    await expect(note).toBeVisible();
    const overhead = await note.evaluate((p) => ({
      fused: Number(p.dataset.overheadFused),
      window: Number(p.dataset.overheadWindow),
      traced: Number(p.dataset.overheadTraced),
    }));
    for (const ms of Object.values(overhead)) expect(ms).toBeGreaterThan(0);
    const shown = await shownTimes(view);
    const mostlyOverhead = (key) => overhead[key.split(' ')[0]] >= 0.2 * shown[key].ms;
    for (const [key, q] of Object.entries(shown)) {
      const [kernel, n] = key.split(' ');
      expect(q.runs, key).toBe(7);
      expect(q.min, key).toBeLessThanOrEqual(q.ms);
      expect(q.max, key).toBeGreaterThanOrEqual(q.ms);
      expect(q.text, key).toMatch(/^\d+\.\d+ ms \(\d+\.\d+–\d+\.\d+, 7 runs\)/);
      if (n === '64') {
        expect(q.ratio, key).toBeNaN();
        continue;
      }
      const half = `${kernel} ${n / 2}`;
      expect(q.ratio, key).toBeCloseTo(q.ms / shown[half].ms, 9);
      // Rounded as the panel rounds it (Intl: 6.55 → "6.6", where toFixed gives "6.5").
      expect(q.text, key).toContain(`×${ONE_DECIMAL.format(q.ratio)} per doubling`);
      expect(q.overhead, key).toBe(mostlyOverhead(key) || mostlyOverhead(half));
    }
    const marked = Object.keys(shown).filter(mostlyOverhead);
    await expect(note).toHaveAttribute('data-marked', String(marked.length));
    await expect(note).toContainText(marked.length ? 'or more of the time' : 'It is under 20 % of every time');
  });

  test('the traced kernel stops at its memory cap and says what it would need', async ({ page }) => {
    await openPanel(page);
    const view = panel(page);
    // A low cap, so that small n reach it: the bytes of n = 128 are allowed, n = 256 is not.
    const limit = await page.evaluate(async () => {
      const { getEngine } = await import('/lib/context.mjs');
      const limit = (await getEngine()).tracedAttentionBytes(128, 64);
      document.querySelector('ae-cost').tracedLimit = limit;
      // Every point counts as mostly overhead: how the panel says so.
      document.querySelector('ae-cost').overheadShare = 0;
      return limit;
    });
    await view.getByLabel('Longest sequence n').fill('8');
    await view.getByRole('button', { name: 'Measure' }).click();
    await expect(view).toHaveAttribute('data-status', 'done');
    const api = await apiBytes(page, [256]);
    const cap = view.locator('.ae-cost-cap');
    await expect(cap).toBeVisible();
    await expect(cap).toHaveAttribute('data-n', '256');
    await expect(cap).toHaveAttribute('data-bytes', String(api['traced 256']));
    await expect(cap).toHaveAttribute('data-limit', String(limit));
    await expect(cap).toContainText('not run above n = 128');
    const cell = view.locator('td.ae-cost-memory[data-kernel="traced"][data-n="256"]');
    await expect(cell).toHaveAttribute('data-capped', '');
    await expect(cell).toHaveAttribute('data-bytes', String(api['traced 256']));
    await expect(cell).toContainText(`not run (would need ${(api['traced 256'] / 2 ** 20).toFixed(1)} MiB)`);
    await expect(view.locator('td.ae-cost-time[data-kernel="traced"][data-n="256"]')).not.toHaveAttribute('data-ms');
    await expect(view.locator('td.ae-cost-time[data-kernel="fused"][data-n="256"]')).toHaveAttribute('data-ms', /\d/);
    await expect(view.locator('svg[data-chart="memory"] .would-need[data-kernel="traced"]')).toHaveCount(6);
    const note = view.locator('.ae-cost-overhead-note');
    await expect(note).toHaveAttribute('data-marked', '8');
    await expect(note).toContainText('At fused n = 64, window n = 64, traced n = 64, fused n = 128');
    await expect(note).toContainText('0 % or more of the time');
    await expect(view.locator('td.ae-cost-time[data-overhead]')).toHaveCount(5);
    await expect(view.locator('td.ae-cost-time[data-overhead]').first()).toContainText('(mostly overhead)');
  });

  test('Cancel stops a long measurement and the panel can measure again', async ({ page }) => {
    await openPanel(page);
    const view = panel(page);
    await view.getByLabel('Longest sequence n').fill('13');
    await expect(view.locator('output')).toHaveText('8,192 tokens');
    const cancel = view.getByRole('button', { name: 'Cancel' });
    await expect(cancel).toBeDisabled();
    await view.getByRole('button', { name: 'Measure' }).click();
    // The first point's repeated timings can take longer than 5 s on a loaded 2-core machine.
    await expect(view.locator('td.ae-cost-time[data-ms]').first()).toBeAttached({ timeout: 30_000 });
    await cancel.click();
    await expect(view).toHaveAttribute('data-status', 'cancelled');
    await expect(view.locator('.ae-cost-status')).toContainText(/Cancelled after \d+ of 24 measurements\./);
    const measured = Number(await view.getAttribute('data-measured'));
    expect(measured).toBeGreaterThan(0);
    expect(measured).toBeLessThan(24);
    await expect(cancel).toBeDisabled();
    await view.getByLabel('Longest sequence n').fill('6');
    await view.getByRole('button', { name: 'Measure' }).click();
    await expect(view).toHaveAttribute('data-status', 'done');
    await expect(view.locator('td.ae-cost-time[data-ms]')).toHaveCount(3);
  });

  test('375 px wide, keyboard, Chinese labels, dark, accessibility scan', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openPanel(page);
    const view = panel(page);
    const slider = view.getByLabel('Longest sequence n');
    await slider.focus();
    await page.keyboard.press('Home');
    await expect(view.locator('output')).toHaveText('64 tokens');
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuetext', '128 tokens');
    await view.getByRole('button', { name: 'Measure' }).focus();
    await page.keyboard.press('Enter');
    await expect(view).toHaveAttribute('data-status', 'done');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const chart of await view.locator('svg.ae-cost-chart').all()) {
      const box = await chart.boundingBox();
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.locator('#cost').screenshot({ path: `${SHOTS}/cost-375.png` });

    await page.getByRole('button', { name: '中文' }).click();
    await expect(view.getByRole('heading', { level: 2 })).toHaveText('n² 的代价');
    await expect(view.getByRole('button', { name: '开始测量' })).toBeVisible();
    await expect(view.locator('.ae-cost-status')).toHaveText('完成：共 6 项测量，最大 n = 128。');
    await expect(view.locator('output')).toHaveText('128 个词元');
    await expect(view.locator('thead th').nth(1)).toHaveText('融合：时间');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('#cost').screenshot({ path: `${SHOTS}/cost-dark-zh.png` });
    const { violations } = await new AxeBuilder({ page }).include('#cost').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });
});
