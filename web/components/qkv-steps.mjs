// <ae-qkv-steps>: panel 4, "Q, K, V step by step". For the selected query word of the main
// panel's run, one head's four steps with the trace's own numbers
// (store.result.layers[layer].selfAttention.heads[head]):
//   q (n×d, row i) · every k row → rawScores row i → ÷√d → scaledScores row i → softmax →
//   weights row i → Σ weights·v → output row i.
// No arithmetic on model numbers happens here: every value is read from the trace and only
// formatted. Pointing at or focusing a key's row marks the heatmap cell that row produces
// (the main <ae-attention-heatmap>'s `highlight` property) and spells out the cell.
// The library analogy sits beside the numbers as a caption, not instead of them.
// Above the steps: the formula Attention(Q,K,V) = softmax(QKᵀ/√d_k)·V, and step 0, where the
// word's q, k, v come from — its layer input x (after LayerNorm for pre-LN models: the trace's
// stages.norm1; post-LN: stages.input) times W_Q, W_K, W_V — showing x and the head's q, k, v
// rows from the trace (the products themselves are the core's).
// Reads the shared store: result, config, layer, head, token, scale, model, lang; its query word
// select is the main view's token (a declared control bound to the store).
// Shown numbers are mirrored in data-* attributes (exact String(value)) for the tests.
//   element.heatmap = the heatmap to mark (default: that of the <attention-explorer> around it,
//   else of the page's)
import { define } from '../lib/define.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { text } from '../lib/panel-strings.mjs';
import strings from '../strings/qkv-steps.mjs';
import { runWordControl } from '../lib/panel-controls.mjs';
import { dataTable, el, focusRow, rowKey, weightBar } from '../lib/dom.mjs';
import css from './qkv-steps.css.mjs';
import stripCss from './vector-strip.css.mjs';
import { lessonView } from '../lib/guidance.mjs';
import { LESSON_NOUNS } from '../lib/lesson.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const STRIP_CELL = 7; // px per vector entry, at most
const TABLE_STRIP = 64; // px: the widest strip inside a table row (wide heads get thinner cells)
const STRIP_HEIGHT = 16;
const MINUS = '\u2212';
const COLUMNS = ['colKey', 'colK', 'colRaw', 'colScaled', 'colWeight', 'colV'];
const rowOf = (m, r, width) => m.subarray(r * width, (r + 1) * width); // row r of a row-major matrix

// A vector's line in parent: {name, strip} in a <div class=lineClass>, then {values} (a <code
// class=valuesClass>) under it (#showVector fills them).
function vectorLine(parent, lineClass, valuesClass) {
  const line = el('div', lineClass, parent);
  const name = el('span', 'ae-qkv-vecname', line);
  const strip = el('span', 'ae-qkv-stripbox', line);
  return { name, strip, values: el('code', valuesClass, parent) };
}

// A number for display: fixed decimals with a real minus sign.
export const fixed = (x, digits = 3) => {
  const s = Number(x).toFixed(digits);
  return s.startsWith('-') ? MINUS + s.slice(1) : s;
};

// A vector as a strip of coloured cells: blue for positive, orange for negative, stronger for
// larger |value| relative to `maxAbs` (the largest |value| of its group, so strips compare).
// The exact values are in data-values, a <title> and the aria-label summary. With `group`, a
// line separates every `group` entries (the heads' slices of a concatenation); maxWidth (px)
// narrows the cells of long vectors, down to 2 px each.
export function vectorStrip(values, { name, maxAbs, label, group = 0, maxWidth = Infinity }) {
  const svg = document.createElementNS(SVG, 'svg');
  const count = values.length;
  const cellWidth = Math.max(2, Math.min(STRIP_CELL, Math.floor(maxWidth / count)));
  const width = count * cellWidth;
  svg.setAttribute('viewBox', `0 0 ${width} ${STRIP_HEIGHT}`);
  svg.setAttribute('width', width);
  svg.setAttribute('height', STRIP_HEIGHT);
  svg.setAttribute('class', 'ae-strip');
  svg.setAttribute('role', 'img');
  if (label) svg.setAttribute('aria-label', label);
  svg.dataset.values = JSON.stringify(Array.from(values, String));
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `${name} = [${Array.from(values, (v) => fixed(v)).join(', ')}]`;
  svg.append(title);
  const frame = document.createElementNS(SVG, 'rect');
  frame.setAttribute('class', 'ae-strip-frame');
  frame.setAttribute('width', width);
  frame.setAttribute('height', STRIP_HEIGHT);
  svg.append(frame);
  values.forEach((v, i) => {
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', i * cellWidth + (cellWidth > 3 ? 0.5 : 0));
    rect.setAttribute('y', 0.5);
    rect.setAttribute('width', cellWidth > 3 ? cellWidth - 1 : cellWidth);
    rect.setAttribute('height', STRIP_HEIGHT - 1);
    rect.setAttribute('class', v >= 0 ? 'pos' : 'neg');
    rect.setAttribute('fill-opacity', maxAbs > 0 ? Math.min(1, Math.abs(v) / maxAbs).toFixed(3) : '0');
    svg.append(rect);
  });
  if (group > 0) {
    for (let x = group; x < count; x += group) {
      const line = document.createElementNS(SVG, 'line');
      for (const [k, v] of Object.entries({
        x1: x * cellWidth,
        x2: x * cellWidth,
        y1: -2,
        y2: STRIP_HEIGHT + 2,
        class: 'ae-strip-sep',
      }))
        line.setAttribute(k, v);
      svg.append(line);
    }
  }
  return svg;
}

