// <ae-causal-mask>: panel 9, the causal mask, on the coref-decoder (a causal next-word model).
//  - the panel's sentence (editable; tired ↔ wide switch) with the mask on or off
//    (TrainedModel.analyze(text, {causal})): the masked scores (trace maskedScores, −∞ above
//    the diagonal) and the weights (exactly 0 there) of one layer/head;
//  - the row of the first "it" for the sentence and its tired/wide partner, side by side, and
//    whether they are bit-identical (in this head: data-identical; in every layer and head:
//    data-identical-all) — with the mask they must be, since "it" comes before the word that differs;
//  - the row at the answer position (the last token, after "it =") for both sentences, which
//    does differ, with each row's strongest key and the model's answer;
//  - encoder vs decoder in one sentence each;
//  - the sliding window (lesson: cheaper, but long-range links are lost), on the coref-encoder:
//    analyze(text, {window: w}) for the lesson sentence (tired or wide), the row of "it" in the
//    coreference head (config.json's coreference_head) and the answer, and whether the window still
//    links "it" with the word it refers to (|i − j| < w). The coref-encoder is fetched only when that
//    part comes near the viewport or is used.
// Positions on screen count from 1 ("word 9"), as in the other panels; data-it-position,
// data-window-it and data-window-referent are 0-based token indices, as in analyze().
// Runs use analyzePacked() (the same numbers as analyze(), faster to cross from wasm).
// JS compares returned numbers (equal or not) and picks the largest for a label; no model math.
// The model is fetched when the panel first comes near the viewport or is first used.
// Reads the shared store: lang, and model: a model opened from disk (GPT-2 layout) replaces the
// decoder while it is the page's model (lib/panel-model.mjs); the sliding window keeps coref-encoder.
// The head shown first is the decoder's coreference head (config.json's coreference_head: its row
// at "=" points at the referent, where the decision is made), or layer 1, head 1 for a decoder
// trained before that key existed.
// Its controls (static controls; the link keeps them as causal.s, causal.mask, causal.layer,
// causal.head — 1-based — and of the sliding-window part causal.adjective and causal.window;
// defaults are left out).
import { define } from '../lib/define.mjs';
import { modelNote, modelOutdated, panelModelName } from '../lib/panel-model.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { headControl, sentenceControl } from '../lib/panel-controls.mjs';
import { percent2 } from '../lib/panel-strings.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import strings from '../strings/causal-mask.mjs';
import { drawMatrix } from './number-matrix.mjs';
import { el } from '../lib/dom.mjs';
import { DECODER_PROMPT, LESSON, adjectiveOf, partnerOf } from '../lib/lesson.mjs';
import css from './causal-mask.css.mjs';
import matrixCss from './number-matrix.css.mjs';

const MODEL = 'coref-decoder';
const WINDOW_MODEL = 'coref-encoder';
const WINDOW_SENTENCES = LESSON;
const DEFAULT_WINDOW = 4;
const FALLBACK_VIEW = { layer: 0, head: 0 }; // for a model whose config.json names no coreference head
export const DEFAULT_SENTENCE = DECODER_PROMPT.tired;
const WINDOW_MAX = 13; // the window slider's range before a sentence sets it to n
const IT = 'it';

// The sentence with tired and wide exchanged, or null when it has neither.
function pairOf(sentence) {
  const adjective = adjectiveOf(sentence);
  return adjective && { adjective, partner: partnerOf(sentence) };
}

const row = (weights, n, i) => weights.subarray(i * n, (i + 1) * n);

// Largest |a − b| over two equal-length arrays, and whether every pair is the same number.
function compareRows(a, b) {
  let same = a.length === b.length,
    diff = 0;
  for (let j = 0; j < Math.min(a.length, b.length); j++) {
    if (Object.is(a[j], b[j])) continue;
    same = false;
    diff = Math.max(diff, Math.abs(a[j] - b[j]));
  }
  return { same, diff };
}

