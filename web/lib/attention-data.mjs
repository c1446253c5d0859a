// Attention the author brings (from PyTorch, a paper, another model): the one data shape the
// data elements accept — <ae-attention-heatmap>, <ae-head-view>, <ae-head-grid> and
// <ae-attention-pattern> — and the JSON file format that holds it (docs/own-attention.md).
//   AttentionData = {
//     tokens: string[]                        self-attention: queries and keys are the same tokens
//     | queryTokens: string[], keyTokens: string[]   cross-attention (rows, columns)
//     weights: number[][][][]                 [layers][heads][queries][keys], each 0…1
//            | Float32Array (or number[])    row-major, with shape: [layers, heads, queries, keys]
//     shape?: [number, number, number, number]
//     labels?: {layers?: string[], heads?: string[]}   names shown instead of "Layer 1", "Head 1"
//     caption?: string
//   }
// A flat queries×keys array without shape is one matrix ([1][1][q][k]): what the main view
// passes its heatmap.
//   normalizeAttention(data) → {queryTokens, keyTokens, cross, layers, heads, q, k, weights
//     (Float32Array, row-major [l][h][i][j]), labels, caption}; throws AttentionDataError
//     (message says which field is wrong and how) on anything else
//   matrixOf(norm, layer, head) → that head's q×k weights (a view, no copy)
//   resultOf(norm) → the run shape the store-based panels read ({tokens, keyTokens, n, layers})
//   fromAttentionJson(object) → AttentionData, checking the file's format and version
//   loadAttentionJson(url | object) → Promise<AttentionData>
//   attentionReceiver({accept, fail}) → {set(data), load(url, base)}: what an element with `data` and
//     `src` does with them — set: accept(data, normalized), or fail(error) for data that cannot be
//     drawn (never a throw); load: the file at url (relative to base) to set, and a load started later wins over
//     an earlier one still on its way
// No DOM here: usable in Node (to check a file) and at import time anywhere.

export const FORMAT = 'attention-explorer/attention';
export const VERSION = 1;
const TOLERANCE = 1e-3; // weights a little outside 0…1 (float32 rounding of a softmax) still pass

export class AttentionDataError extends TypeError {
  constructor(message) {
    super(message);
    this.name = 'AttentionDataError';
  }
}

const fail = (message) => {
  throw new AttentionDataError(message);
};

function checkTokens(tokens, name) {
  if (!Array.isArray(tokens) || tokens.length === 0)
    fail(`${name} must be a non-empty array of strings (got ${describe(tokens)})`);
  tokens.forEach((t, i) => {
    if (typeof t !== 'string') fail(`${name}[${i}] must be a string (got ${describe(t)})`);
  });
  return [...tokens];
}

