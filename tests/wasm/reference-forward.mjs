// A second, plain implementation of a trained model's forward pass, written from
// docs/model-format.md and nothing else (no code of src/ or web/ is used): the directory's three
// files, the tokenizer rules, embeddings and positions, pre-/post-LN layers, attention, GELU,
// the tied or untied output head and the softmax over the vocabulary. It computes in double
// precision (JS numbers) from the stored weights (float32, float16, or int8 times their scales),
// so it differs from the float32 core only by rounding. tests/wasm/reference-forward.test.mjs holds the wasm module to it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

// --- files ------------------------------------------------------------------------------------

// binary16 → number, exactly ("every half is widened to F32 exactly").
function halfToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24; // zero and subnormals
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

// safetensors: u64 LE header length N, N bytes of JSON, then the data buffer. Dtypes F32, F16
// and I8; an I8 tensor holds integers q and its F32/F16 scale tensor `${name}_scale`, of shape
// [rows, 1] or [1, cols], gives value = q · scale (broadcast), rounded to float32.
// → {name: {shape, data: Float64Array (row-major)}}, the parameters only
const SIZES = { F32: 4, F16: 2, I8: 1 };
export function parseSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const base = 8 + headerLength;
  const stored = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const [begin, end] = entry.data_offsets;
    const size = SIZES[entry.dtype];
    if (!size) throw new Error(`reference: tensor ${name} has dtype ${entry.dtype}, expected F32, F16 or I8`);
    const count = (end - begin) / size;
    const data = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const at = base + begin + i * size;
      if (size === 4) data[i] = view.getFloat32(at, true);
      else if (size === 2) data[i] = halfToNumber(view.getUint16(at, true));
      else data[i] = view.getInt8(at);
    }
    stored[name] = { shape: entry.shape, dtype: entry.dtype, data };
  }
  const tensors = {};
  for (const [name, t] of Object.entries(stored)) {
    if (name.endsWith('_scale') && stored[name.slice(0, -'_scale'.length)]?.dtype === 'I8') continue;
    if (t.dtype !== 'I8') {
      tensors[name] = { shape: t.shape, data: t.data };
      continue;
    }
    const scale = stored[`${name}_scale`];
    if (!scale) throw new Error(`reference: I8 tensor ${name} has no ${name}_scale`);
    const [rows, cols] = t.shape;
    const perRow = scale.shape[0] === rows && scale.shape[1] === 1;
    if (!perRow && !(scale.shape[0] === 1 && scale.shape[1] === cols))
      throw new Error(`reference: ${name}_scale has shape [${scale.shape}], expected [${rows},1] or [1,${cols}]`);
    const data = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++)
        data[r * cols + c] = Math.fround(t.data[r * cols + c] * scale.data[perRow ? r : c]);
    tensors[name] = { shape: t.shape, data };
  }
  return tensors;
}

// vocab.txt: line k is id k−1; "\r\n" accepted; a final newline optional.
export function parseVocab(text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

export function loadReferenceModel(dir) {
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const weights = parseSafetensors(new Uint8Array(readFileSync(path.join(dir, 'model.safetensors'))));
  const tokens = parseVocab(readFileSync(path.join(dir, 'vocab.txt'), 'utf8'));
  return { config, weights, tokens, ids: new Map(tokens.map((t, i) => [t, i])) };
}

// --- tokens -------------------------------------------------------------------------------------

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0c, 0x0b, 0xa0, 0x3000]);
const CJK = [
  [0x4e00, 0x9fff],
  [0x3400, 0x4dbf],
  [0xf900, 0xfaff],
  [0x3000, 0x303f],
  [0xff00, 0xffef],
  [0x3040, 0x30ff],
  [0x20000, 0x2ffff],
];
const isSpace = (c) => WHITESPACE.has(c);
const isCjk = (c) => CJK.some(([lo, hi]) => c >= lo && c <= hi);
const isApostrophe = (c) => c === 0x27 || c === 0x2019;
function isWordChar(c) {
  if (c < 0x80) return /[A-Za-z0-9]/.test(String.fromCodePoint(c));
  return !isSpace(c) && !isCjk(c) && !isApostrophe(c) && !(c >= 0x2000 && c <= 0x206f);
}

// A word with an apostrophe splits once: before "n't" when the word ends in it and its first
// apostrophe is that one, else at the first apostrophe.
function pushWord(word, out) {
  const apostrophe = word.indexOf("'");
  if (apostrophe < 0) return void out.push(word);
  const negation = word.endsWith("n't") && apostrophe === word.length - 2;
  const cut = negation ? word.length - 3 : apostrophe;
  if (cut > 0) out.push(word.slice(0, cut));
  out.push(word.slice(cut));
}

const IDEOGRAPHS = [
  [0x4e00, 0x9fff],
  [0x3400, 0x4dbf],
  [0xf900, 0xfaff],
  [0x20000, 0x2ffff],
];
const isIdeograph = (c) => IDEOGRAPHS.some(([lo, hi]) => c >= lo && c <= hi);
const MAX_WORD_CHARS = 8;

