// Playwright drives Debian's system Chromium (/usr/bin/chromium); never run
// `npx playwright install` — no browser is downloaded by this project.
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './scripts/chromium.mjs';

const PORT = Number(process.env.AE_E2E_PORT ?? 8123); // another port lets two runs share a machine

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'build/test-results',
  timeout: 60_000, // whole-page axe scans of every panel take ~10–20 s on the 2-core machine
  // Two workers, one a core: spec files run side by side (the tests inside a file stay in order).
  // AE_E2E_WORKERS=1 runs them one at a time.
  workers: Number(process.env.AE_E2E_WORKERS ?? 2),
  retries: 0,
  // list: as tests end; json: what scripts/test.sh's summary names when a test failed (e2e-failures.mjs)
  reporter: [['list'], ['json', { outputFile: 'build/e2e-report.json' }]],
  // Timed tests (*.alone.spec.mjs) run after every other test has finished, so that no other page
  // shares the cores while they measure.
  projects: [
    { name: 'page', testIgnore: /\.alone\.spec\.mjs$/ },
    { name: 'alone', testMatch: /\.alone\.spec\.mjs$/, dependencies: ['page'] },
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    launchOptions: CHROMIUM,
  },
  webServer: {
    command: `node scripts/serve.mjs web ${PORT}`,
    url: `http://127.0.0.1:${PORT}/index.html`,
    reuseExistingServer: !process.env.CI,
  },
});
