// The wasm module's builds and how one is loaded (engine.mjs, loadEngine): the relaxed-SIMD
// probe, each build's files, the early streamed compile in a page and the wasm's bytes in Node.
import { EngineError, refuse } from './contract.mjs';

// A 35-byte module whose one function is f32x4.relaxed_madd: WebAssembly.validate accepts it
// where the engine runs relaxed SIMD (Chromium ≥ 114; Node 20 with --experimental-wasm-relaxed-simd).
const RELAXED_SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 123, 1, 123, 3, 2, 1, 0, 10, 13, 1, 11, 0, 32, 0, 32, 0, 32, 0, 253, 133,
  2, 11,
]);

export function relaxedSimdSupported() {
  try {
    return WebAssembly.validate(RELAXED_SIMD_PROBE);
  } catch {
    return false;
  }
}

// The builds of the module, all from the same sources. Two instruction sets: fused multiply-add
// kernels (relaxed SIMD) or mul + add (SIMD128). Three sets of bindings: the page's module
// (relaxed, simd128: what the first view and the lesson panels call), the full module (full,
// full-relaxed: the page's plus the trainer and the GPT-2 loader, loaded only when they are used;
// Engine.full()) and the benchmarks' (bench, bench-relaxed: the full module plus ModelBench; the
// relaxed one is built by npm run bench only). Only the chosen build's files are fetched.
export const MODULE_FILES = {
  relaxed: { glue: 'attention-relaxed.mjs', wasm: 'attention-relaxed.wasm' },
  simd128: { glue: 'attention.mjs', wasm: 'attention.wasm' },
  'full-relaxed': { glue: 'attention-full-relaxed.mjs', wasm: 'attention-full-relaxed.wasm' },
  full: { glue: 'attention-full.mjs', wasm: 'attention-full.wasm' },
  bench: { glue: 'attention_bench.mjs', wasm: 'attention_bench.wasm' },
  'bench-relaxed': { glue: 'attention_bench-relaxed.mjs', wasm: 'attention_bench-relaxed.wasm' },
};
// The benchmarks' builds are not in the npm package: their glue is imported by a URL computed at
// run time (beside this file's dist/), which bundlers (Vite, esbuild, webpack) leave alone instead
// of failing on a file the package does not ship. The shipped builds are plain imports, which
// bundlers follow (and then copy the wasm each glue names with new URL(…, import.meta.url)).
const here = import.meta.url; // not inline: Vite rewrites new URL('…', import.meta.url) as an asset
const unshipped = (file) => import(/* @vite-ignore */ /* webpackIgnore: true */ new URL(`../dist/${file}`, here).href);
const IMPORTS = {
  relaxed: () => import('../dist/attention-relaxed.mjs'),
  simd128: () => import('../dist/attention.mjs'),
  'full-relaxed': () => import('../dist/attention-full-relaxed.mjs'),
  full: () => import('../dist/attention-full.mjs'),
  bench: () => unshipped(MODULE_FILES.bench.glue),
  'bench-relaxed': () => unshipped(MODULE_FILES['bench-relaxed'].glue),
};
export const BUILD_NAMES = Object.keys(MODULE_FILES)
  .map((b) => `'${b}'`)
  .join(', ');
export const isRelaxed = (build) => build.endsWith('relaxed');
// The full module of the same instruction set as `build`.
export const fullBuildOf = (build) => (isRelaxed(build) ? 'full-relaxed' : 'full');

// The build to load here for `kind` ('page', 'full' or 'bench'): relaxed where the probe passes.
export function chooseModule(kind = 'page') {
  if (!['page', 'full', 'bench'].includes(kind)) refuse('chooseModule', 'kind', "'page', 'full' or 'bench'", kind);
  const relaxed = relaxedSimdSupported();
  if (kind === 'page') return relaxed ? 'relaxed' : 'simd128';
  return relaxed ? `${kind}-relaxed` : kind;
}

