// A lesson panel's own controls (the ÷√d panel's d, the causal panel's mask switch, …) kept in
// the shared store under `controls` ({'<panel>.<name>': string}) and so in the link
// (?scaling.d=256): a teacher's link opens every panel as it was set.
//   const d = Number(readControl(this.store, 'scaling', 'd') ?? 64);   // on connect
//   writeControl(this.store, 'scaling', 'd', d);                       // on change
// Values are strings; the panel validates what it reads (a link may carry anything) and
// writes null to drop a control that is back at its default.
//
// Below: the kinds of control a panel declares in its `static controls` table (lesson-panel.mjs
// builds them). Each kind knows its element, how a link's string becomes a value and back
// (parse/format; parse returns undefined for what it cannot read), whether a value is within
// the declared bounds, and how to read and show a value on its element.
import { el } from './dom.mjs';
import { readUrlState } from './url-state.mjs';
import { selectedToken } from './default-token.mjs';

// Panels connect before the page reads its link, so the first read seeds the store from the URL.
function controls(store) {
  let current = store.get().controls;
  if (!current) {
    current = globalThis.location ? readUrlState(globalThis.location.search).controls : {};
    store.set({ controls: current });
  }
  return current;
}

export function readControl(store, panel, name) {
  return controls(store)[`${panel}.${name}`];
}

export function writeControl(store, panel, name, value) {
  writeControls(store, panel, { [name]: value });
}

// The link keys of the controls whose change comes as a stream (typing, a slider's drag): the
// page's history makes one entry of a stream of changes to one of them (app.mjs).
export const streamingControls = new Set();

// Several controls of one panel at once: one store change, so one history entry.
export function writeControls(store, panel, values) {
  const before = controls(store);
  const next = { ...before };
  for (const [name, value] of Object.entries(values)) {
    const key = `${panel}.${name}`;
    if (value === null || value === undefined) delete next[key];
    else next[key] = String(value);
  }
  if (Object.keys({ ...before, ...next }).some((key) => next[key] !== before[key])) store.set({ controls: next });
}

const given = (x, panel) => (typeof x === 'function' ? x(panel) : x);
const text = { parse: (s) => s, format: String, valid: () => true };
const choice = (spec, panel) => (given(spec.options, panel) ?? []).map((o) => String(o.value));
// A head or layer is 0-based in the panel, 1-based in the link and on screen (as labelled).
const index = {
  tag: 'select',
  parse: (s) => (/^\d{1,3}$/.test(s) && Number(s) >= 1 ? Number(s) - 1 : undefined),
  format: (v) => String(v + 1),
  // Until the model is loaded its count is unknown: a linked index waits to be checked.
  valid: (v, spec, panel) => {
    const count = given(spec.count, panel);
    return count === undefined || (Number.isInteger(v) && v >= 0 && v < count);
  },
  options: (spec, panel) =>
    Array.from({ length: given(spec.count, panel) ?? 0 }, (_, i) => ({
      value: i,
      text: spec.optionText ? spec.optionText(i, panel) : String(i + 1),
    })),
  read: (node) => Number(node.value),
};

// kind → {tag, attrs, parse, format, valid, options?, read, show, event}
export const KINDS = {
  sentence: { ...text, tag: 'textarea', attrs: { rows: 2, autocomplete: 'off', spellcheck: 'false' }, typing: true },
  text: { ...text, tag: 'input', attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false' }, typing: true },
  select: {
    ...text,
    tag: 'select',
    valid: (v, spec, panel) => choice(spec, panel).includes(v),
    options: (spec, panel) => given(spec.options, panel),
  },
  range: {
    tag: 'input',
    attrs: { type: 'range' },
    parse: (s) => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : undefined),
    format: String,
    valid: (v, spec, panel) => {
      const [min, max, step] = ['min', 'max', 'step'].map((bound) => given(spec[bound], panel));
      return v >= min && v <= max && Number.isInteger((v - min) / (step ?? 1));
    },
    read: (node) => Number(node.value),
    live: true, // a drag is many input events: the history coalesces them (app.mjs)
  },
  toggle: {
    tag: 'input',
    attrs: { type: 'checkbox' },
    parse: (s) => (s === '1' ? true : s === '0' ? false : undefined),
    format: (v) => (v ? '1' : '0'),
    valid: () => true,
    read: (node) => node.checked,
    show: (node, v) => (node.checked = v),
    field: 'check',
    labelAfter: true, // the box, then its label
  },
  // A whole number the reader moves on by one with a button (a random seed): 1 … 2³¹−1.
  counter: {
    tag: 'button',
    attrs: { type: 'button' },
    parse: (s) => (/^\d{1,10}$/.test(s) ? Number(s) : undefined),
    format: String,
    valid: (v) => Number.isInteger(v) && v >= 1 && v < 2 ** 31,
    read: (node) => Number(node.dataset.value) + 1,
    show: (node, v) => (node.dataset.value = String(v)),
    event: 'click',
    bare: true,
  },
  layer: index,
  head: index,
  word: index, // a word of the sentence, by position
  button: { tag: 'button', attrs: { type: 'button' }, action: true, bare: true },
  // A set of toggle buttons the panel draws itself (heads switched off): the value is a canonical
  // string the panel makes (spec.check says what a link may hold); the base names the group,
  // shows the value in data-value and keeps it in the link; the panel's buttons call setValues.
  toggles: {
    tag: 'div',
    attrs: { role: 'group' },
    parse: (s) => s,
    format: String,
    valid: (v, spec, panel) => typeof v === 'string' && (!spec.check || spec.check(v, panel)),
    show: (node, v) => (node.dataset.value = v),
    bare: true,
    passive: true,
  },
};

