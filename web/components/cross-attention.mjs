// <ae-cross-attention>: panel 13, self- vs cross-attention with the same machinery. The
// coreference encoder reads two sentences A and B (TrainedModel.analyze); for the chosen
// layer/head, the core's attention (engine.attention) is called twice:
//   self:  Q, K, V all from A's trace             → n×n weights
//   cross: Q from A, K and V from B's trace        → n×m weights
// (The runs use analyzePacked(): analyze()'s numbers, faster to cross from wasm.)
// Both are drawn as tables (./number-matrix.mjs); every cell's data-value is the engine's
// number. No math in JS. The model is fetched when the panel first comes near the viewport
// or is first used. Reads the shared store: lang.
import { getEngine, getTrainedModel } from '../lib/context.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import { readControl, writeControl } from '../lib/panel-controls.mjs';
import strings from '../strings/cross-attention.mjs';
import { failure, failureText, rawMessages } from '../lib/error-text.mjs';
import { drawMatrix } from './number-matrix.mjs';
import { el, field as labelled } from '../lib/dom.mjs';
import { LESSON } from '../lib/lesson.mjs';
import css from './cross-attention.css.mjs';
import matrixCss from './number-matrix.css.mjs';

const MODEL = 'coref-encoder';
export const DEFAULT_A = LESSON.tired;
export const DEFAULT_B = 'The street was too wide so it was hard to cross.';
const TYPING_DELAY_MS = 120;

export class CrossAttention extends LessonPanel {
  static styles = [matrixCss, css];
  static watched = ['lang'];
  static strings = strings;

  #parts = null;
  #engine = null;
  #model = null;
  #loading = null;
  #timer = 0;
  #runs = null; // {a, b} analyze() results
  #errors = []; // [{key, params}]
  #hard = false; // an error that leaves nothing to draw
  #view = null; // {layer, head}

