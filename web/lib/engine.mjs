// The JS face of the wasm core, shared by the page, its custom elements and the Node tests.
// It adds no model math: it checks every input against the contract (contract.mjs), loads the
// module, turns C++ exceptions into EngineErrors, and frees C++ objects. Every array it returns
// is a Float32Array copy owned by JS (see README).
import { loadBpeTokenizer, openGpt2Model } from './own-model.mjs';
import {
  EngineError,
  MAX_WORD_LENGTH,
  analysisOptions,
  args,
  boolean,
  callback,
  finite,
  flags,
  integer,
  numbers,
  options,
  refuse,
  runOptions,
  text,
} from './contract.mjs';

export { EngineError } from './contract.mjs'; // what every failed call throws (README, "Errors")
import { guarded, guardedText } from './guarded.mjs';
import { unpackAnalysis } from './unpack.mjs';
export { guarded, unpackAnalysis };
export { TRACE_FORMAT, TRACE_VERSION, readTrace, traceName } from './trace.mjs';

const INT32_MAX = 2 ** 31 - 1;
const SEED_MAX = Number.MAX_SAFE_INTEGER; // seeds cross as doubles: whole and exact below 2^53

function deleted(call, what) {
  return new EngineError(`${call}: this ${what} was deleted`, 'deleted', { call });
}

const seed = integer(0, SEED_MAX);

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

// Operand buffers in wasm memory for timing the fast kernels from JS (bindings/kernels.cpp):
// write the operands through a, b, c once, then time gemm()/attentionFused()/attentionTraced()
// with performance.now(); the calls copy nothing across the boundary and return nothing.
//   gemm(variant, M, N, K, transposeB): A = a (M×K), B = b (K×N, or N×K), C = c (M×N)
//   attentionFused/attentionTraced(n, d, causal, window): Q = a (n×d), K = b[0, n·d),
//     V = b[n·d, 2n·d), output → c (n×d)
// a, b and c are Float32Array views of wasm memory, taken again whenever memory growth has
// detached them — so read them after a call, never keep one across calls.
export class KernelWorkspace {
  #module;
  #handle;
  #views = {};

  constructor(module, capacity) {
    this.#module = module;
    const [c] = args('createKernelWorkspace', [capacity], { capacity: integer() });
    this.#handle = guarded(module, 'createKernelWorkspace', () => new module.KernelWorkspace(c));
    this.capacity = this.#handle.capacity();
  }

  #view(name) {
    if (!this.#handle) throw deleted(name, 'workspace');
    const v = this.#views[name];
    if (v && v.buffer.byteLength > 0) return v; // growth detaches the old buffer (length 0)
    return (this.#views[name] = this.#handle[name]());
  }

  get a() {
    return this.#view('a');
  }
  get b() {
    return this.#view('b');
  }
  get c() {
    return this.#view('c');
  }

  // Fills a, b and c with seeded N(0, 1) values (the same on every build).
  fillRandom(seedValue = 1) {
    this.#call('fillRandom', [seedValue], { seed });
  }
  // Allocates the packing buffer for gemm calls up to M×N×K ahead of timing.
  reserveGemm(m, n, k) {
    this.#call('reserveGemm', [m, n, k], { m: integer(0), n: integer(0), k: integer(0) });
  }
  gemm(variant, m, n, k, transposeB = false) {
    this.#call('gemm', [variant, m, n, k, transposeB], {
      variant: text(256),
      m: integer(0),
      n: integer(0),
      k: integer(0),
      transposeB: boolean(),
    });
  }
  attentionFused(n, d, causal = false, window = 0) {
    this.#call('attentionFused', [n, d, causal, window], KERNEL_ATTENTION);
  }
  attentionTraced(n, d, causal = false, window = 0) {
    this.#call('attentionTraced', [n, d, causal, window], KERNEL_ATTENTION);
  }

  // Checks the arguments, then calls the method of the same name.
  #call(name, values, readers) {
    if (!this.#handle) throw deleted(name, 'workspace');
    const checked = args(name, values, readers);
    guarded(this.#module, name, () => this.#handle[name](...checked));
  }

  // Frees the buffers; the object is unusable afterwards.
  delete() {
    this.#handle?.delete();
    this.#handle = null;
    this.#views = {};
  }
}

