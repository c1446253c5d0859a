// <ae-cross-attention>: panel 13, self- vs cross-attention with the same machinery. The
// coreference encoder reads two sentences A and B (TrainedModel.analyze); for the chosen
// layer/head, the core's attention (engine.attention) is called twice:
//   self:  Q, K, V all from A's trace             → n×n weights
//   cross: Q from A, K and V from B's trace        → n×m weights
// (The runs use analyzePacked(): analyze()'s numbers, faster to cross from wasm.)
// Both are drawn as tables (./number-matrix.mjs); every cell's data-value is the engine's
// number. No math in JS. The model is fetched when the panel first comes near the viewport
// or is first used. Reads the shared store: lang.
import { define } from '../lib/define.mjs';
import { getEngine } from '../lib/context.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { headControl } from '../lib/panel-controls.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import strings from '../strings/cross-attention.mjs';
import { failure, failureText, rawMessages } from '../lib/error-text.mjs';
import { drawMatrix } from './number-matrix.mjs';
import { el } from '../lib/dom.mjs';
import { LESSON } from '../lib/lesson.mjs';
import css from './cross-attention.css.mjs';
import matrixCss from './number-matrix.css.mjs';

const MODEL = 'coref-encoder';
export const DEFAULT_A = LESSON.tired;
export const DEFAULT_B = 'The street was too wide so it was hard to cross.';

// The head the panel opens on: the model's coreference head (config.json), known once it is loaded.
const sentence = (label, fallback) => ({
  kind: 'sentence',
  label,
  default: fallback,
  group: 'ae-ca-controls',
  className: 'ae-ca-sentence',
  sample: LESSON.wide,
});

