// <ae-positions>: panel 8, positional encoding. Four word-order models (none, sinusoidal,
// learned, RoPE; task "word-order": the agent, read at [CLS]) answer for a sentence pair,
// default 猫追狗 / 狗追猫. Without positional encoding both sentences get the same answer:
// the panel shows why by drawing the attention scores (or weights) of both sentences for
// one layer/head — B's matrix is A's with rows and columns reordered like the words — and
// says whether the reordering is exact (data-permutation on the comparison). Then two
// pictures computed by the core: the sinusoidal table (engine.sinusoidalTable) and RoPE's
// rotation of one pair of dimensions (engine.ropeRotate).
// Runs use analyzePacked() (analyze()'s numbers in one buffer, faster to cross from wasm).
// Right or wrong comes from the core's reading of the corpus grammar (engine.wordOrderRoles).
// JS compares numbers (is B a reordering of A?) and formats; it computes no model math.
// Shown numbers are mirrored in data-* attributes for the tests. The models are fetched when
// the panel first comes near the viewport or is first used. Reads the shared store: lang.
// The link keeps the pair and the matrix view (see panel-controls.mjs): positions.a, positions.b
// (≤ 200 characters), positions.enc (none|sinusoidal|learned|rope), positions.layer and
// positions.head (1-based), positions.show (scores|weights); a control at its default is left out.
import { define } from '../lib/define.mjs';
import { getEngine } from '../lib/context.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { headControl } from '../lib/panel-controls.mjs';
import { percent2 } from '../lib/panel-strings.mjs';
import strings from '../strings/positions.mjs';
import { failure, failureText, rawMessages } from '../lib/error-text.mjs';

const SAME_WITHIN = 1e-6; // probabilities this close are the same answer, told apart only by rounding
import { drawMatrix } from './number-matrix.mjs';
import { dataTable, el, svgNode as svg } from '../lib/dom.mjs';
import { WORD_ORDER_PAIR } from '../lib/lesson.mjs';
import css from './positions.css.mjs';
import matrixCss from './number-matrix.css.mjs';

export const ENCODINGS = ['none', 'sinusoidal', 'learned', 'rope'];
const modelName = (encoding) => `word-order-${encoding}`;
const { a: DEFAULT_A, b: DEFAULT_B } = WORD_ORDER_PAIR;
const KINDS = ['scores', 'weights'];
const SIN_DIMS = 32; // d_model of the word-order models
const SIN_POSITIONS = 16; // what they read (max_len)
const ROPE_POSITIONS = 16;

const SENTENCES = 'ae-pos-controls';
const MATRIX = 'ae-pos-view';
const SIN = 'ae-pos-view ae-pos-sin-view';
const PAIR = 'ae-pos-view ae-pos-pair-view';
const index = (kind) =>
  headControl(kind, (p) => p.ropeConfig()?.[kind === 'layer' ? 'nLayers' : 'nHeads'], { default: 0, group: MATRIX });
const sentence = (label, fallback, sample) => ({
  kind: 'text',
  label,
  default: fallback,
  sample,
  attrs: { lang: 'zh-Hans' },
  group: SENTENCES,
});
const choice = (label, values, key, fallback) => ({
  kind: 'select',
  label,
  options: values.map((value) => ({ value, label: key(value) })),
  default: fallback,
  group: MATRIX,
  field: 'field inline',
});

// σ with b[σ(i)] = a[i] (each token of a matched to an unused equal token of b), or null
// when b is not a rearrangement of a. Repeated tokens have identical embeddings without
// positions, so any matching of them is as good as another.
function rearrangement(a, b) {
  if (a.length !== b.length) return null;
  const used = new Array(b.length).fill(false);
  const sigma = [];
  for (const token of a) {
    const j = b.findIndex((t, k) => !used[k] && t === token);
    if (j < 0) return null;
    used[j] = true;
    sigma.push(j);
  }
  return sigma;
}

// Is matrix b (n×n) matrix a with rows and columns moved by σ? 'exact' (bit for bit),
// 'rounding' (≤ 1e-4 apart), 'no', with the largest difference.
function comparePermuted(a, b, sigma) {
  const n = sigma.length;
  let exact = true,
    diff = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const x = a[i * n + j],
        y = b[sigma[i] * n + sigma[j]];
      if (Object.is(x, y)) continue;
      exact = false;
      diff = Math.max(diff, Math.abs(x - y));
    }
  return { verdict: exact ? 'exact' : diff <= 1e-4 ? 'rounding' : 'no', diff };
}