// A model trained by `npm run train` (a directory under web/models/).
// The encoder–decoder of Engine.loadTranslationModel. translate(text) → {source: English words,
// unknown: [positions that became [UNK]], tokens: the Chinese words written, text, steps: [{token,
// id, probability, crossAttention: [layer][head][source word]}] (one per word written, the final
// [SEP] included), head: {layer, head}}; head: the cross-attention head chosen on validation
// (the one whose arg-max at the step that writes the referent lands on it most often).
export class TranslationModel {
  #module;
  #handle;

  constructor(module, { pair, encoder, decoder }) {
    this.#module = module;
    const call = 'loadTranslationModel';
    const e = modelFiles(call, encoder ?? {});
    const d = modelFiles(call, decoder ?? {});
    const pairText = args(call, [pair], { pair: text() })[0];
    this.#handle = guarded(
      module,
      call,
      () =>
        new module.TranslationModel({
          pair: pairText,
          encoderConfig: e.config,
          encoderWeights: e.weights,
          encoderVocab: e.vocab,
          decoderConfig: d.config,
          decoderWeights: d.weights,
          decoderVocab: d.vocab,
        }),
    );
    this.head = guarded(module, 'head', () => this.#handle.head());
    this.metadata = deepFreeze(JSON.parse(pairText));
  }

