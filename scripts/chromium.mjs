// How Playwright starts Debian's Chromium, for the e2e tests (playwright.config.mjs) and the
// benchmarks (tools/bench): the system browser (none is downloaded), headless, with the
// background services and the browser's own UI pages off so that they add no load or network
// traffic to what is measured.
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
    // Chromium 156 gives every new window (each Playwright context is one) the omnibox popup's
    // WebUI pages, preloaded in a renderer of their own: ~200 ms of CPU per test's page, which
    // on the 2-core machine competed with the page (first attention 1,685 → 1,087 ms without).
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
  ],
};
