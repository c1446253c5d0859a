// `npm run build:single`: the whole page as one HTML file — every module of web/, the wasm and
// the shipped models inlined — that works opened from disk (file://) and offline, under its own
// CSP without 'unsafe-eval'. Writes build/single/attention-explorer.html.
//
// Browsers do not load module scripts from file:// (CORS, origin "null"), but they do run a
// classic inline script, and modules from blob: URLs it creates. So the page's one script holds
// each module's source; it turns them into blob: modules, leaves first, with each relative
// import rewritten to its dependency's blob URL, then imports app.mjs. The Emscripten glue gets
// the wasm bytes through a small wrapper module (wasmBinary), the models come from
// setBundledModels (web/lib/context.mjs). The CSP allows exactly that script and style by hash.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const OUT = path.join(root, 'build/single/attention-explorer.html');
const ENTRY = 'app.mjs';
// Each build's glue is replaced by a generated wrapper that hands it the inlined wasm; the
// benchmarks' modules (not in the single file) by a stub that says so. The file holds only the
// full module of each build: the page's module is a part of it, so its glue is taken to the same
// wrapper (ALIASES), and Engine.full() finds the trainer and the GPT-2 loader in the module the
// page already has — one copy of the wasm per build, as before the page's module was split off.
const WRAPPERS = {
  'dist/attention-full.mjs': { wrapper: 'dist/attention-full.single.mjs', wasm: 'dist/attention-full.wasm' },
  'dist/attention-full-relaxed.mjs': {
    wrapper: 'dist/attention-full-relaxed.single.mjs',
    wasm: 'dist/attention-full-relaxed.wasm',
  },
};
const ALIASES = {
  'dist/attention.mjs': 'dist/attention-full.mjs',
  'dist/attention-relaxed.mjs': 'dist/attention-full-relaxed.mjs',
};
const STUBBED = new Set(['dist/attention_bench.mjs', 'dist/attention_bench-relaxed.mjs']);
const STUB = 'dist/no-benchmarks.single.mjs';
const wrapperOf = Object.fromEntries(
  Object.entries(WRAPPERS).map(([glue, { wrapper, wasm }]) => [wrapper, { glue, wasm }]),
);
// Relative specifiers of static imports, re-exports and dynamic imports.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/g;

const read = (file) => readFileSync(path.join(web, file), 'utf8');
const base64 = (bytes) => Buffer.from(bytes).toString('base64');
const sha256 = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

// {id: {source, deps}} of every module reachable from the entry; ids are paths under web/.
function collectModules() {
  const modules = {};
  const visit = (id) => {
    if (modules[id]) return;
    const source = wrapperOf[id] ? wasmWrapper(wrapperOf[id]) : id === STUB ? stub() : read(id);
    const deps = [];
    modules[id] = { source: null, deps };
    modules[id].source = source.replace(SPECIFIER, (whole, keyword, quote, specifier) => {
      let dep = path.posix.normalize(path.posix.join(path.posix.dirname(id), specifier));
      dep = ALIASES[dep] ?? dep;
      if (WRAPPERS[dep] && !wrapperOf[id]) dep = WRAPPERS[dep].wrapper;
      if (STUBBED.has(dep)) dep = STUB;
      deps.push(dep);
      return `${keyword}${quote}\u0000${dep}\u0000${quote}`; // the blob URL goes here at load time
    });
    deps.forEach(visit);
  };
  visit(ENTRY);
  return modules;
}

// The glue with the wasm bytes handed over (no fetch) and no URL built from import.meta.url.
function wasmWrapper({ glue, wasm: wasmFile }) {
  const wasm = base64(readFileSync(path.join(web, wasmFile)));
  return `import create from './${path.posix.basename(glue)}';
const bytes = Uint8Array.from(atob('${wasm}'), (c) => c.charCodeAt(0));
export default (options = {}) => create({ wasmBinary: bytes, locateFile: (file) => file, ...options });
`;
}