// With a vocabulary (a Map word → id), a run of ideographs is cut into its longest words, left
// to right; a character that starts no word is a token of its own.
export function splitWords(text, vocabulary = null) {
  const cps = Array.from(text, (ch) => ch.codePointAt(0));
  const out = [];
  let word = '';
  const flush = () => {
    if (word) pushWord(word, out);
    word = '';
  };
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (vocabulary && isIdeograph(c)) {
      flush();
      let end = i + 1;
      while (end < cps.length && end - i < MAX_WORD_CHARS && isIdeograph(cps[end])) end++;
      while (end > i + 1 && !vocabulary.has(String.fromCodePoint(...cps.slice(i, end)))) end--;
      out.push(String.fromCodePoint(...cps.slice(i, end)));
      i = end - 1;
    } else if (isWordChar(c)) {
      word += c >= 0x41 && c <= 0x5a ? String.fromCodePoint(c + 32) : String.fromCodePoint(c);
    } else if (isApostrophe(c) && word && i + 1 < cps.length && isWordChar(cps[i + 1])) {
      word += "'";
    } else {
      flush();
      if (!isSpace(c)) out.push(isApostrophe(c) ? "'" : String.fromCodePoint(c));
    }
  }
  flush();
  return out;
}

// → {tokens, ids}; [CLS] first for word-order models; refuses empty and too-long inputs.
export function encode(model, text) {
  const tokens = splitWords(text, model.ids);
  if (model.config.task === 'word-order') tokens.unshift('[CLS]');
  if (tokens.length === (model.config.task === 'word-order' ? 1 : 0)) throw new Error('reference: empty sentence');
  if (tokens.length > model.config.max_len) throw new Error(`reference: ${tokens.length} tokens > max_len`);
  return { tokens, ids: tokens.map((t) => model.ids.get(t) ?? 1) };
}

// --- arithmetic on row-major matrices {rows, cols, data} ---------------------------------------

const matrix = (rows, cols) => ({ rows, cols, data: new Float64Array(rows * cols) });
const row = (m, r) => m.data.subarray(r * m.cols, (r + 1) * m.cols);

// x (n×in) · W (in×out) + b
function linear(x, weight, bias) {
  const [inDim, outDim] = weight.shape;
  const y = matrix(x.rows, outDim);
  for (let r = 0; r < x.rows; r++)
    for (let o = 0; o < outDim; o++) {
      let s = bias ? bias.data[o] : 0;
      for (let i = 0; i < inDim; i++) s += x.data[r * inDim + i] * weight.data[i * outDim + o];
      y.data[r * outDim + o] = s;
    }
  return y;
}

function layerNorm(x, gamma, beta, eps) {
  const y = matrix(x.rows, x.cols);
  for (let r = 0; r < x.rows; r++) {
    const v = row(x, r);
    const mean = v.reduce((a, b) => a + b, 0) / x.cols;
    const variance = v.reduce((a, b) => a + (b - mean) ** 2, 0) / x.cols; // biased
    const scale = 1 / Math.sqrt(variance + eps);
    for (let c = 0; c < x.cols; c++) y.data[r * x.cols + c] = (v[c] - mean) * scale * gamma.data[c] + beta.data[c];
  }
  return y;
}