// Largest |value| over several arrays (for a shared colour scale; display only).
export function maxAbsOf(...arrays) {
  let m = 0;
  for (const a of arrays) for (const v of a) m = Math.max(m, Math.abs(v));
  return m;
}

export class QkvSteps extends LessonPanel {
  static styles = [stripCss, css];
  static redrawWhenVisible = true; // heavy: redrawn only when near the window (StoreElement)
  static watched = ['result', 'layer', 'head', 'token', 'scale', 'model', 'lang'];
  static strings = strings;
  static guidance = ['showMe', 'predict'];
  static controls = { token: runWordControl('tokenOption', { label: 'query', group: 'ae-qkv-top' }) };

  #parts = null;
  #heatmap = null;
  #rows = []; // <tr> per key
  #view = null; // what #draw showed: {i, n, tokens, head, d, root}
  #active = null; // key index of the focused/pointed row
  #norm = 'pre'; // the model's LayerNorm placement (config.norm)
  #normModel = null; // the model whose config.norm #norm holds
  #trainedPositional = ''; // that trained model's config.positional

  get heatmap() {
    const explorer = this.closest('attention-explorer') ?? document.querySelector('attention-explorer');
    return this.#heatmap ?? explorer?.heatmap ?? document.getElementById('heatmap');
  }

  set heatmap(element) {
    this.#heatmap = element;
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#mark(null);
  }

  storeChanged(full) {
    if (full) this.#view = null; // numbers and their labels are redrawn in the new language
    this.#draw();
  }

  // --- structure (built once; the base labels the fixed words, #draw the numbers) ---

  build() {
    const p = this.frame('ae-qkv');
    const { id, root } = p;
    p.waiting = this.text('p', 'ae-qkv-waiting', root, 'waiting', { role: 'status' });
    const body = (p.body = el('div', 'ae-qkv-body', root));
    const top = this.group('ae-qkv-top');
    body.append(top);
    p.where = el('p', 'ae-qkv-where', top);
    const formula = el('p', 'ae-qkv-formula', body);
    el('code', '', formula, { lang: 'en' }, 'Attention(Q, K, V) = softmax(QK\u1d40 / \u221ad_k) \u00b7 V');
    this.text('span', 'ae-qkv-formula-note', formula, 'formulaNote');

    const zero = el('div', 'ae-qkv-zero', body);
    p.zeroText = el('p', 'ae-qkv-zero-text', zero);
    p.zeroRows = ['x', 'q', 'k', 'v'].map((key) => [
      key,
      vectorLine(zero, `ae-qkv-zero-row ae-qkv-zero-${key}`, 'ae-qkv-zero-values'), // not .ae-qkv-values: q and output
    ]);

    const columns = el('div', 'ae-qkv-columns', body);
    const stepsList = el('ol', 'ae-qkv-steps', columns);
    p.steps = ['one', 'two', 'three', 'four'].map((key) => [key, el('li', '', stepsList)]);
    const analogy = el('aside', 'ae-qkv-analogy', columns, { 'aria-labelledby': `${id}-analogy` });
    this.text('p', 'ae-qkv-analogy-title', analogy, 'analogyTitle', { id: `${id}-analogy` });
    for (const key of ['query', 'key', 'value', 'note'])
      this.text('p', `ae-qkv-analogy-${key}`, analogy, `analogy.${key}`);

    p.query = vectorLine(body, 'ae-qkv-q', 'ae-qkv-values');
    const scroll = 'ae-qkv-scroll';
    const { table, caption, head, body: tbody } = dataTable(body, 'ae-qkv-table', { id: 'ae-qkv-caption', scroll });
    p.heads = COLUMNS.map((key) => [key, el('th', `ae-qkv-${key}`, head, { scope: 'col' })]);
    Object.assign(p, { caption, tbody });
    this.text('p', 'ae-qkv-hint', body, 'rowsHint');
    p.readout = el('p', 'ae-qkv-readout', body, { 'aria-live': 'polite' });
    p.rowValues = el('code', 'ae-qkv-values ae-qkv-rowvalues', body); // k and v of the active row
    p.output = vectorLine(body, 'ae-qkv-out', 'ae-qkv-values');
    this.#listenToRows(table, tbody);
    this.mount(root);
    this.#parts = p;
  }

