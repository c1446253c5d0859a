// The input contract (web/lib/contract.mjs) as a table: every exported call, each argument and
// option with values of the wrong type or out of range, each row expecting an EngineError of a
// given code whose message names the option — or, for valid and coerced-by-design input, a
// given value. The rows are generated from the compact lists below; the test prints the counts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { EngineError } from '../../web/lib/contract.mjs';
import {
  KernelWorkspace,
  ModelBench,
  RandomModel,
  TrainedModel,
  Engine,
  fetchModelFiles,
} from '../../web/lib/engine.mjs';
import { TrainingSession } from '../../index.mjs'; // the package's entry: engine.mjs leaves it to the full module
import { loadNodeBenchEngine, loadNodeEngine, loadNodeFullEngine, shippedConfig, shippedModel } from './helpers.mjs';
import { editSafetensors, float32Bytes } from './safetensors-edit.mjs';
import { DECODER_PROMPT, LESSON } from '../../web/lib/lesson.mjs';

// The shipped models' shapes, for the rows that sit just past a limit.
const ENCODER = shippedConfig('coref-encoder');
const DECODER = shippedConfig('coref-decoder');
const ENCODER_HEADS = ENCODER.n_layers * ENCODER.n_heads;

let engine, fullEngine, benchEngine, coref, decoder, random, workspace, bench, training, gpt2;
before(async () => {
  engine = await loadNodeEngine();
  coref = engine.loadTrainedModel(shippedModel('coref-encoder'));
  decoder = engine.loadTrainedModel(shippedModel('coref-decoder'));
  random = engine.createRandomModel({ seed: 3 });
  workspace = engine.createKernelWorkspace(64);
  benchEngine = await loadNodeBenchEngine(); // createModelBench is only in the benchmarks' module
  bench = benchEngine.createModelBench(shippedModel('coref-encoder'));
  fullEngine = await loadNodeFullEngine(); // the trainer and GPT-2's tokenizer are only in the full module
  training = fullEngine.createTrainingSession({ task: 'word-order', steps: 3 });
  gpt2 = await engine.openGpt2Model({
    ...bpeFiles(),
    config: gpt2File('config.json').toString('utf8'),
    weights: gpt2Weights(),
  });
});

// --- wrong values by kind ---------------------------------------------------------------------
const NOT_BOOLEAN = ['false', 'true', 0, 1, {}, [], 'yes', NaN];
const NOT_INTEGER = [1.5, NaN, Infinity, -Infinity, '3', true, 2 ** 31, -(2 ** 31) - 1, 1e12, [3], {}];
const NOT_NATURAL = [...NOT_INTEGER, -1]; // also refused: below 0
const NOT_FINITE = [NaN, Infinity, -Infinity, '1', true, {}, [1], 3e38, -1e4]; // |x| ≤ 1000 for scoreMultiplier
const NOT_TEXT = [42, true, {}, ['it'], null, 7n];
const NOT_NUMBERS4 = [
  '1001',
  5,
  { length: 1e8 },
  [NaN, 0, 0, 1],
  ['1', 0, 0, 1],
  {},
  true,
  [Infinity, 0, 0, 1],
  [1e39, 0, 0, 1],
  new Float32Array([NaN, 0, 0, 1]),
  new DataView(new ArrayBuffer(16)),
];
const NOT_FLAGS2 = [[0, 256], [0, -1], [0, 0.5], '01', { length: 1e8 }, [0, '1'], [0, null], 7];
const NOT_POSITIONS = [[0.5], [2 ** 31], { length: 1e8 }, '0', [NaN], 3, [[0]], Array(ENCODER.max_len + 1).fill(0)];
const NOT_HEAD_PAIRS = [
  [[0]],
  [['0', 0]],
  [[0, NaN]],
  [0, 0],
  'x',
  [[0.5, 0]],
  [[0, 0, 0]],
  { length: 1e8 },
  Array(ENCODER_HEADS + 1).fill([0, 0]),
];
const NOT_OPTIONS = ['causal', 5, true, [1], new Float32Array(1)];

const identity2 = { q: [1, 0, 0, 1], k: [1, 0, 0, 1], v: [1, 2, 3, 4], n: 2, m: 2, dk: 2 };
const SENTENCE = LESSON.tired;