export class CrossAttention extends LessonPanel {
  static styles = [matrixCss, css];
  static watched = ['lang'];
  static strings = strings;
  static link = 'cross';
  static guidance = ['showMe'];
  static controls = {
    a: sentence('sentenceA', DEFAULT_A),
    b: sentence('sentenceB', DEFAULT_B),
    swap: {
      kind: 'button',
      label: 'swap',
      group: 'ae-ca-controls',
      press: (p) => p.setValues({ a: p.value('b'), b: p.value('a') }),
    },
    // The trained encoder–decoder loads on this press only: it lives in the full module, which
    // no lesson panel fetches by itself (tests/e2e/lazy-module.spec.mjs).
    translate: {
      kind: 'button',
      label: 'translateButton',
      group: 'ae-ca-controls',
      press: (p) => p.#startTranslation(),
    },
    layer: headControl('layer', (p) => p.#model?.config.nLayers, { group: 'ae-ca-view' }),
    head: headControl('head', (p) => p.#model?.config.nHeads, { group: 'ae-ca-view' }),
  };

  #parts = null;
  #engine = null;
  #model = null;
  #loading = null;
  #runs = null; // {a, b} analyze() results
  #errors = []; // [{key, params}]
  #hard = false; // an error that leaves nothing to draw
  #translating = false; // the translation model was asked for
  #translator = null; // the TranslationModel, once loaded
  #translation = null; // {result, error} for sentence A

  storeChanged(full) {
    if (full) this.#label();
    this.#render();
  }

  build() {
    const { root, title, intro } = this.frame('ae-ca');
    const status = el('p', 'ae-ca-status', root, { role: 'status' });
    const error = el('div', 'error ae-ca-error', root, { role: 'alert' });
    const compare = el('div', 'ae-cm-compare', root);
    const self = el('div', 'ae-ca-self', compare);
    const cross = el('div', 'ae-ca-cross', compare);
    const shapes = el('p', 'ae-ca-note', root);
    // The trained encoder–decoder (translate-en-zh): sentence A in Chinese, and the decoder step
    // that names what "it" is, with its cross-attention over A's words in the chosen head.
    const translation = el('div', 'ae-ca-translation', root);
    const output = el('p', 'ae-ca-output', translation);
    const alignment = el('div', 'ae-ca-alignment', translation);
    const usage = el('p', 'howto', root);
    const note = el('p', 'howto', root);
    this.mount(root);
    this.#parts = { title, intro, status, error, self, cross, shapes, usage, note, output, alignment };
  }

  controlsChanged(names) {
    const rerun = names.includes('a') || names.includes('b');
    this.load().then(() => (rerun ? this.#run() : this.#render()));
  }

  openingHead() {
    return this.#model && coreferenceHead(this.#model.config, { layer: 0, head: 0 });
  }

  // --- guidance (LessonPanel): Show me (Reset: the declared defaults) ---

  // The model's own coreference head (config.json), where A's "it" finds its noun in B too.
  showMe() {
    const head = this.#model && coreferenceHead(this.#model.config);
    return head && { controls: head };
  }

  load() {
    if (this.#model) return Promise.resolve();
    if (!this.#loading) {
      this.#errors = [];
      this.#hard = false;
      this.#render();
      this.#loading = Promise.all([getEngine(), this.trainedModel(MODEL)])
        .then(([engine, model]) => {
          this.#engine = engine;
          this.#model = model;
          this.refreshControls(); // the layer and head counts, the opening head
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
        runs[side] = this.#model.analyzePacked(this.value(side), { topK: 1 });
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
    this.#translate();
    Object.assign(this.dataset, { a: this.value('a'), b: this.value('b') }); // what is shown is for these
    this.#render();
  }

  #startTranslation() {
    if (this.#translating) return;
    this.#translating = true;
    this.#render();
    this.translationModel()
      .then((t) => {
        this.#translator = t;
        this.#translate();
        this.#render();
      })
      .catch((error) => {
        this.#translating = false; // a later press retries
        this.#translation = { error: failure('translationError', error) };
        this.#render();
      });
  }

  #translate() {
    if (!this.#translator) return;
    try {
      this.#translation = { result: this.#translator.translate(this.value('a')) };
    } catch (error) {
      this.#translation = { error: failure('translationError', error) };
    }
  }

  // The step that names the referent: the first word after the comma that repeats an earlier
  // word of the output (the antecedent, written again in place of 它).
  #drawTranslation() {
    const p = this.#parts;
    const t = this.#translation;
    p.alignment.replaceChildren();
    delete this.dataset.translation;
    delete this.dataset.noun;
    delete this.dataset.nounArgmax;
    if (!t) {
      p.output.textContent = this.#translating && !this.#translator ? this.t('translationLoading') : '';
      return;
    }
    if (t.error) {
      p.output.textContent = failureText(t.error, strings, this.store.get().lang);
      return;
    }
    const { result } = t;
    const words = result.steps.map((s) => s.token);
    const comma = words.indexOf('，');
    const step = words.findIndex((w, i) => i > comma && comma >= 0 && words.slice(0, i).includes(w));
    p.output.textContent = this.t('translation', { text: result.text });
    this.dataset.translation = result.text;
    if (step < 0) return;
    const { layer, head } = result.head;
    const row = result.steps[step].crossAttention[layer][head];
    const best = row.indexOf(Math.max(...row));
    Object.assign(this.dataset, { noun: words[step], nounArgmax: result.source[best] });
    drawMatrix(p.alignment, {
      rows: [words[step]],
      cols: result.source,
      values: Float32Array.from(row),
      caption: this.t('alignmentCaption', { noun: words[step], layer: layer + 1, head: head + 1 }),
    });
  }

  #label() {
    const p = this.#parts;
    p.title.textContent = this.t('title');
    p.intro.textContent = this.t('intro');
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
    this.#drawTranslation();
    p.error.textContent = errors.map((e) => failureText(e, strings, this.store.get().lang)).join(' ');
    p.error.title = rawMessages(errors);
    this.setState(!this.#model ? (errors.length ? 'error' : 'loading') : drawn ? 'ready' : 'error');
  }

  #draw() {
    const p = this.#parts;
    const { a, b } = this.#runs;
    const { layer, head } = this.values();
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

define('ae-cross-attention', CrossAttention);
