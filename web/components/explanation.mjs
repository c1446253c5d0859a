// <ae-explanation>: panel 12, "attention is not explanation". On the coreference encoder, for
// the panel's own sentence (editable, tired ↔ wide switch), it sets two readings side by side:
//  1. per word: the weight "it" puts on it in the coreference head (config.json's
//     coreference_head) next to the measured effect of knocking that word out
//     (TrainedModel.probabilities(text, {knockout: [p]})): the change in the probability of the
//     word the model predicted for the intact sentence;
//  2. per head: a toggle grid of every layer × head; the heads switched off are ablated
//     (probabilities(text, {ablate: [[l, h], …]})), and each button shows that head's attention on
//     the referent and the effect of switching off that head alone.
// Every number comes from the engine (probabilities() gives analyze()'s numbers without the
// trace); JS only subtracts two returned probabilities for display.
// Shown numbers are mirrored in data-* attributes (rows, buttons, the element) for the tests.
// The model is fetched when the panel first comes near the viewport or is first used.
// Reads the shared store: lang, and model: a model opened from disk (GPT-2 layout) replaces the
// encoder while it is the page's model (lib/panel-model.mjs); its answer is the next token after
// the last one, read in its layer 1, head 1 (it names no coreference head).
// The link keeps the sentence (explanation.s, ≤ 200 characters) and the heads switched off
// (explanation.ablate=2.3,3.1: layer.head, 1-based); see panel-controls.mjs.
import { define } from '../lib/define.mjs';
import { modelNote, modelOutdated, panelModelName } from '../lib/panel-model.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { sentenceControl } from '../lib/panel-controls.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import { percent } from '../lib/panel-strings.mjs';
import strings from '../strings/explanation.mjs';
import { dataTable, el } from '../lib/dom.mjs';
import { LESSON as LESSON_PAIR, TIRED_OR_WIDE_AT_END, adjectiveOf, partnerOf } from '../lib/lesson.mjs';
import css from './explanation.css.mjs';

const MODEL = 'coref-encoder';
const LESSON = LESSON_PAIR.tired;
const ABLATE_LINK = /^\d{1,2}\.\d{1,2}(,\d{1,2}\.\d{1,2}){0,63}$/; // e.g. 2.3,3.1
const CALLS_PER_SLICE = 4; // probabilities() calls between yields, so typing stays responsive
// A single-head effect smaller than this (|Δp| < 0.0005, i.e. 0.05 percentage points; it prints as
// 0.000 or ±0.000x) is "no effect": then no head is named or marked as the largest effect.
const NO_EFFECT = 0.0005;

const MINUS = '\u2212';
// A signed change with three decimals; a change that rounds to zero prints as 0.000.
function signed(x) {
  const s = Math.abs(x).toFixed(3);
  if (Number(s) === 0) return '0.000';
  return `${x < 0 ? MINUS : '+'}${s}`;
}

// The heads switched off as the link holds them: "layer.head,…", 1-based and sorted ('' = none).
const headList = (heads) =>
  [...heads]
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([l, h]) => `${l + 1}.${h + 1}`)
    .join(',');
const headsOf = (list) => (list ? list.split(',').map((pair) => pair.split('.').map((x) => Number(x) - 1)) : []);

export class Explanation extends LessonPanel {
  static styles = [css];
  static watched = ['lang', 'model', 'result'];
  static strings = strings;
  static stateAttribute = 'status';
  static link = 'explanation';
  static guidance = ['showMe', 'predict'];
  static controls = {
    sentence: sentenceControl(LESSON, {
      sample: LESSON_PAIR.wide,
      group: 'ae-ex-controls',
      className: 'ae-ex-sentence',
    }),
    swap: {
      kind: 'button',
      label: 'swap',
      group: 'ae-ex-controls',
      press: (p) =>
        p.setValues({ sentence: partnerOf(p.value('sentence'), TIRED_OR_WIDE_AT_END) ?? p.value('sentence') }),
    },
    // Every listed head must be one the model has (a link's other heads are ignored).
    ablate: {
      kind: 'toggles',
      label: 'headsLabel',
      default: '',
      check: (list, p) => list === '' || (ABLATE_LINK.test(list) && p.hasHeads(headsOf(list))),
      group: 'ae-ex-ablate',
      className: 'ae-ex-heads',
    },
    reset: { kind: 'button', label: 'reset', group: 'ae-ex-ablate', press: (p) => p.setValues({ ablate: '' }) },
  };