const gelu = (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

function softmax(values) {
  const max = Math.max(...values);
  const e = values.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

function add(a, b) {
  const y = matrix(a.rows, a.cols);
  for (let i = 0; i < y.data.length; i++) y.data[i] = a.data[i] + b.data[i];
  return y;
}

// --- the model ----------------------------------------------------------------------------------

function embed(model, ids) {
  const { d_model: d, positional } = model.config;
  const w = model.weights;
  const x = matrix(ids.length, d);
  ids.forEach((id, p) => {
    for (let c = 0; c < d; c++) {
      let v = w.token_embedding.data[id * d + c];
      if (positional === 'learned') v += w.position_embedding.data[p * d + c];
      if (positional === 'sinusoidal') {
        const i = Math.floor(c / 2);
        const angle = p / 10000 ** ((2 * i) / d);
        v += c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
      }
      x.data[p * d + c] = v;
    }
  });
  return x;
}

// Rotates row p of a head's n×dh matrix pairwise (RoPE).
function rope(m, base) {
  const dh = m.cols;
  for (let p = 0; p < m.rows; p++)
    for (let i = 0; i < dh / 2; i++) {
      const theta = base ** ((-2 * i) / dh);
      const [a, b] = [m.data[p * dh + 2 * i], m.data[p * dh + 2 * i + 1]];
      m.data[p * dh + 2 * i] = a * Math.cos(p * theta) - b * Math.sin(p * theta);
      m.data[p * dh + 2 * i + 1] = a * Math.sin(p * theta) + b * Math.cos(p * theta);
    }
}

// Columns [j·dh, (j+1)·dh) of an n×d matrix.
function headColumns(m, j, dh) {
  const out = matrix(m.rows, dh);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < dh; c++) out.data[r * dh + c] = m.data[r * m.cols + j * dh + c];
  return out;
}

// → {output: n×d, weights: [head] n×n attention}
function multiHeadAttention(model, prefix, y) {
  const { d_model: d, n_heads: h, causal, positional, rope_base: ropeBase } = model.config;
  const w = model.weights;
  const project = (name) => linear(y, w[`${prefix}.${name}.weight`], w[`${prefix}.${name}.bias`]);
  const [q, k, v] = [project('wq'), project('wk'), project('wv')];
  const dh = d / h;
  const n = y.rows;
  const concat = matrix(n, d);
  const weights = [];
  for (let j = 0; j < h; j++) {
    const [qj, kj, vj] = [headColumns(q, j, dh), headColumns(k, j, dh), headColumns(v, j, dh)];
    if (positional === 'rope') {
      rope(qj, ropeBase);
      rope(kj, ropeBase);
    }
    const a = matrix(n, n);
    for (let r = 0; r < n; r++) {
      const scores = [];
      for (let c = 0; c < n; c++) {
        let s = 0;
        for (let i = 0; i < dh; i++) s += qj.data[r * dh + i] * kj.data[c * dh + i];
        scores.push(causal && c > r ? -Infinity : s / Math.sqrt(dh));
      }
      row(a, r).set(softmax(scores));
      for (let i = 0; i < dh; i++) {
        let s = 0;
        for (let c = 0; c < n; c++) s += a.data[r * n + c] * vj.data[c * dh + i];
        concat.data[r * d + j * dh + i] = s;
      }
    }
    weights.push(a);
  }
  return { output: linear(concat, w[`${prefix}.wo.weight`], w[`${prefix}.wo.bias`]), weights };
}

function feedForward(model, prefix, x) {
  const w = model.weights;
  const hidden = linear(x, w[`${prefix}.expand.weight`], w[`${prefix}.expand.bias`]);
  hidden.data.forEach((v, i) => {
    hidden.data[i] = gelu(v);
  });
  return linear(hidden, w[`${prefix}.project.weight`], w[`${prefix}.project.bias`]);
}

// → {tokens, ids, attention: [layer][head] n×n, probabilities: Float64Array(V) of the row read,
//    position (the row read)}
export function referenceForward(model, text) {
  const { config, weights: w } = model;
  if (config.cross_attention) throw new Error('reference: cross-attention models need an encoder output');
  const { tokens, ids } = encode(model, text);
  const eps = config.layer_norm_eps;
  const ln = (name, x) => layerNorm(x, w[`${name}.gamma`], w[`${name}.beta`], eps);
  let x = embed(model, ids);
  const attention = [];
  for (let l = 0; l < config.n_layers; l++) {
    const p = `layers.${l}`;
    if (config.norm === 'pre') {
      const mha = multiHeadAttention(model, `${p}.self_attn`, ln(`${p}.ln_self`, x));
      x = add(x, mha.output);
      x = add(x, feedForward(model, `${p}.ffn`, ln(`${p}.ln_ffn`, x)));
      attention.push(mha.weights);
    } else {
      const mha = multiHeadAttention(model, `${p}.self_attn`, x);
      x = ln(`${p}.ln_self`, add(x, mha.output));
      x = ln(`${p}.ln_ffn`, add(x, feedForward(model, `${p}.ffn`, x)));
      attention.push(mha.weights);
    }
  }
  const hidden = config.norm === 'pre' ? ln('final_norm', x) : x;
  const position = readPosition(config, tokens);
  const logits = outputLogits(model, row(hidden, position));
  return { tokens, ids, attention, position, probabilities: Float64Array.from(softmax(Array.from(logits))) };
}

// The row each task reads: the last pronoun (coreference: config.json's `pronoun`, "it" when
// absent), [CLS] (word-order), the last row (next-word).
function readPosition(config, tokens) {
  const task = config.task;
  if (task === 'coreference') {
    const pronoun = config.pronoun ?? 'it';
    const at = tokens.lastIndexOf(pronoun);
    if (at < 0) throw new Error(`reference: no "${pronoun}" in a coreference sentence`);
    return at;
  }
  return task === 'word-order' ? 0 : tokens.length - 1;
}

// Tied: h·token_embeddingᵀ + output_bias; untied (tie_output false): h·output_projection.weight + output_bias.
function outputLogits(model, h) {
  const { weights: w, config } = model;
  const d = config.d_model;
  const V = config.vocab_size;
  const logits = new Float64Array(V);
  for (let t = 0; t < V; t++) {
    let s = w.output_bias.data[t];
    for (let c = 0; c < d; c++)
      s +=
        h[c] *
        (config.tie_output === false
          ? w['output_projection.weight'].data[c * V + t]
          : w.token_embedding.data[t * d + c]);
    logits[t] = s;
  }
  return logits;
}