function describe(value) {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of ${value.length}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

const isFlat = (w) => ArrayBuffer.isView(w) || (Array.isArray(w) && (w.length === 0 || typeof w[0] === 'number'));

// Nested [L][H][Q][K] arrays → a Float32Array, checking every level's length.
function flatten(weights, dims) {
  const out = new Float32Array(dims.reduce((a, b) => a * b, 1));
  const names = ['layers', 'heads', 'queries', 'keys'];
  let at = 0;
  const walk = (node, depth, path) => {
    if (depth === 4) {
      out[at++] = typeof node === 'number' ? node : NaN;
      if (typeof node !== 'number') fail(`weights${path} must be a number (got ${describe(node)})`);
      return;
    }
    if (!Array.isArray(node) && !ArrayBuffer.isView(node))
      fail(`weights${path} must be an array of ${dims[depth]} ${names[depth]} (got ${describe(node)})`);
    if (node.length !== dims[depth])
      fail(
        `weights${path} has ${node.length} ${names[depth]}, expected ${dims[depth]}` +
          (depth >= 2 ? ` (the number of ${depth === 2 ? 'query' : 'key'} tokens)` : ''),
      );
    for (let i = 0; i < node.length; i++) walk(node[i], depth + 1, `${path}[${i}]`);
  };
  walk(weights, 0, '');
  return out;
}

function nestedDims(weights, q, k) {
  const l = weights.length;
  const h = Array.isArray(weights[0]) ? weights[0].length : NaN;
  if (!(l > 0) || !(h > 0))
    fail(`weights must be nested as [layers][heads][queries][keys] (got ${describe(weights)} at the top)`);
  return [l, h, q, k];
}

function checkLabels(labels, name, count) {
  if (labels === undefined) return null;
  if (!Array.isArray(labels) || labels.length !== count || labels.some((s) => typeof s !== 'string'))
    fail(`labels.${name} must be ${count} strings, one per ${name === 'layers' ? 'layer' : 'head'}`);
  return [...labels];
}

export function normalizeAttention(data) {
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    fail(`attention data must be an object {tokens, weights} (got ${describe(data)})`);
  const cross = data.tokens === undefined;
  if (cross && data.queryTokens === undefined)
    fail('attention data needs tokens (self-attention) or queryTokens and keyTokens (cross-attention)');
  const queryTokens = checkTokens(cross ? data.queryTokens : data.tokens, cross ? 'queryTokens' : 'tokens');
  const keyTokens = cross ? checkTokens(data.keyTokens, 'keyTokens') : queryTokens;
  const q = queryTokens.length,
    k = keyTokens.length;
  const { weights, shape } = data;
  if (weights === undefined) fail('attention data needs weights: [layers][heads][queries][keys]');

  let dims, flat;
  if (shape !== undefined) {
    if (!Array.isArray(shape) || shape.length !== 4 || !shape.every((d) => Number.isInteger(d) && d > 0))
      fail(`shape must be four positive integers [layers, heads, queries, keys] (got ${JSON.stringify(shape)})`);
    if (shape[2] !== q || shape[3] !== k)
      fail(`shape says ${shape[2]} queries × ${shape[3]} keys, but there are ${q} × ${k} tokens`);
    dims = [...shape];
    if (!isFlat(weights)) flat = flatten(weights, dims);
    else {
      const size = dims.reduce((a, b) => a * b, 1);
      if (weights.length !== size) fail(`weights holds ${weights.length} values; shape [${dims}] needs ${size}`);
      flat = weights instanceof Float32Array ? weights : Float32Array.from(weights);
    }
  } else if (isFlat(weights)) {
    // one matrix (the main view's own use): q×k values, row-major
    if (weights.length !== q * k)
      fail(
        `weights holds ${weights.length} values: a flat array needs shape [layers, heads, queries, keys], ` +
          `or exactly ${q}×${k} values for one matrix`,
      );
    dims = [1, 1, q, k];
    flat = weights instanceof Float32Array ? weights : Float32Array.from(weights);
  } else if (Array.isArray(weights)) {
    dims = nestedDims(weights, q, k);
    flat = flatten(weights, dims);
  } else fail(`weights must be nested arrays [layers][heads][queries][keys] or a Float32Array with shape`);

  for (let i = 0; i < flat.length; i++) {
    const w = flat[i];
    if (!(w >= -TOLERANCE && w <= 1 + TOLERANCE)) {
      const [, h, qq, kk] = dims;
      const at = [Math.floor(i / (h * qq * kk)), Math.floor(i / (qq * kk)) % h, Math.floor(i / kk) % qq, i % kk];
      fail(`weights[${at.join('][')}] is ${w}: attention weights must be numbers from 0 to 1 (after softmax)`);
    }
  }
  const labels = data.labels ?? {};
  if (typeof labels !== 'object') fail('labels must be an object {layers?, heads?}');
  return {
    queryTokens,
    keyTokens,
    cross,
    layers: dims[0],
    heads: dims[1],
    q,
    k,
    weights: flat,
    labels: {
      layers: checkLabels(labels.layers, 'layers', dims[0]),
      heads: checkLabels(labels.heads, 'heads', dims[1]),
    },
    caption: typeof data.caption === 'string' ? data.caption : '',
  };
}

export function matrixOf(norm, layer = 0, head = 0) {
  const size = norm.q * norm.k;
  const start = (layer * norm.heads + head) * size;
  return norm.weights.subarray(start, start + size);
}

// What <ae-head-view> and <ae-head-grid> read from a store's `result` (as a model's run has it).
export function resultOf(norm) {
  return {
    tokens: norm.queryTokens,
    keyTokens: norm.keyTokens,
    n: norm.q,
    labels: norm.labels,
    layers: Array.from({ length: norm.layers }, (_, l) => ({
      selfAttention: { heads: Array.from({ length: norm.heads }, (_, h) => ({ weights: matrixOf(norm, l, h) })) },
    })),
  };
}

// The JSON file (docs/own-attention.md) → AttentionData.
export function fromAttentionJson(json) {
  if (json === null || typeof json !== 'object')
    fail(`an attention file must hold a JSON object (got ${describe(json)})`);
  if (json.format !== FORMAT)
    fail(`not an attention file: "format" must be "${FORMAT}" (got ${JSON.stringify(json.format)})`);
  if (json.version !== VERSION)
    fail(
      `attention file version ${JSON.stringify(json.version)} is not supported (this package reads version ${VERSION})`,
    );
  const { tokens, queryTokens, keyTokens, weights, shape, labels, caption } = json;
  const data = { weights, ...(tokens !== undefined ? { tokens } : { queryTokens, keyTokens }) };
  if (shape !== undefined) data.shape = shape;
  if (labels !== undefined) data.labels = labels;
  if (caption !== undefined) data.caption = caption;
  normalizeAttention(data); // fail now, with the file's field names
  return data;
}

export async function loadAttentionJson(source) {
  if (typeof source === 'string' || source instanceof URL) {
    let response;
    try {
      response = await fetch(source);
    } catch (e) {
      fail(`could not load ${source}: ${e.message}`);
    }
    if (!response.ok) fail(`could not load ${source}: HTTP ${response.status}`);
    let json;
    try {
      json = await response.json();
    } catch (e) {
      fail(`${source} is not JSON (${e.message})`);
    }
    return fromAttentionJson(json);
  }
  return fromAttentionJson(source);
}

export function attentionReceiver({ accept, fail }) {
  let latest = 0;
  const set = (data) => {
    let norm;
    try {
      norm = normalizeAttention(data);
    } catch (error) {
      fail(error);
      return;
    }
    accept(data, norm);
  };
  const load = async (url, base) => {
    const generation = ++latest;
    if (!url) return;
    try {
      const data = await loadAttentionJson(new URL(url, base));
      if (generation === latest) set(data);
    } catch (error) {
      if (generation === latest) fail(error);
    }
  };
  return { set, load };
}
