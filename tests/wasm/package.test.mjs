// The npm package as a site author gets it: `npm pack` of this tree, installed from the tarball
// into an empty project (offline, no scripts, no Emscripten), then used through its public entry
// points only. scripts/dist.mjs stamps web/dist first, as `npm run build:dist` does.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { root } from './helpers.mjs';

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let dir; // the consumer project
let packed; // npm pack's description of the tarball

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ae-package-'));
  run('node', ['scripts/dist.mjs'], root);
  [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], root));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'site', private: true, type: 'module' }));
  run(
    'npm',
    ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', path.join(dir, packed.filename)],
    dir,
  );
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('the tarball holds the prebuilt module, its manifest, the models and the licence, and no sources', () => {
  const files = packed.files.map((f) => f.path);
  for (const f of [
    'web/dist/attention.mjs',
    'web/dist/attention.wasm',
    'web/dist/attention-full.mjs',
    'web/dist/attention-full.wasm',
    'web/dist/manifest.json',
    'web/dist/sizes.json',
    'LICENSE',
    'CHANGELOG.md',
    'index.mjs',
    'elements.mjs',
    'web/models/coref-encoder/model.safetensors',
    'web/components/head-view.mjs',
  ])
    assert.ok(files.includes(f), `${f} is packed`);
  const outside = files.filter((f) => /^(src|bindings|tests|tools|scripts|build)\//.test(f));
  assert.deepEqual(outside, [], 'no sources, tests or build outputs');
  const manifest = JSON.parse(readFileSync(path.join(root, 'web/dist/manifest.json'), 'utf8'));
  assert.equal(manifest.version, packed.version);
});

// Relative links of a markdown file ([text](path#anchor)), without web addresses and anchors alone.
const relativeLinks = (text) =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, link]) => link.split('#')[0])
    .filter((link) => link && !/^[a-z]+:/i.test(link));

test("the package's README is the site authors' one, and every link in its documents is packed", () => {
  const installed = path.join(dir, 'node_modules/attention-explorer');
  const readme = readFileSync(path.join(installed, 'README.md'), 'utf8');
  assert.equal(readme, readFileSync(path.join(root, 'docs/package-readme.md'), 'utf8'));
  assert.match(readFileSync(path.join(root, 'README.md'), 'utf8'), /npm test/, "the repository's README is back");
  const files = new Set(packed.files.map((f) => f.path));
  for (const f of ['docs/embedding.md', 'examples/README.md', 'examples/react/AttentionExplorer.jsx'])
    assert.ok(files.has(f), `${f} is packed`);
  for (const doc of [...files].filter((f) => f.endsWith('.md')))
    for (const link of relativeLinks(readFileSync(path.join(installed, doc), 'utf8'))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(doc), link));
      const packedTarget = files.has(target) || [...files].some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`));
      assert.ok(packedTarget, `${doc} links to ${link}, which is not in the package`);
    }
});

test('the installed package runs no install script and loads the lesson pair through its entry points', () => {
  const installed = JSON.parse(readFileSync(path.join(dir, 'node_modules/attention-explorer/package.json'), 'utf8'));
  for (const hook of ['preinstall', 'install', 'postinstall']) assert.equal(installed.scripts?.[hook], undefined, hook);
  // Only the package's exports: the engine, the wasm files and a shipped model.
  const script = `
    import { readFileSync } from 'node:fs';
    import { createRequire } from 'node:module';
    import { loadEngine, EngineError, MODULE_FILES } from 'attention-explorer';
    const require = createRequire(import.meta.url);
    const file = (name) => readFileSync(require.resolve('attention-explorer/' + name));
    const engine = await loadEngine((build) => ({ wasmBinary: file(MODULE_FILES[build].wasm) }), 'simd128');
    const full = (await engine.full()).features.full;
    const model = engine.loadTrainedModel({ config: file('models/coref-encoder/config.json').toString(),
      weights: new Uint8Array(file('models/coref-encoder/model.safetensors')), vocab: file('models/coref-encoder/vocab.txt').toString() });
    const answer = (s) => model.analyze("The animal didn't cross the street because it was too " + s + '.').prediction.token;
    let code = null;
    try { model.analyze(''); } catch (e) { code = e instanceof EngineError && e.code; }
    console.log(JSON.stringify({ tired: answer('tired'), wide: answer('wide'), code, full }));`;
  writeFileSync(path.join(dir, 'use.mjs'), script);
  assert.deepEqual(JSON.parse(run('node', ['use.mjs'], dir)), {
    tired: 'animal',
    wide: 'street',
    code: 'empty-input',
    full: true,
  });
});

test('npm pack refuses a manifest from another version', () => {
  const manifestPath = path.join(root, 'web/dist/manifest.json');
  const manifest = readFileSync(manifestPath, 'utf8');
  try {
    writeFileSync(manifestPath, manifest.replace(/"version": "[^"]*"/, '"version": "0.0.0-stale"'));
    assert.throws(() => run('node', ['scripts/dist.mjs', '--check'], root), /version 0\.0\.0-stale/);
  } finally {
    writeFileSync(manifestPath, manifest);
  }
});
