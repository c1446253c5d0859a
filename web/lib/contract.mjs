// The input contract of the engine (web/lib/engine.mjs): every argument and option of every
// exported call is checked here, by type and range, before anything reaches wasm, and the
// call gets a clean copy (only known options, typed values). The core still checks what only
// it can judge (a sentence's length in tokens, a config's shape) and sets the code of its errors
// itself (src/util/error.h, ae::ErrorCode); nothing here reads a message to classify an error.
//
// Errors are EngineErrors: `message` for people, `code` and `details` for the page to translate
// (README, "Errors"). details.call names the call; a core error's details.field names the
// argument, option or config key at fault when there is one. Codes (the core's marked "core"):
//   bad-option      an argument or option of the wrong type or out of range;
//                   details {call, option, expected, got}
//   unknown-option  an option the call does not know (a typo); details {call, option, expected}
//   too-long        core: more tokens than the model's maxLen (config.maxLen; ae::check_token_count,
//                   field "sentence"/"prompt"/"sequence"/"text"); JS: text over MAX_TEXT_LENGTH
//   empty-input     core: an empty sentence, prompt or sequence (field: which)
//   no-pronoun      core: the coreference model got a sentence without its pronoun ("it", "它");
//                   details.pronoun (= field) is that pronoun
//   wrong-task      core: generate* on a model that is not a next-word decoder
//   bad-config      core: a random model's or a training session's config it refuses (e.g. heads
//                   not dividing dModel); field: the config key, e.g. "n_heads", "positional"
//   bad-model       core: model files that do not load (config.json, weights, vocabulary)
//   unknown-model   a model URL that answers with an HTTP error (404, …)
//   timeout         fetchTrainedModel got no answer within its timeout
//   out-of-memory   core: the call needed more memory than wasm can have
//   deleted         a model, workspace or bench used after delete()
//   bad-input       core: any other input it refuses (NaN in q, every key masked, …); field: the
//                   argument when there is one
//   internal        a trap inside wasm: a bug, after which the module may be broken (reload it);
//                   or a trace of another format version (trace.mjs: module and page differ)

export class EngineError extends Error {
  constructor(message, code, details = {}) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.details = details;
  }
}

// Largest text a call accepts (UTF-16 units). Models read at most maxLen tokens; this bound
// only keeps a pasted book from being copied into wasm memory before the core says so.
export const MAX_TEXT_LENGTH = 1_000_000;
// Longest word nearestWords and wordId take: a longer one is no typo of a known word, and the
// distance to every word costs its length in time.
export const MAX_WORD_LENGTH = 1000;
// Largest list (q, k, v, keyPadding, knockout, …): 2^24 entries, 64 MiB of float32.
export const MAX_LIST_LENGTH = 1 << 24;
const INT32_MAX = 2 ** 31 - 1;
const FLOAT32_MAX = 3.4028234663852886e38;

