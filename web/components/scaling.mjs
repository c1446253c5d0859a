// <ae-scaling>: panel 5, "why ÷√d".
//  1. Random vectors: a slider for the width d (2 … 1024, powers of two) and a switch for the
//     ÷√d, on random unit-variance queries and keys scored by the core's attention
//     (Engine.scalingDemo): the spread of the scores, the first query's weights as bars, their
//     entropy and largest weight, and the average entropy for every d (scaled vs not) as a chart.
//  2. The trained coreference model: a factor on every attention score (scoreMultiplier
//     ×0.25 … ×4) or the ÷√d switched off (analyze(text, {scale, scoreMultiplier})), and what it
//     does to the weights of "it" in the coreference head (config.json's coreference_head),
//     their entropy (Engine.rowEntropy) and the prediction.
// Every model number comes from the engine; JS only formats and lays out.
// Shown numbers are mirrored in data-* attributes for the tests, the model part's loading |
// ready | error in data-state. The model is fetched when the
// panel first comes near the viewport or is first used. Reads the shared store: lang.
import { define } from '../lib/define.mjs';
import { getEngine } from '../lib/context.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import { percent } from '../lib/panel-strings.mjs';
import strings from '../strings/scaling.mjs';
import { fixed } from './qkv-steps.mjs';
import { dataTable, el, svgNode, weightBar } from '../lib/dom.mjs';
import { LESSON } from '../lib/lesson.mjs';
import css from './scaling.css.mjs';

const MODEL = 'coref-encoder';
const SENTENCES = LESSON;
const DEMO = { keys: 8, queries: 200, dMinExp: 1, dMaxExp: 10, dStartExp: 6 };
const MULTIPLIERS = [0.25, 0.5, 1, 2, 4];
const COLLAPSE_AT = 0.9; // a largest weight above this is shown as "collapsed"
const DEMO_CONTROLS = 'ae-sc-controls';
const MODEL_CONTROLS = 'ae-sc-controls ae-sc-model-controls';
const DEMO_NAMES = ['d', 'scaled', 'seed'];

export class Scaling extends LessonPanel {
  static styles = [css];
  static watched = ['lang'];
  static strings = strings;
  static link = 'scaling';
  static guidance = ['showMe', 'predict'];
  // d is set by its exponent (2 … 1024 in powers of two) and linked as d; the score factor by
  // its place in MULTIPLIERS, linked as the factor.
  static controls = {
    d: {
      kind: 'range',
      label: 'd',
      min: DEMO.dMinExp,
      max: DEMO.dMaxExp,
      step: 1,
      default: DEMO.dStartExp,
      toLink: (exp) => 2 ** exp,
      fromLink: Math.log2,
      group: DEMO_CONTROLS,
      field: 'ae-sc-field',
    },
    scaled: { kind: 'toggle', label: 'scale', default: true, group: DEMO_CONTROLS },
    seed: { kind: 'counter', label: 'reseed', default: 1, group: DEMO_CONTROLS, field: 'ae-sc-reseed' },
    sentence: {
      kind: 'select',
      label: 'sentence',
      options: Object.keys(SENTENCES).map((key) => ({ value: key, label: key })),
      default: 'tired',
      group: MODEL_CONTROLS,
      field: 'ae-sc-field',
    },
    mult: {
      kind: 'range',
      label: 'multiplier',
      param: 'factor',
      min: 0,
      max: MULTIPLIERS.length - 1,
      step: 1,
      default: MULTIPLIERS.indexOf(1),
      toLink: (i) => MULTIPLIERS[i],
      fromLink: (m) => MULTIPLIERS.indexOf(m),
      group: MODEL_CONTROLS,
      field: 'ae-sc-field',
      option: 'scoreMultiplier',
    },
    noscale: { kind: 'toggle', label: 'noScale', default: false, group: MODEL_CONTROLS },
  };

  #parts = null;
  #engine = null;
  #curve = null; // {seed, scaled: [meanEntropy per d], raw: [...]}
  #model = null;
  #loading = null;
  #baseline = new Map(); // sentence key → analyze() with the trained settings
  #modelError = null; // {key, params}

