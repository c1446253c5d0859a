// Shared by the e2e specs: a `test` whose every run also fails on any console error, uncaught
// page error or CSP violation, and small helpers for the page's state and the heatmap.
import { test as base, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

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
          console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
      });
      await use(errors);
      const unexpected = errors.filter((e) => !expectedErrors.some((pattern) => pattern.test(e)));
      expect(unexpected, 'console errors, page errors or CSP violations').toEqual([]);
    },
    { auto: true },
  ],
});

export const app = (page) => page.locator('#app');
export const cells = (page) => page.locator('ae-attention-heatmap rect.cell');
export const alert = (page) => page.getByRole('alert');

export async function openPage(page) {
  const response = await page.goto('/');
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
    rects.map((r) => ({ row: Number(r.dataset.row), col: Number(r.dataset.col), value: r.dataset.value })));
}

export async function expectNoSeriousAxeViolations(page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}