  translate(sentence) {
    if (!this.#handle) throw deleted('translate', 'model');
    const [checked] = args('translate', [sentence], { text: text() });
    return guarded(this.#module, 'translate', () => this.#handle.translate(checked));
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

export class TrainedModel {
  #module;
  #handle;

  constructor(module, { config, weights, vocab }) {
    this.#module = module;
    const files = modelFiles('loadTrainedModel', { config, weights, vocab });
    this.#handle = guarded(
      module,
      'loadTrainedModel',
      () => new module.TrainedModel(files.config, files.weights, files.vocab),
    );
    this.config = guarded(module, 'config', () => this.#handle.config());
    // config.json parsed once, for the keys only the page reads (coreference_head, splits,
    // seeds_passing, rope_base, …): panels read config.metadata, never configJson again.
    this.config.metadata = deepFreeze(JSON.parse(this.config.configJson));
    this.parameterCount = this.config.parameterCount;
    this.#analysisOptions = analysisOptions(this.config);
    const { topK, ...withoutTopK } = this.#analysisOptions;
    this.#probabilityOptions = withoutTopK;
  }

  #analysisOptions;
  #probabilityOptions;

  // The handle, or a 'deleted' error for a model that was deleted.
  #live(call) {
    if (!this.#handle) throw deleted(call, 'model');
    return this.#handle;
  }

  // guarded() for a call on text `t`: a too-long error says the text's token count and maxLen
  // (guardedText). A word-order model reads a [CLS] before the words, which counts.
  #onText(call, t, fn) {
    const cls = this.config.task === 'word-order' ? 1 : 0;
    const count = () => this.#handle.encodeWords(t).tokens.length + cls;
    return guardedText(this.#module, call, fn, count, this.config.maxLen);
  }

  // [text, options] of analyze and analyzePacked, checked.
  #analysisArgs(call, sentence, o) {
    return [args(call, [sentence], { text: text() })[0], options(call, o, this.#analysisOptions)];
  }

  // [prompt, maxNewWords] of the generate calls; any count is bounded work, as generation stops at maxLen.
  #generationArgs(call, prompt, maxNewWords) {
    return args(call, [prompt, maxNewWords], { prompt: text(), maxNewWords: integer(0) });
  }

  // analyze(text, {causal, window, scale, scoreMultiplier, knockout: [positions],
  // ablate: [[layer, head], …], topK}) → the same trace as RandomModel.run plus
  // {unknown: [positions that became [UNK]], prediction: {position, token, probability, top} | null}.
  analyze(sentence, analysis = {}) {
    const handle = this.#live('analyze');
    const [t, o] = this.#analysisArgs('analyze', sentence, analysis);
    return unpackAnalysis(this.#onText('analyze', t, () => handle.analyze(t, o)));
  }

  // probabilities(text, {causal, window, scale, scoreMultiplier, knockout, ablate}) →
  // {position, probabilities: Float32Array over the vocabulary (index: wordId), best: the most
  // probable word}: analyze()'s answer, bit for bit, without the trace or a prediction list —
  // for reading a few words' probabilities over many runs (the explanation panel's knock-outs).
  probabilities(sentence, analysis = {}) {
    const handle = this.#live('probabilities');
    const t = args('probabilities', [sentence], { text: text() })[0];
    const o = options('probabilities', analysis, this.#probabilityOptions);
    return this.#onText('probabilities', t, () => handle.probabilities(t, o));
  }

  // The index of `word` in probabilities(), or -1 for a word the vocabulary lacks.
  wordId(word) {
    const handle = this.#live('wordId');
    const [w] = args('wordId', [word], { word: text(MAX_WORD_LENGTH) });
    return guarded(this.#module, 'wordId', () => handle.wordId(w));
  }

  // The vocabulary, for helping a user type words the model knows (bindings.cpp):
  // vocabularyWords() → its words in id order, without the special tokens;
  // nearestWords(word, k, maxDistance) → [{word, distance}], the k known words nearest by edit
  // distance (Vocabulary::nearest), only those ≤ maxDistance (< 0: any), nearest first;
  // encodeWords(text) → {tokens, unknown: [positions that would be [UNK]]}, without [CLS],
  // also for a text analyze() refuses (no "it", too long).
  vocabularyWords() {
    const handle = this.#live('vocabularyWords');
    return guarded(this.#module, 'vocabularyWords', () => handle.vocabularyWords());
  }

  nearestWords(word, k = 3, maxDistance = -1) {
    const handle = this.#live('nearestWords');
    const [w, count, most] = args('nearestWords', [word, k, maxDistance], {
      word: text(MAX_WORD_LENGTH),
      k: integer(0),
      maxDistance: integer(),
    });
    return guarded(this.#module, 'nearestWords', () => handle.nearestWords(w, count, most));
  }

  encodeWords(sentence) {
    const handle = this.#live('encodeWords');
    const [t] = args('encodeWords', [sentence], { text: text() });
    return guarded(this.#module, 'encodeWords', () => handle.encodeWords(t));
  }

  // Greedy completion (decoder models only): the new words, stopping at [SEP].
  generate(prompt, maxNewWords = 8) {
    const handle = this.#live('generate');
    const [p, count] = this.#generationArgs('generate', prompt, maxNewWords);
    return this.#onText('generate', p, () => handle.generate(p, count));
  }

  // generate() step by step, with a KV cache (useCache: each step computes only the newest
  // row) or without (each step re-runs the whole forward pass) → {tokens, ids, unknown,
  // promptLength, cached, nLayers, nHeads, headDim, steps: [{position, inputToken, token, id,
  // probability, end, rowsReused, rowsNew, cacheRows, work: {projections, scores, weightedSums,
  // ffn, output, total} (multiply-adds), attention: [per layer: nHeads×(position+1)], logits}],
  // keys, values: [per layer: [per head: rows×headDim]]}. A step with end: true chose [SEP].
  generateSteps(prompt, maxNewWords = 8, useCache = true) {
    const handle = this.#live('generateSteps');
    const [p, count] = this.#generationArgs('generateSteps', prompt, maxNewWords);
    const [cache] = args('generateSteps', [useCache], { useCache: boolean() });
    return this.#onText('generateSteps', p, () => handle.generateSteps(p, count, cache));
  }

  // generate() with a KV cache: the same words, nothing else kept (for timing against generate()).
  generateCached(prompt, maxNewWords = 8) {
    const handle = this.#live('generateCached');
    const [p, count] = this.#generationArgs('generateCached', prompt, maxNewWords);
    return this.#onText('generateCached', p, () => handle.generateCached(p, count));
  }

  // analyze() under its earlier name: since the one trace format (docs/trace-format.md), both
  // read the same packed trace (kept for callers and an opened model's API, own-model.mjs).
  analyzePacked(sentence, analysis = {}) {
    const handle = this.#live('analyzePacked');
    const [t, o] = this.#analysisArgs('analyzePacked', sentence, analysis);
    return unpackAnalysis(this.#onText('analyzePacked', t, () => handle.analyze(t, o)));
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

function deepFreeze(value) {
  if (value && typeof value === 'object') for (const v of Object.values(Object.freeze(value))) deepFreeze(v);
  return value;
}

// A separate copy of a trained model for timing inside wasm (bindings/bench.cpp); benchmarks
// only, in the engine of the benchmarks' module (see loadEngine).
//   analyzeTiming(text, reps) → {coreMicroseconds, geluMicroseconds, withPackedMicroseconds, reps}
//   trainingThroughput({steps, batchSize, examples, seed}) → {stepsPerSecond, seconds, steps, …}
export class ModelBench {
  #module;
  #handle;

  constructor(module, { config, weights, vocab }) {
    this.#module = module;
    const files = modelFiles('createModelBench', { config, weights, vocab });
    if (!module.ModelBench)
      throw new EngineError(
        "createModelBench: the page's module has no benchmarks; load the engine with " +
          "loadEngine(options, 'bench') (dist/attention_bench.mjs)",
        'bad-input',
        { call: 'createModelBench' },
      );
    this.#handle = guarded(
      module,
      'createModelBench',
      () => new module.ModelBench(files.config, files.weights, files.vocab),
    );
  }

  analyzeTiming(sentence, reps = 1000) {
    if (!this.#handle) throw deleted('analyzeTiming', 'bench');
    const checked = args('analyzeTiming', [sentence, reps], { text: text(), reps: integer() });
    return guarded(this.#module, 'analyzeTiming', () => this.#handle.analyzeTiming(...checked));
  }

  trainingThroughput(throughput = {}) {
    if (!this.#handle) throw deleted('trainingThroughput', 'bench');
    const o = {
      steps: 20,
      batchSize: 32,
      examples: 256,
      seed: 1,
      ...options('trainingThroughput', throughput, THROUGHPUT_OPTIONS),
    };
    return guarded(this.#module, 'trainingThroughput', () =>
      this.#handle.trainingThroughput(o.steps, o.batchSize, o.examples, o.seed),
    );
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

// A training run of "Train it yourself" (bindings/training.cpp, train/session.h), stepped by
// the caller — the page's worker (train-worker.mjs) — a chunk at a time:
//   step(n) → {step, ran, loss, accuracy, learningRate, finished} (means over the n steps; null
//     when no step ran: step(0), or after the last step);
//   validationAccuracy() → share of the validation sample right;
//   snapshot() → {step, head: {layer, head, referent, other}, lesson: [{text, tokens, query,
//     referent, other, rows}]}: the lesson pair's query row (it, "=" or [CLS]) in every head,
//     rows a Float32Array nLayers × nHeads × tokens; head is the head rule's choice (−1 for word order);
//   exportFiles({dtype: 'f16' | 'f32', name}) → {config, weights: Uint8Array, vocab, metrics},
//     the documented model format, loadable with loadTrainedModel.
export class TrainingSession {
  #module;
  #handle;

  constructor(module, settings) {
    this.#module = module;
    const checked = options('createTrainingSession', settings, TRAINING_SETTINGS, 'settings');
    this.#handle = guarded(module, 'createTrainingSession', () => new module.TrainingSession(checked));
    this.settings = guarded(module, 'settings', () => this.#handle.settings());
  }

  #live(call) {
    if (!this.#handle) throw deleted(call, 'training session');
    return this.#handle;
  }

  step(count = 1) {
    const handle = this.#live('step');
    const [n] = args('step', [count], { count: integer(0, TRAINING_STEPS_MAX) });
    return guarded(this.#module, 'step', () => handle.step(n));
  }

  validationAccuracy() {
    const handle = this.#live('validationAccuracy');
    return guarded(this.#module, 'validationAccuracy', () => handle.validationAccuracy());
  }

  snapshot() {
    const handle = this.#live('snapshot');
    return guarded(this.#module, 'snapshot', () => handle.snapshot());
  }

  exportFiles(exportOptions = {}) {
    const handle = this.#live('exportFiles');
    const o = options('exportFiles', exportOptions, { dtype: oneOf(['f16', 'f32']), name: text(200) });
    return guarded(this.#module, 'exportFiles', () =>
      handle.exportFiles((o.dtype ?? 'f16') === 'f16', o.name ?? 'trained-here'),
    );
  }

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
  openGpt2Model(files, { onProgress } = {}) {
    return openGpt2Model(async () => (await this.full()).#module, files, { onProgress });
  }

  // GPT-2's byte-level BPE tokenizer alone: {vocab: vocab.json text, merges: merges.txt text}.
  // Full module only (see full()).
  loadBpeTokenizer(files) {
    return loadBpeTokenizer(this.#fullOnly('loadBpeTokenizer', "GPT-2's tokenizer"), files ?? {});
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
    return new KernelWorkspace(this.#module, capacity);
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
    return new TrainingSession(this.#fullOnly('createTrainingSession', 'the trainer'), settings);
  }

  // files: as loadTrainedModel; a copy of the model for timing inside wasm (benchmarks; only
  // an engine on dist/attention_bench.mjs has it, see loadEngine).
  createModelBench(files) {
    return new ModelBench(this.#module, files ?? {});
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

// One of the given strings.
function oneOf(values) {
  return (call, option, v) =>
    values.includes(v) ? v : refuse(call, option, values.map((x) => `'${x}'`).join(', '), v);
}

// Bounds of train/session.h (SessionBounds); the core checks them again with its own message.
const TRAINING_STEPS_MAX = 20_000;
const TRAINING_SETTINGS = {
  task: oneOf(['coref-encoder', 'coref-decoder', 'word-order']),
  positional: oneOf(['none', 'sinusoidal', 'learned', 'rope']),
  seed,
  steps: integer(1, TRAINING_STEPS_MAX),
  heads: integer(1, 8),
  layers: integer(1, 4),
  batch: integer(1, 128), // coreference: even, 2–128 (whole minimal pairs); the core says so (bad-config)
  learningRate: finite(1e-5, 0.05),
  perExample: boolean(), // benchmarks: the per-example loop batched rows replaced (the same bits)
};

const KERNEL_ATTENTION = { n: integer(), d: integer(), causal: boolean(), window: integer() };

const THROUGHPUT_OPTIONS = {
  steps: integer(1, 100_000),
  batchSize: integer(1, 4096),
  examples: integer(2, 1_000_000),
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

// The three files of a model directory (a URL ending in '/', relative to the page when it is not
// absolute), as loadTrainedModel takes them; no engine needed, so that a page can download a
// model while its engine compiles. Gives up after timeoutMs (default 30 s)
// with an EngineError of code 'timeout'; an HTTP error is code 'unknown-model'.
// onProgress({loaded, total}) follows the weights' download (total: the Content-Length, or
// null when the server sends none), at least once when they have all arrived. A fetch that
// throws (no network, or the caller's fetchImpl) is code 'unknown-model' too; a relative URL
// where there is no page (Node), a fetchImpl that is no function or an onProgress that throws
// is 'bad-option'. Every failure is an EngineError, the original error in `cause`.
export function fetchModelFiles(baseUrl, fetchImpl = fetch, options = {}) {
  return downloadModelFiles('fetchModelFiles', baseUrl, fetchImpl, options);
}

const DOWNLOAD_OPTIONS = { timeoutMs: finite(1, 2 ** 31 - 1), onProgress: callback() };

async function downloadModelFiles(call, baseUrl, fetchImpl, downloadOptions = {}) {
  const { timeoutMs: timeout = 30_000, onProgress = null } = options(call, downloadOptions, DOWNLOAD_OPTIONS);
  callback()(call, 'fetchImpl', fetchImpl);
  const base = absoluteUrl(call, baseUrl);
  const controller = new AbortController();
  const get = async (name) => {
    const url = new URL(name, base);
    let response;
    try {
      response = await fetchImpl(url, { signal: controller.signal });
    } catch (e) {
      throw new EngineError(`could not load ${name} from ${baseUrl}: ${e?.message ?? e}`, 'unknown-model', {
        call,
        url: String(url),
        cause: e,
      });
    }
    if (!response?.ok)
      throw new EngineError(`could not load ${name} from ${baseUrl}: HTTP ${response?.status}`, 'unknown-model', {
        call,
        url: String(url),
        status: response?.status,
      });
    return response;
  };
  // The body of a file whose headers arrived, read by `read`; a body that breaks off is unknown-model.
  const body = (name, read) =>
    get(name)
      .then(read)
      .catch((e) => {
        if (e instanceof EngineError) throw e;
        throw new EngineError(`could not load ${name} from ${baseUrl}: ${e?.message ?? e}`, 'unknown-model', {
          call,
          cause: e,
        });
      });
  const report = onProgress && reportingTo(call, onProgress);
  const files = Promise.all([
    body('config.json', (r) => r.text()),
    body('model.safetensors', (r) => readWithProgress(r, report)),
    body('vocab.txt', (r) => r.text()),
  ]);
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new EngineError(
          `could not load the model from ${baseUrl}: no answer within ${timeout / 1000} s (${call}'s timeoutMs)`,
          'timeout',
          { call, timeoutMs: timeout },
        ),
      );
    }, timeout);
  });
  try {
    const [config, weights, vocab] = await Promise.race([files, expired]);
    return { config, weights: new Uint8Array(weights), vocab };
  } finally {
    clearTimeout(timer);
    controller.abort(); // after one file failed or the time ran out, stop the other downloads
    files.catch(() => {}); // which then reject, with nobody waiting for them
  }
}

// The caller's URL as a URL object: relative to the page, and refused where there is no page.
function absoluteUrl(call, baseUrl) {
  try {
    return new URL(baseUrl, globalThis.location?.href);
  } catch {
    return refuse(
      call,
      'baseUrl',
      globalThis.location ? 'a URL' : 'an absolute URL (no page to resolve it against)',
      baseUrl,
    );
  }
}

// onProgress as the download calls it: an error the caller's function throws becomes an EngineError.
const reportingTo = (call, onProgress) => (progress) => {
  try {
    onProgress(progress);
  } catch (e) {
    throw new EngineError(`${call}: onProgress threw: ${e?.message ?? e}`, 'bad-option', {
      call,
      option: 'onProgress',
      expected: 'a function that returns',
      got: 'an error',
      cause: e,
    });
  }
};

// {config, weights, vocab} of a trained model: two texts and a Uint8Array.
// A response's body as an ArrayBuffer, reporting the bytes read so far to onProgress.
async function readWithProgress(response, onProgress) {
  if (!onProgress || !response.body) {
    const buffer = await response.arrayBuffer();
    onProgress?.({ loaded: buffer.byteLength, total: buffer.byteLength });
    return buffer;
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isSafeInteger(length) && length > 0 ? length : null;
  const chunks = [];
  let loaded = 0;
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress({ loaded, total });
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  if (loaded === 0) onProgress({ loaded, total });
  return bytes.buffer;
}

function modelFiles(call, files) {
  const bytes = (c, option, v) =>
    v instanceof Uint8Array ? v : refuse(c, option, 'a Uint8Array (model.safetensors)', v);
  const [config, weights, vocab] = args(call, [files.config, files.weights, files.vocab], {
    config: text(),
    weights: bytes,
    vocab: text(),
  });
  return { config, weights, vocab };
}

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
const BUILD_NAMES = Object.keys(MODULE_FILES)
  .map((b) => `'${b}'`)
  .join(', ');
const isRelaxed = (build) => build.endsWith('relaxed');
// The full module of the same instruction set as `build`.
const fullBuildOf = (build) => (isRelaxed(build) ? 'full-relaxed' : 'full');

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
  if (!/\/lib\/engine\.mjs(\?.*)?$/.test(here)) return null;
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

// The .wasm's size from the build's manifest.json (dist/, beside the glue), or null: a server
// that gzips sends no Content-Length of the bytes the page receives.
function expectedBytes(file) {
  return fetch(new URL('../dist/manifest.json', import.meta.url), { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.json() : null))
    .then((manifest) => manifest?.files?.[`web/dist/${file}`]?.bytes ?? null)
    .catch(() => null);
}

// `response` with a body that reports {loaded, total} to onProgress as it is read; total is the
// Content-Length of an unencoded body, else the manifest's size (`expected`, a promise), else null.
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

// moduleOptions go to Emscripten's factory: an object, or a function of the build's name
// returning one — which is what lets an engine load its full module (Engine.full()) where
// every build needs its own options: in Node, {wasmBinary} of that build's .wasm
// (tests/wasm/helpers.mjs). build: one of MODULE_FILES' names (default: chooseModule()).
// onProgress({loaded, total}) follows the .wasm's download in a page (total: its size, or null
// while unknown), at least once when it has all arrived.
export async function loadEngine(moduleOptions = {}, build = chooseModule(), { onProgress = null } = {}) {
  if (!Object.hasOwn(MODULE_FILES, build)) refuse('loadEngine', 'build', BUILD_NAMES, build);
  const optionsFor = (b) => (typeof moduleOptions === 'function' ? moduleOptions(b) : moduleOptions);
  const glue = IMPORTS[build]();
  const buildOptions = nodeWasmBinary(build, optionsFor(build));
  const compiled = compileEarly(build, buildOptions, onProgress);
  const { default: create } = await glue;
  const loadFull = async () => {
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
  };
  // A copy: Emscripten makes the object it is given the module itself (Module), and two modules
  // on one object would clash (Embind: "Cannot register public name … twice").
  const module = await createModule(create, { ...buildOptions }, compiled);
  return new Engine(module, isRelaxed(build) ? 'relaxed' : 'simd128', loadFull);
}
