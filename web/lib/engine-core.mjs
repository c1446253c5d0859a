// The JS face of the wasm core as the page's first view loads it (context.mjs); ./engine.mjs,
// the package's and the Node tests' entry, is this plus the timing classes. It adds no model
// math: it checks every input against the contract (contract.mjs), loads the module, turns C++
// exceptions into EngineErrors, and frees C++ objects. Every array it returns is a Float32Array
// copy owned by JS (see README). The models (trained-model.mjs), model downloads
// (model-download.mjs) and the module's builds (wasm-module.mjs) are re-exported from here; the
// trainer's class (training-session.mjs) by the package's index.mjs, since the page loads it
// only with the full module; the timing classes (wasm-timing.mjs) by ./engine.mjs.
import {
  EngineError,
  args,
  boolean,
  deleted,
  finite,
  flags,
  integer,
  numbers,
  options,
  refuse,
  runOptions,
  seed,
  text,
} from './contract.mjs';
import { guarded } from './guarded.mjs';
import { unpackAnalysis } from './unpack.mjs';
import { absoluteUrl, downloadModelFiles } from './model-download.mjs';
import { TrainedModel, TranslationModel } from './trained-model.mjs';
import { BUILD_NAMES, MODULE_FILES, chooseModule, createWasmModule, fullBuildOf, isRelaxed } from './wasm-module.mjs';

export { EngineError } from './contract.mjs'; // what every failed call throws (README, "Errors")
export { guarded, unpackAnalysis };
export { TRACE_FORMAT, TRACE_VERSION, readTrace, traceName } from './trace.mjs';
export { fetchModelFiles } from './model-download.mjs';
export { TrainedModel, TranslationModel };
// TrainingSession: exported by the package's entry (index.mjs) from ./training-session.mjs.
export { MODULE_FILES, chooseModule, relaxedSimdSupported } from './wasm-module.mjs';

const INT32_MAX = 2 ** 31 - 1;

// The JS of what only the full module has — the GPT-2 loader (own-model.mjs) and the trainer
// (training-session.mjs) — imported with that module, not with the page's first view: loadEngine
// awaits both for a full module (their calls are synchronous), openGpt2Model on first use.
let ownModel = null;
let training = null;
const importOwnModel = async () => (ownModel ??= await import('./own-model.mjs'));
// The timing classes (wasm-timing.mjs: KernelWorkspace, ModelBench) are the benchmarks' and the
// n² cost panel's, not the first view's: wasm-timing.mjs hands them here when it is imported
// (./engine.mjs and components/cost.mjs import it).
let timing = null;
export function provideTiming(classes) {
  timing = classes;
}
function timingClass(call, name) {
  if (!timing)
    throw new EngineError(
      `${call}: the timing classes are not loaded; import it from 'attention-explorer' or web/lib/engine.mjs, ` +
        'which load them',
      'unavailable',
      { call },
    );
  return timing[name];
}

const importFullParts = () =>
  Promise.all([importOwnModel(), import('./training-session.mjs').then((m) => (training = m))]);

// A Transformer with seeded random weights: real forward passes, untrained parameters.
export class RandomModel {
  #module;
  #handle;

