// <ae-multi-head>: panel 6, "multi-head attention", for the main panel's run (store.result):
//  1. how d_model splits into h heads of d_model / h (the shapes of the run's trace);
//  2. the weights of the selected word in every head of a layer, side by side;
//  3. each head's output for that word, their concatenation (selfAttention.concat) and the
//     result after W_O (selfAttention.output), as colour strips with their exact numbers;
//  4. the layer's parameter count for every number of heads (Engine.headSplit /
//     attentionParameterCount), equal to one head of full width;
//  5. a head-count calculator (d_model and head width → heads and parameters).
// Every model number comes from the trace or the engine; JS only formats and lays out.
// Reads the shared store: result, layer, token, model, lang; its word and layer selects are the
// main view's token and layer (declared controls bound to the store).
// Shown numbers are mirrored in data-* attributes for the tests.
import { define } from '../lib/define.mjs';
import { getEngine } from '../lib/context.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { runLayerControl, runWordControl } from '../lib/panel-controls.mjs';
import strings from '../strings/multi-head.mjs';
import { fixed, maxAbsOf, vectorStrip } from './qkv-steps.mjs';
import { el } from '../lib/dom.mjs';
import css from './multi-head.css.mjs';
import stripCss from './vector-strip.css.mjs';
import { lessonView } from '../lib/guidance.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const HEAD_COLOURS = 8; // style.css: --ae-mh-0 … --ae-mh-7, reused cyclically
const CALC_MAX = 1 << 20; // the core's kHeadSplitMaxWidth
const CALC_DEFAULT = { d: 4096, dh: 128 };

// A number of the head-count calculator, as typed (#calculate checks it and says what is wrong).
const calcInput = (label, fallback, sample) => ({
  kind: 'text',
  label,
  default: String(fallback),
  sample,
  group: 'ae-mh-calc',
  field: 'field inline',
  attrs: { type: 'number', min: 1, max: CALC_MAX, step: 1, inputmode: 'numeric' },
});

export class MultiHead extends LessonPanel {
  static styles = [stripCss, css];
  static redrawWhenVisible = true; // heavy: redrawn only when near the window (StoreElement)
  static watched = ['result', 'layer', 'token', 'model', 'lang'];
  static strings = strings;
  static link = 'multihead';
  static guidance = ['showMe'];
  static controls = {
    token: runWordControl('tokenOption', { label: 'query', group: 'ae-mh-pickers' }),
    layer: runLayerControl('layerN', { group: 'ae-mh-pickers' }),
    d: calcInput('calcD', CALC_DEFAULT.d, '768'),
    dh: calcInput('calcHead', CALC_DEFAULT.dh, '64'),
  };

  #parts = null;
  #engine = null;
  #shown = ''; // key of what #draw last showed

  connectedCallback() {
    super.connectedCallback();
    getEngine().then(
      (engine) => {
        this.#engine = engine;
        this.#shown = '';
        this.#draw();
        this.#calculate();
      },
      () => {},
    ); // the page itself reports an engine that fails to load
  }

  // --- guidance (LessonPanel): Show me (Reset: the calculator's declared defaults) ---

  showMe() {
    return lessonView(this.store);
  }

  controlsChanged(names) {
    if (names.includes('d') || names.includes('dh')) this.#calculate();
  }

  storeChanged(full) {
    if (full) {
      this.#relabel();
      this.#shown = '';
      this.#calculate();
    }
    this.#draw();
  }

