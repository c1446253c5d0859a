// Models the reader opens from disk: GPT-2-layout checkpoints (config.json, model.safetensors,
// vocab.json, merges.txt; docs/own-models.md). The weights file is streamed into a buffer in
// wasm memory chunk by chunk, so it is never held whole in JS as well; the core then builds
// the model from that buffer (bindings/gpt2.cpp) and the buffer is freed. Nothing is uploaded:
// the files are read by the browser and stay in this tab.
import { EngineError, args, boolean, integer, openedModelOptions, options, refuse, text } from './contract.mjs';
import { guarded, guardedText } from './guarded.mjs';
import { unpackAnalysis } from './unpack.mjs';

const MAX_JSON_TEXT = 16_000_000; // vocab.json of GPT-2 is 1.0 MB; of larger vocabularies a few MB

// The four files by name from a FileList / array of Files (a picker or a drop), or null for
// the names that are missing: {config, weights, vocab, merges}.
export function pickGpt2Files(fileList) {
  const byName = new Map([...fileList].map((f) => [f.name, f]));
  const find = (...names) => names.map((n) => byName.get(n)).find(Boolean) ?? null;
  const weights = find('model.safetensors') ?? [...fileList].find((f) => f.name.endsWith('.safetensors')) ?? null;
  return {
    config: find('config.json'),
    weights,
    vocab: find('vocab.json', 'encoder.json'),
    merges: find('merges.txt', 'vocab.bpe'),
  };
}

// Copies a Blob (streamed) or a Uint8Array into a new ByteBuffer in wasm memory.
async function intoWasm(module, source, onProgress) {
  const total = source instanceof Uint8Array ? source.length : source.size;
  const buffer = guarded(module, 'openGpt2Model', () => new module.ByteBuffer(total));
  try {
    if (source instanceof Uint8Array) {
      buffer.view(0, total).set(source);
    } else {
      const reader = source.stream().getReader();
      for (let offset = 0; ;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (offset + value.length > total)
          throw new EngineError('openGpt2Model: the weights file grew while it was read', 'bad-model', {
            call: 'openGpt2Model',
          });
        buffer.view(offset, value.length).set(value); // a fresh view: memory growth detaches old ones
        offset += value.length;
        onProgress?.({ loaded: offset, total });
      }
    }
    return buffer;
  } catch (error) {
    buffer.delete();
    throw error;
  }
}

const asText = async (call, option, v) => {
  if (typeof v === 'string') return v;
  if (v && typeof v.text === 'function') return v.text();
  return refuse(call, option, 'a string or a File', v);
};

// files: {config, weights, vocab, merges}; weights a File/Blob or Uint8Array, the others
// strings or Files. onProgress({loaded, total}) follows the weights file. getModule() →
// Promise of the module to build the model in (one with the GPT-2 loader: Engine.full()),
// asked for once the files passed their checks, so a wrong file is refused without fetching it.
export async function openGpt2Model(getModule, files, { onProgress } = {}) {
  const call = 'openGpt2Model';
  if (!files || typeof files !== 'object') refuse(call, 'files', '{config, weights, vocab, merges}', files);
  const isBytes = files.weights instanceof Uint8Array || (files.weights && typeof files.weights.stream === 'function');
  if (!isBytes) refuse(call, 'weights', 'a File, Blob or Uint8Array (model.safetensors)', files.weights);
  const texts = await Promise.all([
    asText(call, 'config', files.config),
    asText(call, 'vocab', files.vocab),
    asText(call, 'merges', files.merges),
  ]);
  const [config, vocab, merges] = args(call, texts, {
    config: text(MAX_JSON_TEXT),
    vocab: text(MAX_JSON_TEXT),
    merges: text(MAX_JSON_TEXT),
  });
  const module = await getModule();
  const buffer = await intoWasm(module, files.weights, onProgress);
  try {
    const handle = guarded(module, call, () => new module.Gpt2Model(config, buffer, vocab, merges));
    return new Gpt2Model(module, handle);
  } finally {
    buffer.delete(); // the model holds its own copy of every weight
  }
}

// GPT-2's tokenizer alone (for checking it, or showing how a text splits).
export function loadBpeTokenizer(module, { vocab, merges }) {
  const call = 'loadBpeTokenizer';
  const [v, m] = args(call, [vocab, merges], { vocab: text(MAX_JSON_TEXT), merges: text(MAX_JSON_TEXT) });
  const handle = guarded(module, call, () => new module.BpeTokenizer(v, m));
  return {
    size: handle.size(),
    // encode(text) → {ids, tokens}
    encode: (s) => guarded(module, 'encode', () => handle.encode(args('encode', [s], { text: text() })[0])),
    delete: () => handle.delete(),
  };
}

