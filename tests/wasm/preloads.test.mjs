// web/index.html preloads the first view's modules so that they arrive in parallel: the list must
// be what boot.mjs and app.mjs import statically (but NOT_PRELOADED). A module left in the list after it
// became a lazy import() still costs every first view its bytes (the GPT-2 loader once did); one
// missing from it costs a round trip per import level.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const html = readFileSync(path.join(web, 'index.html'), 'utf8');

// The relative specifiers a module imports statically: `import … from '…'`, `import '…'` and
// `export … from '…'` at the start of a line (import('…') is lazy and not matched).
function staticImports(source) {
  const found = [];
  const pattern = /^\s*(?:import|export)\s(?:[^'"`;]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const [, specifier] of source.matchAll(pattern)) found.push(specifier);
  return found;
}

// Every module reached from `roots` (paths relative to web/) by static imports.
function staticGraph(roots) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(path.join(web, file), 'utf8');
    for (const specifier of staticImports(source))
      visit(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
  };
  roots.forEach(visit);
  return seen;
}

// Imported statically but left to load one level later, on purpose: with these four preloaded too,
// the heatmap's first draw comes before the result card has settled and the phone's layout shift
// while loading went from 0.000 to 0.101 (tests/e2e/loading-progress.spec.mjs, 4 runs of 4).
const NOT_PRELOADED = new Set([
  'lib/load-progress.mjs',
  'components/attention-heatmap.css.mjs',
  'lib/attention-data.mjs',
  'lib/resolved-colour.mjs',
]);

const attributeValues = (pattern) => [...html.matchAll(pattern)].map(([, value]) => value);

test('the import reader finds static imports and re-exports, not import()', () => {
  const source =
    "import a from './a.mjs';\nimport './b.mjs';\nexport { c } from '../c.mjs';\nconst d = import('./d.mjs');";
  assert.deepEqual(staticImports(source), ['./a.mjs', './b.mjs', '../c.mjs']);
});

test("index.html preloads the first view's static imports and nothing else", () => {
  const scripts = attributeValues(/<script type="module" src="([^"]+)"/g);
  assert.deepEqual(scripts, ['boot.mjs', 'app.mjs']);
  const graph = staticGraph(scripts);
  const preloaded = new Set(attributeValues(/<link rel="modulepreload" href="([^"]+)"/g));
  const missing = [...graph].filter((f) => f !== 'boot.mjs' && !preloaded.has(f) && !NOT_PRELOADED.has(f));
  const extra = [...preloaded].filter((f) => !graph.has(f));
  assert.deepEqual(missing, [], 'imported by the first view but not preloaded');
  assert.deepEqual(extra, [], 'preloaded but not a static import of the first view');
  const stale = [...NOT_PRELOADED].filter((f) => !graph.has(f) || preloaded.has(f));
  assert.deepEqual(stale, [], 'NOT_PRELOADED lists a module the first view no longer imports, or preloads');
});
