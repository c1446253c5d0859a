// Server-side rendering: every JavaScript subpath of the package (package.json "exports") is
// imported by name in a bare Node — no window, document, HTMLElement or customElements — as a
// site's SSR build does (`import('attention-explorer/elements')` in Next, Astro, SvelteKit…).
// None may throw, and none may define anything (there is no registry to define in).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { root } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const target = (t) => (typeof t === 'string' ? t : t.default);
// The subpaths that are JavaScript modules ('.', './elements', './head-view', …), by name.
const modules = Object.entries(pkg.exports)
  .filter(([key, t]) => !key.includes('*') && target(t).endsWith('.mjs'))
  .map(([key]) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));

// One Node (the package imports itself by name from its root) tries each and reports per subpath.
function importAll(names) {
  const script = `
    const out = {};
    for (const name of ${JSON.stringify(names)}) {
      try { await import(name); out[name] = 'ok'; } catch (e) { out[name] = String(e?.stack ?? e).split('\\n').slice(0, 2).join(' '); }
    }
    out.globals = ['window', 'document', 'HTMLElement', 'customElements'].filter((g) => g in globalThis);
    console.log(JSON.stringify(out));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
  );
}

test('the package exports its elements and panels as JavaScript subpaths', () => {
  for (const name of ['attention-explorer', 'attention-explorer/elements', 'attention-explorer/store'])
    assert.ok(modules.includes(name), name);
  assert.ok(modules.length >= 20, `${modules.length} subpaths`);
});

test('importing any subpath of the package in Node (no DOM) does not throw', () => {
  const out = importAll(modules);
  assert.deepEqual(out.globals, [], 'Node has no DOM globals, and the package adds none');
  const failed = Object.fromEntries(modules.filter((m) => out[m] !== 'ok').map((m) => [m, out[m]]));
  assert.deepEqual(failed, {});
});

test('in Node, a bare loadEngine() reads its wasm beside the glue, and so does engine.full()', () => {
  const script = `
    import { loadEngine } from '${pkg.name}';
    const engine = await loadEngine();
    const full = await engine.full();
    console.log(JSON.stringify([engine.features.full, full.features.full, engine.tokenize('the cat').length]));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), [false, true, 2]);
});