// A causal language model opened from disk, with TrainedModel's interface for what applies:
// config.task is 'next-word' (and config.architecture 'gpt2'); analyze/analyzePacked give
// the trace and the next token's probabilities; generateSteps runs the KV-cache lesson. It has
// no word list (no vocabularyWords: nothing is ever unknown to a byte-level BPE).
export class Gpt2Model {
  #module;
  #handle;
  #analysisOptions;
  #probabilityOptions;

  constructor(module, handle) {
    this.#module = module;
    this.#handle = handle;
    this.config = guarded(module, 'config', () => handle.config());
    this.config.metadata = Object.freeze({}); // no trainer's keys (pronoun, splits, seeds) for panels to read
    this.parameterCount = this.config.parameterCount;
    this.#analysisOptions = openedModelOptions(this.config); // analyze's, and the layers to trace
    const { topK, layers, ...probabilityOptions } = this.#analysisOptions;
    this.#probabilityOptions = probabilityOptions;
  }

  #live(call) {
    if (!this.#handle) throw new EngineError(`${call}: this model was deleted`, 'deleted', { call });
    return this.#handle;
  }

  // guarded() for a call on text `t`: a too-long error says its token count and maxLen.
  #onText(call, t, fn) {
    const count = () => this.#handle.encode(t).tokens.length;
    return guardedText(this.#module, call, fn, count, this.config.maxLen);
  }

  analyzePacked(sentence, analysis = {}) {
    const handle = this.#live('analyzePacked');
    const [t] = args('analyzePacked', [sentence], { text: text() });
    const o = options('analyzePacked', analysis, this.#analysisOptions);
    return unpackAnalysis(this.#onText('analyzePacked', t, () => handle.analyzePacked(t, o)));
  }

  analyze(sentence, analysis = {}) {
    return this.analyzePacked(sentence, analysis);
  }

  // TrainedModel's probabilities(text, options) (analyze's options without topK and layers) →
  // {position, probabilities: Float32Array over the vocabulary, best, bestId}: the next token's,
  // analyze()'s numbers bit for bit without the trace (the knock-out panel's runs).
  probabilities(sentence, analysis = {}) {
    const handle = this.#live('probabilities');
    const [t] = args('probabilities', [sentence], { text: text() });
    const o = options('probabilities', analysis, this.#probabilityOptions);
    return this.#onText('probabilities', t, () => handle.probabilities(t, o));
  }

  // The index into probabilities() of a token as analyze shows it (" it"), or -1.
  wordId(token) {
    const handle = this.#live('wordId');
    const [w] = args('wordId', [token], { word: text(MAX_JSON_TEXT) });
    return guarded(this.#module, 'wordId', () => handle.wordId(w));
  }

  // logits(text) → Float32Array n×vocabSize: every position's next-token logits.
  logits(sentence) {
    const handle = this.#live('logits');
    const [t] = args('logits', [sentence], { text: text() });
    return this.#onText('logits', t, () => handle.logits(t));
  }

  // encode(text) → {ids, tokens}: how the BPE tokenizer splits a text.
  encode(sentence) {
    const handle = this.#live('encode');
    const [t] = args('encode', [sentence], { text: text() });
    return guarded(this.#module, 'encode', () => handle.encode(t));
  }

  generateSteps(prompt, maxNewTokens = 8, useCache = true) {
    const handle = this.#live('generateSteps');
    const [p, count, cache] = args('generateSteps', [prompt, maxNewTokens, useCache], {
      prompt: text(),
      maxNewTokens: integer(0),
      useCache: boolean(),
    });
    return this.#onText('generateSteps', p, () => handle.generateSteps(p, count, cache));
  }

  // generate() and generateCached() of a TrainedModel (the KV-cache panel times one against
  // the other): the new tokens of generateSteps without and with the cache.
  generate(prompt, maxNewTokens = 8) {
    return newTokens(this.generateSteps(prompt, maxNewTokens, false));
  }

  generateCached(prompt, maxNewTokens = 8) {
    return newTokens(this.generateSteps(prompt, maxNewTokens, true));
  }

  // True once delete() ran (a panel holding the model then asks the page for the next one).
  get deleted() {
    return this.#handle === null;
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

const newTokens = (g) => g.tokens.slice(g.promptLength);