const rows = [];
// Rows expecting an EngineError with `code` whose message names `option`.
function refused(call, option, values, run, code = 'bad-option') {
  for (const value of values)
    rows.push({
      kind: 'error',
      call,
      label: `${call} ${option} = ${describe(value)}`,
      run: () => run(value),
      code,
      fragment: option,
    });
}
// A row expecting `check(result)` to hold: kind 'valid' or 'coerced' (by design, documented).
function accepted(kind, call, label, run, check) {
  rows.push({ kind, call, label: `${call} ${label}`, run, check });
}
function describe(v) {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof DataView) return 'DataView';
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}[${v.length}]`;
  if (Array.isArray(v) && v.length > 4) return `Array(${v.length})`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
const same = (expected) => (actual) => assert.deepEqual(actual, expected);

// --- attention ----------------------------------------------------------------------------------
const attention = (extra) => () => engine.attention({ ...identity2, ...extra });
for (const name of ['q', 'k', 'v']) refused('attention', name, NOT_NUMBERS4, (x) => attention({ [name]: x })());
for (const name of ['n', 'm', 'dk', 'dv']) refused('attention', name, NOT_INTEGER, (x) => attention({ [name]: x })());
for (const name of ['causal', 'scale']) refused('attention', name, NOT_BOOLEAN, (x) => attention({ [name]: x })());
refused('attention', 'window', NOT_INTEGER, (x) => attention({ window: x })());
refused('attention', 'queryOffset', [...NOT_NATURAL, 2 ** 31 - 2], (x) => attention({ queryOffset: x })());
refused('attention', 'keyPadding', NOT_FLAGS2, (x) => attention({ keyPadding: x })());
refused('attention', 'scoreMultiplier', NOT_FINITE, (x) => attention({ scoreMultiplier: x })());
refused('attention', 'causl', [true], (x) => attention({ causl: x })(), 'unknown-option');
refused('attention', 'args', NOT_OPTIONS, (x) => engine.attention(x));
refused('attention', 'q has 3 values', [[1, 0, 0]], (x) => attention({ q: x })(), 'bad-input');
refused(
  'attention',
  'give the shapes',
  [undefined],
  (n) => engine.attention({ q: [1], k: [1], v: [1], n }),
  'bad-input',
);
refused('attention', 'empty sequence', [0], (n) => attention({ n, q: [] })(), 'empty-input');
refused('attention', 'key_padding has 1 flags', [[1]], (x) => attention({ keyPadding: x })(), 'bad-input');
refused('attention', 'every key is masked', [[1, 1]], (x) => attention({ keyPadding: x })(), 'bad-input');
const identityWeights = [0.6697615385055542, 0.3302384614944458, 0.3302384614944458, 0.6697615385055542];
const weightsOf = (expected) => (r) => assert.deepEqual(Array.from(r.weights), expected);
accepted('valid', 'attention', 'identity', attention({}), weightsOf(identityWeights));
accepted('valid', 'attention', 'causal: false', attention({ causal: false }), weightsOf(identityWeights));
accepted(
  'valid',
  'attention',
  'causal: true masks the future',
  attention({ causal: true }),
  weightsOf([1, 0, identityWeights[2], identityWeights[3]]),
);
accepted('valid', 'attention', 'keyPadding [0, 1]', attention({ keyPadding: [0, 1] }), weightsOf([1, 0, 1, 0]));
accepted('valid', 'attention', 'scale: false', attention({ scale: false }), (r) =>
  assert.ok(r.weights[0] > identityWeights[0]),
);
accepted(
  'valid',
  'attention',
  'scoreMultiplier: 1000 (the bound)',
  attention({ scoreMultiplier: 1000 }),
  weightsOf([1, 0, 0, 1]),
);
accepted(
  'valid',
  'attention',
  'options undefined count as absent',
  attention({ causal: undefined, window: undefined }),
  weightsOf(identityWeights),
);
accepted('valid', 'attention', 'queryOffset 2^31 − 1 − n', attention({ queryOffset: 2 ** 31 - 3, causal: true }), (r) =>
  assert.equal(r.weights.length, 4),
);
accepted(
  'coerced',
  'attention',
  'keyPadding [false, true] (booleans as flags)',
  attention({ keyPadding: [false, true] }),
  weightsOf([1, 0, 1, 0]),
);
accepted(
  'coerced',
  'attention',
  'q as Float64Array (copied to float32)',
  attention({ q: new Float64Array([1, 0, 0, 1]) }),
  weightsOf(identityWeights),
);

// --- RandomModel: createRandomModel and run ------------------------------------------------------
for (const name of ['dModel', 'nHeads', 'nLayers', 'maxLen', 'vocabSize'])
  refused('createRandomModel', name, NOT_INTEGER, (x) => engine.createRandomModel({ [name]: x }));
refused('createRandomModel', 'dFF', NOT_NATURAL, (x) => engine.createRandomModel({ dFF: x }));
refused('createRandomModel', 'causal', NOT_BOOLEAN, (x) => engine.createRandomModel({ causal: x }));
refused('createRandomModel', 'seed', [-1, 0.5, 2 ** 53, '1', NaN, Infinity], (x) =>
  engine.createRandomModel({ seed: x }),
);
refused('createRandomModel', 'positional', [42, true], (x) => engine.createRandomModel({ positional: x }));
refused('createRandomModel', 'norm', [42, {}], (x) => engine.createRandomModel({ norm: x }));
refused(
  'createRandomModel',
  'unknown positional encoding "alibi"',
  ['alibi'],
  (x) => engine.createRandomModel({ positional: x }),
  'bad-config',
);
refused(
  'createRandomModel',
  'n_heads (4) must divide d_model (30)',
  [4],
  (x) => engine.createRandomModel({ dModel: 30, nHeads: x }),
  'bad-config',
);
refused('createRandomModel', 'nlayers', [2], (x) => engine.createRandomModel({ nlayers: x }), 'unknown-option');
refused('createRandomModel', 'config', NOT_OPTIONS, (x) => engine.createRandomModel(x));
accepted(
  'valid',
  'createRandomModel',
  'null config is the default',
  () => engine.createRandomModel(null).config.dModel,
  (d) => assert.equal(d, random.config.dModel),
);
refused('run', 'text', NOT_TEXT, (x) => random.run(x));
for (const name of ['causal', 'scale']) refused('run', name, NOT_BOOLEAN, (x) => random.run('it was', { [name]: x }));
refused('run', 'window', NOT_NATURAL, (x) => random.run('it was', { window: x }));
refused('run', 'scoreMultiplier', NOT_FINITE, (x) => random.run('it was', { scoreMultiplier: x }));
refused('run', 'knockout', [[0]], (x) => random.run('it was', { knockout: x }), 'unknown-option');
refused('run', 'sequence is empty', ['   '], (x) => random.run(x), 'empty-input');
accepted('valid', 'run', 'two words', () => random.run('it was').tokens, same(['it', 'was']));
accepted(
  'coerced',
  'run',
  'a lone low surrogate is U+FFFD, its own token',
  () => random.run('\uDC00 tired').tokens,
  same(['\uFFFD', 'tired']),
);

// --- TrainedModel: analyze, analyzePacked -----------------------------------------------------------
for (const call of ['analyze', 'analyzePacked']) {
  const run = (text, o) => coref[call](text, o);
  refused(call, 'text', NOT_TEXT, (x) => run(x));
  for (const name of ['causal', 'scale']) refused(call, name, NOT_BOOLEAN, (x) => run(SENTENCE, { [name]: x }));
  refused(call, 'window', NOT_NATURAL, (x) => run(SENTENCE, { window: x }));
  refused(call, 'scoreMultiplier', NOT_FINITE, (x) => run(SENTENCE, { scoreMultiplier: x }));
  refused(call, 'knockout', NOT_POSITIONS, (x) => run(SENTENCE, { knockout: x }));
  refused(call, 'ablate', NOT_HEAD_PAIRS, (x) => run(SENTENCE, { ablate: x }));
  refused(call, 'topK', [0, -1, 1.5, ENCODER.vocab_size + 1, '5', NaN, 1e9], (x) => run(SENTENCE, { topK: x }));
  refused(call, 'top_k', [3], (x) => run(SENTENCE, { top_k: x }), 'unknown-option');
  refused(call, 'options', NOT_OPTIONS, (x) => run(SENTENCE, x));
  refused(call, 'is empty', ['', '  ', '\n\t'], (x) => run(x), 'empty-input');
  refused(call, 'has no "it"', ['the cat sat'], (x) => run(x), 'no-pronoun');
  refused(
    call,
    `this model reads at most ${ENCODER.max_len}`,
    ['it '.repeat(ENCODER.max_len + 1)],
    (x) => run(x),
    'too-long',
  );
  refused(call, 'limit is 1000000', ['x'.repeat(1_000_001)], (x) => run(x), 'too-long');
  refused(call, 'is outside the sentence', [[20], [-1], [31]], (x) => run('it was', { knockout: x }), 'bad-input');
  refused(
    call,
    `is not a head of this model (${ENCODER.n_layers} layers × ${ENCODER.n_heads} heads)`,
    [[[ENCODER.n_layers, 0]], [[0, ENCODER.n_heads]], [[-1, 0]]],
    (x) => run(SENTENCE, { ablate: x }),
    'bad-input',
  );
  accepted('valid', call, 'predicts "animal"', () => run(SENTENCE).prediction.token, same('animal'));
  accepted(
    'valid',
    call,
    'topK = vocabSize lists every word',
    () => run(SENTENCE, { topK: ENCODER.vocab_size }).prediction.top.length,
    same(ENCODER.vocab_size),
  );
  accepted('valid', call, 'topK 1', () => run(SENTENCE, { topK: 1 }).prediction.top.length, same(1));
  accepted(
    'valid',
    call,
    'knockout and ablate',
    () => run(SENTENCE, { knockout: [0, 1], ablate: [[2, 0]] }).n,
    same(13),
  );
  accepted('valid', call, 'null options', () => run(SENTENCE, null).prediction.token, same('animal'));
  accepted(
    'coerced',
    call,
    '"\\uDC00 tired" keeps "tired" a word',
    () => run('\uDC00 it was tired').tokens,
    same(['\uFFFD', 'it', 'was', 'tired']),
  );
}

// --- TrainedModel: probabilities, wordId ---------------------------------------------------------------
const probabilities = (text, o) => coref.probabilities(text, o);
refused('probabilities', 'text', NOT_TEXT, (x) => probabilities(x));
for (const name of ['causal', 'scale'])
  refused('probabilities', name, NOT_BOOLEAN, (x) => probabilities(SENTENCE, { [name]: x }));
refused('probabilities', 'window', NOT_NATURAL, (x) => probabilities(SENTENCE, { window: x }));
refused('probabilities', 'scoreMultiplier', NOT_FINITE, (x) => probabilities(SENTENCE, { scoreMultiplier: x }));
refused('probabilities', 'knockout', NOT_POSITIONS, (x) => probabilities(SENTENCE, { knockout: x }));
refused('probabilities', 'ablate', NOT_HEAD_PAIRS, (x) => probabilities(SENTENCE, { ablate: x }));
refused('probabilities', 'topK', [3], (x) => probabilities(SENTENCE, { topK: x }), 'unknown-option');
refused('probabilities', 'options', NOT_OPTIONS, (x) => probabilities(SENTENCE, x));
refused('probabilities', 'is empty', ['', '  '], (x) => probabilities(x), 'empty-input');
refused('probabilities', 'has no "it"', ['the cat sat'], (x) => probabilities(x), 'no-pronoun');
refused(
  'probabilities',
  `this model reads at most ${ENCODER.max_len}`,
  ['it '.repeat(ENCODER.max_len + 1)],
  (x) => probabilities(x),
  'too-long',
);
refused(
  'probabilities',
  'is outside the sentence',
  [[20], [-1]],
  (x) => probabilities('it was', { knockout: x }),
  'bad-input',
);
refused(
  'probabilities',
  `is not a head of this model (${ENCODER.n_layers} layers × ${ENCODER.n_heads} heads)`,
  [[[ENCODER.n_layers, 0]]],
  (x) => probabilities(SENTENCE, { ablate: x }),
  'bad-input',
);
accepted('valid', 'probabilities', 'the best word is "animal"', () => probabilities(SENTENCE).best, same('animal'));
accepted(
  'valid',
  'probabilities',
  'one per vocabulary word',
  () => probabilities(SENTENCE).probabilities.length,
  same(ENCODER.vocab_size),
);
accepted(
  'valid',
  'probabilities',
  'read at "it"',
  () => probabilities(SENTENCE).position,
  (p) => assert.equal(p, coref.analyze(SENTENCE).prediction.position),
);
refused('wordId', 'word', NOT_TEXT, (x) => coref.wordId(x));
refused('wordId', 'limit is 1000', ['x'.repeat(1001)], (x) => coref.wordId(x), 'too-long');
accepted('valid', 'wordId', 'a word the vocabulary lacks is -1', () => coref.wordId('qqqq'), same(-1));
accepted(
  'valid',
  'wordId',
  'indexes probabilities()',
  () => probabilities(SENTENCE).probabilities[coref.wordId('animal')],
  (p) => assert.equal(p, coref.analyze(SENTENCE, { topK: 1 }).prediction.probability),
);

// --- TrainedModel: generate, generateSteps, generateCached --------------------------------------------
const PROMPT = DECODER_PROMPT.wide;
for (const call of ['generate', 'generateSteps', 'generateCached']) {
  refused(call, 'maxNewWords', [-1, NaN, 'abc', 1.5, Infinity, 2 ** 31, true, [2]], (x) => decoder[call](PROMPT, x));
  refused(call, 'prompt', NOT_TEXT, (x) => decoder[call](x, 2));
  refused(
    call,
    `this model reads at most ${DECODER.max_len}`,
    ['the '.repeat(DECODER.max_len + 8)],
    (x) => decoder[call](x, 2),
    'too-long',
  );
  refused(call, 'the prompt is empty', [''], (x) => decoder[call](x, 2), 'empty-input');
  refused(call, 'only a next-word (decoder) model', [PROMPT], (x) => coref[call](x, 2), 'wrong-task');
  accepted(
    'valid',
    call,
    'maxNewWords 0 writes nothing',
    () => {
      const r = decoder[call](PROMPT, 0);
      return call === 'generateSteps' ? r.steps.length : r.length;
    },
    same(0),
  );
}
refused('generateSteps', 'useCache', NOT_BOOLEAN, (x) => decoder.generateSteps(PROMPT, 2, x));
accepted('valid', 'generate', 'the decoder answers "street"', () => decoder.generate(PROMPT, 1), same(['street']));
accepted(
  'valid',
  'generate',
  'maxNewWords 2^31 − 1 stops at maxLen',
  () => decoder.generate(PROMPT, 2 ** 31 - 1).length <= DECODER.max_len,
  same(true),
);
accepted('valid', 'generateCached', 'the same as generate', () => decoder.generateCached(PROMPT, 1), same(['street']));
accepted(
  'valid',
  'generateSteps',
  'the same word, without the cache',
  () => decoder.generateSteps(PROMPT, 1, false).steps[0].token,
  same('street'),
);

// --- TrainedModel: vocabularyWords, nearestWords, encodeWords ----------------------------------------
refused('nearestWords', 'word', NOT_TEXT, (x) => coref.nearestWords(x, 3));
refused('nearestWords', 'limit is 1000', ['x'.repeat(1001)], (x) => coref.nearestWords(x, 3), 'too-long');
refused('nearestWords', 'k', NOT_NATURAL, (x) => coref.nearestWords('animal', x));
refused('nearestWords', 'maxDistance', NOT_INTEGER, (x) => coref.nearestWords('animal', 3, x));
refused('encodeWords', 'text', NOT_TEXT, (x) => coref.encodeWords(x));
accepted(
  'valid',
  'vocabularyWords',
  'has no special token',
  () => coref.vocabularyWords().some((w) => w.startsWith('[')),
  same(false),
);
accepted(
  'valid',
  'nearestWords',
  'a known word is its own nearest',
  () => coref.nearestWords('animal', 1),
  same([{ word: 'animal', distance: 0 }]),
);
accepted('valid', 'nearestWords', 'k 0 gives nothing', () => coref.nearestWords('animal', 0), same([]));
accepted(
  'valid',
  'encodeWords',
  'a sentence analyze refuses (no "it")',
  () => coref.encodeWords('the cat sat').tokens,
  same(['the', 'cat', 'sat']),
);

// --- loadTrainedModel, createModelBench ---------------------------------------------------------------
const files = () => shippedModel('coref-encoder');
for (const call of ['loadTrainedModel', 'createModelBench']) {
  const load = (patch) => (call === 'createModelBench' ? benchEngine : engine)[call]({ ...files(), ...patch });
  refused(call, 'config', [42, null, {}], (x) => load({ config: x }));
  refused(call, 'vocab', [42, ['a']], (x) => load({ vocab: x }));
  refused(call, 'weights', [[1, 2], 'abc', new Float32Array(4), new ArrayBuffer(8)], (x) => load({ weights: x }));
  refused(call, 'config: invalid JSON', ['{'], (x) => load({ config: x }), 'bad-model');
  refused(call, 'safetensors', [new Uint8Array(9)], (x) => load({ weights: x }), 'bad-model');
  refused(call, 'vocabulary line 1', ['a\nb\n'], (x) => load({ vocab: x }), 'bad-model');
}
accepted(
  'valid',
  'loadTrainedModel',
  'the shipped encoder',
  () => engine.loadTrainedModel(files()).config.task,
  same('coreference'),
);

// Quantized weights that break a rule of docs/model-format.md ("Quantized tensors"), built from
// the shipped decoder (I8 matrices with F32 scales) with the container itself left valid.
const quantizedFiles = () => shippedModel('coref-decoder');
const QUANTIZED = 'layers.0.ffn.expand.weight';
const QUANTIZED_SCALE = `${QUANTIZED}_scale`;
const hostileWeights = {
  [`is I8 but its scale tensor '${QUANTIZED_SCALE}' is missing`]: (p) => delete p.tensors[QUANTIZED_SCALE],
  [`scale tensor '${QUANTIZED_SCALE}' has shape [256], expected [64,1] (one scale per row) or [1,256]`]: (p) => {
    p.tensors[QUANTIZED_SCALE].shape = [256];
  },
  [`scale tensor '${QUANTIZED_SCALE}' holds nan at element 3; a scale must be a finite number`]: (p) =>
    p.tensors[QUANTIZED_SCALE].data.set(float32Bytes([NaN]), 12),
  [`scale tensor '${QUANTIZED_SCALE}' must be F32 or F16, got I8`]: (p) => {
    const scale = p.tensors[QUANTIZED_SCALE];
    Object.assign(scale, { dtype: 'I8', data: scale.data.subarray(0, scale.data.length / 4) });
  },
  [`tensor '${QUANTIZED}' holds inf at element 0; a model with non-finite weights cannot run`]: (p) => {
    const q = p.tensors[QUANTIZED].data;
    q[0] = 15; // 15 × 3e38 overflows float32
    p.tensors[QUANTIZED_SCALE].data.set(float32Bytes([3e38]), 0);
  },
  ['unsupported dtype I4 (expected F32, F16 or I8)']: (p) => {
    p.tensors[QUANTIZED].dtype = 'I4';
  },
  ["tensor 'layers.0.ffn.expand.bias' is I8, but only 2-D tensors (matrices) can be quantized"]: (p) => {
    const bias = p.tensors['layers.0.ffn.expand.bias'];
    Object.assign(bias, { dtype: 'I8', data: bias.data.subarray(0, bias.data.length / 2) });
  },
  [`a scale belongs to an I8 tensor, but '${QUANTIZED}' is stored as F32`]: (p) => {
    const q = p.tensors[QUANTIZED];
    Object.assign(q, {
      dtype: 'F32',
      data: float32Bytes(Array.from(new Int8Array(q.data.buffer, q.data.byteOffset, q.data.length))),
    });
  },
};
for (const [message, edit] of Object.entries(hostileWeights))
  refused(
    'loadTrainedModel',
    message,
    [editSafetensors(quantizedFiles().weights, edit)],
    (x) => engine.loadTrainedModel({ ...quantizedFiles(), weights: x }),
    'bad-model',
  );
accepted(
  'valid',
  'loadTrainedModel',
  'the shipped decoder, quantized, taken apart and put together again',
  () =>
    engine.loadTrainedModel({ ...quantizedFiles(), weights: editSafetensors(quantizedFiles().weights, () => {}) })
      .config.task,
  same('next-word'),
);

// --- loadBpeTokenizer (openGpt2Model is async: tests/wasm/gpt2.test.mjs) ------------------------------
const gpt2File = (name) => readFileSync(new URL(`../fixtures/gpt2-tiny/${name}`, import.meta.url));
const gpt2Weights = () => new Uint8Array(gpt2File('model.safetensors'));
const bpeFiles = () => ({
  vocab: readFileSync(new URL('../fixtures/gpt2-tiny/vocab.json', import.meta.url), 'utf8'),
  merges: readFileSync(new URL('../fixtures/gpt2-tiny/merges.txt', import.meta.url), 'utf8'),
});
refused('loadBpeTokenizer', 'vocab', [42, null, ['a']], (x) =>
  fullEngine.loadBpeTokenizer({ ...bpeFiles(), vocab: x }),
);
refused('loadBpeTokenizer', 'merges', [42, {}], (x) => fullEngine.loadBpeTokenizer({ ...bpeFiles(), merges: x }));
refused(
  'loadBpeTokenizer',
  'vocab.json',
  ['{}', '[1]'],
  (x) => fullEngine.loadBpeTokenizer({ ...bpeFiles(), vocab: x }),
  'bad-model',
);
refused(
  'loadBpeTokenizer',
  'merges.txt: line 2',
  ['#version: 0.2\na b c\n'],
  (x) => fullEngine.loadBpeTokenizer({ ...bpeFiles(), merges: x }),
  'bad-model',
);
accepted(
  'valid',
  'loadBpeTokenizer',
  'the tiny fixture',
  () => fullEngine.loadBpeTokenizer(bpeFiles()).size,
  same(320),
);

// --- an opened GPT-2 model's analyzePacked: layers, the layers to trace (3 in the tiny fixture) ---
const gpt2Layers = (x) => gpt2.analyzePacked('The animal', { layers: x }).tracedLayers;
refused('analyzePacked', 'layers', [[3], [-1], [0.5], '0', 0, [NaN], { length: 1e8 }, [0, 1, 2, 0]], gpt2Layers);
refused('analyzePacked', 'lyers', [[0]], (x) => gpt2.analyzePacked('The animal', { lyers: x }), 'unknown-option');
accepted('valid', 'analyzePacked', 'layers [] traces none', () => gpt2Layers([]), same([]));
accepted('valid', 'analyzePacked', 'layers [2, 0]', () => gpt2Layers([2, 0]), same([0, 2]));
accepted('valid', 'analyzePacked', 'no layers: every layer', () => gpt2Layers(undefined), same([0, 1, 2]));
refused('probabilities', 'layers', [[0]], (x) => gpt2.probabilities('The animal', { layers: x }), 'unknown-option');
refused('probabilities', 'is outside the text', [[9]], (x) => gpt2.probabilities('it', { knockout: x }), 'bad-input');
accepted(
  'valid',
  'probabilities',
  "of an opened model: analyze's next token bit for bit, knock-out included",
  () => {
    const o = { knockout: [1] };
    const { token, probability } = gpt2.analyzePacked('The animal', { ...o, topK: 1 }).prediction;
    const p = gpt2.probabilities('The animal', o);
    return [p.best === token, p.probabilities[p.bestId] === probability, gpt2.wordId(p.best) === p.bestId];
  },
  same([true, true, true]),
);

// --- ModelBench ---------------------------------------------------------------------------------------
refused('analyzeTiming', 'reps', [1.5, NaN, '3', 2 ** 31], (x) => bench.analyzeTiming(SENTENCE, x));
refused(
  'analyzeTiming',
  'reps must be 1 … 100000',
  [0, 2 ** 31 - 1, 100_001],
  (x) => bench.analyzeTiming(SENTENCE, x),
  'bad-input',
);
refused('analyzeTiming', 'text', NOT_TEXT, (x) => bench.analyzeTiming(x, 1));
accepted('valid', 'analyzeTiming', 'one rep', () => bench.analyzeTiming(SENTENCE, 1).reps, same(1));
for (const name of ['steps', 'batchSize', 'examples', 'seed'])
  refused('trainingThroughput', name, [-1, 1.5, 'x', NaN, name === 'seed' ? 2 ** 53 : 1e12], (x) =>
    bench.trainingThroughput({ [name]: x }),
  );
refused('trainingThroughput', 'step', [1], (x) => bench.trainingThroughput({ step: x }), 'unknown-option');
accepted(
  'valid',
  'trainingThroughput',
  'one step',
  () => bench.trainingThroughput({ steps: 1, batchSize: 2, examples: 4 }).steps,
  same(1),
);

// --- createTrainingSession, TrainingSession ------------------------------------------------------------
// On the page's module neither the trainer nor GPT-2's tokenizer is there: an error that says where.
refused(
  'createTrainingSession',
  'the trainer is not in the page',
  [{}],
  (x) => engine.createTrainingSession(x),
  'unavailable',
);
refused(
  'loadBpeTokenizer',
  "GPT-2's tokenizer is not in the page",
  [bpeFiles()],
  (x) => engine.loadBpeTokenizer(x),
  'unavailable',
);
const train = (patch) => fullEngine.createTrainingSession({ task: 'word-order', steps: 2, ...patch });
refused('createTrainingSession', 'task', ['coref', 42], (x) => fullEngine.createTrainingSession({ task: x }));
accepted(
  'valid',
  'createTrainingSession',
  'task: null is the default task, as when it is left out',
  () => {
    const s = fullEngine.createTrainingSession({ task: null, steps: 2 });
    s.delete();
    return s.settings.task;
  },
  same('coref-encoder'),
);
refused('createTrainingSession', 'positional', ['absolute', 1], (x) => train({ positional: x }));
refused('createTrainingSession', 'steps', [0, 1.5, 20_001, '5'], (x) => train({ steps: x }));
refused('createTrainingSession', 'heads', [0, 9, 2.5], (x) => train({ heads: x }));
refused('createTrainingSession', 'layers', [0, 5], (x) => train({ layers: x }));
refused('createTrainingSession', 'batch', [0, 129], (x) => train({ batch: x }));
refused('createTrainingSession', 'learningRate', [0, NaN, 0.06, '0.01'], (x) => train({ learningRate: x }));
refused('createTrainingSession', 'seed', [-1, 2 ** 53, 1.5], (x) => train({ seed: x }));
refused('createTrainingSession', 'stepz', [3], (x) => train({ stepz: x }), 'unknown-option');
refused('createTrainingSession', 'settings', ['word-order', 5], (x) => fullEngine.createTrainingSession(x));
// What only the core can judge: heads against d_model, an odd coreference batch.
refused(
  'createTrainingSession',
  'training settings: heads must divide d_model = 32',
  [3],
  (x) => train({ heads: x }),
  'bad-config',
);
refused(
  'createTrainingSession',
  'training settings: batch must be even',
  [7],
  (x) => fullEngine.createTrainingSession({ batch: x }),
  'bad-config',
);
refused(
  'createTrainingSession',
  'batch must be a whole number from 2 to 128',
  [1],
  (x) => fullEngine.createTrainingSession({ batch: x }),
  'bad-config',
);
accepted(
  'valid',
  'createTrainingSession',
  "word order takes the recipe's defaults",
  () => {
    const s = train({});
    s.delete();
    return [s.settings.heads, s.settings.layers, s.settings.positional];
  },
  same([2, 2, 'rope']),
);
refused('step', 'count', [-1, 1.5, 'x', 20_001], (x) => training.step(x));
accepted('valid', 'step', 'one step', () => training.step(1).step, same(1));
accepted(
  'valid',
  'step',
  'zero steps: a report of nothing run, null where a mean would be NaN',
  () => training.step(0),
  (r) => assert.deepEqual([r.ran, r.loss, r.accuracy, r.learningRate], [0, null, null, null]),
);
accepted(
  'valid',
  'validationAccuracy',
  'a share',
  () => training.validationAccuracy(),
  (a) => assert.ok(a >= 0 && a <= 1),
);
accepted(
  'valid',
  'snapshot',
  'the lesson pair',
  () => training.snapshot().lesson.map((l) => l.text),
  same(['猫追狗', '狗追猫']),
);
refused('exportFiles', 'dtype', ['f64', 16], (x) => training.exportFiles({ dtype: x }));
refused('exportFiles', 'name', [42], (x) => training.exportFiles({ name: x }));
refused('exportFiles', 'nmae', ['x'], (x) => training.exportFiles({ nmae: x }), 'unknown-option');
accepted(
  'valid',
  'exportFiles',
  'loads as a model',
  () => engine.loadTrainedModel(training.exportFiles({ name: 'x' })).config.task,
  same('word-order'),
);

// --- Engine's other calls ---------------------------------------------------------------------------
refused('tokenize', 'text', NOT_TEXT, (x) => engine.tokenize(x));
refused('tokenize', 'limit is 1000000', ['a'.repeat(1_000_001)], (x) => engine.tokenize(x), 'too-long');
accepted('valid', 'tokenize', 'a sentence', () => engine.tokenize("It wasn't"), same(['it', 'was', "n't"]));
accepted(
  'valid',
  'tokenize',
  'a surrogate pair stays one character',
  () => engine.tokenize('\uD83D\uDE00'),
  (t) => assert.equal(t.join(''), '\uD83D\uDE00'),
);
for (const [what, text, tokens] of [
  ['"\\uDC00 tired": U+FFFD, then "tired"', '\uDC00 tired', ['\uFFFD', 'tired']],
  ['"a\\uD800 b": the high surrogate alone is U+FFFD', 'a\uD800 b', ['a\uFFFD', 'b']],
])
  accepted('coerced', 'tokenize', what, () => engine.tokenize(text), same(tokens));
for (const name of ['n', 'd'])
  refused('sinusoidalTable', name, NOT_INTEGER, (x) =>
    engine.sinusoidalTable(name === 'n' ? x : 4, name === 'd' ? x : 4),
  );
refused('sinusoidalTable', 'd must be even', [3], (d) => engine.sinusoidalTable(4, d), 'bad-input');
accepted(
  'valid',
  'sinusoidalTable',
  '(1, 2) is [sin 0, cos 0]',
  () => Array.from(engine.sinusoidalTable(1, 2)),
  same([0, 1]),
);
refused('ropeRotate', 'vec', NOT_NUMBERS4, (x) => engine.ropeRotate(x, 1));
refused('ropeRotate', 'position', NOT_INTEGER, (x) => engine.ropeRotate([1, 0], x));
refused('ropeRotate', 'base', [NaN, Infinity, '10', true], (x) => engine.ropeRotate([1, 0], 1, x));
refused('ropeRotate', 'base must be more than 1', [1, -5], (x) => engine.ropeRotate([1, 0], 1, x), 'bad-input');
accepted(
  'valid',
  'ropeRotate',
  'position 0 is the identity',
  () => Array.from(engine.ropeRotate([1, 0], 0)),
  same([1, 0]),
);
refused('wordOrderRoles', 'text', NOT_TEXT, (x) => engine.wordOrderRoles(x));
accepted(
  'valid',
  'wordOrderRoles',
  '猫追狗',
  () => engine.wordOrderRoles('猫追狗'),
  same({ agent: '猫', verb: '追', patient: '狗' }),
);
accepted(
  'valid',
  'gemmKernelNames',
  'lists the scalar kernel',
  () => engine.gemmKernelNames().includes('f32_gemm__scalar'),
  same(true),
);
accepted(
  'valid',
  'memoryStats',
  'has a stack pointer',
  () => Number.isInteger(engine.memoryStats().stackPointer),
  same(true),
);
for (const name of ['m', 'd'])
  refused('fusedAttentionScratchBytes', name, NOT_INTEGER, (x) =>
    engine.fusedAttentionScratchBytes(name === 'm' ? x : 4, name === 'd' ? x : 4),
  );
refused('fusedAttentionScratchBytes', 'masked', NOT_BOOLEAN, (x) => engine.fusedAttentionScratchBytes(4, 4, x));
accepted(
  'valid',
  'fusedAttentionScratchBytes',
  'a number',
  () => typeof engine.fusedAttentionScratchBytes(4, 4),
  same('number'),
);
for (const name of ['d', 'keys', 'queries'])
  refused('scalingDemo', name, NOT_INTEGER, (x) => engine.scalingDemo({ [name]: x }));
refused('scalingDemo', 'seed', [-1, 0.5, 2 ** 53, 'x'], (x) => engine.scalingDemo({ seed: x }));
refused('scalingDemo', 'scale', NOT_BOOLEAN, (x) => engine.scalingDemo({ scale: x }));
refused('scalingDemo', 'dims', [4], (x) => engine.scalingDemo({ dims: x }), 'unknown-option');
accepted(
  'valid',
  'scalingDemo',
  'd 4, 8 keys, 2 queries',
  () => engine.scalingDemo({ d: 4, keys: 8, queries: 2 }).weights.length,
  same(16),
);
refused('rowEntropy', 'weights', NOT_NUMBERS4, (x) => engine.rowEntropy(x));
refused('rowEntropy', 'must be finite and ≥ 0', [[-1, 2]], (x) => engine.rowEntropy(x), 'bad-input');
accepted(
  'valid',
  'rowEntropy',
  'uniform over 2 is ln 2',
  () => engine.rowEntropy([0.5, 0.5]),
  (h) => assert.ok(Math.abs(h - Math.LN2) < 1e-6),
);
for (const name of ['dModel', 'headDim'])
  refused('headSplit', name, NOT_INTEGER, (x) =>
    engine.headSplit(name === 'dModel' ? x : 8, name === 'headDim' ? x : 8),
  );
accepted('valid', 'headSplit', '32 in heads of 8', () => engine.headSplit(32, 8).nHeads, same(4));
for (const name of ['dModel', 'nHeads'])
  refused('attentionParameterCount', name, NOT_INTEGER, (x) =>
    engine.attentionParameterCount(name === 'dModel' ? x : 8, name === 'nHeads' ? x : 2),
  );
accepted(
  'valid',
  'attentionParameterCount',
  'dModel 8: 4·(8·8 + 8)',
  () => engine.attentionParameterCount(8, 2),
  same(288),
);
refused('attentionScoreScale', 'dk', NOT_INTEGER, (x) => engine.attentionScoreScale(x));
refused('attentionScoreScale', 'scale', NOT_BOOLEAN, (x) => engine.attentionScoreScale(4, { scale: x }));
refused('attentionScoreScale', 'scoreMultiplier', NOT_FINITE, (x) =>
  engine.attentionScoreScale(4, { scoreMultiplier: x }),
);
refused('attentionScoreScale', 'causal', [true], (x) => engine.attentionScoreScale(4, { causal: x }), 'unknown-option');
accepted('valid', 'attentionScoreScale', '1/√4', () => engine.attentionScoreScale(4), same(0.5));
for (const name of ['n', 'd'])
  refused('tracedAttentionBytes', name, NOT_INTEGER, (x) =>
    engine.tracedAttentionBytes(name === 'n' ? x : 4, name === 'd' ? x : 4),
  );
refused('tracedAttentionBytes', 'must not be negative', [-1], (x) => engine.tracedAttentionBytes(x, 64), 'bad-input');
accepted(
  'valid',
  'tracedAttentionBytes',
  '(16384, 64) exact past 2^32',
  () => engine.tracedAttentionBytes(16384, 64),
  same(4_299_161_600),
);
accepted(
  'valid',
  'tracedAttentionBytes',
  '(65536, 128) exact',
  () => engine.tracedAttentionBytes(65536, 128),
  same((4 * 65536 * 65536 + 65536 * 128) * 4),
);
accepted('valid', 'tracedAttentionBytes', '(2, 3): 4·4 + 6 floats', () => engine.tracedAttentionBytes(2, 3), same(88));
refused('createKernelWorkspace', 'capacity', NOT_INTEGER, (x) => engine.createKernelWorkspace(x));
refused('createKernelWorkspace', 'capacity must be ≥ 1', [0], (x) => engine.createKernelWorkspace(x), 'bad-input');
// 3 buffers of 2 GiB or more: refused by malloc before wasm memory grows (no growth is kept).
refused(
  'createKernelWorkspace',
  'out of memory',
  [2 ** 29, 2 ** 31 - 1],
  (x) => engine.createKernelWorkspace(x),
  'out-of-memory',
);

// --- KernelWorkspace ----------------------------------------------------------------------------------
refused('fillRandom', 'seed', [-1, 0.5, 'x', NaN], (x) => workspace.fillRandom(x));
for (const name of ['m', 'n', 'k'])
  refused('reserveGemm', name, [1.5, NaN, '3', -1], (x) =>
    workspace.reserveGemm(...['m', 'n', 'k'].map((o) => (o === name ? x : 2))),
  );
refused('gemm', 'variant', [42, null, {}], (x) => workspace.gemm(x, 2, 2, 2));
refused('gemm', 'unknown variant', ['f32_gemm__nope'], (x) => workspace.gemm(x, 2, 2, 2), 'bad-input');
for (const name of ['m', 'n', 'k'])
  refused('gemm', name, [1.5, NaN, '3', 2 ** 31], (x) =>
    workspace.gemm('f32_gemm__scalar', ...['m', 'n', 'k'].map((o) => (o === name ? x : 2))),
  );
refused('gemm', 'transposeB', NOT_BOOLEAN, (x) => workspace.gemm('f32_gemm__scalar', 2, 2, 2, x));
for (const call of ['attentionFused', 'attentionTraced']) {
  refused(call, 'n', [1.5, NaN, '4'], (x) => workspace[call](x, 4));
  refused(call, 'causal', ['true', 1], (x) => workspace[call](2, 4, x));
  refused(call, 'window', [0.5, '1'], (x) => workspace[call](2, 4, false, x));
  accepted(
    'valid',
    call,
    'n 2, d 4',
    () => {
      workspace.fillRandom(1);
      workspace[call](2, 4);
      return Number.isFinite(workspace.c[0]);
    },
    same(true),
  );
}
accepted('valid', 'reserveGemm', '2×2×2', () => workspace.reserveGemm(2, 2, 2), same(undefined));
accepted(
  'valid',
  'gemm',
  'scalar 2×2×2',
  () => {
    workspace.gemm('f32_gemm__scalar', 2, 2, 2);
    return Number.isFinite(workspace.c[0]);
  },
  same(true),
);
accepted('valid', 'fillRandom', 'seed 2^53 − 1', () => workspace.fillRandom(2 ** 53 - 1), same(undefined));

// --- the table ----------------------------------------------------------------------------------------
test(`bad-input table: ${rows.length} rows, each a specific error or a specific value`, () => {
  const failures = [];
  for (const row of rows) {
    try {
      const result = row.run();
      if (row.kind === 'error') failures.push(`${row.label}: no error, returned ${describe(result)}`);
      else row.check(result);
    } catch (e) {
      if (row.kind !== 'error') failures.push(`${row.label}: ${e.code ?? ''} ${e.message}`);
      else if (!(e instanceof EngineError) || e.code !== row.code || !e.message.includes(row.fragment))
        failures.push(`${row.label}: expected ${row.code} naming "${row.fragment}", got ${e.code} ${e.message}`);
      else if (
        row.code === 'bad-option' &&
        !(e.details.option.startsWith(row.fragment) && 'expected' in e.details && 'got' in e.details)
      )
        failures.push(`${row.label}: details ${JSON.stringify(e.details)}`);
    }
  }
  const count = (kind) => rows.filter((r) => r.kind === kind).length;
  console.log(
    `# rows: ${rows.length}; clear error ${count('error')}, valid ${count('valid')}, coerced by design ${count('coerced')}`,
  );
  assert.deepEqual(failures, []);
});

