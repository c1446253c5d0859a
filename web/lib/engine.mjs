// The JS face of the wasm core, shared by the page, its custom elements and the Node tests.
// It adds no model math: it loads the module, turns C++ exceptions into Errors, and frees
// C++ objects. Every array it returns is a Float32Array copy owned by JS (see README).
import createAttentionModule from '../dist/attention.mjs';

// With -fexceptions, a C++ exception arrives in JS as a number (its address in wasm memory).
function toError(module, thrown) {
  if (typeof thrown === 'number') return new Error(module.takeExceptionMessage(thrown));
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

function guarded(module, fn) {
  try {
    return fn();
  } catch (thrown) {
    throw toError(module, thrown);
  }
}

// A Transformer with seeded random weights: real forward passes, untrained parameters.
export class RandomModel {
  #module;
  #handle;

  constructor(module, config) {
    this.#module = module;
    this.#handle = guarded(module, () => new module.RandomModel(config));
    this.config = guarded(module, () => this.#handle.config());
    this.parameterCount = guarded(module, () => this.#handle.parameterCount());
  }

  // run(text, {causal, window, scale, scoreMultiplier}) → {tokens, ids, n, embeddings,
  // layers: [{selfAttention: {heads: [{q, k, v, rawScores, scaledScores, maskedScores,
  // weights, output}], concat, output}, output}], output}. Matrices are row-major
  // Float32Arrays: scores and weights n×n, q/k/v/output n×headDim, the rest n×dModel.
  run(text, options = {}) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.run(String(text), options));
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
    this.#handle = guarded(module, () => new module.KernelWorkspace(capacity));
    this.capacity = this.#handle.capacity();
  }

  #view(name) {
    if (!this.#handle) throw new Error('this workspace was deleted');
    const v = this.#views[name];
    if (v && v.buffer.byteLength > 0) return v;  // growth detaches the old buffer (length 0)
    return (this.#views[name] = this.#handle[name]());
  }

  get a() { return this.#view('a'); }
  get b() { return this.#view('b'); }
  get c() { return this.#view('c'); }

  // Fills a, b and c with seeded N(0, 1) values (the same on every build).
  fillRandom(seed = 1) { guarded(this.#module, () => this.#handle.fillRandom(seed)); }
  // Allocates the packing buffer for gemm calls up to M×N×K ahead of timing.
  reserveGemm(m, n, k) { guarded(this.#module, () => this.#handle.reserveGemm(m, n, k)); }
  gemm(variant, m, n, k, transposeB = false) {
    guarded(this.#module, () => this.#handle.gemm(variant, m, n, k, transposeB));
  }
  attentionFused(n, d, causal = false, window = 0) {
    guarded(this.#module, () => this.#handle.attentionFused(n, d, causal, window));
  }
  attentionTraced(n, d, causal = false, window = 0) {
    guarded(this.#module, () => this.#handle.attentionTraced(n, d, causal, window));
  }

  // Frees the buffers; the object is unusable afterwards.
  delete() {
    this.#handle?.delete();
    this.#handle = null;
    this.#views = {};
  }
}

// A model trained by `npm run train` (a directory under web/models/).
export class TrainedModel {
  #module;
  #handle;

  constructor(module, { config, weights, vocab }) {
    this.#module = module;
    this.#handle = guarded(module, () => new module.TrainedModel(String(config), weights, String(vocab)));
    this.config = guarded(module, () => this.#handle.config());
    this.parameterCount = this.config.parameterCount;
  }

  // analyze(text, {causal, window, scale, scoreMultiplier, knockout: [positions],
  // ablate: [[layer, head], …], topK}) → the same trace as RandomModel.run plus
  // {unknown: [positions that became [UNK]], prediction: {position, token, probability, top} | null}.
  analyze(text, options = {}) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.analyze(String(text), options));
  }

  // The vocabulary, for helping a user type words the model knows (bindings.cpp):
  // vocabularyWords() → its words in id order, without the special tokens;
  // nearestWords(word, k, maxDistance) → [{word, distance}], the k known words nearest by edit
  // distance (Vocabulary::nearest), only those ≤ maxDistance (< 0: any), nearest first;
  // encodeWords(text) → {tokens, unknown: [positions that would be [UNK]]}, without [CLS],
  // also for a text analyze() refuses (no "it", too long).
  vocabularyWords() {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.vocabularyWords());
  }

  nearestWords(word, k = 3, maxDistance = -1) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.nearestWords(String(word), k, maxDistance));
  }

  encodeWords(text) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.encodeWords(String(text)));
  }

  // Greedy completion (decoder models only): the new words, stopping at [SEP].
  generate(prompt, maxNewWords = 8) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.generate(String(prompt), maxNewWords));
  }

  // generate() step by step, with a KV cache (useCache: each step computes only the newest
  // row) or without (each step re-runs the whole forward pass) → {tokens, ids, unknown,
  // promptLength, cached, nLayers, nHeads, headDim, steps: [{position, inputToken, token, id,
  // probability, end, rowsReused, rowsNew, cacheRows, work: {projections, scores, weightedSums,
  // ffn, output, total} (multiply-adds), attention: [per layer: nHeads×(position+1)], logits}],
  // keys, values: [per layer: [per head: rows×headDim]]}. A step with end: true chose [SEP].
  generateSteps(prompt, maxNewWords = 8, useCache = true) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.generateSteps(String(prompt), maxNewWords, Boolean(useCache)));
  }

  // generate() with a KV cache: the same words, nothing else kept (for timing against generate()).
  generateCached(prompt, maxNewWords = 8) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.generateCached(String(prompt), maxNewWords));
  }

  // analyze() with the trace packed into one Float32Array (bindings/packed.h) and unpacked
  // here into views of it: the same shape as analyze's result, built several times faster.
  analyzePacked(text, options = {}) {
    if (!this.#handle) throw new Error('this model was deleted');
    return unpackAnalysis(guarded(this.#module, () => this.#handle.analyzePacked(String(text), options)));
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

// {data, offsets, n, nLayers, nHeads, …} from analyzePacked → analyze's nested shape, every
// matrix a subarray view of `data` (JS-owned; the views share its buffer). Order: packed.h.
export function unpackAnalysis(p) {
  let i = 0;
  const next = () => p.data.subarray(p.offsets[i], p.offsets[++i]);
  const embeddings = next();
  const layers = Array.from({ length: p.nLayers }, () => {
    const heads = Array.from({ length: p.nHeads }, () => {
      const [q, k, v, rawScores, scaledScores, maskedScores, weights, output] = Array.from({ length: 8 }, next);
      return { q, k, v, rawScores, scaledScores, maskedScores, weights, output };
    });
    const [concat, attentionOutput, output] = [next(), next(), next()];
    return { selfAttention: { heads, concat, output: attentionOutput }, output };
  });
  const output = next();
  // Layer stages (forward_to_js's stages/stageNorms): new matrices, then the nine norms.
  layers.forEach((layer, l) => {
    const [norm1, residual1, norm2, ffnHidden, ffn, residual2] = Array.from({ length: 6 }, next);
    const input = l === 0 ? embeddings : layers[l - 1].output;
    layer.stages = { input, norm1, attention: layer.selfAttention.output, residual1, norm2, ffnHidden, ffn,
      residual2, output: layer.output };
    layer.stageNorms = Object.fromEntries(Object.keys(layer.stages).map((key) => [key, next()]));
  });
  const { tokens, ids, n, unknown, prediction } = p;
  return { tokens, ids, n, embeddings, layers, output, unknown, prediction };
}

// A separate copy of a trained model for timing inside wasm (bindings/bench.cpp); benchmarks only.
//   analyzeTiming(text, reps) → {coreMicroseconds, geluMicroseconds, withObjectsMicroseconds, withPackedMicroseconds, reps}
//   trainingThroughput({steps, batchSize, examples, seed}) → {stepsPerSecond, seconds, steps, …}
export class ModelBench {
  #module;
  #handle;

  constructor(module, { config, weights, vocab }) {
    this.#module = module;
    this.#handle = guarded(module, () => new module.ModelBench(String(config), weights, String(vocab)));
  }

  analyzeTiming(text, reps = 1000) {
    return guarded(this.#module, () => this.#handle.analyzeTiming(String(text), reps));
  }

  trainingThroughput({ steps = 20, batchSize = 32, examples = 256, seed = 1 } = {}) {
    return guarded(this.#module, () => this.#handle.trainingThroughput(steps, batchSize, examples, seed));
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

export class Engine {
  #module;

  constructor(module) {
    this.#module = module;
    this.simd = module.simdEnabled();
  }

  // Words as the core splits them (lower-cased, contractions split, CJK per character).
  tokenize(text) {
    return guarded(this.#module, () => this.#module.tokenize(String(text)));
  }

  // Scaled dot-product attention with its full trace.
  // args: {q, k, v, n, m, dk, dv?, causal?, window?, queryOffset?, keyPadding?, scale?,
  //        scoreMultiplier?}; q is n×dk, k is m×dk, v is m×dv, all row-major.
  // → {rawScores, scaledScores, maskedScores, weights (n×m), output (n×dv)}.
  attention(args) {
    return guarded(this.#module, () => this.#module.attention(args));
  }

  // config: {dModel, nHeads, nLayers, dFF, maxLen, vocabSize, positional: 'none' |
  // 'sinusoidal' | 'learned' | 'rope', norm: 'pre' | 'post', causal, seed}
  createRandomModel(config = {}) {
    return new RandomModel(this.#module, config);
  }

  // files: {config: config.json text, weights: model.safetensors as a Uint8Array, vocab: vocab.txt text}
  loadTrainedModel(files) {
    return new TrainedModel(this.#module, files);
  }

  // Fetches the three files of a model directory (a URL ending in '/', relative to the
  // page when it is not absolute) and loads them.
  async fetchTrainedModel(baseUrl, fetchImpl = fetch) {
    const base = new URL(baseUrl, globalThis.location?.href);
    const get = async (name) => {
      const response = await fetchImpl(new URL(name, base));
      if (!response.ok) throw new Error(`could not load ${name} from ${baseUrl}: HTTP ${response.status}`);
      return response;
    };
    const [config, weights, vocab] = await Promise.all([
      get('config.json').then((r) => r.text()),
      get('model.safetensors').then((r) => r.arrayBuffer()),
      get('vocab.txt').then((r) => r.text()),
    ]);
    return this.loadTrainedModel({ config, weights: new Uint8Array(weights), vocab });
  }

  // Positional encodings as the models use them (bindings/positional.cpp):
  // sinusoidalTable(n, d) → Float32Array n×d (row p encodes position p);
  // ropeRotate(vec, position, base = 10000) → vec (even length) rotated as RoPE rotates a
  // query or key at that position.
  sinusoidalTable(n, d) {
    return guarded(this.#module, () => this.#module.sinusoidalTable(n, d));
  }

  ropeRotate(vec, position, base = null) {
    return guarded(this.#module, () => this.#module.ropeRotate(vec, position, base));
  }

  // The roles {agent, verb, patient} of a sentence of the word-order models' grammar
  // (猫追狗 → agent 猫), or null when the text is outside it.
  wordOrderRoles(text) {
    return guarded(this.#module, () => this.#module.wordOrderRoles(String(text)));
  }

  // Names of the GEMM variants of this build, fastest first (f32_gemm__wasmsimd_5x8, …).
  gemmKernelNames() {
    return this.#module.gemmKernelNames();
  }

  // {heapBytes, brk, allocatedBytes}: wasm memory size, end of the malloc arena, and bytes
  // allocated now. brk's growth across a call (in a fresh module) is what the call needed.
  memoryStats() {
    return this.#module.memoryStats();
  }

  // Bytes of heap scratch one fused attention call over m keys allocates (d = dk = dv;
  // masked: causal, window or padding set), from the kernel's code.
  fusedAttentionScratchBytes(m, d, masked = false) {
    return this.#module.fusedAttentionScratchBytes(m, d, masked);
  }

  // The "why ÷√d" experiment (bindings/lesson.cpp): `queries` random queries against `keys`
  // random keys, entries of mean 0 and variance 1 from the seed, scored with the core's attention.
  // {d, keys, queries, seed, scale} → {factor, scores, weights (queries×keys), entropy,
  // maxWeight (per query), scoreMean, scoreVariance, scoreStd, meanEntropy, meanMaxWeight,
  // uniformEntropy (log keys), d, keys, queries}
  scalingDemo(options) {
    return guarded(this.#module, () => this.#module.scalingDemo(options));
  }

  // Entropy (nats) of one row of attention weights.
  rowEntropy(weights) {
    return guarded(this.#module, () => this.#module.rowEntropy(weights));
  }

  // How d_model splits into heads of headDim: {dModel, headDim, divides, nHeads, perHead
  // (Q/K/V parameters of one head), allHeads (those of every head), outputProjection (W_O),
  // total (the layer's parameters)}.
  headSplit(dModel, headDim) {
    return guarded(this.#module, () => this.#module.headSplit(dModel, headDim));
  }

  // Parameters of one multi-head attention layer (W_Q, W_K, W_V, W_O and biases); the same
  // for every nHeads that divides dModel.
  attentionParameterCount(dModel, nHeads) {
    return guarded(this.#module, () => this.#module.attentionParameterCount(dModel, nHeads));
  }

  // The factor attention multiplies Q·Kᵀ by for key width dk: scoreMultiplier / √dk, or
  // scoreMultiplier alone with scale: false. options: {scale, scoreMultiplier}.
  attentionScoreScale(dk, options = {}) {
    return guarded(this.#module, () => this.#module.attentionScoreScale(dk, options));
  }

  // capacity: floats in each of the buffers a, b and c (see KernelWorkspace).
  createKernelWorkspace(capacity) {
    return new KernelWorkspace(this.#module, capacity);
  }

  // Bytes of the trace the traced kernel keeps for self-attention over n tokens, head width d
  // (four n×n matrices and the n×d output; ops/attention_memory.h) — also for n too large to run.
  tracedAttentionBytes(n, d) {
    return guarded(this.#module, () => this.#module.tracedAttentionBytes(n, d));
  }

  // files: as loadTrainedModel; a copy of the model for timing inside wasm (benchmarks).
  createModelBench(files) {
    return new ModelBench(this.#module, files);
  }
}

// moduleOptions go to Emscripten's factory; in Node pass {wasmBinary} (see tests/wasm).
export async function loadEngine(moduleOptions = {}) {
  return new Engine(await createAttentionModule(moduleOptions));
}