// A short, bounded picture of a value for messages: never the whole of a long string or array.
export function show(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of ${value.length}`;
  if (typeof value === 'function') return 'a function';
  return 'an object';
}

// Throws the bad-option EngineError: "call: option must be expected, got …".
export function refuse(call, option, expected, got) {
  throw new EngineError(`${call}: ${option} must be ${expected}, got ${show(got)}`, 'bad-option', {
    call,
    option,
    expected,
    got: show(got),
  });
}

// The 'deleted' EngineError of a model, workspace, bench or session used after delete().
export function deleted(call, what) {
  return new EngineError(`${call}: this ${what} was deleted`, 'deleted', { call });
}

// --- readers: (call, option, value) → the checked value --------------------------------------

export const boolean = () => (call, option, v) =>
  typeof v === 'boolean' ? v : refuse(call, option, 'true or false', v);

// Whole numbers in [min, max] (int32 by default, what the C++ side takes).
export const callback = () => (call, option, v) =>
  typeof v === 'function' ? v : refuse(call, option, 'a function', v);

export function integer(min = -INT32_MAX - 1, max = INT32_MAX) {
  const expected = `a whole number from ${min} to ${max}`;
  return (call, option, v) => (Number.isInteger(v) && v >= min && v <= max ? v : refuse(call, option, expected, v));
}

// Finite numbers, in [min, max] when bounds are given.
export function finite(min, max) {
  const expected = min === undefined ? 'a finite number' : `a finite number from ${min} to ${max}`;
  const [low, high] = min === undefined ? [-Number.MAX_VALUE, Number.MAX_VALUE] : [min, max];
  return (call, option, v) => (typeof v === 'number' && v >= low && v <= high ? v : refuse(call, option, expected, v));
}

// Unpaired UTF-16 surrogates become U+FFFD, each its own character: Emscripten's UTF-8
// encoder would otherwise merge a lone surrogate with the next character ("\uDC00 tired"
// became the one token "𐀠tired"). TextEncoder does the same replacement.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function text(maxLength = MAX_TEXT_LENGTH) {
  return (call, option, v) => {
    if (typeof v !== 'string') refuse(call, option, 'a string', v);
    if (v.length > maxLength)
      throw new EngineError(`${call}: ${option} has ${v.length} characters; the limit is ${maxLength}`, 'too-long', {
        call,
        option,
        expected: `at most ${maxLength} characters`,
        got: v.length,
      });
    return v.replace(LONE_SURROGATE, '\uFFFD');
  };
}

// A list: an Array or a typed array (never a string, whose characters are not numbers) of at
// most maxLength entries, each checked by `entry` (called with the option name `name[i]`).
function list(entry, { maxLength = MAX_LIST_LENGTH, what } = {}) {
  return (call, option, v) => {
    if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView)))
      refuse(call, option, `an array of ${what}`, v);
    if (v.length > maxLength) refuse(call, option, `an array of at most ${maxLength} ${what}`, v);
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = entry(call, `${option}[${i}]`, v[i]);
    return out;
  };
}

// Numbers for a matrix: finite, copied into a Float32Array (what the core reads).
export function numbers(maxLength = MAX_LIST_LENGTH) {
  // Finite as a float32 too: 1e39 would become Infinity in the copy.
  const isFinite = (call, option, x) =>
    typeof x === 'number' && Math.abs(x) <= FLOAT32_MAX
      ? x
      : refuse(call, option, 'a finite number (no NaN or infinity)', x);
  const read = list(isFinite, { maxLength, what: 'finite numbers' });
  return (call, option, v) =>
    v instanceof Float32Array && v.every(Number.isFinite) ? v : Float32Array.from(read(call, option, v));
}

// Mask flags: 0, 1, false or true each.
export const flags = () => {
  const flag = (call, option, x) =>
    x === 0 || x === 1 || typeof x === 'boolean' ? Number(x) : refuse(call, option, '0, 1, true or false', x);
  return list(flag, { what: 'flags (0 or 1)' });
};

export const integers = (min, max, maxLength) =>
  list(integer(min, max), { maxLength, what: `whole numbers from ${min} to ${max}` });

// [[layer, head], …]: pairs of whole numbers, at most one per head of a model of nLayers ×
// nHeads. Whether a pair is a head of the model is the C++ side's check (bindings.cpp).
export function headPairs(nLayers, nHeads) {
  const pair = (call, option, p) => {
    if (!Array.isArray(p) || p.length !== 2) refuse(call, option, 'a pair [layer, head]', p);
    return [integer()(call, `${option}[0] (layer)`, p[0]), integer()(call, `${option}[1] (head)`, p[1])];
  };
  return list(pair, { maxLength: nLayers * nHeads, what: '[layer, head] pairs' });
}

// An options object checked against a schema {name: reader}: undefined or null is {}; unknown
// names are refused (a typo such as `causl` would otherwise be ignored in silence); members that
// are undefined or null count as absent (their default). Returns a fresh object with only the
// checked members, each read once, so that no getter or prototype of the caller's object runs
// inside wasm; a getter that throws is a bad-option error.
export function options(call, value, schema, name = 'options') {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value))
    refuse(call, name, 'an object', value);
  const out = {};
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(schema, key)) {
      const expected = `one of ${Object.keys(schema).join(', ')}`;
      throw new EngineError(
        `${call}: unknown option ${JSON.stringify(key)}; known: ${Object.keys(schema).join(', ')}`,
        'unknown-option',
        { call, option: key, expected },
      );
    }
    const member = readMember(call, value, key);
    if (member != null) out[key] = schema[key](call, key, member);
  }
  return out;
}

function readMember(call, object, key) {
  try {
    return object[key];
  } catch (e) {
    throw new EngineError(`${call}: reading the option ${key} threw: ${e?.message ?? e}`, 'bad-option', {
      call,
      option: key,
      expected: 'a readable value',
      got: 'an error',
      cause: e,
    });
  }
}

// Checks positional arguments: args[i] against readers[i] named names[i].
export function args(call, values, readers) {
  return Object.entries(readers).map(([name, read], i) => read(call, name, values[i]));
}

// --- schemas shared by several calls ---------------------------------------------------------

// A multiplier of the scores beyond ±1000 makes every row one-hot anyway; the bound keeps
// float32 scores finite (3e38 turned every weight into NaN).
const MAX_SCORE_MULTIPLIER = 1000;

export const runOptions = {
  causal: boolean(),
  window: integer(0),
  scale: boolean(),
  scoreMultiplier: finite(-MAX_SCORE_MULTIPLIER, MAX_SCORE_MULTIPLIER),
};

const SEED_MAX = Number.MAX_SAFE_INTEGER; // seeds cross as doubles: whole and exact below 2^53
export const seed = integer(0, SEED_MAX);

// {config, weights, vocab} of a trained model: two texts and a Uint8Array.
export function modelFiles(call, files) {
  const bytes = (c, option, v) =>
    v instanceof Uint8Array ? v : refuse(c, option, 'a Uint8Array (model.safetensors)', v);
  const [config, weights, vocab] = args(call, [files.config, files.weights, files.vocab], {
    config: text(),
    weights: bytes,
    vocab: text(),
  });
  return { config, weights, vocab };
}

// {causal, window, scale, scoreMultiplier, knockout, ablate, topK} of TrainedModel.analyze,
// bounded by the model's config.
export function analysisOptions(config) {
  return {
    ...runOptions,
    // Positions: whole numbers, at most maxLen of them; whether each is in the sentence is the core's check.
    knockout: integers(-INT32_MAX - 1, INT32_MAX, config.maxLen),
    ablate: headPairs(config.nLayers, config.nHeads),
    topK: integer(1, config.vocabSize),
  };
}

// analysisOptions plus `layers` for a model opened from disk (own-model.mjs): the 0-based layers
// to trace, each at most once in effect; the others run untraced (docs/own-models.md#memory).
export function openedModelOptions(config) {
  return { ...analysisOptions(config), layers: integers(0, config.nLayers - 1, config.nLayers) };
}

// The EngineError for an error the core threw in `call`: {code, message, field} as the core set
// them (bindings.cpp, takeException; src/util/error.h). The field names what the error is about:
// an argument or config key, or for no-pronoun the pronoun the sentence lacks.
export function coreError({ code, message, field }, call) {
  const details = { call };
  if (field) details.field = field;
  if (code === 'no-pronoun') details.pronoun = field;
  return new EngineError(message, code, details);
}
