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

  // Greedy completion (decoder models only): the new words, stopping at [SEP].
  generate(prompt, maxNewWords = 8) {
    if (!this.#handle) throw new Error('this model was deleted');
    return guarded(this.#module, () => this.#handle.generate(String(prompt), maxNewWords));
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
}

// moduleOptions go to Emscripten's factory; in Node pass {wasmBinary} (see tests/wasm).
export async function loadEngine(moduleOptions = {}) {
  return new Engine(await createAttentionModule(moduleOptions));
}