// In a browser, the page's wasm starts downloading and compiling (streamed: it compiles as it
// arrives) beside the import of its glue, not after it: the glue fetches the wasm only once it has
// arrived and run, which on a loaded 2-core machine put the wasm request ~450 ms after the glue's.
// Not when the host says where the wasm is (wasmBinary, locateFile, instantiateWasm: the glue's
// own way), nor where the glue is not under http(s) (Node, blob: modules of the single file).
function compileEarly(build, moduleOptions, onProgress = null) {
  if (moduleOptions?.wasmBinary || moduleOptions?.locateFile || moduleOptions?.instantiateWasm) return null;
  if (typeof fetch !== 'function' || typeof WebAssembly.compileStreaming !== 'function') return null;
  const file = MODULE_FILES[build].wasm;
  // Only where this file is where the package put it: in a bundle (Vite, esbuild, …) the glue
  // and its wasm are elsewhere, and the glue finds its own.
  if (!/\/lib\/wasm-module\.mjs(\?.*)?$/.test(here)) return null;
  let url;
  try {
    url = new URL(`../dist/${file}`, here); // where the glue itself looks: beside it
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const expected = onProgress ? expectedBytes(file) : null;
  const compiled = fetch(url, { credentials: 'same-origin' }).then((fetched) => {
    if (!fetched.ok) throw new Error(`could not load ${file}: HTTP ${fetched.status}`);
    const response = onProgress ? counted(fetched, expected, onProgress) : fetched;
    // compileStreaming needs the wasm MIME type; a server that sends another gets the slow way.
    const streamable = response.headers.get('content-type')?.split(';')[0].trim() === 'application/wasm';
    return streamable ? WebAssembly.compileStreaming(response) : response.arrayBuffer().then(WebAssembly.compile);
  });
  compiled.catch(() => {}); // reported by createModule, when the glue is in
  return compiled;
}

// In Node, the glue would fetch its wasm from a file: URL, which Node's fetch cannot read
// ("TypeError: fetch failed"): unless the caller says where the wasm is, its bytes are read from
// the file beside the glue (through process.getBuiltinModule, so that no bundler sees a Node
// import). Elsewhere, or when the caller says, the options as given.
function nodeWasmBinary(build, moduleOptions) {
  if (moduleOptions?.wasmBinary || moduleOptions?.locateFile || moduleOptions?.instantiateWasm) return moduleOptions;
  if (!globalThis.process?.versions?.node || globalThis.document) return moduleOptions;
  const file = MODULE_FILES[build].wasm;
  let url;
  try {
    url = new URL(`../dist/${file}`, here);
  } catch {
    return moduleOptions;
  }
  if (url.protocol !== 'file:') return moduleOptions;
  const fs = process.getBuiltinModule?.('node:fs');
  const pass =
    'pass its bytes: loadEngine((build) => ({ wasmBinary: readFileSync(…/web/dist/ + MODULE_FILES[build].wasm) }))';
  if (!fs)
    throw new EngineError(`loadEngine: this Node cannot read ${file} itself (before 20.16); ${pass}`, 'unavailable', {
      call: 'loadEngine',
    });
  try {
    return { ...moduleOptions, wasmBinary: fs.readFileSync(url) };
  } catch (error) {
    const failed = new EngineError(
      `loadEngine: could not read ${url.pathname} (${error.code ?? error.message}); ${pass}`,
      'unavailable',
      {
        call: 'loadEngine',
      },
    );
    failed.cause = error;
    throw failed;
  }
}

// The .wasm's size from the build's sizes.json (dist/, beside the glue; scripts/build.sh), or
// null: a server that gzips sends no Content-Length of the bytes the page receives.
function expectedBytes(file) {
  return fetch(new URL('../dist/sizes.json', import.meta.url), { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : null))
    .then((sizes) => (Number.isSafeInteger(sizes?.[file]) ? sizes[file] : null))
    .catch(() => null);
}

// `response` with a body that reports {loaded, total} to onProgress as it is read; total is the
// Content-Length of an unencoded body, else sizes.json's (`expected`, a promise), else null.
function counted(response, expected, onProgress) {
  if (!response.body || typeof TransformStream !== 'function') return response;
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const length = encoded ? NaN : Number(response.headers.get('content-length'));
  let total = Number.isSafeInteger(length) && length > 0 ? length : null;
  expected.then((bytes) => (total ??= bytes));
  let loaded = 0;
  const report = () => {
    try {
      onProgress({ loaded, total });
    } catch {
      // a listener's failure does not stop the engine's download
    }
  };
  const counter = new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.byteLength;
      report();
      controller.enqueue(chunk);
    },
    flush() {
      total = loaded;
      report();
    },
  });
  return new Response(response.body.pipeThrough(counter), { status: response.status, headers: response.headers });
}

// Runs Emscripten's factory; with a compile started early, the module is instantiated from it
// (instantiateWasm, the glue's hook for this), and a failed download or compile rejects here —
// the glue would otherwise wait for the instance forever.
function createModule(create, moduleOptions, compiled) {
  if (!compiled) return create(moduleOptions);
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  const instantiateWasm = (imports, receiveInstance) => {
    compiled
      .then((wasm) => WebAssembly.instantiate(wasm, imports).then((instance) => receiveInstance(instance, wasm)))
      .catch(fail);
    return {}; // the exports come later, through receiveInstance
  };
  return Promise.race([create({ ...moduleOptions, instantiateWasm }), failed]);
}

// The Emscripten module of `build`: its glue imported while, in a page, its wasm already
// downloads and compiles (compileEarly); in Node, the wasm's bytes read beside the glue.
// buildOptions: the caller's moduleOptions for this build.
export async function createWasmModule(build, buildOptions, onProgress) {
  const glue = IMPORTS[build]();
  const withBytes = nodeWasmBinary(build, buildOptions);
  const compiled = compileEarly(build, withBytes, onProgress);
  const { default: create } = await glue;
  // A copy: Emscripten makes the object it is given the module itself (Module), and two modules
  // on one object would clash (Embind: "Cannot register public name … twice").
  return createModule(create, { ...withBytes }, compiled);
}
