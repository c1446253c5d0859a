// <ae-translation>: panel 14, "Encoder–decoder: translation". The trained encoder–decoder
// (web/models/translate-en-zh, engine.openTranslationModel) translates the English sentence
// greedily; the panel shows the Chinese written step by step, and for the chosen step and the
// chosen decoder layer and head: the cross-attention over the English words as lines, the
// cross-attention of every step as a heatmap (steps × English words) and the decoder's own causal
// self-attention (steps × words written before). Every number is the core's (translate()'s
// crossAttention and selfAttention per step); no model math in JS. The pair lives on the full
// module, so nothing is fetched until the reader presses Translate, edits the sentence or opens
// a link that sets one of the panel's controls (tests/e2e/lazy-module.spec.mjs). Reads the
// shared store: lang.
import { define } from '../lib/define.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { headControl } from '../lib/panel-controls.mjs';
import strings from '../strings/translation.mjs';
import { failure, failureText, rawMessages } from '../lib/error-text.mjs';
import { drawMatrix } from './number-matrix.mjs';
import { el } from '../lib/dom.mjs';
import { LESSON } from '../lib/lesson.mjs';
import css from './translation.css.mjs';
import matrixCss from './number-matrix.css.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const END = '[SEP]';
const START_DELAY_MS = 600; // after the last change of a control, before the pair is fetched

// tired ↔ wide in the sentence (the lesson's minimal pair); a sentence with neither becomes the
// lesson's tired one.
export function swapAdjective(sentence) {
  if (/\btired\b/.test(sentence)) return sentence.replace(/\btired\b/g, 'wide');
  if (/\bwide\b/.test(sentence)) return sentence.replace(/\bwide\b/g, 'tired');
  return LESSON.tired;
}

// The step that names the referent in place of 它: the first word after the comma that repeats an
// earlier word of the output (the antecedent written again); -1 when there is none.
export function resolvingStep(tokens) {
  const comma = tokens.indexOf('，');
  if (comma < 0) return -1;
  return tokens.findIndex((w, i) => i > comma && tokens.slice(0, i).includes(w));
}

const argmax = (row) => row.indexOf(Math.max(...row));
const svg = (tag, parent, attrs = {}) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.append(node);
  return node;
};