  // Pointing at or focusing a key's row spells its cell out (#activate); the rows are one tab stop.
  #listenToRows(table, tbody) {
    const activate = (e) => {
      const row = e.target.closest('tr[data-key]');
      if (row) this.#activate(Number(row.dataset.key));
    };
    tbody.addEventListener('pointerover', activate);
    tbody.addEventListener('focusin', activate);
    table.addEventListener('pointerleave', () => {
      if (!tbody.contains(this.shadowRoot.activeElement)) this.#activate(null);
    });
    tbody.addEventListener('focusout', (e) => {
      if (!tbody.contains(e.relatedTarget)) this.#activate(null);
    });
    tbody.addEventListener('keydown', (e) => this.#onKey(e));
  }

  // --- guidance (LessonPanel): Show me and the question ---

  showMe() {
    return lessonView(this.store);
  }

  // Which of the lesson's nouns the selected word weighs more in the shown head: the flip
  // (tired → animal, wide → street) read from the run's own weights.
  question() {
    const { result, layer, head, sentence } = this.store.get();
    const tokens = result ? [...result.tokens] : [];
    const nouns = LESSON_NOUNS.filter((noun) => tokens.includes(noun));
    if (nouns.length < 2) return null;
    const i = this.value('token');
    const p = this.#parts;
    return {
      key: `noun|${sentence}|${layer}|${head}|${i}`, // a new experiment asks again
      text: this.t('guessNoun', { layer: layer + 1, head: head + 1, token: tokens[i] }),
      choices: nouns.map((noun) => ({ value: noun, label: noun })),
      hide: [p.tbody, p.readout, p.rowValues, p.output.strip, p.output.values],
      answer: () => {
        const weights = result.layers[layer]?.selfAttention.heads[head]?.weights;
        if (!weights) return null;
        const weightOf = (noun) => weights[i * tokens.length + tokens.indexOf(noun)];
        return nouns.reduce((best, noun) => (weightOf(noun) > weightOf(best) ? noun : best));
      },
    };
  }

  // --- numbers ---