export class Positions extends LessonPanel {
  static styles = [matrixCss, css];
  static watched = ['lang'];
  static strings = strings;
  static link = 'positions';
  // The sentences, the matrices' model, layer, head and kind (enc, layer, head, show in the link),
  // the sinusoid picture's positions and the RoPE picture's pair of dimensions.
  static controls = {
    a: sentence('sentenceA', DEFAULT_A, DEFAULT_B),
    swap: {
      kind: 'button',
      label: 'swap',
      group: SENTENCES,
      press: (p) => p.setValues({ a: p.value('b'), b: p.value('a') }),
    },
    b: sentence('sentenceB', DEFAULT_B, DEFAULT_A),
    encoding: { ...choice('encoding', ENCODINGS, (e) => `enc.${e}`, 'none'), param: 'enc' },
    layer: index('layer'),
    head: index('head'),
    kind: { ...choice('show', KINDS, (k) => k, 'scores'), param: 'show' },
    positions: {
      kind: 'range',
      label: 'positions',
      min: 4,
      max: 64,
      step: 4,
      default: SIN_POSITIONS,
      group: SIN,
      field: 'field inline',
    },
    pair: {
      kind: 'select',
      label: 'pair',
      options: (p) =>
        Array.from({ length: (p.ropeConfig()?.headDim ?? 0) / 2 }, (_, i) => ({
          value: String(i),
          text: p.t('pairOption', { a: 2 * i, b: 2 * i + 1 }),
        })),
      default: '0',
      group: PAIR,
      field: 'field inline',
    },
  };

  #parts = null;
  #engine = null;
  #models = null; // {encoding: TrainedModel}
  #loading = null;
  #runs = null; // {encoding: {a, b}} analyze() results (null where it failed)
  #errors = []; // [{key, params}]
  #loadError = null;

  ropeConfig() {
    return this.#models?.rope.config;
  }

  storeChanged(full) {
    // until the engine has drawn them, the pictures are named by their headings
    if (full && !this.#pictures)
      for (const name of ['sin', 'rope']) this.#parts[`${name}Svg`].setAttribute('aria-label', this.t(`${name}Title`));
    this.#render();
  }

  #percent(p) {
    return percent2(p, this.store.get().lang);
  }

  // --- structure ---