  #parts = null;
  #model = null;
  #modelName = MODEL; // the model asked for: MODEL, or the page's opened model
  #loading = null; // Promise of the model
  #generation = 0; // a newer measurement cancels an older one
  #data = null; // the last measurement (see #measure)
  #error = null; // {key, params}

  #percent(p) {
    return percent(p, this.store.get().lang);
  }

  // --- structure ---

  build() {
    const p = this.frame('ae-ex', ['model', 'status', 'error']);
    const { root } = p;
    p.answer = el('p', 'ae-ex-answer', root);

    this.text('h3', '', root, 'knockoutTitle');
    p.knockHow = el('p', 'howto', root);
    const { table, caption, head, body } = dataTable(root, 'ae-ex-table', { caption: 'visually-hidden' });
    this.labelled(caption, 'tableCaption');
    this.headings(head, ['colWord', 'colAttention', 'colEffect']);
    Object.assign(p, { table, body });
    p.knockSummary = el('p', 'ae-ex-summary', root);

    this.text('h3', '', root, 'headsTitle');
    p.headsHow = el('p', 'howto', root);
    p.headsHow.after(this.group('ae-ex-ablate'));
    const heads = (p.heads = this.control('ablate').node);
    p.ablation = el('p', 'ae-ex-ablation', root, { 'aria-live': 'polite' });
    p.headsSummary = el('p', 'ae-ex-summary', root);
    this.text('p', 'ae-ex-caption', root, 'caption');

    heads.after(this.control('reset').node); // the group's order: the heads, then Switch all on
    this.mount(root);
    this.#parts = Object.assign(p, { buttons: [], rows: [] });

    heads.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-layer]');
      if (!button) return;
      const pressed = [Number(button.dataset.layer), Number(button.dataset.head)];
      const heads = headsOf(this.value('ablate'));
      const others = heads.filter(([l, h]) => l !== pressed[0] || h !== pressed[1]);
      this.setValues({ ablate: headList(others.length < heads.length ? others : [...heads, pressed]) });
    });
    this.setState('idle');
  }

  storeChanged() {
    const p = this.#parts;
    if ((this.#model || this.#loading) && modelOutdated(this.store, MODEL, this.#modelName, this.#model)) {
      this.#model = this.#loading = this.#data = null; // the page's model changed: measure the other one
      this.#generation++;
      this.load();
    }
    this.#showStatus();
    if (this.#data) this.#render();
    p.modelLine.textContent = modelNote(this.store, this.#modelName, this.#model);
    this.dataset.model = this.#modelName;
  }

  // --- guidance (LessonPanel): Show me, Reset, the question ---

  // The coreference head (config.json, chosen by training) switched off: the answer stays.
  showMe() {
    const head = this.#model && coreferenceHead(this.#model.config);
    if (!head) return null;
    return {
      controls: { sentence: LESSON, ablate: headList([[head.layer, head.head]]) },
      reveal: this.#parts.headsTitle,
    };
  }

  // A new sentence is measured again; another set of heads off is one more run.
  controlsChanged(names) {
    if (names.includes('sentence')) this.load().then(() => this.#measure());
    else if (names.includes('ablate')) this.load().then(() => this.#showAblation());
  }

  hasHeads(heads) {
    const config = this.#model?.config;
    return !config || heads.every(([l, h]) => l >= 0 && l < config.nLayers && h >= 0 && h < config.nHeads);
  }

  // Whether switching the coreference head off changes the answer: from the measured ablations.
  question() {
    const p = this.#parts;
    const head = this.#model && coreferenceHead(this.#model.config);
    if (!head) return null;
    return {
      key: `ablate|${this.value('sentence')}`, // another sentence asks again
      text: this.t('guessAblate', { layer: head.layer + 1, head: head.head + 1 }),
      choices: ['yes', 'no'].map((value) => ({ value, label: this.t(value) })),
      hide: [p.table, p.knockSummary, p.heads, p.ablation, p.headsSummary],
      answer: () => {
        const d = this.#data;
        const single = d?.singles.find((s) => s.layer === head.layer && s.head === head.head);
        return single ? (single.prediction === d.word ? 'no' : 'yes') : null;
      },
    };
  }

  // --- model and measurement ---

  load() {
    if (!this.#loading) {
      this.#modelName = this.dataset.model = panelModelName(this.store, MODEL);
      const loading = (this.#loading = this.trainedModel(this.#modelName).then(
        (model) => {
          if (loading !== this.#loading) return model; // the page's model changed meanwhile
          this.#model = model;
          this.#parts.modelLine.textContent = modelNote(this.store, this.#modelName, model);
          this.refreshControls(); // a link's heads, checked against the model's
          this.#measure();
          return model;
        },
        (e) => {
          if (loading !== this.#loading) return;
          this.#loading = null; // a later interaction retries
          this.#fail('loadError', { message: e.message });
        },
      ));
      this.setState('loading');
      this.#showStatus();
    }
    return this.#loading;
  }

  #corefHead() {
    return coreferenceHead(this.#model.config, { layer: 0, head: 0 });
  }

  // Runs the intact sentence, every single-word knockout and every single-head ablation, a
  // few calls per task so that input stays responsive; a newer call abandons this one.
  async #measure() {
    if (!this.#model) return;
    const generation = ++this.#generation;
    const sentence = this.value('sentence');
    this.control('swap').node.hidden = !adjectiveOf(sentence, TIRED_OR_WIDE_AT_END);
    this.setState('working');
    this.#showStatus();
    let base;
    try {
      base = this.#model.analyzePacked(sentence, { topK: 1 }); // the trace, for the attention shown
    } catch (e) {
      return this.#fail('runError', { message: e.message });
    }
    const { layer, head } = this.#corefHead();
    const { position: it, token: word, probability } = base.prediction;
    const n = base.n;
    const tokens = [...base.tokens];
    const weights = base.layers[layer].selfAttention.heads[head].weights;
    const referent = tokens.findIndex((t, i) => t === word && i !== it);
    const nLayers = base.layers.length;
    const nHeads = base.layers[0].selfAttention.heads.length;
    const id = this.#model.wordId(word);
    const rerun = (options) => this.#rerun(sentence, options, id);

    let calls = 0;
    const pause = async () => {
      if (++calls % CALLS_PER_SLICE === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      return generation !== this.#generation;
    };
    const knockouts = [];
    for (let p = 0; p < n; p++) {
      try {
        const { after, prediction } = rerun({ knockout: [p] });
        knockouts.push({ after, delta: after - probability, prediction });
      } catch (e) {
        knockouts.push({ error: e.message });
      }
      if (await pause()) return;
    }
    const singles = [];
    for (let l = 0; l < nLayers; l++) {
      for (let h = 0; h < nHeads; h++) {
        const { after, prediction } = rerun({ ablate: [[l, h]] });
        const row = base.layers[l].selfAttention.heads[h].weights;
        singles.push({
          layer: l,
          head: h,
          after,
          delta: after - probability,
          prediction,
          attention: referent >= 0 ? row[it * n + referent] : null,
        });
        if (await pause()) return;
      }
    }
    this.#error = null;
    this.#data = {
      sentence,
      tokens,
      n,
      it,
      word,
      id,
      probability,
      referent,
      layer,
      head,
      nLayers,
      nHeads,
      unknown: [...(base.unknown ?? [])],
      attention: Array.from({ length: n }, (_, j) => weights[it * n + j]),
      knockouts,
      singles,
    };
    this.setState('ready');
    this.#showStatus();
    this.#render();
  }

  // A knock-out or ablation reads only the probability of the intact sentence's answer (vocabulary
  // id `id`) and the new answer: probabilities() gives analyze()'s numbers without building the
  // trace and a prediction list in JS. → {after, prediction, predictionProbability}
  #rerun(sentence, options, id) {
    const r = this.#model.probabilities(sentence, options);
    const predictionProbability = r.probabilities[this.#model.wordId(r.best)];
    return { after: r.probabilities[id], prediction: r.best, predictionProbability };
  }

  #fail(key, params) {
    this.#error = { key, params };
    this.#data = null;
    this.setState('error');
    this.#showStatus();
    const p = this.#parts;
    for (const node of [p.answer, p.body, p.knockSummary, p.heads, p.ablation, p.headsSummary]) node.replaceChildren();
    p.knockHow.textContent = p.headsHow.textContent = '';
    p.table.hidden = this.control('reset').node.hidden = true;
  }

  #showStatus() {
    const { status, error } = this.#parts;
    const state = this.state;
    const key = state === 'loading' ? 'loading' : state === 'working' ? 'working' : null;
    status.textContent = key ? this.t(key) : '';
    status.hidden = !key;
    error.textContent = this.#error ? this.t(this.#error.key, this.#error.params) : '';
  }

  // --- output ---

  #render() {
    const d = this.#data;
    const p = this.#parts;
    p.table.hidden = this.control('reset').node.hidden = false;
    Object.assign(this.dataset, {
      sentence: d.sentence,
      prediction: d.word,
      probability: String(d.probability),
      corefLayer: d.layer,
      corefHead: d.head,
      referent: d.referent,
    });
    p.answer.textContent = this.t('answer', { word: d.word, p: this.#percent(d.probability) });
    p.knockHow.textContent = this.t('knockoutHowTo', { layer: d.layer + 1, head: d.head + 1, word: d.word });
    this.#renderTable(d);
    this.#renderHeads(d);
    this.#showAblation();
  }

  #renderTable(d) {
    const p = this.#parts;
    const bar = (cls, fraction) => {
      const outer = document.createElement('span');
      outer.className = `ae-ex-bar ${cls}`;
      outer.setAttribute('aria-hidden', 'true');
      const fill = document.createElement('span');
      fill.className = 'ae-ex-fill';
      fill.style.width = `${(Math.min(1, Math.max(0, fraction)) * 100).toFixed(1)}%`; // CSSOM, allowed by the CSP
      outer.append(fill);
      return outer;
    };
    const num = (value) =>
      Object.assign(document.createElement('span'), { className: 'ae-ex-num', textContent: value });
    const pair = (...nodes) => {
      const span = document.createElement('span');
      span.className = 'ae-ex-pair'; // bar and number stay on one line
      span.append(...nodes);
      return span;
    };
    const unknown = new Set(d.unknown);
    p.rows = d.tokens.map((token, j) => {
      const row = document.createElement('tr');
      const k = d.knockouts[j];
      Object.assign(row.dataset, { pos: j, token, attention: String(d.attention[j]) });
      const word = document.createElement('th');
      word.scope = 'row';
      word.textContent = token;
      if (unknown.has(j)) word.classList.add('unknown-word');
      if (j === d.it) word.classList.add('ae-ex-it');
      const attention = document.createElement('td');
      attention.append(pair(bar('attention', d.attention[j]), num(d.attention[j].toFixed(3))));
      const effect = document.createElement('td');
      if (k.error) {
        effect.textContent = k.error;
      } else {
        Object.assign(row.dataset, { delta: String(k.delta), knockoutPrediction: k.prediction });
        effect.append(pair(bar(k.delta < 0 ? 'effect down' : 'effect up', Math.abs(k.delta)), num(signed(k.delta))));
        if (k.prediction !== d.word) {
          const flip = num(this.t('newAnswer', { word: k.prediction }));
          flip.classList.add('ae-ex-flip');
          flip.title = this.t('flipsTo', { word: k.prediction });
          effect.append(flip);
        }
      }
      row.append(word, attention, effect);
      return row;
    });
    p.body.replaceChildren(...p.rows);

    // The word "it" looks at hardest (itself excluded) versus the knockout that matters most.
    const others = d.tokens.map((_, j) => j).filter((j) => j !== d.it);
    const top = others.reduce((a, b) => (d.attention[b] > d.attention[a] ? b : a), others[0] ?? 0);
    const measured = others.filter((j) => !d.knockouts[j].error);
    const cause = measured.reduce(
      (a, b) => (Math.abs(d.knockouts[b].delta) > Math.abs(d.knockouts[a].delta) ? b : a),
      measured[0] ?? top,
    );
    Object.assign(this.dataset, { topAttention: top, topEffect: cause });
    p.rows[top]?.classList.add('ae-ex-top-attention');
    p.rows[cause]?.classList.add('ae-ex-top-effect');
    const delta = d.knockouts[cause]?.delta ?? 0;
    p.knockSummary.textContent = this.t(top === cause ? 'knockoutSame' : 'knockoutSummary', {
      top: d.tokens[top],
      weight: d.attention[top].toFixed(3),
      cause: d.tokens[cause],
      delta: signed(delta),
      causeWeight: d.attention[cause].toFixed(3),
    });
  }

  #renderHeads(d) {
    const p = this.#parts;
    const rows = [];
    p.buttons = [];
    for (let l = 0; l < d.nLayers; l++) {
      const row = el('div', 'ae-ex-layer');
      el('span', 'ae-ex-layer-label', row, { 'aria-hidden': 'true' }, this.t('layerN', { i: l + 1 }));
      for (let h = 0; h < d.nHeads; h++) p.buttons.push(this.#headButton(row, d, l, h));
      rows.push(row);
    }
    p.heads.replaceChildren(...rows);
    p.headsHow.textContent = `${this.t('headsHowTo', { word: d.word })} ${this.t('headsMarks')}`;
    this.#summarizeHeads(d);
  }

  // Head (l, h)'s switch: its name, the attention it gives the referent, the effect of
  // switching it off alone; spoken as one label.
  #headButton(row, d, l, h) {
    const s = d.singles[l * d.nHeads + h];
    const coref = l === d.layer && h === d.head;
    const button = el('button', 'ae-ex-head', row, { type: 'button' });
    Object.assign(button.dataset, {
      layer: l,
      head: h,
      delta: String(s.delta),
      attention: s.attention === null ? '' : String(s.attention),
    });
    if (coref) button.classList.add('coref');
    const name = this.t('headN', { i: h + 1 }) + (coref ? ` · ${this.t('corefBadge')}` : '');
    el('span', 'ae-ex-head-name', button, {}, name);
    const attention = s.attention === null ? this.t('noReferent') : s.attention.toFixed(3);
    el('span', 'ae-ex-head-attention', button, {}, attention);
    el('span', 'ae-ex-head-effect', button, {}, signed(s.delta));
    const said = { layer: l + 1, head: h + 1, coref: coref ? this.t('corefSuffix') : '', word: d.word };
    button.setAttribute('aria-label', this.t('headButton', { ...said, attention, delta: signed(s.delta) }));
    return button;
  }

  // Which head gives the referent the most attention and which matters most alone; they are marked.
  #summarizeHeads(d) {
    const p = this.#parts;
    const withReferent = d.singles.filter((s) => s.attention !== null);
    const strongest = withReferent.reduce((a, b) => (b.attention > a.attention ? b : a), withReferent[0] ?? null);
    const biggest = d.singles.reduce((a, b) => (Math.abs(b.delta) > Math.abs(a.delta) ? b : a), d.singles[0]);
    const largest = Math.abs(biggest.delta) >= NO_EFFECT ? biggest : null; // null: no head matters alone
    this.dataset.strongestHead = strongest ? `${strongest.layer},${strongest.head}` : '';
    this.dataset.largestEffectHead = largest ? `${largest.layer},${largest.head}` : '';
    this.dataset.largestEffect = String(biggest.delta);
    for (const b of p.buttons) {
      const key = `${b.dataset.layer},${b.dataset.head}`;
      b.classList.toggle('strongest', key === this.dataset.strongestHead);
      b.classList.toggle('largest', key === this.dataset.largestEffectHead);
    }
    const e = largest
      ? { eLayer: largest.layer + 1, eHead: largest.head + 1, delta: signed(largest.delta), word: d.word }
      : { word: d.word };
    const a = strongest
      ? { aLayer: strongest.layer + 1, aHead: strongest.head + 1, attention: strongest.attention.toFixed(3) }
      : {};
    const key = largest
      ? strongest
        ? 'headsSummary'
        : 'headsSummaryNoReferent'
      : strongest
        ? 'headsSummaryNoEffect'
        : 'headsNoEffectNoReferent';
    p.headsSummary.textContent = this.t(key, { ...a, ...e });
  }

  // The prediction with the heads switched off now (one probabilities() call).
  #showAblation() {
    const d = this.#data;
    const p = this.#parts;
    const ablate = headsOf(this.value('ablate'));
    const off = new Set(ablate.map(String));
    for (const b of p.buttons) b.setAttribute('aria-pressed', String(off.has(`${b.dataset.layer},${b.dataset.head}`)));
    this.dataset.ablated = JSON.stringify(ablate);
    if (!d || !this.#model) return;
    if (!ablate.length) {
      Object.assign(this.dataset, {
        ablatedPrediction: d.word,
        ablatedProbability: String(d.probability),
        ablatedDelta: '0',
      });
      p.ablation.textContent = this.t('allOn', { word: d.word, p: this.#percent(d.probability) });
      return;
    }
    let r;
    try {
      r = this.#rerun(d.sentence, { ablate }, d.id);
    } catch (e) {
      return this.#fail('runError', { message: e.message });
    }
    const delta = r.after - d.probability;
    Object.assign(this.dataset, {
      ablatedPrediction: r.prediction,
      ablatedProbability: String(r.after),
      ablatedDelta: String(delta),
    });
    p.ablation.textContent = this.t('ablated', {
      count: ablate.length,
      word: r.prediction,
      p: this.#percent(r.predictionProbability),
      referent: d.word,
      delta: signed(delta),
    });
  }
}

define('ae-explanation', Explanation);