  // config.norm of the shown model: the page's random models are pre-LN (their config has no
  // norm); a trained model's comes from its config (already loaded by the page, so no fetch).
  #checkNorm() {
    const { model } = this.store.get();
    if (model === this.#normModel) return;
    this.#normModel = model;
    this.#norm = 'pre';
    this.#trainedPositional = '';
    if (!model || model === 'untrained') return;
    this.trainedModel(model).then(
      (m) => {
        if (this.#normModel !== model) return;
        if (m.config.norm === this.#norm && m.config.positional === this.#trainedPositional) return;
        this.#norm = m.config.norm === 'post' ? 'post' : 'pre';
        this.#trainedPositional = m.config.positional;
        this.#view = null;
        this.#draw();
      },
      () => {},
    );
  }

  // config.positional of the shown model; for the main view's random model, from the config of
  // its run (the store's), which changes with the recipe without a model change.
  #positional() {
    const { model, config } = this.store.get();
    if (model && model !== 'untrained') return this.#trainedPositional;
    return config?.positional ?? '';
  }

  #draw() {
    const p = this.#parts;
    const { result, layer, head: headIndex, scale } = this.store.get();
    const head = result?.layers?.[layer]?.selfAttention.heads[headIndex];
    if (!this.showWhenReady(Boolean(head), p)) {
      this.#mark(null);
      return;
    }
    const tokens = [...result.tokens];
    const n = tokens.length;
    const i = this.value('token');
    const d = head.q.length / n; // the head width, from the trace's shape
    const root = fixed(Math.sqrt(d), 2); // label of the divisor (the trace holds the divided scores)
    this.#checkNorm();
    const view = {
      i,
      n,
      tokens: JSON.stringify(tokens),
      head,
      scale,
      norm: this.#norm,
      positional: this.#positional(),
    };
    if (this.#view && Object.keys(view).every((k) => this.#view[k] === view[k])) return;
    this.#view = { ...view, d, root, tokenList: tokens };

    this.#drawWords({ tokens, i, d, root, scale, layer, headIndex });
    this.#drawStepZero(result.layers[layer], head, i, tokens, d, headIndex);
    const q = rowOf(head.q, i, d);
    const output = rowOf(head.output, i, d);
    const scales = { qk: maxAbsOf(head.q, head.k), v: maxAbsOf(head.v, output) };
    this.#showVector(p.query, 'q', this.t('queryVector', { token: tokens[i] }), q, { maxAbs: scales.qk });
    this.#drawRows(head, tokens, i, d, scales);
    this.#showVector(p.output, 'output', this.t('output', { token: tokens[i] }), output, { maxAbs: scales.v });
    Object.assign(this.dataset, { query: i, layer, head: headIndex, d });
    this.#activate(this.#active !== null && this.#active < n ? this.#active : null);
  }

  // The words around the numbers: where they are from, the steps, the table's caption and heads.
  #drawWords({ tokens, i, d, root, scale, layer, headIndex }) {
    const p = this.#parts;
    p.where.textContent = this.t('where', { layer: layer + 1, head: headIndex + 1, d, root });
    for (const [key, node] of p.steps)
      node.textContent = this.t(`steps.${key === 'two' && scale === false ? 'twoOff' : key}`, { root });
    p.caption.textContent = this.t('tableCaption', { token: tokens[i] });
    for (const [key, node] of p.heads)
      node.textContent = this.t(key === 'colScaled' && scale === false ? 'colUnscaled' : key, { d });
  }

