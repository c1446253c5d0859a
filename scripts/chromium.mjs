// How Playwright starts Debian's Chromium, for the e2e tests (playwright.config.mjs) and the
// benchmarks (tools/bench): the system browser (none is downloaded), headless, with the
// background services off so that they add no load or network traffic to what is measured.
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox', // running as root in CI
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
