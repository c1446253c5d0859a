// How Playwright starts Debian's Chromium, for the e2e tests (playwright.config.mjs) and the
// benchmarks (tools/bench): the system browser (none is downloaded), headless, with the
// background services and the browser's own UI pages off so that they add no load or network
// traffic to what is measured.

// Chromium reads only the last --disable-features on its command line, and Playwright puts its
// own list first: ours must repeat it, or those features come back on (PaintHolding,
// OptimizationHints, … : ~0.3 CPU-s more per page load on the 2-core machine). This is
// @playwright/test 1.65.1's list (package-lock.json); tests/e2e/browser.spec.mjs fails if the
// browser's command line shows one that is missing here.
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
// Chromium 156 gives every new window (each Playwright context is one) the omnibox popup's
// WebUI pages, preloaded in a renderer of their own: ~200 ms of CPU per test's page, which on
// the 2-core machine competed with the page (first attention 1,685 → 1,087 ms without).
const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

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
    `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`,
  ],
};
