// <ae-layer>: panel 7, "The Transformer layer". One layer = multi-head attention (words exchange
// information) + a feed-forward network (each word transformed on its own: d_model → 4·d_model,
// GELU, → d_model) + residual connections and LayerNorm, stacked N times. For the selected word
// of the main panel's run (store.result) and the chosen layer, the word's vector at every stage
// of the layer, from the trace's layers[l].stages with the norms the core computed
// (layers[l].stageNorms): input x, LayerNorm, attention output, x + attention, the second
// LayerNorm, the FFN's hidden layer after GELU, the FFN output, the layer output — in the order
// the model's norm placement (config.norm, pre-LN or post-LN) computes them.
// Below: "everything in parallel" — one matrix product scores all n×n pairs, where an RNN needs
// n steps one after another (counts only, no timing).
// No model math here: every value and norm is read from the trace and only formatted.
// Reads the shared store: result, layer, token, model, lang; its word and layer selects are the
// main view's token and layer (declared controls bound to the store).
// Shown numbers are mirrored in data-* attributes (exact String(value)) for the tests.
import { define } from '../lib/define.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { runLayerControl, runWordControl } from '../lib/panel-controls.mjs';
import strings from '../strings/layer.mjs';
import { fixed, maxAbsOf, vectorStrip } from './qkv-steps.mjs';
import { el, focusRow, rowKey } from '../lib/dom.mjs';
import css from './layer.css.mjs';
import stripCss from './vector-strip.css.mjs';
import { lessonView } from '../lib/guidance.mjs';

const STRIP_WIDTH = 224; // px: the widest strip (the 4×-wide FFN hidden layer gets thinner cells)

// The stages in computing order for each norm placement (keys of layers[l].stages).
const ORDER = {
  pre: ['input', 'norm1', 'attention', 'residual1', 'norm2', 'ffnHidden', 'ffn', 'output'],
  post: ['input', 'attention', 'residual1', 'norm1', 'ffnHidden', 'ffn', 'residual2', 'output'],
};
// Which sub-layer a stage belongs to (a coloured tag): attention, FFN, or residual/norm.
const KIND = {
  input: 'io',
  norm1: 'norm',
  attention: 'attn',
  residual1: 'res',
  norm2: 'norm',
  ffnHidden: 'ffn',
  ffn: 'ffn',
  residual2: 'res',
  output: 'io',
};

export class LayerPanel extends LessonPanel {
  static styles = [stripCss, css];
  static redrawWhenVisible = true; // heavy: redrawn only when near the window (StoreElement)
  static watched = ['result', 'layer', 'token', 'model', 'lang'];
  static strings = strings;
  static guidance = ['showMe'];
  // The main view's word and layer (bound to the shared store: its link and history).
  static controls = {
    token: runWordControl('tokenOption', { group: 'ae-layer-controls' }),
    layer: runLayerControl('layerOption', { group: 'ae-layer-controls' }),
  };

  #parts = null;
  #rows = [];
  #shown = '';
  #norm = 'pre';
  #normModel = null;
  #active = null; // stage key of the pointed/focused row

  // Show me (LessonPanel): the trained model's coreference head, at `it`.
  showMe() {
    return lessonView(this.store);
  }

  storeChanged(full) {
    if (full) this.#shown = ''; // redrawn in the new language
    this.#draw();
  }