const argmax = (values) => values.reduce((best, v, j) => (v > values[best] ? j : best), 0);

const MAIN = 'ae-cm-controls';
const VIEW = 'ae-cm-view';
const WINDOW = 'ae-cm-view ae-cm-window-controls';

export class CausalMask extends LessonPanel {
  static styles = [matrixCss, css];
  static watched = ['lang', 'model', 'result'];
  static strings = strings;
  static link = 'causal';
  static guidance = ['showMe', 'predict'];
  static controls = {
    sentence: sentenceControl(DEFAULT_SENTENCE, {
      group: MAIN,
      className: 'ae-cm-sentence',
      sample: DECODER_PROMPT.wide,
    }),
    swap: {
      kind: 'button',
      label: 'swap',
      group: MAIN,
      press: (p) => {
        const pair = pairOf(p.value('sentence'));
        if (pair) p.setValues({ sentence: pair.partner });
      },
    },
    mask: { kind: 'toggle', label: 'mask', default: true, group: VIEW, field: 'ae-cm-check' },
    layer: headControl('layer', (p) => p.#model?.config.nLayers, { group: VIEW }),
    head: headControl('head', (p) => p.#model?.config.nHeads, { group: VIEW }),
    adjective: {
      kind: 'select',
      label: 'windowSentence',
      options: Object.entries(WINDOW_SENTENCES).map(([value, text]) => ({ value, text })),
      default: 'tired',
      group: WINDOW,
      field: 'field inline',
    },
    window: {
      kind: 'range',
      label: 'windowLabel',
      min: 1,
      max: WINDOW_MAX,
      step: 1,
      default: DEFAULT_WINDOW,
      group: WINDOW,
      field: 'field inline ae-cm-range',
      option: 'window',
    },
  };

  #parts = null;
  #model = null;
  #modelName = MODEL; // the model asked for: MODEL, or the page's opened model
  #loading = null;
  #runs = null; // {own, partner, adjective} analyze() results for the shown options
  #error = null; // {key, params}
  #win = { model: null, loading: null, full: {}, error: null }; // the sliding-window part

  connectedCallback() {
    super.connectedCallback();
    if (!this.#win.model) this.loadWhenNear(() => this.#ensureWindowModel(), this.#parts.winSection, '200px 0px');
  }

  storeChanged() {
    if ((this.#model || this.#loading) && modelOutdated(this.store, MODEL, this.#modelName, this.#model)) {
      this.#model = this.#loading = this.#runs = null; // the page's model changed: run the other one
      this.load();
    }
    this.#render();
  }

  #percent(p) {
    return percent2(p, this.store.get().lang);
  }

  build() {
    const p = this.frame('ae-cm', ['model', 'status', 'error']);
    const { root } = p;
    p.answer = el('p', 'ae-cm-answer', root);
    const matrices = el('div', 'ae-cm-compare', root);
    p.scores = el('div', 'ae-cm-scores', matrices);
    p.weights = el('div', 'ae-cm-weights', matrices);
    p.maskText = el('p', 'ae-cm-verdict', root);
    p.it = this.#pairOfRows(root, 'itTitle', { 'aria-live': 'polite' });
    p.decision = this.#pairOfRows(root, 'decisionTitle');

    this.text('h3', '', root, 'encoderTitle');
    const encList = el('ul', 'ae-cm-kinds', root);
    for (const key of ['encoder', 'decoder']) this.text('li', '', encList, key);

    const winSection = (p.winSection = el('div', 'ae-cm-window', root));
    this.text('h3', '', winSection, 'windowTitle');
    this.text('p', 'howto', winSection, 'windowHowTo').after(this.group(WINDOW));
    p.winInput = this.control('window').node;
    p.winOutput = el('output', 'ae-cm-window-value', null, { for: p.winInput.id });
    p.winInput.after(p.winOutput);
    p.winStatus = el('p', 'ae-cm-status', winSection, { role: 'status' });
    p.winError = el('div', 'error ae-cm-error', winSection, { role: 'alert' });
    p.winRow = el('div', '', winSection);
    p.winText = el('p', 'ae-cm-verdict', winSection, { 'aria-live': 'polite' });
    p.winNote = el('p', 'howto', winSection);
    this.mount(root);
    this.#parts = p;

    winSection.addEventListener('focusin', () => this.#ensureWindowModel(), { once: true });
  }

  // A titled pair of rows side by side (the sentence's and its tired/wide partner's) over a verdict.
  #pairOfRows(root, titleKey, verdictAttrs) {
    const title = this.text('h3', '', root, titleKey);
    const how = el('p', 'howto', root);
    const rows = el('div', 'ae-cm-compare', root);
    const [own, partner] = [el('div', '', rows), el('div', '', rows)];
    return { title, how, rows, own, partner, text: el('p', 'ae-cm-verdict', root, verdictAttrs) };
  }

  // --- guidance (LessonPanel): Show me, Reset, the question ---

  // The decoder's own coreference head (config.json, chosen by training) on the lesson prompt,
  // mask on: `it`'s row is the same for tired and wide, the row at "=" is not.
  showMe() {
    const head = this.#model && coreferenceHead(this.#model.config);
    if (!head) return null;
    return { controls: { sentence: DEFAULT_SENTENCE, mask: true, ...head }, reveal: this.#parts.it.title };
  }

  // The head the panel opens on: the decoder's coreference head, once the decoder is loaded.
  openingHead() {
    return this.#model && coreferenceHead(this.#model.config, FALLBACK_VIEW);
  }

  controlsChanged(names) {
    const has = (...keys) => keys.some((key) => names.includes(key));
    if (has('sentence', 'mask')) this.load().then(() => this.#run());
    else if (has('layer', 'head')) this.load().then(() => this.#render());
    if (has('adjective', 'window')) this.#ensureWindowModel().then(() => this.#renderWindow());
  }

  // Whether `it` can see the adjective after it: the shown head's masked score there is finite.
  question() {
    const p = this.#parts;
    const { sentence, mask } = this.values();
    const pair = pairOf(sentence);
    if (!pair) return null;
    return {
      key: `see|${sentence}|${mask}`, // a new experiment asks again
      text: this.t('guessSee', { adjective: pair.adjective }),
      choices: ['yes', 'no'].map((value) => ({ value, label: this.t(value) })),
      hide: [p.answer, p.weights, p.scores, p.maskText, p.it.own, p.it.partner, p.it.text],
      answer: () => {
        const own = this.#runs?.own;
        const it = own ? own.tokens.indexOf(IT) : -1;
        const adjective = own ? own.tokens.indexOf(this.#runs.adjective) : -1;
        if (it < 0 || adjective < 0) return null;
        const { layer, head } = this.values();
        const score = own.layers[layer].selfAttention.heads[head].maskedScores[it * own.n + adjective];
        return score === -Infinity ? 'no' : 'yes';
      },
    };
  }

  load() {
    if (this.#model) return Promise.resolve();
    if (!this.#loading) {
      this.#error = null;
      this.#render();
      this.#modelName = panelModelName(this.store, MODEL);
      const loading = (this.#loading = this.trainedModel(this.#modelName)
        .then((model) => {
          if (loading !== this.#loading) return; // the page's model changed meanwhile
          this.#model = model;
          this.refreshControls(); // the layer and head counts, the opening head
          this.#run();
        })
        .catch((error) => {
          if (loading !== this.#loading) return;
          this.#error = { key: 'loadError', params: { message: error.message } };
          this.#loading = null;
          this.#render();
        }));
    }
    return this.#loading;
  }

  #ensureWindowModel() {
    const w = this.#win;
    if (w.model) return Promise.resolve();
    if (!w.loading) {
      w.error = null;
      this.#renderWindow();
      w.loading = this.trainedModel(WINDOW_MODEL)
        .then((model) => {
          w.model = model;
          this.#renderWindow();
        })
        .catch((error) => {
          w.error = { key: 'loadErrorEncoder', params: { message: error.message } };
          w.loading = null;
          this.#renderWindow();
        });
    }
    return w.loading;
  }

  #run() {
    if (!this.#model) return;
    const { sentence: text, mask: causal } = this.values();
    this.#error = null;
    this.dataset.sentence = text; // the sentence the shown results are for
    try {
      const own = this.#model.analyzePacked(text, { causal, topK: 3 });
      const pair = pairOf(text);
      const partner = pair ? this.#model.analyzePacked(pair.partner, { causal, topK: 3 }) : null;
      this.#runs = { own, partner, adjective: pair?.adjective ?? null, causal };
      if (own.unknown.length)
        this.#error = { key: 'unknownWords', params: { words: own.unknown.map((p) => own.tokens[p]).join(' ') } };
    } catch (error) {
      this.#runs = null;
      this.#error = { key: 'runError', params: { message: error.message } };
    }
    this.#render();
  }

  #render() {
    const p = this.#parts;
    if (!p) return;
    p.status.textContent = !this.#model && this.#loading ? this.t('loading') : '';
    p.modelLine.textContent = modelNote(this.store, this.#modelName, this.#model);
    this.dataset.model = this.#modelName;
    p.error.textContent = this.#error ? this.t(this.#error.key, this.#error.params) : '';
    const hard = this.#error && this.#error.key !== 'unknownWords';
    this.setState(!this.#model ? (this.#error ? 'error' : 'loading') : hard ? 'error' : 'ready');
    this.#renderWindow();
    const runs = this.#model && !hard ? this.#runs : null;
    this.toggleAttribute('data-empty', !runs);
    for (const node of [p.answer, p.maskText, p.it.how, p.it.text, p.decision.how, p.decision.text])
      node.textContent = '';
    for (const node of [p.scores, p.weights, p.it.own, p.it.partner, p.decision.own, p.decision.partner])
      node.replaceChildren();
    if (!runs) return;
    this.#renderMatrices(runs);
    this.#renderItRows(runs);
    this.#renderDecision(runs);
  }

  #renderMatrices({ own, causal }) {
    const p = this.#parts;
    const { layer, head } = this.values();
    const h = own.layers[layer].selfAttention.heads[head];
    const names = { layer: layer + 1, head: head + 1 };
    const last = own.tokens[own.n - 1];
    if (own.prediction)
      p.answer.textContent = this.t('answer', {
        last,
        word: own.prediction.token,
        p: this.#percent(own.prediction.probability),
      });
    p.answer.dataset.prediction = own.prediction?.token ?? '';
    p.answer.dataset.probability = own.prediction ? String(own.prediction.probability) : '';
    drawMatrix(p.scores, {
      rows: own.tokens,
      cols: own.tokens,
      values: h.maskedScores,
      kind: 'scores',
      caption: this.t('scoresCaption', names),
    });
    drawMatrix(p.weights, {
      rows: own.tokens,
      cols: own.tokens,
      values: h.weights,
      kind: 'weights',
      caption: this.t('weightsCaption', names),
    });
    let upperZero = true,
      upperMinusInf = true;
    for (let i = 0; i < own.n; i++)
      for (let j = i + 1; j < own.n; j++) {
        upperZero &&= h.weights[i * own.n + j] === 0;
        upperMinusInf &&= h.maskedScores[i * own.n + j] === -Infinity;
      }
    Object.assign(this.dataset, {
      causal: String(causal),
      upperZero: String(upperZero),
      upperMinusInf: String(upperMinusInf),
      layer,
      head,
    });
    p.maskText.textContent = this.t(causal ? 'maskOn' : 'maskOff');
  }

  #renderItRows({ own, partner, adjective }) {
    const p = this.#parts;
    delete this.dataset.identical;
    delete this.dataset.identicalAll;
    const pos = own.tokens.findIndex((t) => t.trim() === IT); // a BPE token carries its space: " it"
    if (pos < 0) return void (p.it.text.textContent = this.t('itMissing'));
    if (!partner) return void (p.it.text.textContent = this.t('noPair'));
    const { layer, head } = this.values();
    const other = adjective === 'tired' ? 'wide' : 'tired';
    const rowOf = (run, l, h) => row(run.layers[l].selfAttention.heads[h].weights, run.n, pos);
    p.it.how.textContent = this.t('itHowTo', { pos: pos + 1 });
    for (const [host, run, which] of [
      [p.it.own, own, adjective],
      [p.it.partner, partner, other],
    ])
      drawMatrix(host, {
        rows: [IT],
        cols: run.tokens,
        values: rowOf(run, layer, head),
        rowOffset: pos,
        caption: this.t('itCaption', { which: this.t(which) }),
      });
    const here = compareRows(rowOf(own, layer, head), rowOf(partner, layer, head));
    let all = true;
    own.layers.forEach((l, li) =>
      l.selfAttention.heads.forEach((_, hi) => {
        all &&= compareRows(rowOf(own, li, hi), rowOf(partner, li, hi)).same;
      }),
    );
    this.dataset.identical = String(here.same);
    this.dataset.identicalAll = String(all);
    this.dataset.itPosition = pos;
    p.it.text.textContent =
      here.same && all
        ? this.t('itSame', { prefix: own.tokens.slice(0, pos + 1).join(' ') })
        : here.same
          ? this.t('itSameHead')
          : this.t('itDiffer', { diff: here.diff.toExponential(2) });
  }

  #renderDecision({ own, partner, adjective }) {
    const p = this.#parts;
    if (!partner || !own.prediction || !partner.prediction) return;
    const pos = own.prediction.position;
    const last = own.tokens[pos];
    const { layer, head } = this.values();
    const other = adjective === 'tired' ? 'wide' : 'tired';
    p.decision.how.textContent = this.t('decisionHowTo', { last, pos: pos + 1 });
    const tops = [];
    for (const [host, run, which] of [
      [p.decision.own, own, adjective],
      [p.decision.partner, partner, other],
    ]) {
      const values = row(run.layers[layer].selfAttention.heads[head].weights, run.n, run.prediction.position);
      const caption = this.t('decisionCaption', {
        which: this.t(which),
        last,
        word: run.prediction.token,
        p: this.#percent(run.prediction.probability),
      });
      const table = drawMatrix(host, {
        rows: [last],
        cols: run.tokens,
        values,
        rowOffset: run.prediction.position,
        caption,
      });
      const top = argmax(values);
      for (const th of table.querySelectorAll('thead th'))
        th.classList.toggle('ae-nm-top', th.dataset.col === String(top));
      table.dataset.top = top;
      table.dataset.prediction = run.prediction.token;
      tops.push({ token: run.tokens[top], weight: values[top].toFixed(2), answer: run.prediction.token, values });
    }
    const differs = !compareRows(tops[0].values, tops[1].values).same;
    this.dataset.answerRowsDiffer = String(differs);
    p.decision.text.textContent = this.t('decisionText', {
      a: this.t(adjective),
      b: this.t(other),
      topA: tops[0].token,
      wA: tops[0].weight,
      topB: tops[1].token,
      wB: tops[1].weight,
      ansA: tops[0].answer,
      ansB: tops[1].answer,
    });
  }

  // The sliding-window part: one analyze() of the chosen lesson sentence with {window: w} (and
  // one without a window, kept, for the comparison). w = n (the sentence's length) hides nothing.
  #renderWindow() {
    const p = this.#parts;
    const w = this.#win;
    const wanted = this.value('window');
    p.winStatus.textContent = !w.model && w.loading ? this.t('loadingEncoder') : '';
    p.winText.textContent = p.winNote.textContent = '';
    this.#showWindowSize(wanted, 'windowValue');
    const fail = (error) => {
      p.winError.textContent = error ? this.t(error.key, error.params) : '';
      p.winRow.replaceChildren();
      p.winSection.dataset.state = error ? 'error' : 'loading';
    };
    if (!w.model) return fail(w.error);
    const sentence = WINDOW_SENTENCES[this.value('adjective')];
    let full, run;
    try {
      full = w.full[sentence] ??= w.model.analyzePacked(sentence, { topK: 3 });
      p.winInput.max = full.n; // w = n: every pair is within the window, i.e. no window at all
      run = w.model.analyzePacked(sentence, { window: Math.min(wanted, full.n), topK: 3 });
    } catch (error) {
      return fail({ key: 'runError', params: { message: error.message } });
    }
    fail(null);
    const size = Math.min(wanted, full.n);
    this.#showWindowSize(size, size >= full.n ? 'windowFull' : 'windowValue');
    const it = full.prediction.position;
    const referent = full.tokens.findIndex((t, j) => t === full.prediction.token && j !== it);
    const values = this.#drawWindowRow(run, it, referent, size);
    const distance = referent >= 0 ? Math.abs(it - referent) : -1;
    const reaches = referent >= 0 && distance < size;
    Object.assign(p.winSection.dataset, {
      state: 'ready',
      window: size,
      sentence,
      it,
      referent,
      distance,
      reaches: String(reaches),
      referentWeight: referent >= 0 ? String(values[referent]) : '',
      prediction: run.prediction.token,
      probability: String(run.prediction.probability),
      fullPrediction: full.prediction.token,
      fullProbability: String(full.prediction.probability),
    });
    this.#sayWindow({ full, run, it, referent, distance, reaches, size });
  }

  // The window slider's value, spelled out (w, and the 2w − 1 words a word sees) for it and the screen reader.
  #showWindowSize(size, key) {
    const { winOutput, winInput } = this.#parts;
    winOutput.textContent = this.t(key, { w: size, seen: 2 * size - 1 });
    winInput.setAttribute('aria-valuetext', winOutput.textContent);
  }

  // The row of "it" (position it) in the coreference head under the window, the referent's
  // column marked; returns the row's weights.
  #drawWindowRow(run, it, referent, size) {
    const { layer, head } = coreferenceHead(this.#win.model.config, FALLBACK_VIEW);
    const values = row(run.layers[layer].selfAttention.heads[head].weights, run.n, it);
    const table = drawMatrix(this.#parts.winRow, {
      rows: [run.tokens[it]],
      cols: run.tokens,
      values,
      rowOffset: it,
      caption: this.t('windowCaption', { layer: layer + 1, head: head + 1, w: size }),
    });
    for (const th of table.querySelectorAll('thead th'))
      th.classList.toggle('ae-nm-top', th.dataset.col === String(referent));
    return values;
  }

  // Whether the window still links "it" with its referent, and what the answer did.
  #sayWindow({ full, run, it, referent, distance, reaches, size }) {
    const p = this.#parts;
    const params = {
      it: run.tokens[it],
      itPos: it + 1,
      ref: full.tokens[referent],
      refPos: referent + 1,
      d: distance,
      reach: size - 1,
      word: run.prediction.token,
      p: this.#percent(run.prediction.probability),
      fullWord: full.prediction.token,
      fullP: this.#percent(full.prediction.probability),
      relay: run.layers.length * (size - 1),
      layers: run.layers.length,
    };
    const same = run.prediction.token === full.prediction.token;
    if (referent < 0) p.winText.textContent = this.t('windowNoReferent', params);
    else if (reaches) p.winText.textContent = this.t('windowReaches', params);
    else p.winText.textContent = this.t(same ? 'windowCutSame' : 'windowCut', params);
    // Through the layers a word can still pass information on, at most layers × (w − 1) positions.
    if (referent >= 0 && !reaches)
      p.winNote.textContent = this.t(
        params.relay < distance ? 'windowNoRelay' : same ? 'windowRelaySame' : 'windowRelay',
        params,
      );
  }
}

define('ae-causal-mask', CausalMask);
