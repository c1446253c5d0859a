// The live figure of each step of the path (path-steps.mjs): one number the page already shows,
// read where it is shown — the main view's run in the shared store, or the data-* attributes and
// cells a lesson panel publishes for its own numbers (every panel writes the engine's values
// unrounded there). No model math here: a figure is found (the largest of shown weights, a
// shown cell), never computed; only the cost step squares n, which is its point.
//   readFigure(id, {store, doc}) → {value, params} or null while the panel has no such number
//     value   the number itself (what the tests compare with the panel or the engine)
//     params  the values of the step's sentence in strings/path.mjs (figures.<id>), as shown
// A panel that asks for a guess first (predict-then-reveal) hides its numbers: readFigure then
// gives {guess: true}, and the path waits for the guess too.
import { coreferenceHead, coreferenceRow } from './coreference-head.mjs';
import { selectedToken } from './default-token.mjs';
import { pronounOf } from './model-lesson.mjs';
import { pathStep } from './path-steps.mjs';

const fixed = (x, digits = 2) => {
  const s = Number(x).toFixed(digits);
  return s.startsWith('-') ? `\u2212${s.slice(1)}` : s;
};
// A change that may be tiny (a head whose removal hardly matters): its size stays readable.
const small = (x) =>
  Math.abs(x) >= 0.001 || x === 0 ? fixed(x, 3) : Number(x).toExponential(1).replace('-', '\u2212');
const percent = (p) => `${(Number(p) * 100).toFixed(2)}%`;

// The largest of `items` by `of(item)`, or null.
const largest = (items, of) => items.reduce((best, item) => (best === null || of(item) > of(best) ? item : best), null);

// The shadow root of the panel in `section` (a <section> of index.html around its element).
function panelOf(doc, section) {
  const host = doc.getElementById(section)?.firstElementChild;
  return host?.shadowRoot ? host : null;
}

// The main view's run: the weight the answer's pronoun gives its most attended word in the
// coreference head — the row the focus strip draws (coreferenceRow: the last it/它, where the
// answer is read). Without that row (a model with no named head, a sentence without the pronoun):
// the head on view, at the first pronoun or the selected word.
function sentence({ store }) {
  const { result, config, layer, head } = store.get();
  if (!result?.layers?.length) return null;
  const focus = coreferenceRow(result, config);
  const named = focus ?? coreferenceHead(config) ?? { layer, head };
  const weights = result.layers[named.layer]?.selfAttention.heads[named.head]?.weights;
  if (!weights) return null;
  const n = result.tokens.length;
  const i = focus ? focus.row : pronounRow(result.tokens, config);
  const j = largest([...Array(n).keys()], (k) => weights[i * n + k]);
  const value = weights[i * n + j];
  return {
    value,
    params: {
      query: result.tokens[i],
      key: result.tokens[j],
      weight: fixed(value),
      layer: named.layer + 1,
      head: named.head + 1,
    },
  };
}

function pronounRow(tokens, config) {
  const pronoun = pronounOf(config).toLowerCase(); // it, 它
  const found = tokens.findIndex((t) => String(t).toLowerCase() === pronoun);
  return found >= 0 ? found : selectedToken(tokens, null);
}

// The Q, K, V panel's table for its query word: the row whose key matches best (largest q·k).
function qkvRow(host) {
  const rows = [...host.shadowRoot.querySelectorAll('tr[data-raw]')];
  const top = largest(rows, (tr) => Number(tr.dataset.raw));
  if (!top) return null;
  const tokens = [...host.shadowRoot.querySelectorAll('tr[data-raw] > th')].map((th) => th.textContent);
  return { top, query: tokens[Number(host.dataset.query)] ?? '', key: top.querySelector('th')?.textContent ?? '' };
}

function qkv({ doc }) {
  const host = panelOf(doc, 'qkv');
  const row = host && qkvRow(host);
  if (!row) return null;
  const value = Number(row.top.dataset.raw);
  return { value, params: { query: row.query, key: row.key, raw: fixed(value) } };
}

function fourSteps({ doc }) {
  const host = panelOf(doc, 'qkv');
  const row = host && qkvRow(host);
  if (!row) return null;
  const { raw, scaled, weight } = row.top.dataset;
  return {
    value: Number(weight),
    params: { key: row.key, raw: fixed(raw), scaled: fixed(scaled), weight: fixed(weight, 3), d: host.dataset.d },
  };
}

function scaling({ doc }) {
  const host = panelOf(doc, 'scaling');
  const { d, scoreStd } = host?.dataset ?? {};
  if (!d || !scoreStd) return null;
  return { value: Number(scoreStd), params: { d, root: fixed(Math.sqrt(Number(d))), spread: fixed(scoreStd) } };
}