  #number(x) {
    return Number(x).toLocaleString(this.locale());
  }

  // --- structure ---

  build() {
    const { id, root, title, intro } = this.frame('ae-mh');
    const waiting = el('p', 'ae-mh-waiting', root, { role: 'status' });
    const body = el('div', 'ae-mh-body', root);

    const splitTitle = el('h3', '', body);
    const split = el('p', 'ae-mh-split', body);
    const splitStrip = el('div', 'ae-mh-splitstrip', body);
    const ranges = el('ul', 'ae-mh-ranges', body);

    const patternsTitle = el('h3', '', body);
    const patternsHowTo = el('p', '', body);
    body.append(this.group('ae-mh-pickers'));
    // Regions that may scroll sideways on a phone: focusable, so the keyboard can scroll them.
    const scroller = el('div', 'ae-mh-scroll', body, {
      tabindex: 0,
      role: 'region',
      'aria-labelledby': `${id}-caption`,
    });
    const table = el('table', 'ae-mh-table', scroller);
    const caption = el('caption', '', table, { id: `${id}-caption` });
    const headRow = el('tr', '', el('thead', '', table));
    const tbody = el('tbody', '', table);

    const concatTitle = el('h3', '', body);
    const concatHowTo = el('p', '', body);
    const flow = el('div', 'ae-mh-flow', body);
    const values = el('div', 'ae-mh-values', body, { 'aria-live': 'polite' });

    const paramsTitle = el('h3', '', body);
    const params = el('p', 'ae-mh-params', body);
    const paramsScroll = el('div', 'ae-mh-scroll', body, {
      tabindex: 0,
      role: 'region',
      'aria-labelledby': `${id}-pcaption`,
    });
    const paramsTable = el('table', 'ae-mh-table ae-mh-paramtable', paramsScroll);
    const paramsCaption = el('caption', '', paramsTable, { id: `${id}-pcaption` });
    const paramsHead = el('tr', '', el('thead', '', paramsTable));
    const paramsBody = el('tbody', '', paramsTable);

    const calcTitle = el('h3', '', root);
    const calcHowTo = el('p', '', root);
    root.append(this.group('ae-mh-calc'));
    const calcResult = el('p', 'ae-mh-calcresult', root, { 'aria-live': 'polite' });
    const calcError = el('p', 'error', root, { role: 'alert' });

    const showValues = (e) => {
      const strip = e.target.closest('[data-strip]');
      if (strip) this.#showValues(strip);
    };
    flow.addEventListener('pointerover', showValues);
    flow.addEventListener('focusin', showValues);

    this.mount(root);
    this.#parts = {
      title,
      intro,
      waiting,
      body,
      splitTitle,
      split,
      splitStrip,
      ranges,
      patternsTitle,
      patternsHowTo,
      caption,
      headRow,
      tbody,
      concatTitle,
      concatHowTo,
      flow,
      values,
      paramsTitle,
      params,
      paramsCaption,
      paramsHead,
      paramsBody,
      calcTitle,
      calcHowTo,
      calcResult,
      calcError,
    };
  }

  #relabel() {
    const p = this.#parts;
    p.title.textContent = this.t('title');
    p.intro.textContent = this.t('intro');
    p.waiting.textContent = this.t('waiting');
    p.splitTitle.textContent = this.t('splitTitle');
    p.patternsTitle.textContent = this.t('patternsTitle');
    p.concatTitle.textContent = this.t('concatTitle');
    p.paramsTitle.textContent = this.t('paramsTitle');
    p.calcTitle.textContent = this.t('calcTitle');
    p.calcHowTo.textContent = this.t('calcHowTo');
  }

  // --- the run ---

  #draw() {
    const p = this.#parts;
    const { result, lang } = this.store.get();
    const ok = Boolean(result?.layers?.length);
    p.waiting.hidden = ok;
    p.body.hidden = !ok;
    this.setState(ok ? 'ready' : 'loading');
    if (!ok) return;
    const tokens = [...result.tokens];
    const { token: i, layer: layerIndex } = this.values();
    const key = JSON.stringify([tokens, layerIndex, i, lang, Boolean(this.#engine)]);
    const attention = result.layers[layerIndex]?.selfAttention;
    if (!attention) return; // an opened model's layer not traced yet: the page's next run traces it
    if (key === this.#shown && this.#result === result) return;
    this.#shown = key;
    this.#result = result;

    const n = result.n;
    const h = attention.heads.length;
    const d = attention.concat.length / n; // shapes of the trace: n×d_model and n×d_head
    const dh = attention.heads[0].output.length / n;
    Object.assign(this.dataset, { dModel: d, heads: h, headDim: dh, layer: layerIndex, query: i });

    // 1. the split
    p.split.textContent = this.t('split', { d, h, dh });
    p.splitStrip.replaceChildren(this.#splitStrip(d, h, dh));
    p.ranges.replaceChildren(
      ...attention.heads.map((_, k) => {
        const li = document.createElement('li');
        li.className = `ae-mh-c${k % HEAD_COLOURS}`;
        li.textContent = this.t('headRange', { i: k + 1, from: k * dh + 1, to: (k + 1) * dh });
        return li;
      }),
    );

    // 2. per-head patterns for the selected word
    p.patternsHowTo.textContent = this.t('patternsHowTo', { layer: layerIndex + 1 });
    p.caption.textContent = this.t('tableCaption', { token: tokens[i], layer: layerIndex + 1 });
    const th = (content, scope, cls = '') => {
      const cell = document.createElement('th');
      cell.scope = scope;
      cell.className = cls;
      cell.textContent = content;
      return cell;
    };
    p.headRow.replaceChildren(
      th(this.t('colWord'), 'col'),
      ...attention.heads.map((_, k) => th(this.t('colHead', { i: k + 1 }), 'col', `ae-mh-c${k % HEAD_COLOURS}`)),
    );
    const rows = attention.heads.map((head) => head.weights.subarray(i * n, i * n + n));
    const strongest = rows.map((row) => row.reduce((best, w, j) => (w > row[best] ? j : best), 0));
    p.tbody.replaceChildren(
      ...tokens.map((token, j) => {
        const tr = document.createElement('tr');
        tr.append(th(token, 'row'));
        rows.forEach((row, k) => {
          const td = document.createElement('td');
          td.className = `ae-mh-c${k % HEAD_COLOURS}${strongest[k] === j ? ' strongest' : ''}`;
          td.dataset.head = k;
          td.dataset.key = j;
          td.dataset.weight = String(row[j]);
          const bar = document.createElement('span');
          bar.className = 'ae-mh-bar';
          bar.style.setProperty('--w', String(Math.max(0, Math.min(1, row[j])))); // CSSOM: CSP-safe
          td.append(bar, fixed(row[j], 2));
          tr.append(td);
        });
        return tr;
      }),
    );

    // 3. head outputs → concatenation → W_O
    p.concatHowTo.textContent = this.t('concatHowTo', { dh, d, token: tokens[i] });
    const headOuts = attention.heads.map((head) => head.output.subarray(i * dh, (i + 1) * dh));
    const concat = attention.concat.subarray(i * d, (i + 1) * d);
    const output = attention.output.subarray(i * d, (i + 1) * d);
    const scale = maxAbsOf(concat);
    const labelled = (name, values, cls, kind, maxAbs, group = 0) => {
      const box = document.createElement('div');
      box.className = `ae-mh-vec ${cls}`;
      box.tabIndex = 0;
      box.dataset.strip = kind;
      box.dataset.name = name;
      box.dataset.values = JSON.stringify(Array.from(values, String));
      const label = document.createElement('span');
      label.className = 'ae-mh-vecname';
      label.textContent = name;
      box.append(
        label,
        vectorStrip(values, { name, maxAbs, group, maxWidth: 260, label: this.#vectorLabel(name, values) }),
      );
      return box;
    };
    const heads = document.createElement('div');
    heads.className = 'ae-mh-heads';
    heads.append(
      ...headOuts.map((v, k) =>
        labelled(this.t('headOut', { i: k + 1 }), v, `ae-mh-c${k % HEAD_COLOURS}`, `head${k}`, scale),
      ),
    );
    const arrow = (s) => Object.assign(document.createElement('div'), { className: 'ae-mh-arrow', textContent: s });
    p.flow.replaceChildren(
      heads,
      arrow('↓ concat'),
      labelled(this.t('concat', { d }), concat, 'ae-mh-concat', 'concat', scale, dh),
      arrow('↓ × W_O + b'),
      labelled(this.t('output', { d }), output, 'ae-mh-output', 'output', maxAbsOf(output)),
    );
    p.values.textContent = '';

    // 4. parameters: the same for every h
    this.#drawParameters(d, h, dh);
  }

  #result = null;

  // The d positions of a vector in h coloured blocks of dh.
  #splitStrip(d, h, dh) {
    const svg = document.createElementNS(SVG, 'svg');
    const cell = Math.max(3, Math.min(12, Math.floor(320 / d)));
    svg.setAttribute('viewBox', `0 0 ${d * cell} 18`);
    svg.setAttribute('width', d * cell);
    svg.setAttribute('height', 18);
    svg.setAttribute('class', 'ae-mh-splitsvg');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', this.t('splitLabel', { d }));
    for (let k = 0; k < h; k++) {
      const rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('x', k * dh * cell);
      rect.setAttribute('width', dh * cell - 1);
      rect.setAttribute('height', 18);
      rect.setAttribute('class', `ae-mh-f${k % HEAD_COLOURS}`);
      svg.append(rect);
    }
    for (let j = 1; j < d; j++) {
      const tick = document.createElementNS(SVG, 'line');
      Object.entries({ x1: j * cell - 0.5, x2: j * cell - 0.5, y1: 12, y2: 18, class: 'ae-mh-tick' }).forEach(
        ([a, v]) => tick.setAttribute(a, v),
      );
      svg.append(tick);
    }
    return svg;
  }

  #vectorLabel(name, values) {
    return this.t('vectorLabel', {
      name,
      count: values.length,
      min: fixed(Math.min(...values)),
      max: fixed(Math.max(...values)),
    });
  }

  #showValues(strip) {
    const values = JSON.parse(strip.dataset.values);
    this.#parts.values.textContent = this.t('vector', {
      name: strip.dataset.name,
      values: values.map((v) => fixed(v)).join(', '),
    });
    this.#parts.values.dataset.strip = strip.dataset.strip;
  }

  #drawParameters(d, h, dh) {
    const p = this.#parts;
    const engine = this.#engine;
    if (!engine) return;
    const split = engine.headSplit(d, dh);
    const oneHead = engine.attentionParameterCount(d, 1);
    p.params.textContent = this.t('params', {
      d,
      dh,
      h,
      perHead: this.#number(split.perHead),
      allHeads: this.#number(split.allHeads),
      wo: this.#number(split.outputProjection),
      total: this.#number(split.total),
      oneHead: this.#number(oneHead),
    });
    Object.assign(p.params.dataset, {
      total: String(split.total),
      oneHead: String(oneHead),
      perHead: String(split.perHead),
    });
    p.paramsCaption.textContent = this.t('paramsTableCaption', { d });
    const cell = (tag, content, scope) => {
      const c = document.createElement(tag);
      if (scope) c.scope = scope;
      c.textContent = content;
      return c;
    };
    p.paramsHead.replaceChildren(
      cell('th', this.t('colHeads'), 'col'),
      cell('th', this.t('colHeadDim'), 'col'),
      cell('th', this.t('colParams'), 'col'),
    );
    // Every head width that divides d (asked of the core), widest heads first.
    const rows = [];
    for (let width = d; width >= 1; width--) {
      const s = engine.headSplit(d, width);
      if (!s.divides) continue;
      const tr = document.createElement('tr');
      tr.dataset.heads = s.nHeads;
      tr.dataset.total = String(s.total);
      if (s.nHeads === h) tr.className = 'current';
      tr.append(cell('th', String(s.nHeads), 'row'), cell('td', String(width)), cell('td', this.#number(s.total)));
      rows.push(tr);
    }
    p.paramsBody.replaceChildren(...rows);
  }

  // --- calculator ---

  #calculate() {
    const p = this.#parts;
    const read = (name) => (/^\d{1,7}$/.test(this.value(name).trim()) ? Number(this.value(name)) : NaN);
    const d = read('d'),
      dh = read('dh');
    const fail = (key, params) => {
      p.calcResult.textContent = '';
      p.calcError.textContent = this.t(key, params);
      delete p.calcResult.dataset.heads;
      delete p.calcResult.dataset.total;
    };
    if (!this.#engine) return;
    if (!(d >= 1 && d <= CALC_MAX && dh >= 1 && dh <= CALC_MAX))
      return fail('calcInvalid', { max: this.#number(CALC_MAX) });
    let s;
    try {
      s = this.#engine.headSplit(d, dh);
    } catch {
      return fail('calcInvalid', { max: this.#number(CALC_MAX) });
    }
    if (!s.divides) return fail('calcIndivisible', { d, dh });
    p.calcError.textContent = '';
    p.calcResult.textContent = this.t('calcResult', { d, dh, h: s.nHeads, total: this.#number(s.total) });
    Object.assign(p.calcResult.dataset, { heads: s.nHeads, total: String(s.total) });
  }
}

define('ae-multi-head', MultiHead);
