// The package under Trusted Types: a page whose CSP adds `require-trusted-types-for 'script'`
// (every HTML string and script URL must come from a policy) and allows only the package's
// policy, `attention-explorer`. The elements define themselves, the main view answers, the
// lesson panels inside it draw, and the trainer starts its worker — with no violation (the
// fixtures fail a test on any console error or securitypolicyviolation event).
import { readFileSync } from 'node:fs';
import { CSP } from '../../scripts/serve.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';
import { expect, test } from './fixtures.mjs';

const TT_CSP = `${CSP}; require-trusted-types-for 'script'; trusted-types attention-explorer`;

async function mount(page, body, csp = TT_CSP) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>trusted types</title>
    <link rel="icon" href="data:,"><script type="module" src="/elements.mjs"></script>
    <script type="module" src="/components/train.mjs"></script></head><body>${body}</body></html>`;
  await page.route('**/tt-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': csp } }),
  );
  // The package's root (elements.mjs imports ./web/…) is served as web/ is: map it.
  const elements = readFileSync(new URL('../../elements.mjs', import.meta.url), 'utf8').replaceAll('./web/', './');
  await page.route('**/elements.mjs', (route) => route.fulfill({ contentType: 'text/javascript', body: elements }));
  await page.goto('/tt-test.html');
}

test('under require-trusted-types-for, the elements render, answer and train', async ({ page }) => {
  await mount(
    page,
    `<attention-explorer><ae-head-view></ae-head-view><ae-head-grid></ae-head-grid></attention-explorer>
     <ae-train></ae-train>`,
  );
  expect(await page.evaluate(() => typeof window.trustedTypes?.createPolicy)).toBe('function');
  const el = page.locator('attention-explorer');
  await expect(el.locator('[part="answer"]')).toContainText('animal');
  await expect(el).toHaveAttribute('data-text', LESSON.tired);
  await expect(page.locator('ae-head-view svg').first()).toBeVisible();

  // The trainer's worker URL goes through the policy too.
  const train = page.locator('ae-train');
  await train.locator('select[name="layers"]').selectOption('1');
  await train.locator('button[data-action="start"]').click();
  await expect(train).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
  await train.locator('button[data-action="stop"]').click();
  await expect(train).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
});

// A page that lists other policies but requires none: the package's policy is refused (the
// browser reports that), and the elements work without it.
test.describe('a trusted-types list without the package', () => {
  // One pattern: Playwright takes a two-element array option for a [value, options] pair.
  test.use({ expectedErrors: [/TrustedTypePolicy named 'attention-explorer'|CSP violation: trusted-types /] });
  test('the element still renders and answers', async ({ page }) => {
    await mount(page, '<attention-explorer></attention-explorer>', `${CSP}; trusted-types somebody-else`);
    await expect(page.locator('attention-explorer [part="answer"]')).toContainText('animal');
  });
});