function multiHead({ doc }) {
  const host = panelOf(doc, 'multihead');
  const cells = host ? [...host.shadowRoot.querySelectorAll('td[data-head][data-weight]')] : [];
  const top = largest(cells, (td) => Number(td.dataset.weight));
  if (!top) return null;
  const value = Number(top.dataset.weight);
  const query = host.shadowRoot.querySelectorAll('tbody tr > th')[Number(host.dataset.query)]?.textContent ?? '';
  return {
    value,
    params: {
      heads: host.dataset.heads,
      width: host.dataset.headDim,
      head: Number(top.dataset.head) + 1,
      layer: Number(host.dataset.layer) + 1,
      query,
      key: top.parentElement.querySelector('th')?.textContent ?? '',
      weight: fixed(value),
    },
  };
}

function positions({ doc }) {
  const host = panelOf(doc, 'positions');
  const row = host?.shadowRoot.querySelector('tr[data-encoding="none"]');
  const { answerA, probA, answerB, probB } = row?.dataset ?? {};
  if (!answerA || !probA || !answerB || !probB) return null;
  return {
    value: Number(probA),
    params: { a: host.dataset.a, b: host.dataset.b, answerA, answerB, pa: percent(probA), pb: percent(probB) },
  };
}

// The causal panel's weights: "it"'s weight on the word after it (masked: exactly 0).
function causalMask({ doc }) {
  const host = panelOf(doc, 'causal-mask');
  const pos = Number(host?.dataset.itPosition);
  const table = host?.shadowRoot.querySelector('.ae-cm-weights table');
  const cell = Number.isInteger(pos) && table?.querySelector(`td[data-row="${pos}"][data-col="${pos + 1}"]`);
  if (!cell) return null;
  const value = Number(cell.dataset.value);
  return {
    value,
    params: {
      query: table.querySelector(`th[data-row="${pos}"]`)?.textContent ?? '',
      key: table.querySelector(`th[data-col="${pos + 1}"]`)?.textContent ?? '',
      weight: String(value),
    },
  };
}

function kvCache({ doc }) {
  const host = panelOf(doc, 'kv-cache');
  if (!host || host.dataset.status !== 'ready') return null;
  const count = (state) => host.shadowRoot.querySelectorAll(`[data-position][data-state="${state}"]`).length;
  const fresh = count('new');
  return { value: fresh, params: { step: host.dataset.step ?? '0', fresh, reused: count('reused') } };
}

// n² scores for the longest n the panel measures (its n control).
function cost({ doc }) {
  const host = panelOf(doc, 'cost');
  const n = Number(host?.dataset.maxN);
  if (!n) return null;
  return { value: n * n, params: { n, scores: (n * n).toLocaleString('en-US') } };
}

// The cross-attention matrix: the row of sentence A's first "it" and its largest weight.
function cross({ doc }) {
  const host = panelOf(doc, 'cross');
  const table = host?.shadowRoot.querySelector('.ae-ca-cross table');
  if (!table) return null;
  const rows = [...table.querySelectorAll('tbody th[data-row]')].map((th) => th.textContent);
  const i = selectedToken(rows, null);
  const top = largest([...table.querySelectorAll(`td[data-row="${i}"]`)], (td) => Number(td.dataset.value));
  if (!top) return null;
  const value = Number(top.dataset.value);
  return {
    value,
    params: {
      query: rows[i],
      key: table.querySelector(`th[data-col="${top.dataset.col}"]`)?.textContent ?? '',
      weight: fixed(value),
    },
  };
}

// The explanation panel: the head with the most attention on the referent, and the largest
// change of the answer's probability that switching off one head makes.
function explanation({ doc }) {
  const host = panelOf(doc, 'explanation');
  const { status, prediction, probability, strongestHead, largestEffect } = host?.dataset ?? {};
  if (status !== 'ready' || !strongestHead || largestEffect === undefined) return null;
  const [layer, head] = strongestHead.split(',').map((x) => Number(x) + 1);
  const value = Number(largestEffect);
  return {
    value,
    params: { answer: prediction, p: percent(probability), layer, head, change: small(value) },
  };
}

function train({ doc }) {
  const host = panelOf(doc, 'train');
  if (!host) return null;
  const step = Number(host.dataset.snapshotStep ?? 0);
  return { value: step, params: { step } };
}

const READERS = {
  sentence,
  qkv,
  'four-steps': fourSteps,
  scaling,
  'multi-head': multiHead,
  positions,
  'causal-mask': causalMask,
  'kv-cache': kvCache,
  cost,
  'cross-attention': cross,
  explanation,
  train,
};

export const FIGURE_STEPS = Object.keys(READERS);

export function readFigure(id, { store, doc = document }) {
  const read = READERS[id];
  if (!read) return null;
  const section = doc.getElementById(pathStep(id)?.section ?? '');
  if (section?.firstElementChild?.hasAttribute('data-guessing')) return { guess: true };
  try {
    return read({ store, doc });
  } catch {
    return null; // a panel between two draws: the next change reads it again
  }
}