export class Translation extends LessonPanel {
  static styles = [matrixCss, css];
  static watched = ['lang'];
  static strings = strings;
  static link = 'tr';
  static controls = {
    sentence: {
      kind: 'sentence',
      label: 'sentence',
      param: 's',
      default: LESSON.tired,
      group: 'ae-tr-controls',
      className: 'ae-tr-sentence',
      sample: LESSON.wide,
    },
    swap: {
      kind: 'button',
      label: 'swap',
      group: 'ae-tr-controls',
      press: (p) => p.setValues({ sentence: swapAdjective(p.value('sentence')) }),
    },
    translate: { kind: 'button', label: 'translateButton', group: 'ae-tr-controls', press: (p) => p.#start() },
    // 0-based here, 1-based in the link and on screen; unknown (any linked value waits) until a
    // translation is there; opening on the step that writes what "it" is.
    step: {
      kind: 'word',
      label: 'step',
      count: (p) => p.#result?.steps.length,
      optionText: (i, p) => p.t('stepOption', { i: i + 1, token: p.#word(i) }),
      default: (p) => (p.#result ? Math.max(0, resolvingStep(p.#words())) : undefined),
      group: 'ae-tr-view',
      field: 'field inline',
    },
    layer: headControl('layer', (p) => p.#result?.steps[0].crossAttention.length, { group: 'ae-tr-view' }),
    head: headControl('head', (p) => p.#result?.steps[0].crossAttention[0].length, { group: 'ae-tr-view' }),
  };

  #parts = null;
  #loading = null; // the promise of the model, once asked for
  #model = null; // the TranslationModel
  #result = null; // translate()'s answer for the sentence shown
  #error = null; // {key, params, cause}
  #soon = 0; // the timer of a start asked for by a change of the controls

  // The controls' first values are shown quietly (no controlsChanged): a link that set one of
  // them asks for the translation here.
  connectedCallback() {
    super.connectedCallback();
    if (!this.#loading && this.#asked()) this.#start();
  }

  storeChanged(full) {
    if (full) this.#label();
    this.#render();
  }

  build() {
    const { root, title, intro } = this.frame('ae-tr');
    const status = el('p', 'ae-tr-status', root, { role: 'status' });
    const error = el('div', 'error ae-tr-error', root, { role: 'alert' });
    const outputTitle = el('h3', 'ae-tr-subtitle', root);
    const output = el('p', 'ae-tr-output', root, { lang: 'zh' });
    const summary = el('p', 'ae-tr-note', root);
    const lines = el('div', 'ae-tr-lines', root, { tabindex: '0', role: 'region' }); // scrolls sideways on a phone
    const maps = el('div', 'ae-tr-maps', root);
    const cross = el('div', 'ae-tr-cross', maps);
    const self = el('div', 'ae-tr-self', maps);
    const chosen = el('p', 'howto', root);
    this.mount(root);
    this.#parts = { title, intro, status, error, outputTitle, output, summary, lines, cross, self, chosen };
    this.setState('idle');
  }

  // The head the layer and head selects open on: the pair's, chosen on validation.
  openingHead() {
    return this.#model?.head;
  }

  controlsChanged(names) {
    if (this.#model) {
      if (names.includes('sentence')) this.#translate();
      this.#render();
    } else if (!this.#loading && this.#asked()) {
      // Typed or dragged: fetch once the reader pauses, so that loading the full module does not
      // hold up the keys still coming (they would fall apart into several history entries).
      clearTimeout(this.#soon);
      this.#soon = setTimeout(() => this.#start(), START_DELAY_MS);
    }
  }

  // Before the model is there, whether the reader (or a link) set one of the controls.
  #asked() {
    if (this.value('sentence') !== LESSON.tired) return true;
    return ['step', 'layer', 'head'].some((name) => this.value(name) !== undefined);
  }

  #start() {
    clearTimeout(this.#soon);
    if (this.#loading) return this.#loading;
    this.#error = null;
    this.#loading = this.translationModel()
      .then((model) => {
        this.#model = model;
        this.#translate();
        this.#render();
      })
      .catch((error) => {
        this.#loading = null; // a later press retries
        this.#error = failure('loadError', error);
        this.#render();
      });
    this.#render();
    return this.#loading;
  }

  #translate() {
    this.#error = null;
    try {
      this.#result = this.#model.translate(this.value('sentence'));
    } catch (error) {
      this.#result = null;
      this.#error = failure('translateError', error);
    }
    this.refreshControls(); // the step, layer and head counts; values shown again
  }

  #words() {
    return this.#result.steps.map((s) => s.token);
  }

  #word(i) {
    const token = this.#result?.steps[i]?.token ?? '';
    return token === END ? this.t('end') : token;
  }

  #label() {
    const p = this.#parts;
    p.title.textContent = this.t('title');
    p.intro.textContent = this.t('intro');
    p.outputTitle.textContent = this.t('output');
  }

  #render() {
    const p = this.#parts;
    if (!p) return;
    const waiting = this.#loading && !this.#model;
    p.status.textContent = waiting ? this.t('loading') : !this.#loading && !this.#error ? this.t('idle') : '';
    const lang = this.store.get().lang;
    const notes = [];
    if (this.#error) notes.push(failureText(this.#error, strings, lang));
    const r = this.#result;
    if (r?.unknown.length) notes.push(this.t('unknownWords', { words: r.unknown.map((i) => r.source[i]).join(' ') }));
    p.error.textContent = notes.join(' ');
    p.error.title = this.#error ? rawMessages([this.#error]) : '';
    for (const key of ['translation', 'sentence', 'step', 'noun', 'nounArgmax', 'argmax']) delete this.dataset[key];
    if (!this.#model || !r) {
      for (const part of [p.output, p.summary, p.lines, p.cross, p.self, p.chosen]) part.replaceChildren();
      p.lines.hidden = true; // no empty focusable region
      this.setState(this.#error ? 'error' : waiting ? 'loading' : 'idle');
      return;
    }
    this.#draw(r);
    this.setState('ready');
  }

  #draw(r) {
    const p = this.#parts;
    const words = this.#words();
    const n = words.length;
    const { layer, head } = this.values();
    const step = Math.min(this.value('step') ?? 0, n - 1);
    const noun = resolvingStep(words);
    const row = r.steps[step].crossAttention[layer][head];
    const best = argmax(row);

    // The Chinese, step by step: written, the step shown, still to come.
    p.output.replaceChildren();
    words.forEach((w, i) => {
      const cls = i < step ? 'done' : i === step ? 'current' : 'later';
      const span = el('span', `ae-tr-word ae-tr-${cls}${i === noun ? ' ae-tr-noun' : ''}`, p.output);
      span.textContent = this.#word(i);
      span.dataset.step = i;
      if (i === step) span.setAttribute('aria-current', 'step');
    });
    const fixed = (x) => x.toFixed(x >= 0.995 ? 5 : 2);
    const sentences = [
      this.t('stepSummary', { i: step + 1, n, token: this.#word(step), p: fixed(r.steps[step].probability) }),
    ];
    if (step === noun) sentences.push(this.t('resolving'));
    const at = { layer: layer + 1, head: head + 1 };
    sentences.push(this.t('strongest', { ...at, word: r.source[best], weight: row[best].toFixed(2) }));
    p.summary.textContent = sentences.join(' ');
    p.chosen.textContent = this.t('chosenHead', { layer: r.head.layer + 1, head: r.head.head + 1 });

    this.#drawLines(r.source, row, best, step);
    const cross = new Float32Array(n * r.source.length);
    r.steps.forEach((s, i) => cross.set(s.crossAttention[layer][head], i * r.source.length));
    const rows = words.map((_, i) => this.#word(i));
    drawMatrix(p.cross, {
      rows,
      cols: r.source,
      values: cross,
      caption: this.t('crossCaption', at),
      highlightRow: step,
    });
    // Step i's query reads the prefix: the start token, then the words of steps 0 … i−1.
    const prefix = [this.t('start'), ...rows.slice(0, n - 1)];
    const self = new Float32Array(n * n); // zero above the diagonal: the causal mask's weights
    r.steps.forEach((s, i) => self.set(s.selfAttention[layer][head], i * n));
    drawMatrix(p.self, { rows, cols: prefix, values: self, caption: this.t('selfCaption', at), highlightRow: step });

    Object.assign(this.dataset, {
      translation: r.text,
      sentence: this.value('sentence'),
      step,
      argmax: r.source[best],
    });
    if (noun >= 0) {
      const { layer: l, head: h } = r.head;
      const nounRow = r.steps[noun].crossAttention[l][h];
      Object.assign(this.dataset, { noun: words[noun], nounArgmax: r.source[argmax(nounRow)] });
    }
  }

  // The step's word below, the English words above, one line to each, as thick and as opaque as
  // its weight; the strongest word marked.
  #drawLines(source, row, best, step) {
    const p = this.#parts;
    const gap = 64; // px per English word: a long sentence scrolls sideways rather than shrinks
    const width = Math.max(320, source.length * gap);
    const picture = document.createElementNS(SVG, 'svg');
    picture.setAttribute('viewBox', `0 0 ${width} 150`);
    picture.setAttribute('width', width);
    picture.setAttribute('height', 150);
    picture.setAttribute('role', 'img');
    const label = this.t('linesLabel', {
      i: step + 1,
      token: this.#word(step),
      layer: this.value('layer') + 1,
      head: this.value('head') + 1,
      word: source[best],
    });
    picture.setAttribute('aria-label', label);
    p.lines.setAttribute('aria-label', label);
    const x = (j) => gap / 2 + j * ((width - gap) / Math.max(1, source.length - 1));
    const target = { x: width / 2, y: 122 };
    source.forEach((w, j) => {
      svg('line', picture, {
        x1: x(j),
        y1: 30,
        x2: target.x,
        y2: target.y - 16,
        class: 'ae-tr-link',
        'stroke-width': (1 + 7 * row[j]).toFixed(2),
        'stroke-opacity': (0.08 + 0.92 * row[j]).toFixed(3),
        'data-weight': String(row[j]),
      });
      const word = svg('text', picture, {
        x: x(j),
        y: 20,
        'text-anchor': 'middle',
        class: j === best ? 'ae-tr-source ae-tr-strongest' : 'ae-tr-source',
        'data-col': j,
      });
      word.textContent = w;
    });
    const written = svg('text', picture, {
      x: target.x,
      y: target.y + 8,
      'text-anchor': 'middle',
      class: 'ae-tr-target',
    });
    written.textContent = this.#word(step);
    p.lines.replaceChildren(picture);
    p.lines.hidden = false;
  }
}

define('ae-translation', Translation);