test('the table covers every exported call', () => {
  // Not rows: delete(), the workspace's views a, b, c, fetchTrainedModel (async, tested below),
  // openGpt2Model (async, tests/wasm/gpt2.test.mjs), full (async, tests/wasm/full-module.test.mjs),
  // loadTranslationModel and openTranslationModel (the full module's; tests/wasm/translation.test.mjs).
  const elsewhere = new Set([
    'constructor',
    'delete',
    'a',
    'b',
    'c',
    'fetchTrainedModel',
    'openGpt2Model',
    'full',
    'loadTranslationModel',
    'openTranslationModel',
  ]);
  const exported = [Engine, RandomModel, TrainedModel, KernelWorkspace, ModelBench, TrainingSession]
    .flatMap((cls) => Object.getOwnPropertyNames(cls.prototype))
    .filter((m) => !elsewhere.has(m));
  const covered = new Set(rows.map((r) => r.call));
  assert.deepEqual(
    exported.filter((m) => !covered.has(m)),
    [],
  );
});

test('fetchTrainedModel gives up after timeoutMs with code timeout, and an HTTP error is unknown-model', async () => {
  const never = (url, { signal }) =>
    new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
  await assert.rejects(
    engine.fetchTrainedModel('http://example.invalid/m/', never, { timeoutMs: 50 }),
    (e) => e.code === 'timeout' && /no answer within 0.05 s/.test(e.message),
  );
  const notFound = async () => ({ ok: false, status: 404 });
  await assert.rejects(
    engine.fetchTrainedModel('http://example.invalid/m/', notFound),
    (e) => e.code === 'unknown-model' && /HTTP 404/.test(e.message),
  );
  await assert.rejects(
    engine.fetchTrainedModel('http://example.invalid/m/', notFound, { timeoutMs: -1 }),
    (e) => e.code === 'bad-option' && /timeoutMs/.test(e.message),
  );
});