  connectedCallback() {
    super.connectedCallback();
    getEngine().then(
      (engine) => {
        this.#engine = engine;
        this.#drawDemo();
        this.#drawModel();
      },
      () => {},
    ); // the page itself reports an engine that fails to load
  }

  storeChanged(full) {
    if (!full) return;
    this.#drawDemo();
    this.#drawModel();
  }

  #percent(p) {
    return percent(p, this.store.get().lang);
  }

  // --- structure ---

  build() {
    const p = this.frame('ae-sc');
    this.#buildDemo(p);
    this.#buildModel(p);
    this.mount(p.root);
    this.#parts = p;
  }

  // 1. random vectors
  #buildDemo(p) {
    const { root } = p;
    this.text('h3', '', root, 'randomTitle');
    const howTo = this.text('p', '', root, () => this.t('randomHowTo', { queries: DEMO.queries, keys: DEMO.keys }));
    howTo.after(this.group(DEMO_CONTROLS));
    p.dOutput = el('output', 'ae-sc-dvalue', null, { for: this.control('d').node.id });
    this.control('d').node.after(p.dOutput);
    p.seedNote = el('span', 'ae-sc-seed');
    this.control('seed').node.after(p.seedNote);

    const demoOut = (p.demoOut = el('div', 'ae-sc-demo', root));
    const stats = el('dl', 'ae-sc-stats', demoOut);
    const stat = (key, label) => {
      const box = el('div', `ae-sc-stat ae-sc-${key}`, stats);
      this.text('dt', '', box, label);
      const dd = el('dd', '', box);
      return { value: el('span', 'ae-sc-value', dd), note: el('span', 'ae-sc-note', dd) };
    };
    p.spread = stat('spread', 'spread');
    p.entropy = stat('entropy', 'entropy');
    p.maxWeight = stat('max', 'maxWeight');
    p.verdict = el('p', 'ae-sc-verdict', demoOut, { role: 'status' });
    p.bars = svgNode('svg', { class: 'ae-sc-bars', role: 'img' }, demoOut);
    this.text('p', 'ae-sc-chart-title', demoOut, 'chartTitle');
    p.chart = svgNode('svg', { class: 'ae-sc-chart', role: 'img' }, demoOut);
    p.demoError = el('p', 'error', demoOut, { role: 'alert' });
  }

  // 2. the trained model
  #buildModel(p) {
    const { id, root } = p;
    p.modelTitle = this.text('h3', '', root, 'modelTitle');
    p.modelHowTo = el('p', '', root);
    p.modelHowTo.after(this.group(MODEL_CONTROLS));
    p.multOutput = el('output', 'ae-sc-dvalue', null, { for: this.control('mult').node.id });
    this.control('mult').node.after(p.multOutput);
    p.factor = el('p', 'ae-sc-factor', root);
    p.modelStatus = el('p', 'ae-sc-status', root, { role: 'status' });
    p.modelError = el('p', 'error', root, { role: 'alert' });
    const modelOut = (p.modelOut = el('div', 'ae-sc-model', root));
    const answers = el('dl', 'ae-sc-answers', modelOut);
    const answerBox = (cls, column) => {
      const box = el('div', `ae-sc-answer ${cls}`, answers);
      this.text('dt', '', box, () => `${this.t('answer')} · ${this.t(column)}`);
      return { dd: el('dd', '', box) };
    };
    p.answerNormal = answerBox('normal', 'colNormal');
    p.answerNow = answerBox('now', 'colNow');
    const table = dataTable(modelOut, 'ae-sc-table', { id: `${id}-caption`, scroll: 'ae-sc-scroll' });
    this.headings(table.head, ['colWord', 'colNormal', 'colNow']);
    Object.assign(p, { caption: table.caption, tbody: table.body });
    const footRow = el('tr', 'ae-sc-entropy-row', el('tfoot', '', table.table));
    this.text('th', '', footRow, 'rowEntropy', { scope: 'row' });
    p.entropyNormal = el('td', '', footRow);
    p.entropyNow = el('td', '', footRow);
  }

  // --- 1. random vectors ---

  // --- guidance (LessonPanel): Show me, Reset, the question ---

  // The trained model's coreference head under the smallest factor: its weights flatten.
  showMe() {
    if (!this.#model?.config.metadata.coreference_head) return null;
    return { controls: { mult: 0, noscale: false }, reveal: this.#parts.modelTitle };
  }

  // A change of the random demo's controls redraws it; of the model's, the model's table.
  controlsChanged(names) {
    if (names.some((name) => DEMO_NAMES.includes(name))) this.#drawDemo();
    if (names.some((name) => !DEMO_NAMES.includes(name))) {
      this.load();
      this.#drawModel();
    }
  }

  // Sharper or flatter without ÷√d, at the shown d: the mean entropy of the random queries'
  // weights unscaled against scaled (the chart's two curves).
  question() {
    const p = this.#parts;
    const exp = this.value('d');
    return {
      key: `noscale|${exp}`, // another d asks again
      text: this.t('guessNoScale', { d: 2 ** exp }),
      choices: ['sharper', 'flatter'].map((value) => ({ value, label: this.t(value) })),
      hide: [p.demoOut],
      answer: () => {
        const c = this.#curve;
        const i = c ? c.exps.indexOf(exp) : -1;
        if (i < 0) return null;
        return c.raw[i] < c.scaled[i] ? 'sharper' : 'flatter';
      },
    };
  }

  #drawDemo() {
    const p = this.#parts;
    const { d: exp, scaled: scale, seed } = this.values();
    const d = 2 ** exp;
    p.dOutput.textContent = this.t('dValue', { d });
    this.control('d').node.setAttribute('aria-valuetext', this.t('dValue', { d }));
    p.seedNote.textContent = this.t('seed', { seed });
    if (!this.#engine) return;
    let demo;
    try {
      demo = this.#engine.scalingDemo({ d, keys: DEMO.keys, queries: DEMO.queries, seed, scale });
      this.#ensureCurve(seed);
    } catch (error) {
      p.demoError.textContent = error.message;
      return;
    }
    p.demoError.textContent = '';
    const { keys } = demo;
    const weights = demo.weights.subarray(0, keys); // the first query's row
    const scores = demo.scores.subarray(0, keys);
    const entropy = demo.entropy[0];
    const max = demo.maxWeight[0];

    p.spread.value.textContent = fixed(demo.scoreStd, 2);
    p.spread.note.textContent = this.t('spreadNote', { root: fixed(Math.sqrt(d), 2) });
    p.entropy.value.textContent = fixed(entropy, 3);
    p.entropy.note.textContent = this.t('entropyNote', {
      keys,
      max: fixed(demo.uniformEntropy, 3),
      mean: fixed(demo.meanEntropy, 3),
    });
    p.maxWeight.value.textContent = fixed(max, 3);
    p.maxWeight.note.textContent = this.t('maxWeightNote', { mean: fixed(demo.meanMaxWeight, 3) });
    const collapsed = max > COLLAPSE_AT;
    p.verdict.textContent = this.t(collapsed ? 'collapsed' : 'notCollapsed', { p: this.#percent(max) });
    p.verdict.classList.toggle('collapsed', collapsed);
    p.demoOut.classList.toggle('collapsed', collapsed);

    this.#drawBars(scores, weights);
    this.#drawCurve(d);
    Object.assign(this.dataset, {
      d,
      scale,
      seed,
      scoreStd: String(demo.scoreStd),
      entropy: String(entropy),
      meanEntropy: String(demo.meanEntropy),
      maxWeight: String(max),
      weights: JSON.stringify(Array.from(weights, String)),
      collapsed,
    });
  }

  // The first query's weights as bars; the largest in the marker colour.
  #drawBars(scores, weights) {
    const { bars } = this.#parts;
    const n = weights.length;
    const W = 320,
      H = 130,
      top = 16,
      bottom = 22,
      gap = 6;
    const bw = (W - gap * (n + 1)) / n;
    bars.replaceChildren();
    bars.setAttribute('viewBox', `0 0 ${W} ${H}`);
    bars.setAttribute('aria-label', this.t('barsLabel', { keys: n }));
    let strongest = 0;
    weights.forEach((w, j) => {
      if (w > weights[strongest]) strongest = j;
    });
    svgNode('line', { x1: 0, x2: W, y1: H - bottom + 0.5, y2: H - bottom + 0.5, class: 'ae-sc-axis' }, bars);
    weights.forEach((w, j) => {
      const x = gap + j * (bw + gap);
      const h = Math.max(1, w * (H - top - bottom));
      const g = svgNode('g', { class: j === strongest ? 'ae-sc-bar strongest' : 'ae-sc-bar' }, bars);
      g.dataset.weight = String(w);
      g.dataset.score = String(scores[j]);
      svgNode('title', {}, g, this.t('barTitle', { i: j + 1, score: fixed(scores[j]), weight: fixed(w, 4) }));
      svgNode('rect', { x, y: H - bottom - h, width: bw, height: h }, g);
      svgNode(
        'text',
        { x: x + bw / 2, y: H - bottom - h - 4, 'text-anchor': 'middle', class: 'ae-sc-barvalue' },
        g,
        fixed(w, 2),
      );
      svgNode(
        'text',
        { x: x + bw / 2, y: H - 6, 'text-anchor': 'middle', class: 'ae-sc-barlabel' },
        g,
        this.t('keyN', { i: j + 1 }),
      );
    });
  }

  // Average entropy for every d, scaled and not (computed once per seed).
  #ensureCurve(seed) {
    if (this.#curve?.seed === seed) return;
    const exps = [];
    for (let e = DEMO.dMinExp; e <= DEMO.dMaxExp; e++) exps.push(e);
    const run = (scale) =>
      exps.map(
        (e) => this.#engine.scalingDemo({ d: 2 ** e, keys: DEMO.keys, queries: DEMO.queries, seed, scale }).meanEntropy,
      );
    const uniform = this.#engine.scalingDemo({ d: 2, keys: DEMO.keys, queries: 1, seed }).uniformEntropy;
    this.#curve = { seed, exps, scaled: run(true), raw: run(false), uniform };
  }

  #drawCurve(d) {
    const { chart } = this.#parts;
    const { exps, scaled, raw, uniform } = this.#curve;
    const W = 320,
      H = 150,
      left = 34,
      right = 22,
      top = 10,
      bottom = 26;
    const x = (e) => left + ((e - exps[0]) / (exps.at(-1) - exps[0])) * (W - left - right);
    const y = (h) => top + (1 - h / uniform) * (H - top - bottom);
    chart.replaceChildren();
    chart.setAttribute('viewBox', `0 0 ${W} ${H}`);
    chart.setAttribute(
      'aria-label',
      this.t('chartLabel', {
        flat: fixed(scaled.at(-1), 2),
        low: fixed(raw.at(-1), 2),
        dmax: 2 ** exps.at(-1),
      }),
    );
    for (const h of [0, uniform]) {
      svgNode('line', { x1: left, x2: W - right, y1: y(h), y2: y(h), class: 'ae-sc-grid' }, chart);
      svgNode('text', { x: left - 4, y: y(h) + 4, 'text-anchor': 'end', class: 'ae-sc-tick' }, chart, fixed(h, 2));
    }
    for (const e of exps) {
      if (e % 2 === 0 || e === exps[0])
        svgNode('text', { x: x(e), y: H - 8, 'text-anchor': 'middle', class: 'ae-sc-tick' }, chart, String(2 ** e));
    }
    svgNode('line', { x1: x(Math.log2(d)), x2: x(Math.log2(d)), y1: top, y2: H - bottom, class: 'ae-sc-now' }, chart);
    for (const [series, values] of [
      ['scaled', scaled],
      ['raw', raw],
    ]) {
      const points = values.map((h, i) => `${x(exps[i]).toFixed(1)},${y(h).toFixed(1)}`).join(' ');
      const line = svgNode('polyline', { points, class: `ae-sc-line ${series}` }, chart);
      line.dataset.values = JSON.stringify(values.map(String));
      values.forEach((h, i) =>
        svgNode('circle', { cx: x(exps[i]), cy: y(h), r: 2.5, class: `ae-sc-dot ${series}` }, chart),
      );
      const last = values.at(-1);
      svgNode(
        'text',
        {
          x: W - right - 4,
          y: y(last) + (series === 'raw' ? -6 : 14),
          'text-anchor': 'end',
          class: `ae-sc-legend ${series}`,
        },
        chart,
        this.t(series === 'raw' ? 'chartRaw' : 'chartScaled'),
      );
    }
  }

  // --- 2. the trained model ---

  load() {
    if (this.#loading) return this.#loading;
    this.#parts.modelStatus.textContent = this.t('loading');
    this.#loading = this.trainedModel(MODEL).then(
      (model) => {
        this.#model = model;
        this.#modelError = null;
        this.#drawModel();
      },
      (error) => {
        this.#loading = null; // the next interaction retries
        this.#modelError = { key: 'loadError', params: { message: error.message } };
        this.#drawModel();
      },
    );
    return this.#loading;
  }

  #settings() {
    const { sentence, mult, noscale } = this.values();
    return { sentence, multiplier: MULTIPLIERS[mult], scale: !noscale };
  }

  #drawModel() {
    const p = this.#parts;
    const { sentence, multiplier, scale } = this.#settings();
    const m = String(multiplier);
    p.multOutput.textContent = this.t('multiplierValue', { m });
    this.control('mult').node.setAttribute('aria-valuetext', this.t('multiplierValue', { m }));
    const model = this.#model;
    const { layer, head } = coreferenceHead(model?.config, { layer: 0, head: 0 });
    p.modelHowTo.textContent = this.t('modelHowTo', { layer: layer + 1, head: head + 1 });
    p.modelError.textContent = this.#modelError ? this.t(this.#modelError.key, this.#modelError.params) : '';
    p.modelStatus.hidden = Boolean(model) || Boolean(this.#modelError);
    p.modelOut.hidden = !model || !this.#engine;
    this.setState(this.#modelError ? 'error' : 'loading');
    if (!model || !this.#engine) return;

    const text = SENTENCES[sentence];
    let normal, now;
    try {
      if (!this.#baseline.has(sentence)) this.#baseline.set(sentence, model.analyze(text, {}));
      normal = this.#baseline.get(sentence);
      now = model.analyze(text, { scale, scoreMultiplier: multiplier });
    } catch (error) {
      p.modelError.textContent = this.t('runError', { message: error.message });
      p.modelOut.hidden = true;
      this.setState('error');
      return;
    }
    const engine = this.#engine;
    const d = model.config.headDim;
    const total = engine.attentionScoreScale(d, { scale, scoreMultiplier: multiplier });
    p.factor.textContent = this.t('factor', {
      factor: fixed(total, 4),
      how: this.t(scale ? 'factorScaled' : 'factorRaw', { m, d }),
    });

    const it = normal.prediction.position; // the coreference answer is read from "it"
    const n = normal.n;
    const rowOf = (r) => r.layers[layer].selfAttention.heads[head].weights.subarray(it * n, it * n + n);
    const rowNormal = rowOf(normal),
      rowNow = rowOf(now);
    p.caption.textContent = this.t('tableCaption', { layer: layer + 1, head: head + 1 });
    const cell = (tr, w, cls) => {
      const td = el('td', cls, tr, { 'data-weight': String(w) });
      td.append(weightBar('ae-sc-rowbar', w), fixed(w, 3));
    };
    p.tbody.replaceChildren(
      ...normal.tokens.map((token, j) => {
        const tr = el('tr', '');
        el('th', '', tr, { scope: 'row' }, token);
        cell(tr, rowNormal[j], 'normal');
        cell(tr, rowNow[j], 'now');
        return tr;
      }),
    );
    const hNormal = engine.rowEntropy(rowNormal),
      hNow = engine.rowEntropy(rowNow);
    p.entropyNormal.textContent = fixed(hNormal, 3);
    p.entropyNow.textContent = fixed(hNow, 3);
    const answer = (r) =>
      this.t('answerValue', { word: r.prediction.token, p: this.#percent(r.prediction.probability) });
    p.answerNormal.dd.textContent = answer(normal);
    p.answerNow.dd.textContent = answer(now);
    p.answerNow.dd.classList.toggle('changed', now.prediction.token !== normal.prediction.token);
    Object.assign(p.modelOut.dataset, {
      sentence,
      multiplier: m,
      scale,
      position: it,
      layer,
      head,
      referent: now.prediction.token,
      probability: String(now.prediction.probability),
      normalReferent: normal.prediction.token,
      normalProbability: String(normal.prediction.probability),
      entropy: String(hNow),
      normalEntropy: String(hNormal),
      factor: String(total),
    });
    this.setState('ready');
  }
}

define('ae-scaling', Scaling);
