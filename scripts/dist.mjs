// `npm run build:dist` (after scripts/build.sh): stamps the prebuilt module the npm package
// ships with web/dist/manifest.json — the package version, and each shipped file's size,
// gzipped size and SHA-256. `node scripts/dist.mjs --check` (npm's prepack) exits 1 when the
// manifest is missing, from another version, or no longer matches the files, so that `npm pack`
// never packs a stale or missing module.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = 'web/dist/manifest.json';
// Both builds: the page picks the fused multiply-add one where relaxed SIMD runs (engine.mjs);
// each as the page's module and the full one (the trainer and the GPT-2 loader; Engine.full()).
const MODULE_FILES = [
  'web/dist/attention.mjs',
  'web/dist/attention.wasm',
  'web/dist/attention-relaxed.mjs',
  'web/dist/attention-relaxed.wasm',
  'web/dist/attention-full.mjs',
  'web/dist/attention-full.wasm',
  'web/dist/attention-full-relaxed.mjs',
  'web/dist/attention-full-relaxed.wasm',
];

function modelFiles() {
  const models = path.join(root, 'web/models');
  return readdirSync(models, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

function describe(file) {
  const bytes = readFileSync(path.join(root, file));
  return {
    bytes: bytes.length,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

function manifest() {
  const { name, version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const files = Object.fromEntries([...MODULE_FILES, ...modelFiles()].map((f) => [f, describe(f)]));
  return { name, version, files };
}

// Why the manifest on disk does not describe the files as they are now, or null.
function staleness() {
  const file = path.join(root, MANIFEST);
  if (!existsSync(file)) return `${MANIFEST} is missing`;
  const written = JSON.parse(readFileSync(file, 'utf8'));
  const now = manifest();
  if (written.version !== now.version)
    return `${MANIFEST} is for version ${written.version}, package.json says ${now.version}`;
  for (const [f, d] of Object.entries(now.files))
    if (written.files?.[f]?.sha256 !== d.sha256) return `${f} changed since ${MANIFEST} was written`;
  return null;
}

const missing = MODULE_FILES.filter((f) => !existsSync(path.join(root, f)));
if (missing.length) {
  console.error(`${missing.join(', ')} missing: run \`npm run build:dist\` (it builds the wasm module first).`);
  process.exit(1);
}
if (process.argv.includes('--check')) {
  const why = staleness();
  if (why) {
    console.error(`${why}: run \`npm run build:dist\` before packing.`);
    process.exit(1);
  }
} else {
  const m = manifest();
  // Written only when it changes, and by rename: two e2e workers may pack the package at once,
  // and neither may read the other's half-written file.
  const out = path.join(root, MANIFEST);
  const text = `${JSON.stringify(m, null, 2)}\n`;
  if (!existsSync(out) || readFileSync(out, 'utf8') !== text) {
    writeFileSync(`${out}.${process.pid}`, text);
    renameSync(`${out}.${process.pid}`, out);
  }
  const module = MODULE_FILES.map((f) => `${path.basename(f)} ${m.files[f].gzipBytes.toLocaleString('en')} B gzipped`);
  console.log(`${MANIFEST}: ${m.name} ${m.version}, ${Object.keys(m.files).length} files (${module.join(', ')})`);
}