// fetchModelFiles: the same download without an engine (the page fetches a model while its engine
// compiles); its files load as the ones on disk do, and its errors name it.
test('fetchModelFiles gives the three files as loadTrainedModel takes them, and its errors name it', async () => {
  const dir = new URL('../../web/models/coref-encoder/', import.meta.url);
  const fromDisk = async (url) => {
    const bytes = readFileSync(new URL(url.pathname.split('/').pop(), dir));
    return {
      ok: true,
      status: 200,
      headers: new Headers(),
      body: null,
      text: async () => bytes.toString('utf8'),
      arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    };
  };
  const seen = [];
  const files = await fetchModelFiles('http://example.invalid/coref-encoder/', fromDisk, {
    onProgress: (p) => seen.push(p),
  });
  assert.deepEqual(Object.keys(files).sort(), ['config', 'vocab', 'weights']);
  assert.ok(files.weights instanceof Uint8Array);
  assert.deepEqual(files, { ...shippedModel('coref-encoder') });
  assert.equal(seen.at(-1).loaded, files.weights.byteLength);
  const model = engine.loadTrainedModel(files);
  const disk = engine.loadTrainedModel(shippedModel('coref-encoder'));
  try {
    assert.deepEqual(model.analyze(LESSON.tired).prediction, disk.analyze(LESSON.tired).prediction);
  } finally {
    model.delete();
    disk.delete();
  }
  const notFound = async () => ({ ok: false, status: 404 });
  await assert.rejects(
    fetchModelFiles('http://example.invalid/m/', notFound),
    (e) => e.code === 'unknown-model' && e.details.call === 'fetchModelFiles' && /HTTP 404/.test(e.message),
  );
  await assert.rejects(
    fetchModelFiles('http://example.invalid/m/', notFound, { timeoutMs: 0 }),
    (e) => e.code === 'bad-option' && /fetchModelFiles/.test(e.message),
  );
});

test('a deleted model, workspace or bench says so with code deleted', () => {
  const m = engine.createRandomModel({});
  m.delete();
  assert.throws(
    () => m.run('it'),
    (e) => e.code === 'deleted',
  );
  const t = engine.loadTrainedModel(shippedModel('coref-encoder'));
  t.delete();
  assert.throws(
    () => t.analyze('it'),
    (e) => e.code === 'deleted',
  );
});
