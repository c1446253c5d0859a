// Dark host (issue 33, item 9): a page that says only `color-scheme: dark` (no --ae-heat-*, none of
// the demo page's CSS) gets dark views — the main view's heatmap ramp starts at the dark panel
// colour, the head grid's thumbnails too, the number matrices keep their text readable — even
// while the system prefers light; a light host gets
// light views while the system prefers dark. The elements follow the host's color-scheme, not
// the media query alone.
import { CSP } from '../../scripts/serve.mjs';
import { expect, test } from './fixtures.mjs';

const luminance = (rgb) => {
  const [r, g, b] = rgb.match(/\d+/g).map((c) => Number(c) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

for (const [host, system] of [
  ['dark', 'light'],
  ['light', 'dark'],
]) {
  test(`a ${host} host (system ${system}): the heatmap and the head grid are ${host}`, async ({ page }) => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
      <meta name="color-scheme" content="${host}"><link rel="icon" href="data:,">
      <script type="module" src="/components/attention-explorer.mjs"></script>
      <script type="module" src="/components/head-grid.mjs"></script>
      <script type="module" src="/components/causal-mask.mjs"></script></head>
      <body><attention-explorer model="coref-encoder"><ae-head-grid></ae-head-grid>
      <ae-causal-mask></ae-causal-mask></attention-explorer></body></html>`;
    await page.route('**/host-test.html', (route) =>
      route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
    );
    await page.emulateMedia({ colorScheme: system });
    await page.goto('/host-test.html');
    const el = page.locator('attention-explorer');
    await expect(el.locator('[part="answer"]')).toContainText('animal');
    const cells = el.locator('ae-attention-heatmap rect.cell');
    await expect(cells.first()).toHaveAttribute('fill', /^#/);
    const fills = await cells.evaluateAll((rects) =>
      rects.map((r) => [Number(r.dataset.value), r.getAttribute('fill')]).toSorted((a, b) => a[0] - b[0]),
    );
    const hex = (h) => `rgb(${[1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)).join(', ')})`;
    const low = luminance(hex(fills[0][1]));
    const high = luminance(hex(fills.at(-1)[1]));
    if (host === 'dark') expect([low < 0.2, high > low]).toEqual([true, true]);
    else expect([low > 0.8, high < low]).toEqual([true, true]);

    // The head grid's thumbnails: a weight-0 pixel is the panel colour of the host's scheme.
    const grid = page.locator('ae-head-grid');
    await expect(grid.locator('button.ae-hg-thumb')).not.toHaveCount(0);
    const pixel = await grid
      .locator('button.ae-hg-thumb canvas')
      .first()
      .evaluate((canvas) => {
        const [r, g, b] = canvas.getContext('2d').getImageData(canvas.width - 1, 0, 1, 1).data; // query 1 → last key
        return `rgb(${r}, ${g}, ${b})`;
      });
    if (host === 'dark') expect(luminance(pixel)).toBeLessThan(0.35);
    else expect(luminance(pixel)).toBeGreaterThan(0.6);

    // The number matrices (the causal mask's): every cell's number reads at 4.5:1 on its colour,
    // which is the host's scheme's ramp (a dark host's ramp under a light system was too bright).
    const mask = page.locator('ae-causal-mask');
    await mask.scrollIntoViewIfNeeded();
    const tds = mask.locator('.ae-nm-table td:not(.ae-nm-masked)');
    await expect(tds.first()).toBeVisible();
    const contrast = await tds.evaluateAll((cells) => {
      const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const rgb = (css) => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = css;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
      };
      const lum = (c) =>
        c
          .map((v) => v / 255)
          .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
      return Math.min(
        ...cells.map((td) => {
          const style = getComputedStyle(td);
          const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        }),
      );
    });
    expect(contrast).toBeGreaterThanOrEqual(4.5);
  });

  // The exports (export.mjs): colours resolved to the host's scheme, as #rrggbb — a panel's
  // light-dark()/var() copied into the file left a dark host's SVG without a background colour.
  test(`a ${host} host (system ${system}): the exported SVGs are ${host}`, async ({ page }) => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
      <meta name="color-scheme" content="${host}"><link rel="icon" href="data:,">
      <script type="module" src="/components/attention-explorer.mjs"></script>
      <script type="module" src="/components/head-view.mjs"></script>
      <script type="module" src="/components/head-grid.mjs"></script></head>
      <body><attention-explorer model="coref-encoder"><ae-head-view></ae-head-view><ae-head-grid></ae-head-grid>
      </attention-explorer></body></html>`;
    await page.route('**/export-host-test.html', (route) =>
      route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': CSP } }),
    );
    await page.emulateMedia({ colorScheme: system });
    await page.goto('/export-host-test.html');
    await expect(page.locator('attention-explorer [part="answer"]')).toContainText('animal');
    await expect(page.locator('ae-head-view line').first()).toBeAttached();
    await expect(page.locator('ae-head-grid button.ae-hg-thumb')).not.toHaveCount(0);
    const files = await page.evaluate(async () => {
      const { svgOf } = await import('/lib/export.mjs');
      const views = [
        document.querySelector('ae-head-view'),
        document.querySelector('ae-head-grid'),
        document.querySelector('attention-explorer').heatmap,
      ];
      return views.map((view) => {
        const svg = svgOf(view);
        const fills = (selector) => [...svg.querySelectorAll(selector)].map((n) => n.getAttribute('fill'));
        return {
          view: view.localName,
          background: svg.querySelector('[data-export="background"]').getAttribute('fill'),
          text: fills('text').filter(Boolean),
          unresolved: [...svg.querySelectorAll('*')].flatMap((n) =>
            [...n.attributes].filter((a) => /light-dark\(|var\(/.test(a.value)).map((a) => `${n.localName} ${a.name}`),
          ),
        };
      });
    });
    const hexLuminance = (h) => luminance(`rgb(${[1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)).join(', ')})`);
    for (const file of files) {
      expect(file.unresolved, file.view).toEqual([]);
      expect(file.background, file.view).toMatch(/^#[0-9a-f]{6}$/);
      expect(file.text.length, file.view).toBeGreaterThan(0);
      const back = hexLuminance(file.background);
      // the median text: labels and captions (the numbers on the heatmap's cells contrast with their cell)
      const text = file.text.map((fill) => (fill.startsWith('#') ? hexLuminance(fill) : luminance(fill))).sort();
      const median = text[Math.floor(text.length / 2)];
      if (host === 'dark') expect([back < 0.2, median > 0.6], file.view).toEqual([true, true]);
      else expect([back > 0.8, median < 0.4], file.view).toEqual([true, true]);
    }
  });
}