// A panel's one sentence, linked as <panel>.s (the causal-mask and explanation panels).
export const sentenceControl = (fallback, more) => ({
  kind: 'sentence',
  label: 'sentence',
  param: 's',
  default: fallback,
  ...more,
});

// The layer or head of a panel's model: 0-based, linked and labelled 1-based; opening on the
// panel's openingHead() (the model's coreference head) unless `more` says otherwise.
export const headControl = (kind, count, more) => ({
  kind,
  label: kind,
  default: (panel) => panel.openingHead?.()?.[kind],
  count,
  field: 'field inline',
  ...more,
});

// The main view's word or layer, chosen in a panel too (Q, K, V steps, multi-head, layer): bound
// to the shared store, so its link and history are the main view's (tok=, layer=); its options
// are the run's (store.result) words or layers, each labelled by the panel's string optionKey
// ({token, i} for a word; {l, i, n} for a layer, 1-based). Opening on the shared default word
// (the first "it", ./default-token.mjs) and on the store's layer, held within the run's layers.
const run = (panel) => panel.store.get().result;
export const runWordControl = (optionKey, more) => ({
  kind: 'word',
  label: 'word',
  store: 'token',
  follows: ['result'],
  count: (p) => run(p)?.tokens.length,
  optionText: (i, p) => p.t(optionKey, { token: run(p).tokens[i], i: i + 1 }),
  default: (p) => run(p) && selectedToken([...run(p).tokens], null),
  field: 'field inline',
  ...more,
});
export const runLayerControl = (optionKey, more) => ({
  kind: 'layer',
  label: 'layer',
  store: 'layer',
  follows: ['result'],
  count: (p) => run(p)?.layers?.length,
  optionText: (i, p) => p.t(optionKey, { l: i + 1, i: i + 1, n: run(p).layers.length }),
  default: (p) => {
    const n = run(p)?.layers?.length;
    return n ? Math.min(Math.max(0, Number(p.store.get().layer) || 0), n - 1) : undefined;
  },
  field: 'field inline',
  ...more,
});

export const kindOf = (spec) => {
  const kind = KINDS[spec.kind];
  if (!kind) throw new Error(`unknown control kind "${spec.kind}"`);
  return kind;
};

// The control's element (and its <label>, except for a button) in a <div class=field> of
// `parent`; data-control names it for the page's tests.
export function buildControl(name, spec, id, parent) {
  const kind = kindOf(spec);
  const field = spec.field ?? kind.field ?? (kind.bare ? null : 'field');
  const box = field ? el('div', field, parent) : parent;
  const label = kind.bare ? null : el('label', '', null, { for: id });
  const node = el(kind.tag, spec.className ?? (kind.bare ? 'chip' : ''), box, {
    id,
    'data-control': name,
    ...kind.attrs,
    ...spec.attrs,
  });
  if (label && kind.labelAfter) node.after(label);
  else if (label) node.before(label);
  return { label, node };
}

// Puts `value` on the control (leaving a field the reader is typing in alone when it says so).
export function showValue(kind, node, value) {
  if (kind.show) kind.show(node, value);
  else if (node.value !== String(value)) node.value = String(value);
}

export const readValue = (kind, node) => (kind.read ? kind.read(node) : node.value);

// Refills a select's options (a layer/head count known once the model is, a list per language).
export function fillOptions(node, options, label) {
  node.replaceChildren(
    ...options.map((o) => el('option', '', null, { value: String(o.value) }, o.text ?? label(o.label))),
  );
}