  constructor(module, config) {
    this.#module = module;
    const checked = options('createRandomModel', config, RANDOM_CONFIG, 'config');
    this.#handle = guarded(module, 'createRandomModel', () => new module.RandomModel(checked));
    this.config = guarded(module, 'config', () => this.#handle.config());
    this.parameterCount = guarded(module, 'parameterCount', () => this.#handle.parameterCount());
  }

  // run(text, {causal, window, scale, scoreMultiplier}) → {tokens, ids, n, embeddings,
  // layers: [{selfAttention: {heads: [{q, k, v, rawScores, scaledScores, maskedScores,
  // weights, output}], concat, output}, output, stages, stageNorms}], tracedLayers, output}.
  // Matrices are row-major Float32Arrays, views of the one packed trace read by name
  // (unpack.mjs, docs/trace-format.md): scores and weights n×n, q/k/v/output n×headDim, the
  // rest n×dModel.
  run(sentence, runOptionsValue = {}) {
    if (!this.#handle) throw deleted('run', 'model');
    const [t] = args('run', [sentence], { text: text() });
    const o = options('run', runOptionsValue, runOptions);
    return unpackAnalysis(guarded(this.#module, 'run', () => this.#handle.run(t, o)));
  }

  // Frees the C++ model; the object is unusable afterwards.
  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

export class Engine {
  #module;
  #loadFull;
  #full = null; // Promise<Engine> of the full module, once asked for

  // loadFull() → Promise<Engine> on the full module (loadEngine passes it; see full()).
  constructor(module, build = 'simd128', loadFull = null) {
    this.#module = module;
    this.#loadFull = loadFull;
    this.simd = module.simdEnabled();
    // Which build runs and the kernels it runs by default (their names say the instruction set:
    // …__wasmrelaxedsimd for fused multiply-add, …__wasmsimd for mul + add).
    const gemm = module.gemmKernelNames()[0];
    this.features = Object.freeze({
      build,
      simd: this.simd,
      relaxedSimd: build === 'relaxed',
      fma: gemm.endsWith('__wasmrelaxedsimd'),
      gemm,
      // The full module (the trainer and the GPT-2 loader too) or the page's (CMakeLists.txt).
      full: Boolean(module.TrainingSession),
    });
  }

  // The engine on the full module: the page's module plus the trainer (createTrainingSession)
  // and the GPT-2 loader (openGpt2Model, loadBpeTokenizer), which the first view does not need
  // and so does not download. This engine when its module is the full one; else the full
  // module of the same build (relaxed or SIMD128), loaded on the first call — its own wasm
  // instance, so models it makes belong to it — and the same promise afterwards. A failed load
  // (code 'unavailable') is retried by the next call.
  full() {
    if (this.features.full) return Promise.resolve(this);
    if (!this.#full) {
      if (!this.#loadFull)
        return Promise.reject(
          new EngineError('full: this engine was made without a way to load the full module', 'unavailable', {
            call: 'full',
          }),
        );
      this.#full = this.#loadFull().catch((error) => {
        this.#full = null;
        throw error;
      });
    }
    return this.#full;
  }

  // The module of a call that only the full module has, or an error saying where to find it.
  #fullOnly(call, what) {
    if (this.features.full) return this.#module;
    throw new EngineError(
      `${call}: ${what} is not in the page's module (${MODULE_FILES[this.features.build].wasm}); ` +
        `call it on the full module's engine: (await engine.full()).${call}(…)`,
      'unavailable',
      { call },
    );
  }

  // Checks positional arguments against readers ({name: reader}), then calls the module's
  // function `name` with them, guarded.
  #call(name, values, readers) {
    const checked = args(name, values, readers);
    return guarded(this.#module, name, () => this.#module[name](...checked));
  }

  // Words as the core splits them (lower-cased, contractions split, CJK per character).
  tokenize(sentence) {
    return this.#call('tokenize', [sentence], { text: text() });
  }

  // Scaled dot-product attention with its full trace.
  // args: {q, k, v, n, m, dk, dv?, causal?, window?, queryOffset?, keyPadding?, scale?,
  //        scoreMultiplier?}; q is n×dk, k is m×dk, v is m×dv, all row-major.
  // → {rawScores, scaledScores, maskedScores, weights (n×m), output (n×dv)}.
  attention(attentionArgs) {
    const checked = checkAttention(attentionArgs);
    return guarded(this.#module, 'attention', () => this.#module.attention(checked));
  }

  // config: {dModel, nHeads, nLayers, dFF, maxLen, vocabSize, positional: 'none' |
  // 'sinusoidal' | 'learned' | 'rope', norm: 'pre' | 'post', causal, seed}
  createRandomModel(config = {}) {
    return new RandomModel(this.#module, config);
  }

  // files: {config: config.json text, weights: model.safetensors as a Uint8Array, vocab: vocab.txt text}
  loadTrainedModel(files) {
    return new TrainedModel(this.#module, files ?? {});
  }

  // A GPT-2-layout checkpoint from disk (own-model.mjs): files {config, weights, vocab, merges},
  // weights a File/Blob (streamed into wasm memory, onProgress({loaded, total})) or Uint8Array.
  // The model lives in the full module (full(), loaded here on first use once the files passed
  // their checks); it has the same JS interface whichever module holds it.
  async openGpt2Model(files, { onProgress } = {}) {
    const { openGpt2Model } = await importOwnModel();
    return openGpt2Model(async () => (await this.full()).#module, files, { onProgress });
  }

  // GPT-2's byte-level BPE tokenizer alone: {vocab: vocab.json text, merges: merges.txt text}.
  // Full module only (see full()).
  loadBpeTokenizer(files) {
    const module = this.#fullOnly('loadBpeTokenizer', "GPT-2's tokenizer");
    return ownModel.loadBpeTokenizer(module, files ?? {}); // a full module's engine has it (loadEngine)
  }

  // Fetches the three files of a model directory (fetchModelFiles: a URL ending in '/', relative
  // to the page when it is not absolute; the same options) and loads them.
  async fetchTrainedModel(baseUrl, fetchImpl = fetch, options = {}) {
    return this.loadTrainedModel(await downloadModelFiles('fetchTrainedModel', baseUrl, fetchImpl, options));
  }

  // A trained encoder–decoder (web/models/translate-en-zh/, docs/model-format.md "Encoder–decoder
  // pairs"): files {pair: pair.json text, encoder: {config, weights, vocab}, decoder: {…}}, the
  // two checkpoints as loadTrainedModel takes them. Full module only (see full()): greedy
  // decoding lives with the trainer.
  loadTranslationModel(files) {
    return new TranslationModel(this.#fullOnly('loadTranslationModel', 'the encoder–decoder'), files ?? {});
  }

  // Fetches a pair directory (a URL ending in '/': pair.json, then the encoder's and the
  // decoder's three files, with fetchTrainedModel's options) and opens it on the full module,
  // loading that module on first use.
  async openTranslationModel(baseUrl, fetchImpl = fetch, options = {}) {
    const call = 'openTranslationModel';
    const base = absoluteUrl(call, baseUrl);
    let pair;
    try {
      const response = await fetchImpl(new URL('pair.json', base));
      if (!response?.ok) throw new Error(`HTTP ${response?.status}`);
      pair = await response.text();
    } catch (e) {
      throw new EngineError(`could not load pair.json from ${baseUrl}: ${e?.message ?? e}`, 'unknown-model', {
        call,
        cause: e,
      });
    }
    let names;
    try {
      const parsed = JSON.parse(pair);
      names = [parsed.encoder ?? 'encoder', parsed.decoder ?? 'decoder'];
    } catch (e) {
      throw new EngineError(`pair.json from ${baseUrl} is not JSON: ${e.message}`, 'bad-model', { call, cause: e });
    }
    const [encoder, decoder] = await Promise.all(
      names.map((name) => downloadModelFiles(call, new URL(`${name}/`, base), fetchImpl, options)),
    );
    return (await this.full()).loadTranslationModel({ pair, encoder, decoder });
  }

  // Positional encodings as the models use them (bindings/positional.cpp):
  // sinusoidalTable(n, d) → Float32Array n×d (row p encodes position p);
  // ropeRotate(vec, position, base = 10000) → vec (even length) rotated as RoPE rotates a
  // query or key at that position.
  sinusoidalTable(n, d) {
    return this.#call('sinusoidalTable', [n, d], { n: integer(), d: integer() });
  }

  ropeRotate(vec, position, base = null) {
    return this.#call('ropeRotate', [vec, position, base ?? null], {
      vec: numbers(),
      position: integer(),
      base: optional(finite()),
    });
  }

  // The roles {agent, verb, patient} of a sentence of the word-order models' grammar
  // (猫追狗 → agent 猫), or null when the text is outside it.
  wordOrderRoles(sentence) {
    return this.#call('wordOrderRoles', [sentence], { text: text() });
  }

  // Names of the GEMM variants of this build, fastest first (f32_gemm_ukernel_5x8__wasmsimd, …).
  gemmKernelNames() {
    return this.#module.gemmKernelNames();
  }

  // {heapBytes, brk, allocatedBytes, stackPointer, emvalHandles}: wasm memory size, end of the malloc arena, and bytes
  // allocated now. brk's growth across a call (in a fresh module) is what the call needed.
  // stackPointer: the wasm stack pointer; emvalHandles: JS values C++ holds (Embind's count).
  // All four are flat across calls, failed ones included (tests/wasm/leaks.test.mjs).
  memoryStats() {
    return {
      ...this.#module.memoryStats(),
      stackPointer: this.#module.stackSave(),
      emvalHandles: this.#module.count_emval_handles(),
    };
  }

  // Bytes of heap scratch one fused attention call over m keys allocates (d = dk = dv;
  // masked: causal, window or padding set), from the kernel's code.
  fusedAttentionScratchBytes(m, d, masked = false) {
    return this.#call('fusedAttentionScratchBytes', [m, d, masked], { m: integer(), d: integer(), masked: boolean() });
  }

  // The "why ÷√d" experiment (bindings/lesson.cpp): `queries` random queries against `keys`
  // random keys, entries of mean 0 and variance 1 from the seed, scored with the core's attention.
  // {d, keys, queries, seed, scale} → {factor, scores, weights (queries×keys), entropy,
  // maxWeight (per query), scoreMean, scoreVariance, scoreStd, meanEntropy, meanMaxWeight,
  // uniformEntropy (log keys), d, keys, queries}
  scalingDemo(demo) {
    const o = options('scalingDemo', demo, {
      d: integer(),
      keys: integer(),
      queries: integer(),
      seed,
      scale: boolean(),
    });
    return guarded(this.#module, 'scalingDemo', () => this.#module.scalingDemo(o));
  }

  // Entropy (nats) of one row of attention weights.
  rowEntropy(weights) {
    return this.#call('rowEntropy', [weights], { weights: numbers() });
  }

  // How d_model splits into heads of headDim: {dModel, headDim, divides, nHeads, perHead
  // (Q/K/V parameters of one head), allHeads (those of every head), outputProjection (W_O),
  // total (the layer's parameters)}.
  headSplit(dModel, headDim) {
    return this.#call('headSplit', [dModel, headDim], { dModel: integer(), headDim: integer() });
  }

  // Parameters of one multi-head attention layer (W_Q, W_K, W_V, W_O and biases); the same
  // for every nHeads that divides dModel.
  attentionParameterCount(dModel, nHeads) {
    return this.#call('attentionParameterCount', [dModel, nHeads], { dModel: integer(), nHeads: integer() });
  }

  // The factor attention multiplies Q·Kᵀ by for key width dk: scoreMultiplier / √dk, or
  // scoreMultiplier alone with scale: false. options: {scale, scoreMultiplier}.
  attentionScoreScale(dk, scaleOptions = {}) {
    const [width] = args('attentionScoreScale', [dk], { dk: integer() });
    const { scale, scoreMultiplier } = runOptions;
    const o = options('attentionScoreScale', scaleOptions, { scale, scoreMultiplier });
    return guarded(this.#module, 'attentionScoreScale', () => this.#module.attentionScoreScale(width, o));
  }

  // capacity: floats in each of the buffers a, b and c (see KernelWorkspace).
  createKernelWorkspace(capacity) {
    return new (timingClass('createKernelWorkspace', 'KernelWorkspace'))(this.#module, capacity);
  }

  // Bytes of the trace the traced kernel keeps for self-attention over n tokens, head width d
  // (four n×n matrices and the n×d output; ops/attention_memory.h) — also for n too large to
  // run: exact as a JS number (tracedAttentionBytes(16384, 64) = 4,299,161,600).
  tracedAttentionBytes(n, d) {
    return this.#call('tracedAttentionBytes', [n, d], { n: integer(), d: integer() });
  }

  // settings: {task: 'coref-encoder' | 'coref-decoder' | 'word-order', positional, seed, steps,
  // heads, layers, batch, learningRate}; a missing one takes the task's recipe value.
  // Full module only (see full()): the page runs it in its training worker, on the full module.
  createTrainingSession(settings = {}) {
    const module = this.#fullOnly('createTrainingSession', 'the trainer');
    return new training.TrainingSession(module, settings); // a full module's engine has it (loadEngine)
  }

  // files: as loadTrainedModel; a copy of the model for timing inside wasm (benchmarks; only
  // an engine on dist/attention_bench.mjs has it, see loadEngine).
  createModelBench(files) {
    return new (timingClass('createModelBench', 'ModelBench'))(this.#module, files ?? {});
  }
}

// --- schemas of the calls above (readers from contract.mjs) ------------------------------------

// undefined or null, else checked by read.
function optional(read) {
  return (call, option, v) => (v === undefined || v === null ? null : read(call, option, v));
}

// Sizes and bounds of the core's own checks (model/config.cpp) stay there: here only types.
const RANDOM_CONFIG = {
  dModel: integer(1),
  nHeads: integer(1),
  nLayers: integer(1),
  dFF: integer(0),
  maxLen: integer(1),
  vocabSize: integer(1),
  positional: text(64),
  norm: text(64),
  causal: boolean(),
  seed,
};

const ATTENTION_ARGS = {
  q: numbers(),
  k: numbers(),
  v: numbers(),
  n: integer(),
  m: integer(),
  dk: integer(),
  dv: integer(),
  queryOffset: integer(0),
  keyPadding: flags(),
  ...(({ causal, window, scale, scoreMultiplier }) => ({ causal, window, scale, scoreMultiplier }))(runOptions),
};

// attention's arguments by type; the shapes against the lengths, and a missing or empty
// shape, are the C++ side's checks (bindings.cpp, ops/attention).
function checkAttention(value) {
  const call = 'attention';
  const a = options(call, value, ATTENTION_ARGS, 'args');
  // Query i sits at position queryOffset + i, which must stay an int32.
  if (a.queryOffset !== undefined && a.n > 0 && a.queryOffset > INT32_MAX - a.n)
    refuse(call, 'queryOffset', `a whole number from 0 to ${INT32_MAX} − n = ${INT32_MAX - a.n}`, a.queryOffset);
  return a;
}

// moduleOptions go to Emscripten's factory: an object, or a function of the build's name
// returning one — which is what lets an engine load its full module (Engine.full()) where
// every build needs its own options: in Node, {wasmBinary} of that build's .wasm
// (tests/wasm/helpers.mjs). build: one of MODULE_FILES' names (default: chooseModule()).
// onProgress({loaded, total}) follows the .wasm's download in a page (total: its size, or null
// while unknown), at least once when it has all arrived.
export async function loadEngine(moduleOptions = {}, build = chooseModule(), { onProgress = null } = {}) {
  if (!Object.hasOwn(MODULE_FILES, build)) refuse('loadEngine', 'build', BUILD_NAMES, build);
  const optionsFor = (b) => (typeof moduleOptions === 'function' ? moduleOptions(b) : moduleOptions);
  const module = await createWasmModule(build, optionsFor(build), onProgress);
  if (module.TrainingSession) await importFullParts();
  return new Engine(module, isRelaxed(build) ? 'relaxed' : 'simd128', () => loadFullEngine(moduleOptions, build));
}

// Engine.full()'s loader for an engine of `build`: the full module of the same instruction set.
async function loadFullEngine(moduleOptions, build) {
  const fullBuild = fullBuildOf(build);
  const file = MODULE_FILES[fullBuild].wasm;
  if (typeof moduleOptions !== 'function' && moduleOptions?.wasmBinary)
    throw new EngineError(
      `full: this engine was given the bytes of ${MODULE_FILES[build].wasm} (wasmBinary), and the full ` +
        `module is another file (${file}): pass moduleOptions as a function of the build, ` +
        'loadEngine((build) => ({wasmBinary: bytesOf(build)}), …)',
      'unavailable',
      { call: 'full' },
    );
  try {
    return await loadEngine(moduleOptions, fullBuild);
  } catch (error) {
    if (error instanceof EngineError) throw error;
    const failed = new EngineError(
      `full: could not load the full module (${file}, the trainer and the GPT-2 loader): ${error?.message ?? error}`,
      'unavailable',
      { call: 'full' },
    );
    failed.cause = error;
    throw failed;
  }
}