function stub() {
  return "export default () => { throw new Error('the benchmarks are not part of the single file'); };\n";
}

// Dependencies before the modules that import them; a cycle cannot be built from blob URLs.
function loadOrder(modules) {
  const order = [],
    state = {};
  const visit = (id, trail) => {
    if (state[id] === 'done') return;
    if (state[id] === 'open') throw new Error(`import cycle: ${[...trail, id].join(' → ')}`);
    state[id] = 'open';
    for (const dep of modules[id].deps) visit(dep, [...trail, id]);
    state[id] = 'done';
    order.push(id);
  };
  visit(ENTRY, []);
  return order;
}

function bundledModels() {
  const { models } = JSON.parse(read('models/index.json'));
  return Object.fromEntries(
    models.map(({ name }) => [
      name,
      {
        config: read(`models/${name}/config.json`),
        weights: base64(readFileSync(path.join(web, `models/${name}/model.safetensors`))),
        vocab: read(`models/${name}/vocab.txt`),
      },
    ]),
  );
}

// The page's one script (classic, inline): blob modules, then the models, then the page.
function bootstrap(modules, order) {
  const sources = Object.fromEntries(order.map((id) => [id, modules[id].source]));
  return `
(function () {
  var sources = ${JSON.stringify(sources).replace(/</g, '\\u003c')};
  var order = ${JSON.stringify(order)};
  var models = ${JSON.stringify(bundledModels())};
  var urls = {};
  order.forEach(function (id) {
    var source = sources[id].replace(/\\u0000([^\\u0000]+)\\u0000/g, function (_, dep) { return urls[dep]; });
    urls[id] = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  });
  var bytes = function (b64) { return Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); }); };
  import(urls['lib/context.mjs']).then(function (context) {
    var files = {};
    Object.keys(models).forEach(function (name) {
      var m = models[name];
      files[name] = { config: m.config, weights: bytes(m.weights), vocab: m.vocab };
    });
    context.setBundledModels(files);
    return import(urls['${ENTRY}']);
  });
})();
`;
}

function page(script) {
  const css = read('style.css');
  const favicon = `data:image/svg+xml;base64,${base64(readFileSync(path.join(web, 'favicon.svg')))}`;
  const csp = [
    `default-src 'none'`,
    `script-src ${sha256(script)} blob: 'wasm-unsafe-eval'`,
    `style-src ${sha256(css)}`,
    `img-src data: blob:`,
    `connect-src data: blob:`,
    `object-src 'none'`,
    `base-uri 'none'`,
  ].join('; ');
  let html = read('index.html')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/\s*<!-- boot\.mjs and its imports first[^>]*-->/, '')
    .replace(/\s*<script type="module" src="boot\.mjs"><\/script>/, '')
    .replace(/\s*<script[^>]*src="file-protocol\.js"[^>]*><\/script>/, '')
    .replace(
      '<link rel="icon" href="favicon.svg" type="image/svg+xml">',
      `<link rel="icon" href="${favicon}" type="image/svg+xml">`,
    )
    .replace('<link rel="stylesheet" href="style.css">', () => `<style>${css}</style>`)
    .replace('<script type="module" src="app.mjs"></script>', () => `<script>${script}</script>`);
  html = html.replace(
    '<meta charset="utf-8">',
    `<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="${csp}">`,
  );
  for (const leftover of ['src="app.mjs"', 'src="boot.mjs"', 'href="style.css"', 'modulepreload', 'file-protocol.js'])
    if (html.includes(leftover)) throw new Error(`web/index.html changed: ${leftover} is still in the single file`);
  return html;
}

const modules = collectModules();
const html = page(bootstrap(modules, loadOrder(modules)));
mkdirSync(path.dirname(OUT), { recursive: true });
writeFileSync(OUT, html);
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(
  `${path.relative(root, OUT)}: ${Object.keys(modules).length} modules, the wasm and ` +
    `${Object.keys(bundledModels()).length} models; ${kb(html.length)}, ${kb(gzipSync(html).length)} gzipped`,
);