  build() {
    const p = this.frame('ae-layer');
    const { id, root } = p;
    const controls = this.group('ae-layer-controls');
    const parts3 = el('ul', 'ae-layer-parts', root);
    for (const key of ['attn', 'ffn', 'res']) this.text('li', `ae-layer-part-${key}`, parts3, `parts.${key}`);
    p.waiting = this.text('p', 'ae-layer-waiting', root, 'waiting', { role: 'status' });
    p.error = el('p', 'ae-layer-error', root, { role: 'alert' });
    const body = (p.body = el('div', 'ae-layer-body', root));
    body.append(controls);

    p.shape = el('p', 'ae-layer-shape', body);
    p.placement = el('p', 'ae-layer-placement', body);
    this.text('h3', '', body, 'stagesTitle', { id: `${id}-stages` });
    const list = (p.list = el('ol', 'ae-layer-stages', body, { 'aria-labelledby': `${id}-stages` }));
    this.text('p', 'ae-layer-hint', body, 'hint');
    p.readout = el('code', 'ae-layer-readout', body, { 'aria-live': 'polite' });
    p.stack = el('p', 'ae-layer-stack', body);
    this.text('h3', '', body, 'parallelTitle');
    p.parallel = el('p', 'ae-layer-parallel', body);

    const activate = (e) => {
      const row = e.target.closest('li[data-stage]');
      if (row) this.#activate(row.dataset.stage);
    };
    list.addEventListener('pointerover', activate);
    list.addEventListener('focusin', activate);
    list.addEventListener('keydown', (e) => this.#onKey(e));
    this.mount(root);
    this.#parts = p;
  }

  // config.norm of the shown model (the page's random models are pre-LN; a trained model's
  // config is already loaded by the page, so this fetches nothing).
  #checkNorm() {
    const { model } = this.store.get();
    if (model === this.#normModel) return;
    this.#normModel = model;
    this.#norm = 'pre';
    if (!model || model === 'untrained') return;
    this.trainedModel(model).then(
      (m) => {
        if (this.#normModel !== model || m.config.norm === this.#norm) return;
        this.#norm = m.config.norm === 'post' ? 'post' : 'pre';
        this.#shown = '';
        this.#draw();
      },
      () => {},
    );
  }

  #draw() {
    const p = this.#parts;
    const { result, lang } = this.store.get();
    if (!this.showWhenReady(Boolean(result?.layers?.length), p)) return;
    this.#checkNorm();
    const tokens = [...result.tokens];
    const n = tokens.length;
    const nLayers = result.layers.length;
    const { token: i, layer } = this.values();
    const key = JSON.stringify([tokens, layer, i, lang, this.#norm, nLayers]);
    if (key === this.#shown && this.#parts.list.dataset.result === String(resultId(result))) return;
    const trace = result.layers[layer];
    if (!trace) return; // an opened model's layer not traced yet: the page's next run traces it
    if (!trace.stages || !trace.stageNorms) {
      p.error.textContent = this.t('noStages');
      this.setState('error');
      p.body.hidden = true;
      return;
    }
    p.error.textContent = '';
    this.#shown = key;
    p.list.dataset.result = String(resultId(result));

    const dModel = trace.stages.input.length / n;
    const hidden = trace.stages.ffnHidden.length / n;
    p.shape.textContent = this.t('shape', { dModel, hidden, ratio: hidden / dModel, n });
    p.placement.textContent = this.t(this.#norm === 'post' ? 'post' : 'pre');
    p.stack.textContent = this.t(layer + 1 < nLayers ? 'stack' : 'stackLast', {
      n: nLayers,
      l: layer + 1,
      next: layer + 2,
    });
    const order = ORDER[this.#norm === 'post' ? 'post' : 'pre'];
    this.#drawStages(trace, order, n, i);

    const n2 = n * n;
    p.parallel.textContent = this.t('parallel', { n, n2 });
    Object.assign(p.parallel.dataset, { n: String(n), scores: String(n2), rnnSteps: String(n), attentionSteps: '1' });
    Object.assign(this.dataset, {
      token: String(i),
      layer: String(layer),
      norm: this.#norm,
      dModel: String(dModel),
      hidden: String(hidden),
    });
    this.#activate(this.#active && order.includes(this.#active) ? this.#active : null);
  }

  // A row per stage, in computing order: word i's vector there as a strip, and its norm.
  #drawStages(trace, order, n, i) {
    const rowOf = (name) => {
      const m = trace.stages[name];
      const width = m.length / n;
      return m.subarray(i * width, (i + 1) * width);
    };
    const vectors = Object.fromEntries(order.map((name) => [name, rowOf(name)]));
    // One colour scale for the d_model-wide stages (so their sizes compare), one for the FFN hidden.
    const wide = maxAbsOf(...order.filter((s) => s !== 'ffnHidden').map((s) => vectors[s]));
    const scales = { wide, hidden: maxAbsOf(vectors.ffnHidden) };
    const active = this.#rows.findIndex((r) => r === this.shadowRoot.activeElement);
    this.#rows = order.map((name, step) => {
      const li = this.#stageRow(name, step, vectors[name], trace.stageNorms[name][i], scales);
      li.tabIndex = step === (active >= 0 ? active : 0) ? 0 : -1;
      return li;
    });
    this.#parts.list.replaceChildren(...this.#rows);
    if (active >= 0) this.#rows[Math.min(active, this.#rows.length - 1)].focus();
    this.#vectors = vectors;
  }

  #stageRow(name, step, values, norm, scales) {
    const li = el('li', `ae-layer-stage ae-layer-kind-${KIND[name]}`);
    Object.assign(li.dataset, { stage: name, norm: String(norm), size: String(values.length) });
    const label = this.t(`stage.${name}`);
    const formula = this.t(`formula.${this.#norm === 'post' ? 'post' : 'pre'}.${name}`);
    const count = values.length;
    li.setAttribute('aria-label', this.t('rowLabel', { step: step + 1, label, formula, count, norm: fixed(norm) }));
    el('span', 'ae-layer-stage-name', li, {}, `${step + 1}. ${label}`);
    el('span', 'ae-layer-formula', li, {}, formula);
    const box = el('span', 'ae-layer-stripbox', li);
    const strip = vectorStrip(values, {
      name: label,
      maxAbs: name === 'ffnHidden' ? scales.hidden : scales.wide,
      maxWidth: STRIP_WIDTH,
      label: this.t('vectorLabel', {
        name: label,
        count,
        min: fixed(Math.min(...values)),
        max: fixed(Math.max(...values)),
      }),
    });
    // At 2 px a cell, a wide model's FFN hidden layer (4·64 = 256 values) is wider than a phone:
    // the strip shrinks to its box (style.css) instead of scrolling, which would need a tab stop.
    strip.setAttribute('preserveAspectRatio', 'none');
    box.append(strip);
    el('span', 'ae-layer-norm', li, {}, this.t('norm', { norm: fixed(norm) }));
    return li;
  }

  #vectors = {};

  // Spells out the exact values of one stage (pointer or focus); null clears.
  #activate(name) {
    this.#active = name;
    this.#rows.forEach((r) => r.classList.toggle('active', r.dataset.stage === name));
    const readout = this.#parts.readout;
    const values = name ? this.#vectors[name] : null;
    const message = values
      ? this.t('values', { name: this.t(`stage.${name}`), values: Array.from(values, (v) => fixed(v, 4)).join(', ') })
      : '';
    if (readout.textContent !== message) readout.textContent = message;
    if (values) readout.dataset.values = JSON.stringify(Array.from(values, String));
    else delete readout.dataset.values;
    readout.dataset.stage = name ?? '';
  }

  // The stages are one tab stop; Up/Down (Home/End) move between them.
  #onKey(e) {
    const li = e.target.closest('li[data-stage]');
    const j = li ? rowKey(e.key, this.#rows.indexOf(li), this.#rows.length - 1) : null;
    if (j === null) return;
    e.preventDefault();
    focusRow(this.#rows, j);
  }
}

// A stable id per result object, so a new run with the same words redraws.
const ids = new WeakMap();
let nextResult = 1;
function resultId(result) {
  if (!ids.has(result)) ids.set(result, nextResult++);
  return ids.get(result);
}

define('ae-layer', LayerPanel);