  build() {
    const p = this.frame('ae-pos', ['status', 'error']);
    const { root } = p;
    const { table, caption, head, body } = dataTable(root, 'ae-pos-table');
    this.labelled(caption, 'tableCaption');
    const col = () => el('th', '', head, { scope: 'col' }); // columns 1 and 2 name the sentences
    p.cols = [this.text('th', '', head, 'colEncoding', { scope: 'col' }), col(), col()];
    p.rows = Object.fromEntries(
      ENCODINGS.map((encoding) => {
        const tr = el('tr', '', body, { 'data-encoding': encoding });
        const name = this.text('th', '', tr, `enc.${encoding}`, { scope: 'row' });
        const [a, b] = [el('td', 'ae-pos-answer', tr), el('td', 'ae-pos-answer', tr)];
        return [encoding, { tr, name, a, b }];
      }),
    );
    Object.assign(p, { table, summary: el('p', 'ae-pos-summary', root), grammar: el('p', 'ae-pos-note', root) });

    this.text('h3', '', root, 'whyTitle');
    p.whyHow = el('p', 'howto', root);
    p.whyHow.after(this.group(MATRIX));
    const compare = (p.compare = el('div', 'ae-pos-compare', root));
    p.matrixA = el('div', 'ae-pos-matrix', compare);
    p.matrixB = el('div', 'ae-pos-matrix', compare);
    p.verdict = el('p', 'ae-pos-verdict', root, { 'aria-live': 'polite' });

    this.#section(p, 'sin', SIN, { class: 'ae-pos-sin', role: 'img' });
    const sinN = this.control('positions').node;
    p.sinValue = el('output', '', null, { for: sinN.id });
    sinN.after(p.sinValue);
    // the RoPE controls after the RoPE text, not among the matrix controls
    this.#section(p, 'rope', PAIR, { class: 'ae-pos-rope', role: 'img', viewBox: '-120 -120 240 240' });
    this.mount(root);
    this.#parts = p;

    // Link the same pair of words across the two matrices.
    compare.addEventListener('pointerover', (e) => this.#link(e.target.closest('td[data-col]')));
    compare.addEventListener('pointerleave', () => this.#link(null));
  }

  // A titled picture: `${name}Title`, `${name}HowTo` and the controls of `group`, then a figure
  // with the svg p[`${name}Svg`] (named by the title until the engine has drawn it) and its
  // caption p[`${name}Caption`].
  #section(p, name, group, svgAttrs) {
    const { root } = p;
    this.text('h3', '', root, `${name}Title`);
    this.text('p', 'howto', root, `${name}HowTo`).after(this.group(group));
    const figure = el('figure', 'ae-pos-figure', root);
    p[`${name}Svg`] = svg('svg', svgAttrs, figure);
    p[`${name}Caption`] = el('figcaption', '', figure);
  }

  // A sentence reruns the models; every other control redraws.
  controlsChanged(names) {
    const rerun = names.includes('a') || names.includes('b');
    this.load().then(() => (rerun ? this.#run() : this.#render()));
  }

  // --- loading and running ---

  load() {
    if (this.#models) return Promise.resolve();
    if (!this.#loading) {
      this.#loadError = null;
      this.#render();
      this.#loading = Promise.all([getEngine(), ...ENCODINGS.map((e) => this.trainedModel(modelName(e)))])
        .then(([engine, ...models]) => {
          this.#engine = engine;
          this.#models = Object.fromEntries(ENCODINGS.map((e, i) => [e, models[i]]));
          this.refreshControls(); // the layer, head and pair counts
          this.#run();
        })
        .catch((error) => {
          this.#loadError = failure('loadError', error);
          this.#loading = null; // the next interaction retries
          this.#render();
        });
    }
    return this.#loading;
  }

  #run() {
    if (!this.#models) return;
    const texts = { a: this.value('a'), b: this.value('b') };
    this.#errors = [];
    this.#runs = {};
    for (const encoding of ENCODINGS) {
      this.#runs[encoding] = {};
      for (const side of ['a', 'b']) {
        try {
          this.#runs[encoding][side] = this.#models[encoding].analyzePacked(texts[side], { topK: 3 });
        } catch (error) {
          this.#runs[encoding][side] = null;
          if (encoding === 'none') this.#errors.push(failure('runError', error, { which: side.toUpperCase() }));
        }
      }
    }
    for (const side of ['a', 'b']) {
      const run = this.#runs.none[side];
      if (run?.unknown.length)
        this.#errors.push({
          key: 'unknownWords',
          params: { which: side.toUpperCase(), words: run.unknown.map((p) => run.tokens[p]).join(' ') },
        });
    }
    this.#texts = texts;
    Object.assign(this.dataset, { a: texts.a, b: texts.b }); // the sentences the shown results are for
    this.#roles = { a: this.#engine.wordOrderRoles(texts.a), b: this.#engine.wordOrderRoles(texts.b) };
    this.#render();
  }

  #texts = { a: DEFAULT_A, b: DEFAULT_B };
  #roles = { a: null, b: null };

  // --- drawing ---

  #render() {
    const p = this.#parts;
    if (!p) return;
    p.status.textContent = this.#loadError || this.#models ? '' : this.#loading ? this.t('loading') : '';
    const messages = this.#loadError ? [this.#loadError] : this.#errors;
    p.error.textContent = messages.map((m) => failureText(m, strings, this.store.get().lang)).join(' ');
    p.error.title = rawMessages(messages);
    this.setState(this.#loadError ? 'error' : this.#models ? 'ready' : 'loading');
    if (!this.#models || !this.#runs) return;
    this.#renderAnswers();
    this.#renderComparison();
    const pictures = this.#pictures;
    this.#renderSinusoidal();
    if (pictures !== this.#pictures) this.#renderRope(); // both depend on the same key
  }

  #renderAnswers() {
    const p = this.#parts;
    p.cols[1].textContent = this.t('colA', { text: this.#texts.a });
    p.cols[2].textContent = this.t('colB', { text: this.#texts.b });
    for (const encoding of ENCODINGS) {
      const row = p.rows[encoding];
      for (const side of ['a', 'b']) {
        const run = this.#runs[encoding][side];
        const cell = row[side];
        const prediction = run?.prediction;
        const truth = this.#roles[side]?.agent;
        const right = !prediction ? '' : truth === undefined ? 'unknown' : String(prediction.token === truth);
        row.tr.dataset[`answer${side.toUpperCase()}`] = prediction?.token ?? '';
        row.tr.dataset[`prob${side.toUpperCase()}`] = prediction ? String(prediction.probability) : '';
        row.tr.dataset[`right${side.toUpperCase()}`] = right;
        cell.replaceChildren();
        if (!prediction) {
          cell.textContent = '–';
          continue;
        }
        const answer = document.createElement('span');
        answer.textContent = this.t('answer', { word: prediction.token, p: this.#percent(prediction.probability) });
        const mark = document.createElement('span');
        mark.className = `ae-pos-mark ae-pos-${right}`;
        mark.textContent =
          right === 'unknown'
            ? this.t('unknownTruth')
            : `${right === 'true' ? '✓' : '✗'} ${this.t(right === 'true' ? 'right' : 'wrong')}`;
        cell.append(answer, ' ', mark);
      }
    }
    const { a, b } = this.#runs.none;
    const pa = a?.prediction,
      pb = b?.prediction;
    // Equal up to float rounding: the permuted sums add the same terms in another order.
    const same = Boolean(pa && pb && pa.token === pb.token && Math.abs(pa.probability - pb.probability) <= SAME_WITHIN);
    const conclusion = !pa || !pb ? '' : same ? this.#sameConclusion() : 'differentNone';
    Object.assign(p.summary.dataset, { same: String(same), conclusion });
    p.summary.textContent = !conclusion
      ? ''
      : same
        ? this.t(conclusion, {
            word: pa.token,
            p: this.#percent(pa.probability),
            which: this.#withoutTruth().join(', '),
          })
        : this.t('differentNone', {
            a: `${pa.token} (${this.#percent(pa.probability)})`,
            b: `${pb.token} (${this.#percent(pb.probability)})`,
          });
    const outside = ['a', 'b'].filter((s) => this.#runs.none[s] && !this.#roles[s]).map((s) => s.toUpperCase());
    p.grammar.textContent = outside.map((which) => this.t('outsideGrammar', { which })).join(' ');
  }

  // The sentences whose right agent the grammar does not give ('A', 'B').
  #withoutTruth() {
    return ['a', 'b'].filter((side) => this.#roles[side]?.agent === undefined).map((side) => side.toUpperCase());
  }

  // One shared answer is necessarily wrong for one sentence only when the two sentences have
  // different known agents; the conclusion says only what the table's right/wrong column shows.
  #sameConclusion() {
    if (this.#withoutTruth().length) return 'sameNoneNoTruth';
    return this.#roles.a.agent === this.#roles.b.agent ? 'sameNoneSameAgent' : 'sameNone';
  }

  #renderComparison() {
    const p = this.#parts;
    const { encoding, layer, head, kind } = this.values();
    p.whyHow.textContent = this.t('whyHowTo', { encoding: this.t(`enc.${encoding}`) });
    const { a, b } = this.#runs[encoding];
    if (!a || !b) {
      p.matrixA.replaceChildren();
      p.matrixB.replaceChildren();
      p.verdict.textContent = '';
      p.compare.dataset.permutation = 'n/a';
      return;
    }
    const field = kind === 'scores' ? 'scaledScores' : 'weights';
    const valuesA = a.layers[layer].selfAttention.heads[head][field];
    const valuesB = b.layers[layer].selfAttention.heads[head][field];
    drawMatrix(p.matrixA, {
      rows: a.tokens,
      cols: a.tokens,
      values: valuesA,
      kind,
      caption: this.t('matrixA', { text: this.#texts.a }),
    });
    drawMatrix(p.matrixB, {
      rows: b.tokens,
      cols: b.tokens,
      values: valuesB,
      kind,
      caption: this.t('matrixB', { text: this.#texts.b }),
    });
    this.#sigma = rearrangement(a.tokens, b.tokens);
    const c = this.#sigma ? comparePermuted(valuesA, valuesB, this.#sigma) : { verdict: 'n/a', diff: NaN };
    Object.assign(p.compare.dataset, { permutation: c.verdict, maxDiff: String(c.diff), encoding, layer, head, kind });
    const diff = c.diff.toExponential(1);
    p.verdict.textContent = this.t(
      { exact: 'permExact', rounding: 'permRounding', no: 'permNo', 'n/a': 'permNotApplicable' }[c.verdict],
      { diff },
    );
  }

  #sigma = null;

  #link(td) {
    const p = this.#parts;
    for (const old of p.compare.querySelectorAll('.ae-nm-linked')) old.classList.remove('ae-nm-linked');
    if (!td || !this.#sigma) return;
    const inA = p.matrixA.contains(td);
    const [i, j] = [Number(td.dataset.row), Number(td.dataset.col)];
    const inverse = (k) => this.#sigma.indexOf(k);
    const [oi, oj] = inA ? [this.#sigma[i], this.#sigma[j]] : [inverse(i), inverse(j)];
    const other = (inA ? p.matrixB : p.matrixA).querySelector(`td[data-row="${oi}"][data-col="${oj}"]`);
    td.classList.add('ae-nm-linked');
    other?.classList.add('ae-nm-linked');
  }

  #pictures = ''; // what the two pictures show now: positions, pair, language

  #renderSinusoidal() {
    const p = this.#parts;
    const n = this.value('positions'),
      d = SIN_DIMS;
    const key = `${n},${this.value('pair')},${this.store.get().lang}`;
    if (key === this.#pictures) return;
    this.#pictures = key;
    p.sinValue.textContent = String(n);
    const table = this.#engine.sinusoidalTable(n, d);
    const cell = 8,
      left = 28,
      top = 18;
    const width = left + d * cell + 4,
      height = top + n * cell + 4;
    const s = p.sinSvg;
    s.replaceChildren();
    for (const [k, v] of Object.entries({ viewBox: `0 0 ${width} ${height}`, width, height, 'data-n': n, 'data-d': d }))
      s.setAttribute(k, v);
    const caption = this.t('sinCaption', { n, d });
    s.setAttribute('aria-label', caption);
    p.sinCaption.textContent = caption;
    svg('text', { x: left, y: 11, class: 'ae-pos-axis' }, s).textContent = this.t('dims');
    for (let pos = 0; pos < n; pos++) {
      if (pos % 4 === 0)
        svg(
          'text',
          { x: left - 4, y: top + pos * cell + cell - 1, class: 'ae-pos-axis', 'text-anchor': 'end' },
          s,
        ).textContent = String(pos);
      for (let j = 0; j < d; j++) {
        const v = table[pos * d + j];
        svg(
          'rect',
          {
            x: left + j * cell,
            y: top + pos * cell,
            width: cell,
            height: cell,
            class: v >= 0 ? 'ae-pos-plus' : 'ae-pos-minus',
            'fill-opacity': Math.abs(v).toFixed(3),
            'data-pos': pos,
            'data-dim': j,
            'data-value': String(v),
          },
          s,
        );
      }
    }
  }

  #renderRope() {
    const p = this.#parts;
    const model = this.#models.rope;
    const dh = model.config.headDim;
    const base = model.config.metadata.rope_base ?? 10000;
    const i = Math.min(Number(this.value('pair')), dh / 2 - 1);
    const unit = new Float32Array(dh);
    unit[2 * i] = 1;
    const s = p.ropeSvg;
    s.replaceChildren();
    svg('circle', { r: 90, class: 'ae-pos-circle' }, s);
    svg('line', { x1: -100, x2: 100, y1: 0, y2: 0, class: 'ae-pos-axisline' }, s);
    svg('line', { y1: -100, y2: 100, x1: 0, x2: 0, class: 'ae-pos-axisline' }, s);
    let step = 0;
    const labelled = [];
    for (let pos = 0; pos < ROPE_POSITIONS; pos++) {
      const v = this.#engine.ropeRotate(unit, pos, base);
      const [x, y] = [v[2 * i], v[2 * i + 1]];
      if (pos === 1) step = (Math.atan2(y, x) * 180) / Math.PI; // the angle of the core's rotation, for the caption
      const opacity = (0.35 + (0.65 * pos) / (ROPE_POSITIONS - 1)).toFixed(2);
      // SVG's y axis points down; draw mathematically (counter-clockwise).
      svg(
        'line',
        {
          x1: 0,
          y1: 0,
          x2: (x * 90).toFixed(2),
          y2: (-y * 90).toFixed(2),
          class: 'ae-pos-arrow',
          'stroke-opacity': opacity,
          'data-pos': pos,
          'data-x': String(x),
          'data-y': String(y),
        },
        s,
      );
      // Label an arrow only where it does not sit on an earlier label (slow pairs barely turn).
      const angle = Math.atan2(y, x);
      if (labelled.every((a) => Math.abs(Math.atan2(Math.sin(angle - a), Math.cos(angle - a))) > 0.2)) {
        labelled.push(angle);
        const label = svg(
          'text',
          { x: (x * 104).toFixed(2), y: (-y * 104 + 4).toFixed(2), class: 'ae-pos-axis', 'text-anchor': 'middle' },
          s,
        );
        label.textContent = String(pos);
      }
    }
    const caption = this.t('ropeCaption', {
      a: 2 * i,
      b: 2 * i + 1,
      last: ROPE_POSITIONS - 1,
      deg: step.toFixed(step < 1 ? 2 : 1),
    });
    s.setAttribute('aria-label', caption);
    s.dataset.pair = i;
    p.ropeCaption.textContent = caption;
  }
}

define('ae-positions', Positions);