  // A vector's line (vectorLine): its name, its colour strip (named `key`; strip: vectorStrip's
  // options) and its numbers, also in data-values for the tests.
  #showVector(part, key, name, values, strip) {
    part.name.textContent = name;
    part.strip.replaceChildren(vectorStrip(values, { name: key, label: vectorLabelOf(this)(name, values), ...strip }));
    part.values.textContent = this.t('vector', { name: key, values: Array.from(values, (v) => fixed(v)).join(', ') });
    part.values.dataset.values = JSON.stringify(Array.from(values, String));
  }

  // The table: a row per key j, with k_j, the raw and scaled scores, the weight and v_j.
  #drawRows(head, tokens, i, d, scales) {
    const active = this.#rows.findIndex((r) => r === this.shadowRoot.activeElement);
    this.#rows = tokens.map((token, j) => {
      const tr = this.#keyRow(head, tokens.length, i, j, d, scales);
      tr.tabIndex = j === (active >= 0 ? active : 0) ? 0 : -1;
      return tr;
    });
    this.#parts.tbody.replaceChildren(...this.#rows);
    if (active >= 0) this.#rows[Math.min(active, tokens.length - 1)].focus();
  }

  #keyRow(head, n, i, j, d, scales) {
    const token = this.#view.tokenList[j];
    const [raw, scaled, weight] = [head.rawScores, head.scaledScores, head.weights].map((m) => m[i * n + j]);
    const tr = el('tr', '');
    Object.assign(tr.dataset, { key: j, raw: String(raw), scaled: String(scaled), weight: String(weight) });
    const cell = (className, ...content) => {
      const td = el(
        className === 'word' ? 'th' : 'td',
        `ae-qkv-${className}`,
        tr,
        className === 'word' ? { scope: 'row' } : {},
      );
      td.append(...content);
      return td;
    };
    const strip = (name, m, maxAbs) => {
      const values = rowOf(m, j, d);
      const label = vectorLabelOf(this)(`${name} ${token}`, values);
      return vectorStrip(values, { name: `${name}(${token})`, maxAbs, label, maxWidth: TABLE_STRIP });
    };
    cell('word', token);
    cell('k', strip('k', head.k, scales.qk));
    cell('raw', fixed(raw));
    const scaledCell = cell('scaled', fixed(scaled));
    if (head.maskedScores[i * n + j] === -Infinity) {
      tr.dataset.masked = 'true'; // the mask hides this key: its weight is exactly 0
      el('span', 'ae-qkv-masked', scaledCell, {}, this.t('masked'));
    }
    cell('weight', weightBar('ae-qkv-bar', weight), fixed(weight));
    cell('v', strip('v', head.v, scales.v));
    return tr;
  }

  // Step 0: x of the word (the layer's input, after LayerNorm for pre-LN) and its q, k, v.
  #drawStepZero(layerTrace, head, i, tokens, d, headIndex) {
    const p = this.#parts;
    const stages = layerTrace.stages;
    const pre = this.#norm !== 'post';
    const xAll = stages ? (pre ? stages.norm1 : stages.input) : null;
    const rope = this.#view?.positional === 'rope';
    p.zeroText.textContent =
      this.t(pre ? 'zero.pre' : 'zero.post', {
        dModel: xAll ? xAll.length / tokens.length : '?',
        d,
        head: headIndex + 1,
      }) + (rope ? this.t('zero.rope') : '');
    this.dataset.rope = String(rope);
    const dModel = xAll ? xAll.length / tokens.length : 0;
    const x = xAll ? xAll.subarray(i * dModel, (i + 1) * dModel) : new Float32Array(0);
    const rowOf = (m) => m.subarray(i * d, (i + 1) * d);
    const vectors = { x, q: rowOf(head.q), k: rowOf(head.k), v: rowOf(head.v) };
    const qkvScale = maxAbsOf(vectors.q, vectors.k, vectors.v);
    for (const [key, part] of p.zeroRows) {
      const name = this.t(`zero.${key}`, { token: tokens[i], dModel, d });
      const x1 = key === 'x';
      this.#showVector(part, key, name, vectors[key], {
        maxAbs: x1 ? maxAbsOf(x) : qkvScale,
        maxWidth: x1 ? 256 : Infinity,
      });
      part.values.dataset.vector = key;
    }
    this.dataset.norm = pre ? 'pre' : 'post';
  }

  // Marks key j's cell (row = query, column = j) in the heatmap and spells it out; null clears.
  #activate(j) {
    this.#active = j;
    const view = this.#view;
    this.#rows.forEach((tr, k) => tr.classList.toggle('active', k === j));
    if (j === null || !view) {
      this.#mark(null);
      this.#say('');
      this.#parts.rowValues.textContent = '';
      delete this.dataset.cell;
      return;
    }
    const tr = this.#rows[j];
    const list = (name, flat) =>
      this.t('vector', {
        name,
        values: Array.from(flat.subarray(j * view.d, (j + 1) * view.d), (v) => fixed(v)).join(', '),
      });
    this.#parts.rowValues.textContent = `${list(`k(${view.tokenList[j]})`, view.head.k)}\n${list(`v(${view.tokenList[j]})`, view.head.v)}`;
    this.#mark({ row: view.i, col: j });
    this.dataset.cell = `${view.i},${j}`;
    this.#say(
      this.t('cell', {
        q: view.tokenList[view.i],
        row: view.i + 1,
        k: view.tokenList[j],
        col: j + 1,
        root: view.scale === false ? '1' : view.root,
        raw: fixed(tr.dataset.raw),
        scaled: fixed(tr.dataset.scaled),
        weight: fixed(tr.dataset.weight, 4),
      }),
    );
  }

  #mark(cell) {
    const heatmap = this.heatmap;
    if (heatmap && 'highlight' in heatmap) heatmap.highlight = cell;
  }

  #say(message) {
    if (this.#parts.readout.textContent !== message) this.#parts.readout.textContent = message;
  }

  // The rows are one tab stop; Up/Down (Home/End) move between them.
  #onKey(e) {
    const tr = e.target.closest('tr[data-key]');
    const j = tr ? rowKey(e.key, Number(tr.dataset.key), this.#rows.length - 1) : null;
    if (j === null) return;
    e.preventDefault();
    focusRow(this.#rows, j);
  }
}

// "name: count numbers from min to max" (the strips' accessible names).
function vectorLabelOf(element) {
  return (name, values) =>
    text(strings, element.store.get().lang, 'vectorLabel', {
      name,
      count: values.length,
      min: values.length ? fixed(Math.min(...values)) : '–',
      max: values.length ? fixed(Math.max(...values)) : '–',
    });
}

define('ae-qkv-steps', QkvSteps);
