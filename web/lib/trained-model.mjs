// The engine's trained models (engine.mjs, Engine.loadTrainedModel and loadTranslationModel):
// JS objects over a C++ model, every input checked against the contract (contract.mjs), every
// call guarded, the trace unpacked by name (unpack.mjs).
import {
  MAX_WORD_LENGTH,
  analysisOptions,
  args,
  boolean,
  deleted,
  integer,
  modelFiles,
  options,
  text,
} from './contract.mjs';
import { guarded, guardedText } from './guarded.mjs';
import { unpackAnalysis } from './unpack.mjs';

// A model trained by `npm run train` (a directory under web/models/).
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

function deepFreeze(value) {
  if (value && typeof value === 'object') for (const v of Object.values(Object.freeze(value))) deepFreeze(v);
  return value;
}
