// Minifies the JS glue of a module linked at -O1 (the relaxed-SIMD builds, cmake/relaxed_simd.cmake),
// as emcc does itself at -O3: Emscripten's own acorn-optimizer, AJSDCE (drops the runtime
// functions nothing calls, repeatedly) then minifyWhitespace. (emcc's other -O3 steps, meta-DCE
// and shorter import names, rewrite the wasm with binaryen, which cannot read relaxed SIMD.) That
// tool reads scripts, not ES modules, so the module's two module-only forms are swapped for
// placeholders around it. Gzipped 34 → 15.6 KB (minifyWhitespace alone: 18.3 KB).
//   node cmake/minify_glue.mjs attention-relaxed.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
const META = '__AE_IMPORT_META_URL__', EXPORT = '__AE_EXPORT_DEFAULT__';
const source = readFileSync(file, 'utf8');
const script = source.replaceAll('import.meta.url', META).replace(/^export default (\w+);$/m, `${EXPORT}=$1;`);
if (!script.includes(EXPORT)) throw new Error(`${file}: no "export default …;" line`);
const tmp = `${file}.script.js`;
writeFileSync(tmp, script);
const optimizer = '/usr/share/emscripten/tools/acorn-optimizer.js';
const minified = execFileSync(process.execPath, [optimizer, tmp, 'AJSDCE', 'minifyWhitespace'],
  { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
const restored = minified.replaceAll(META, 'import.meta.url').replace(new RegExp(`${EXPORT}=(\\w+);`), 'export default $1;');
if (restored.includes('__AE_')) throw new Error(`${file}: a placeholder was left in the minified glue`);
writeFileSync(file, restored);
execFileSync('rm', ['-f', tmp]);
console.log(`${path.basename(file)}: ${source.length} → ${restored.length} B`);