  connectedCallback() {
    super.connectedCallback();
    if (!this.#model) this.loadWhenNear(() => this.#ensureModel());
  }

  storeChanged(full) {
    if (full) this.#label();
    this.#render();
  }

  build() {
    const { id, root, title, intro } = this.frame('ae-ca');
    const form = el('div', 'ae-ca-controls', root);
    const field = (key, value) => {
      const f = el('div', 'field', form);
      const label = el('label', '', f, { for: `${id}-${key}` });
      const input = el('textarea', 'ae-ca-sentence', f, {
        id: `${id}-${key}`,
        rows: 2,
        autocomplete: 'off',
        spellcheck: 'false',
      });
      input.value = value;
      return { label, input };
    };
    // A link may carry the two sentences (cross.a, cross.b) and the head (cross.layer, cross.head).
    const a = field('a', readControl(this.store, 'cross', 'a') ?? DEFAULT_A);
    const b = field('b', readControl(this.store, 'cross', 'b') ?? DEFAULT_B);
    const swap = el('button', 'chip', form, { type: 'button' });
    const view = el('div', 'ae-ca-view', root);
    const select = (key) => labelled(view, 'select', `${id}-${key}`, {}, 'field inline');
    const layer = select('layer');
    const head = select('head');
    const status = el('p', 'ae-ca-status', root, { role: 'status' });
    const error = el('div', 'error ae-ca-error', root, { role: 'alert' });
    const compare = el('div', 'ae-cm-compare', root);
    const self = el('div', 'ae-ca-self', compare);
    const cross = el('div', 'ae-ca-cross', compare);
    const shapes = el('p', 'ae-ca-note', root);
    const usage = el('p', 'howto', root);
    const note = el('p', 'howto', root);

    this.mount(root);
    this.addGuidance(intro);
    this.#parts = { title, intro, a, b, swap, layer, head, status, error, self, cross, shapes, usage, note };

    const save = () => {
      writeControl(this.store, 'cross', 'a', a.input.value === DEFAULT_A ? null : a.input.value);
      writeControl(this.store, 'cross', 'b', b.input.value === DEFAULT_B ? null : b.input.value);
    };
    const rerun = () => {
      save();
      return this.#ensureModel().then(() => this.#run());
    };
    for (const { input } of [a, b])
      input.addEventListener('input', () => {
        clearTimeout(this.#timer);
        this.#timer = setTimeout(rerun, TYPING_DELAY_MS);
      });
    swap.addEventListener('click', () => {
      [a.input.value, b.input.value] = [b.input.value, a.input.value];
      rerun();
    });
    for (const [key, control] of [
      ['layer', layer],
      ['head', head],
    ])
      control.node.addEventListener('change', (e) => {
        this.#view[key] = Number(e.target.value);
        writeControl(this.store, 'cross', key, this.#view[key] + 1); // 1-based, as labelled
        this.#ensureModel().then(() => this.#render());
      });
    root.addEventListener('focusin', () => this.#ensureModel(), { once: true });
  }

  // --- guidance (LessonPanel): Show me and Reset ---

  // The model's own coreference head (config.json), where A's "it" finds its noun in B too.
  showMe() {
    const head = this.#model && coreferenceHead(this.#model.config);
    return head && { controls: head };
  }

  defaults() {
    return this.#model && { a: DEFAULT_A, b: DEFAULT_B, ...coreferenceHead(this.#model.config, { layer: 0, head: 0 }) };
  }

  // The head as a reader would choose it, except that the default head leaves the link.
  guideControls() {
    const p = this.#parts;
    const chosen = (key) => (value) => {
      p[key].node.value = value;
      this.#view[key] = Number(value);
      const fallback = coreferenceHead(this.#model.config, { layer: 0, head: 0 })[key];
      writeControl(this.store, 'cross', key, this.#view[key] === fallback ? null : this.#view[key] + 1);
      this.#render();
    };
    return { a: p.a.input, b: p.b.input, layer: chosen('layer'), head: chosen('head') };
  }

  #ensureModel() {
    if (this.#model) return Promise.resolve();
    if (!this.#loading) {
      this.#errors = [];
      this.#hard = false;
      this.#render();
      this.#loading = Promise.all([getEngine(), getTrainedModel(MODEL)])
        .then(([engine, model]) => {
          this.#engine = engine;
          this.#model = model;
          // Start at the head the model documents as its coreference head (config.json).
          this.#view = coreferenceHead(model.config, { layer: 0, head: 0 });
          for (const [key, count] of [
            ['layer', model.config.nLayers],
            ['head', model.config.nHeads],
          ]) {
            const linked = Number(readControl(this.store, 'cross', key)) - 1;
            if (Number.isInteger(linked) && linked >= 0 && linked < count) this.#view[key] = linked;
          }
          const fill = (select, count, value) => {
            select.replaceChildren(
              ...Array.from({ length: count }, (_, i) => {
                const option = document.createElement('option');
                option.value = i;
                option.textContent = String(i + 1);
                return option;
              }),
            );
            select.value = value;
          };
          fill(this.#parts.layer.node, model.config.nLayers, this.#view.layer);
          fill(this.#parts.head.node, model.config.nHeads, this.#view.head);
          this.#run();
        })
        .catch((error) => {
          this.#errors = [failure('loadError', error)];
          this.#hard = true;
          this.#loading = null;
          this.#render();
        });
    }
    return this.#loading;
  }

  #run() {
    if (!this.#model) return;
    this.#errors = [];
    this.#hard = false;
    const runs = {};
    for (const side of ['a', 'b']) {
      const which = side.toUpperCase();
      try {
        runs[side] = this.#model.analyzePacked(this.#parts[side].input.value, { topK: 1 });
        const run = runs[side];
        if (run.unknown.length)
          this.#errors.push({
            key: 'unknownWords',
            params: { which, words: run.unknown.map((p) => run.tokens[p]).join(' ') },
          });
      } catch (error) {
        this.#errors.push(failure('runError', error, { which }));
        this.#hard = true;
      }
    }
    this.#runs = this.#hard ? null : runs;
    Object.assign(this.dataset, { a: this.#parts.a.input.value, b: this.#parts.b.input.value }); // what is shown is for these
    this.#render();
  }

  #label() {
    const p = this.#parts;
    p.title.textContent = this.t('title');
    p.intro.textContent = this.t('intro');
    p.a.label.textContent = this.t('sentenceA');
    p.b.label.textContent = this.t('sentenceB');
    p.swap.textContent = this.t('swap');
    p.layer.label.textContent = this.t('layer');
    p.head.label.textContent = this.t('head');
    p.usage.textContent = this.t('usage');
    p.note.textContent = this.t('note');
  }

  #render() {
    const p = this.#parts;
    if (!p) return;
    p.status.textContent = !this.#model && this.#loading ? this.t('loading') : '';
    let errors = this.#errors;
    let drawn = false;
    if (this.#model && this.#runs) {
      try {
        this.#draw();
        drawn = true;
      } catch (error) {
        errors = [...errors, failure('attentionError', error)];
      }
    }
    if (!drawn) {
      p.self.replaceChildren();
      p.cross.replaceChildren();
      p.shapes.textContent = '';
    }
    p.error.textContent = errors.map((e) => failureText(e, strings, this.store.get().lang)).join(' ');
    p.error.title = rawMessages(errors);
    this.setState(!this.#model ? (errors.length ? 'error' : 'loading') : drawn ? 'ready' : 'error');
  }

  #draw() {
    const p = this.#parts;
    const { a, b } = this.#runs;
    const { layer, head } = this.#view;
    const ha = a.layers[layer].selfAttention.heads[head];
    const hb = b.layers[layer].selfAttention.heads[head];
    const n = a.n,
      m = b.n,
      d = this.#model.config.headDim;
    const self = this.#engine.attention({ q: ha.q, k: ha.k, v: ha.v, n, m: n, dk: d });
    const cross = this.#engine.attention({ q: ha.q, k: hb.k, v: hb.v, n, m, dk: d });
    drawMatrix(p.self, { rows: a.tokens, cols: a.tokens, values: self.weights, caption: this.t('selfCaption', { n }) });
    drawMatrix(p.cross, {
      rows: a.tokens,
      cols: b.tokens,
      values: cross.weights,
      caption: this.t('crossCaption', { n, m }),
    });
    p.shapes.textContent = this.t('shapes', { n, m, d });
    Object.assign(this.dataset, { layer, head, n, m, d });
  }
}

customElements.define('ae-cross-attention', CrossAttention);
