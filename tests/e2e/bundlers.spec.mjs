// The npm package through a site author's bundler: the tarball `npm pack` makes (its prepack runs
// scripts/dist.mjs --check), installed offline into a fresh project whose one script is
// `import 'attention-explorer/elements'`, then built unchanged by `vite build`, by an esbuild
// bundle (ESM, code splitting) and by webpack 5 (its defaults, production mode). Each built page
// must open in Chromium and answer `animal`.
// Vite and webpack copy the wasm themselves (the glue's new URL('….wasm', import.meta.url));
// esbuild copies no assets, so the page copies the wasm beside the bundle, as docs/embedding.md
// tells. The models are the package's own, through models-base.
// The package's examples/ are built the same way: plain-html served as it is, vite as its own
// project (its `npm run models` step, then `vite build`), react bundled by esbuild with this
// repository's React; their pages must answer `animal` too.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';

import { startServer } from '../../scripts/serve.mjs';
import { expect, test } from './fixtures.mjs';

const MODELS = '/node_modules/attention-explorer/web/models/';
const page = (script, body = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bundled</title><link rel="icon" href="data:,">
<script type="module" src="${script}"></script></head>
<body><attention-explorer model="coref-encoder" models-base="${MODELS}"></attention-explorer>${body}</body></html>`;
// Vite and webpack bundle <ae-train>'s worker with its imports (esbuild leaves workers alone).
const TRAIN_ENTRY = "import 'attention-explorer/elements';\nimport 'attention-explorer/train';\n";
const TRAIN = '<ae-train></ae-train>';

let dir, server, base;
const timings = {};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const started = Date.now();
  dir = mkdtempSync(path.join(tmpdir(), 'ae-bundlers-'));
  const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  run('node', ['scripts/dist.mjs'], process.cwd());
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], process.cwd()));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'site', private: true, type: 'module' }));
  run(
    'npm',
    ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', path.join(dir, packed.filename)],
    dir,
  );
  timings.install = Date.now() - started;
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src/main.js'), "import 'attention-explorer/elements';\n");
  writeFileSync(path.join(dir, 'src/train.js'), TRAIN_ENTRY);

  let t = Date.now();
  writeFileSync(path.join(dir, 'index.html'), page('/src/train.js', TRAIN));
  await viteBuild({
    root: dir,
    base: '/out-vite/',
    logLevel: 'error',
    configFile: false,
    build: { outDir: 'out-vite', emptyOutDir: true },
  });
  timings.vite = Date.now() - t;

  t = Date.now();
  const out = path.join(dir, 'out-esbuild');
  await esbuild({
    absWorkingDir: dir,
    entryPoints: ['src/main.js'],
    bundle: true,
    format: 'esm',
    splitting: true,
    outdir: out,
    logLevel: 'error',
  });
  const dist = path.join(dir, 'node_modules/attention-explorer/web/dist');
  for (const f of readdirSync(dist).filter((f) => f.endsWith('.wasm')))
    copyFileSync(path.join(dist, f), path.join(out, f));
  writeFileSync(path.join(out, 'index.html'), page('main.js'));
  timings.esbuild = Date.now() - t;

  t = Date.now();
  await webpackBuild(dir);
  writeFileSync(path.join(dir, 'out-webpack/index.html'), page('main.js', TRAIN));
  timings.webpack = Date.now() - t;

  t = Date.now();
  await buildExamples(dir, run);
  timings.examples = Date.now() - t;

  ({ server, url: base } = await startServer({ root: dir, port: 0 }));
});

const EXAMPLES = path.join(process.cwd(), 'examples');

// The wasm files and the models beside a bundle that copies no assets (as the examples' notes say).
function copyAssets(root, out) {
  const pkg = path.join(root, 'node_modules/attention-explorer/web');
  for (const f of readdirSync(path.join(pkg, 'dist')).filter((f) => f.endsWith('.wasm')))
    copyFileSync(path.join(pkg, 'dist', f), path.join(out, f));
  cpSync(path.join(pkg, 'models'), path.join(out, 'models'), { recursive: true });
}

async function buildExamples(root, run) {
  copyFileSync(path.join(EXAMPLES, 'plain-html/index.html'), path.join(root, 'plain.html'));

  const vite = path.join(root, 'example-vite');
  cpSync(path.join(EXAMPLES, 'vite'), vite, { recursive: true });
  cpSync(path.join(root, 'node_modules'), path.join(vite, 'node_modules'), { recursive: true });
  run('npm', ['run', 'models', '--silent'], vite);
  await viteBuild({ root: vite, base: './', logLevel: 'error', configFile: false, build: { outDir: 'dist' } });

  const react = path.join(root, 'example-react');
  cpSync(path.join(EXAMPLES, 'react'), react, { recursive: true });
  await esbuild({
    absWorkingDir: root,
    entryPoints: [path.join(react, 'main.jsx')],
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    nodePaths: [path.join(process.cwd(), 'node_modules')], // react and react-dom, this repository's
    outfile: path.join(react, 'main.js'),
    logLevel: 'error',
  });
  copyAssets(root, react);
}

// webpack's defaults but for the output folder; its errors fail the build with their text.
function webpackBuild(root) {
  const config = {
    mode: 'production',
    context: root,
    entry: './src/train.js',
    output: { path: path.join(root, 'out-webpack'), filename: 'main.js', publicPath: 'auto' },
    performance: { hints: false },
  };
  return new Promise((resolve, reject) =>
    webpack(config, (err, stats) => {
      if (err || stats.hasErrors()) reject(err ?? new Error(stats.toString('errors-only')));
      else resolve(stats);
    }),
  );
}

test.afterAll(() => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  console.log(
    `bundlers: pack+install ${timings.install} ms, vite build ${timings.vite} ms, esbuild ${timings.esbuild} ms, webpack ${timings.webpack} ms`,
  );
});

for (const bundler of ['vite', 'esbuild', 'webpack'])
  test(`the page ${bundler} built from the packed tarball answers animal`, async ({ page }) => {
    await page.goto(`${base}out-${bundler}/index.html`);
    await expect(page.locator('attention-explorer [part="answer"]')).toContainText('animal');
    await expect(page.locator('attention-explorer')).toHaveAttribute('data-status', 'ready');
  });

for (const bundler of ['vite', 'webpack'])
  test(`the page ${bundler} built starts <ae-train>'s bundled worker`, async ({ page }) => {
    await page.goto(`${base}out-${bundler}/index.html`);
    const train = page.locator('ae-train');
    await train.locator('select[name="layers"]').selectOption('1');
    await train.locator('button[data-action="start"]').click();
    await expect(train).toHaveAttribute('data-state', 'running', { timeout: 60_000 });
    await train.locator('button[data-action="stop"]').click();
  });

for (const [example, url] of [
  ['plain-html', 'plain.html'],
  ['vite', 'example-vite/dist/index.html'],
  ['react', 'example-react/index.html'],
])
  test(`examples/${example} built from the packed tarball answers animal`, async ({ page }) => {
    await page.goto(`${base}${url}`);
    await expect(page.locator('attention-explorer [part="answer"]')).toContainText('animal');
    if (example !== 'plain-html') await expect(page.locator('#resolved')).toHaveText('it → animal');
  });
