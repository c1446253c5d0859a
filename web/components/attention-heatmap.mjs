// <ae-attention-heatmap>: one attention matrix as an SVG grid, rows = queries, columns = keys.
//   element.data = AttentionData (../lib/attention-data.mjs, docs/own-attention.md):
//     {tokens | queryTokens + keyTokens, weights [layers][heads][q][k] (or a Float32Array with
//      shape), labels?, caption?, unknown?: number[] (positions of words outside the model's
//      vocabulary)}; a flat q×k array without shape is one matrix (what the main view passes)
//   attribute src="file.json": loads an attention file (the same data, format and version fields)
//   attributes / properties layer, head: which matrix of several, 1-based (default 1); with more
//     than one the element shows its own Layer and Head pickers
//   element.strings = messages[lang].heatmap (see ../i18n.mjs)
//   element.highlight = {row, col} | null: marks one cell for another panel (e.g. <ae-qkv-steps>
//     pointing at the score it explains); the mark is rect.highlight with data-row/data-col.
// Data it cannot draw (a wrong shape, a weight outside 0…1, a file that does not load) is said in
// the element (.ae-hm-error, role alert, data-state="error") and sent as `ae-error`; the grid is
// then empty, never drawn from the bad values.
// Events (CustomEvent, bubbling out of shadow roots), detail {row, col, query, key, weight}:
//   ae-token-hover   the pointer enters a cell (detail null when it leaves the grid)
//   ae-token-select  a cell is clicked or tapped, or the keyboard cursor moves to it
//   ae-error         detail {key: 'dataError', code: null, message}
// As in bertviz, new tokens rebuild the grid (#render); new values only recolour it (#update).
// Styled on its own (./attention-heatmap.css.mjs, adopted by the root it is placed in), light
// or dark as the host's color-scheme; the ramp stops are --ae-heat-0..2.
// CSP-safe: colours are SVG presentation attributes, sizes are set through CSSOM.
import { ElementBase, define } from '../lib/define.mjs';
import { format, messages } from '../i18n.mjs';
import { el, svgNode } from '../lib/dom.mjs';
import { attentionReceiver, matrixOf } from '../lib/attention-data.mjs';
import { adoptStyles, resolvedColour } from '../lib/resolved-colour.mjs';
import { DEFAULT_STOPS, rampIndex, rampOf } from '../lib/heat-ramp.mjs';
import css from './attention-heatmap.css.mjs';

const FONT = 13; // label size in viewBox units (= px at natural size)
const VALUES_MAX_N = 16; // print values inside cells only while they fit
const VALUES_CELL = 40,
  PLAIN_CELL = 24; // cell sizes in viewBox units, with and without values
const VALUES_MIN_SCALE = 0.72,
  PLAIN_MIN_SCALE = 0.4; // smallest scales at which text stays legible
const TITLES_MAX_N = 32; // above this, one shared <title> follows the pointer: halves the DOM

const clamp = (v, max) => Math.min(max, Math.max(0, v));

// --- DOM helpers ---

// An element (SVG unless an HTML tag) with attributes, optional parent and text.
const shorten = (s) => (s.length > 12 ? s.slice(0, 11) + '…' : s);
// Label width without layout (the element may be hidden): CJK glyphs are full width.
const textWidth = (s) => [...s].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? 1 : 0.62), 0) * FONT;
// What #render draws: the labels and which of them are marked unknown.
const layoutKey = ({ tokens, keys, unknown = [] }) => JSON.stringify([tokens, keys, [...unknown]]);
// A 1-based attribute or property value → 0-based index within count (0 if absent or out of range).
const indexOf = (value, count) => {
  const i = Math.trunc(Number(value)) - 1;
  return i >= 0 && i < count ? i : 0;
};

let nextId = 0;

export class AttentionHeatmap extends ElementBase {
  static observedAttributes = ['src', 'layer', 'head'];

  #given = null; // the data as set
  #norm = null; // normalizeAttention(#given)
  #data = null; // the matrix on view: {tokens (rows), keys (columns), weights (q×k), caption, unknown}
  #tokens = []; // row labels as rendered
  #keys = []; // column labels as rendered
  #layout = ''; // layoutKey of the rendered grid
  #cells = []; // [{rect, title, text}], row-major; title is null on large grids
  #hoverTitle = svgNode('title'); // the shared <title> of large grids
  #strings = messages.en.heatmap;
  #ramp = rampOf(DEFAULT_STOPS);
  #active = null; // {row, col} of the keyboard cursor
  #hovered = null; // the cell under the pointer, as its ae-token-hover detail
  #highlight = null; // {row, col} set through the highlight property
  #parts = null; // static elements from #build
  #grid = null; // layout and label nodes from #render
  #receiver = attentionReceiver({ accept: (data, norm) => this.#accept(data, norm), fail: (e) => this.#fail(e) });
  #scheme = matchMedia('(prefers-color-scheme: dark)');
  #onScheme = () => this.#recolour();

  // A narrower or wider plot may call for the other layout (with or without values in cells).
  #resize = new ResizeObserver(() => {
    if (this.#grid && this.#data && this.#showsValues() !== this.#grid.values) this.#render();
  });

  connectedCallback() {
    adoptStyles(this, css);
    if (!this.#parts) this.#build();
    this.#scheme.addEventListener('change', this.#onScheme);
    this.#resize.observe(this.#parts.plot);
    this.#recolour();
  }

  disconnectedCallback() {
    this.#scheme.removeEventListener('change', this.#onScheme);
    this.#resize.disconnect();
  }

  attributeChangedCallback(name, before, after) {
    if (before === after) return;
    if (name === 'src') this.#receiver.load(after, document.baseURI);
    else if (this.#norm) this.#show();
  }

  get data() {
    return this.#given;
  }

  // Bad data is shown as an error in the element (and sent as ae-error), not thrown.
  set data(value) {
    this.#receiver.set(value);
  }

  #accept(value, norm) {
    if (!this.#parts) this.#build();
    this.#given = value;
    this.#norm = norm;
    this.#parts.error.textContent = '';
    this.#parts.plot.hidden = this.#parts.foot.hidden = false;
    delete this.dataset.state;
    this.#fillPicker();
    this.#show();
  }

  get layer() {
    return this.#norm ? indexOf(this.getAttribute('layer'), this.#norm.layers) + 1 : 1;
  }

  set layer(value) {
    this.setAttribute('layer', String(value));
  }

  get head() {
    return this.#norm ? indexOf(this.getAttribute('head'), this.#norm.heads) + 1 : 1;
  }

  set head(value) {
    this.setAttribute('head', String(value));
  }

  // The error in the element, the grid emptied, and ae-error.
  #fail(error) {
    if (!this.#parts) this.#build();
    this.#given = this.#norm = this.#data = null;
    this.#parts.svg.replaceChildren();
    this.#cells = [];
    this.#grid = null;
    this.#layout = '';
    this.#tokens = this.#keys = [];
    this.#parts.plot.hidden = this.#parts.foot.hidden = this.#parts.picker.hidden = true;
    this.#parts.caption.textContent = '';
    this.#parts.error.textContent = format(this.#strings.dataError, { message: error.message });
    this.dataset.state = 'error';
    this.#emit('ae-error', { key: 'dataError', code: null, message: error.message });
  }

  // The Layer and Head pickers, shown when the data holds more than one matrix.
  #fillPicker() {
    const { picker, layerSelect, headSelect } = this.#parts;
    const { layers, heads, labels } = this.#norm;
    const fill = (select, count, names, word) => {
      if (select.options.length === count && select.dataset.names === JSON.stringify(names)) return;
      select.dataset.names = JSON.stringify(names);
      select.replaceChildren(
        ...Array.from({ length: count }, (_, i) =>
          el('option', '', null, { value: i + 1 }, names?.[i] ?? `${word} ${i + 1}`),
        ),
      );
    };
    fill(layerSelect, layers, labels.layers, this.#strings.layer);
    fill(headSelect, heads, labels.heads, this.#strings.head);
    layerSelect.parentNode.hidden = layers < 2;
    headSelect.parentNode.hidden = heads < 2;
    picker.hidden = layers < 2 && heads < 2;
  }

  // The chosen matrix of the data, drawn.
  #show() {
    const norm = this.#norm;
    const layer = indexOf(this.getAttribute('layer'), norm.layers);
    const head = indexOf(this.getAttribute('head'), norm.heads);
    this.#parts.layerSelect.value = String(layer + 1);
    this.#parts.headSelect.value = String(head + 1);
    const several = norm.layers > 1 || norm.heads > 1;
    const names = {
      layer: norm.labels.layers?.[layer] ?? layer + 1,
      head: norm.labels.heads?.[head] ?? head + 1,
    };
    this.#data = {
      tokens: norm.queryTokens,
      keys: norm.keyTokens,
      weights: matrixOf(norm, layer, head),
      caption: norm.caption || (several ? format(this.#strings.headCaption, names) : ''),
      unknown: this.#given.unknown ?? [],
    };
    Object.assign(this.dataset, { layer: layer + 1, head: head + 1 });
    if (layoutKey(this.#data) === this.#layout) this.#update();
    else if (!this.#relabel()) this.#render();
  }

  // Label widths of rows and columns: the wider decides the room left and on top.
  #labelWidth(rows, cols) {
    return Math.max(textWidth(this.#strings.queries), ...rows.map(textWidth), ...cols.map(textWidth)) + 10;
  }

  // Other words in the same geometry (tired ↔ wide: same length, same unknowns, same label
  // width): only the label texts change, and the cells are recoloured — a fraction of #render.
  #relabel() {
    if (!this.#grid) return false;
    const tokens = [...this.#data.tokens];
    const keys = [...this.#data.keys];
    const unknown = [...(this.#data.unknown ?? [])];
    const rowLabels = tokens.map(shorten);
    const colLabels = keys.map(shorten);
    const labelWidth = this.#labelWidth(rowLabels, colLabels);
    const before = JSON.parse(this.#layout);
    if (
      tokens.length !== this.#tokens.length ||
      keys.length !== this.#keys.length ||
      JSON.stringify(unknown) !== JSON.stringify(before[2]) ||
      labelWidth !== this.#grid.labelWidth
    )
      return false;
    // The label's own text node (an [UNK] label also holds a <title> after it).
    const setText = (node, label) => {
      if (node.firstChild?.nodeType === Node.TEXT_NODE) node.firstChild.nodeValue = label;
      else node.prepend(label);
    };
    rowLabels.forEach((label, i) => setText(this.#grid.rowLabels[i], label));
    colLabels.forEach((label, j) => setText(this.#grid.colLabels[j], label));
    this.#tokens = tokens;
    this.#keys = keys;
    this.#layout = layoutKey(this.#data);
    this.#update();
    return true;
  }

  set strings(value) {
    this.#strings = { ...messages.en.heatmap, ...value };
    if (this.#parts) this.#build();
    if (this.#norm) {
      this.#fillPicker();
      this.#show();
    }
  }

  get highlight() {
    return this.#highlight;
  }

  set highlight(value) {
    this.#highlight = value ? { row: Number(value.row), col: Number(value.col) } : null;
    this.#showHighlight();
  }

  // The focusable plot (role img, summarised by aria-label), the legend, and a live readout
  // announcing the cell under the keyboard cursor.
  #build() {
    const s = this.#strings;
    const root = el('div', 'ae-hm');
    const picker = el('div', 'ae-hm-picker', root, { hidden: '' });
    const choose = (word, name) => {
      const label = el('label', '', picker, {}, `${word} `);
      const select = el('select', '', label);
      select.addEventListener('change', () => this.setAttribute(name, select.value));
      return select;
    };
    const layerSelect = choose(s.layer, 'layer');
    const headSelect = choose(s.head, 'head');
    const caption = el('p', 'ae-hm-caption', root);
    const plot = el('div', 'ae-hm-plot', root, { tabindex: 0, role: 'img' });
    const svg = svgNode('svg', { 'aria-hidden': 'true' }, plot);
    const foot = el('div', 'ae-hm-foot', root);
    const legend = el('div', 'ae-hm-legend', foot, { 'aria-hidden': 'true' });
    el('span', 'ae-hm-legend-title', legend, {}, s.legend);
    el('span', '', legend, {}, '0');
    const bar = svgNode('svg', { viewBox: '0 0 100 10', preserveAspectRatio: 'none', class: 'ae-hm-bar' }, legend);
    el('span', '', legend, {}, '1');
    const readout = el('p', 'ae-hm-readout', foot, { 'aria-live': 'polite' }, s.hint);
    const error = el('p', 'ae-hm-error', root, { role: 'alert' });
    const probe = el('span', 'ae-hm-probe', root, { 'aria-hidden': 'true' });

    plot.addEventListener('keydown', (e) => this.#onKey(e));
    plot.addEventListener('focus', () => this.#moveTo(this.#active?.row ?? 0, this.#active?.col ?? 0));
    plot.addEventListener('blur', () => this.#showActive(false));
    svg.addEventListener('pointerdown', (e) => {
      const rect = e.target.closest('rect.cell');
      if (!rect) return;
      this.#moveTo(Number(rect.dataset.row), Number(rect.dataset.col));
      this.#emit('ae-token-select', this.#cellDetail(this.#active));
    });
    svg.addEventListener('pointerover', (e) => {
      const rect = e.target.closest('rect.cell');
      if (!rect) return;
      const cell = this.#cellDetail({ row: Number(rect.dataset.row), col: Number(rect.dataset.col) });
      if (cell.row !== this.#hovered?.row || cell.col !== this.#hovered?.col)
        this.#emit('ae-token-hover', (this.#hovered = cell));
      if (this.#cells[0]?.title) return;
      rect.append(this.#hoverTitle);
      this.#hoverTitle.textContent = this.#cellTitle(Number(rect.dataset.row), Number(rect.dataset.col));
    });

    svg.addEventListener('pointerleave', () => {
      if (this.#hovered) this.#emit('ae-token-hover', (this.#hovered = null));
    });

    this.replaceChildren(root);
    if (this.isConnected) {
      this.#resize.disconnect();
      this.#resize.observe(plot);
    }
    this.#parts = { caption, plot, svg, bar, readout, foot, error, probe, picker, layerSelect, headSelect };
    this.#layout = ''; // the next data renders in full
    this.#grid = null;
    this.#drawLegend();
  }

  // The grid's geometry in viewBox units: row labels on the left, column labels rotated 45°.
  #geometry(cell) {
    const labels = this.#data.tokens.map(shorten);
    const keyLabels = this.#data.keys.map(shorten);
    const labelWidth = this.#labelWidth(labels, keyLabels);
    const left = labelWidth + 6;
    const top = labelWidth * 0.71 + 12;
    const width = Math.round(left + keyLabels.length * cell + labelWidth * 0.71);
    return { labels, keyLabels, labelWidth, left, top, width, height: Math.round(top + labels.length * cell + 4) };
  }

  // Values are printed in the cells of short sentences, unless the plot is too narrow for them
  // to stay legible (a phone): then the whole grid fits without them, and a tap reads a cell.
  #showsValues() {
    const n = Math.max(this.#data.tokens.length, this.#data.keys.length);
    if (n > VALUES_MAX_N) return false;
    const room = this.#parts.plot.clientWidth; // 0 while hidden: judged again when shown
    return room === 0 || room >= this.#geometry(VALUES_CELL).width * VALUES_MIN_SCALE;
  }

  // New token sequence: rebuild labels and cells, then fill in the values.
  #render() {
    const { svg } = this.#parts;
    const tokens = [...this.#data.tokens];
    const keys = [...this.#data.keys];
    const small = this.#showsValues();
    const cell = small ? VALUES_CELL : PLAIN_CELL;
    const geometry = this.#geometry(cell);
    const { left, top, labelWidth } = geometry;

    this.#hoverTitle.remove();
    this.#sizeSvg(svg, geometry, small);
    const { rowLabels, colLabels } = this.#drawLabels(svg, geometry, cell);
    const { marker, highlight } = this.#drawCells(svg, geometry, cell, small);

    this.#tokens = tokens;
    this.#keys = keys;
    this.#layout = layoutKey(this.#data);
    this.#grid = { left, top, cell, marker, highlight, rowLabels, colLabels, labelWidth, values: small };
    if (this.#active && (this.#active.row >= tokens.length || this.#active.col >= keys.length)) this.#active = null;
    this.#update();
    this.#showHighlight();
  }

  // An empty svg of the grid's size, with or without values in its cells.
  #sizeSvg(svg, { width, height }, small) {
    svg.replaceChildren();
    for (const [key, v] of Object.entries({ viewBox: `0 0 ${width} ${height}`, width, height }))
      svg.setAttribute(key, v);
    // Fit the container, but keep labels readable: a long sentence scrolls instead.
    svg.style.maxWidth = `${Math.round(width * 1.6)}px`;
    svg.style.minWidth = `${Math.round(width * (small ? VALUES_MIN_SCALE : PLAIN_MIN_SCALE))}px`;
    this.dataset.layout = small ? 'values' : 'plain';
  }

  // The axis titles, the row labels (queries) and the column labels (keys); unknown words marked.
  #drawLabels(svg, { labels, keyLabels, left, top }, cell) {
    const axis = { x: left - 8, class: 'axis', 'text-anchor': 'end' };
    svgNode('text', { ...axis, y: top - 26 }, svg, this.#strings.queries);
    svgNode('text', { ...axis, y: top - 8 }, svg, this.#strings.keys);
    const rowLabels = labels.map((label, i) =>
      svgNode(
        'text',
        {
          x: left - 8,
          y: top + (i + 0.5) * cell,
          class: 'label',
          'text-anchor': 'end',
          'dominant-baseline': 'central',
        },
        svg,
        label,
      ),
    );
    const colLabels = keyLabels.map((label, j) => {
      const x = left + (j + 0.5) * cell,
        y = top - 8;
      return svgNode('text', { x, y, class: 'label', transform: `rotate(-45 ${x} ${y})` }, svg, label);
    });
    for (const i of new Set(this.#data.unknown)) {
      for (const text of [rowLabels[i], this.#norm.cross ? null : colLabels[i]].filter(Boolean)) {
        text.classList.add('unknown');
        svgNode('title', {}, text, this.#strings.unknown);
      }
    }
    return { rowLabels, colLabels };
  }

  // One rect per weight (with its <title> on small grids and its value when `small`), the frame,
  // and the keyboard cursor's and the highlight's marks (#cells filled; the marks returned).
  #drawCells(svg, { labels, keyLabels, left, top }, cell, small) {
    const q = labels.length,
      k = keyLabels.length;
    const cells = svgNode('g', {}, svg);
    const values = small ? svgNode('g', { class: 'values', 'text-anchor': 'middle' }, svg) : null;
    this.#cells = [];
    for (let i = 0; i < q; i++) {
      for (let j = 0; j < k; j++) {
        const x = left + j * cell,
          y = top + i * cell;
        const rect = svgNode(
          'rect',
          { class: 'cell', x, y, width: cell - 1, height: cell - 1, 'data-row': i, 'data-col': j },
          cells,
        );
        const title = q * k <= TITLES_MAX_N ** 2 ? svgNode('title', {}, rect) : null;
        const text =
          values && svgNode('text', { x: x + cell / 2, y: y + cell / 2, 'dominant-baseline': 'central' }, values);
        this.#cells.push({ rect, title, text });
      }
    }
    svgNode('rect', { class: 'frame', x: left - 0.5, y: top - 0.5, width: k * cell, height: q * cell }, svg);
    const marker = svgNode('rect', { class: 'marker', width: cell + 1, height: cell + 1 }, svg);
    const highlight = svgNode('rect', { class: 'highlight', width: cell + 1, height: cell + 1 }, svg);
    return { marker, highlight };
  }

  // Same tokens, new values (another head, layer, mask or seed): attributes and text only.
  #update() {
    const { weights, caption } = this.#data;
    const k = this.#keys.length;
    this.#parts.caption.textContent = caption;
    this.#parts.plot.setAttribute(
      'aria-label',
      format(this.#strings.summary, { caption, n: this.#tokens.length, m: k }),
    );
    this.#cells.forEach(({ rect, title, text }, index) => {
      const value = weights[index];
      const colour = this.#ramp[rampIndex(value)];
      rect.setAttribute('data-value', String(value));
      rect.setAttribute('fill', colour.fill);
      if (title) title.textContent = this.#cellTitle(Math.floor(index / k), index % k);
      if (!text) return;
      // "0" is an exact zero (a masked key); "0.00" only a small weight.
      text.textContent = value === 0 ? '0' : value.toFixed(2);
      text.classList.toggle('zero', value === 0);
      text.setAttribute('fill', colour.ink);
    });
    const hovered = this.#hoverTitle.parentNode;
    if (hovered)
      this.#hoverTitle.textContent = this.#cellTitle(Number(hovered.dataset.row), Number(hovered.dataset.col));
    this.#showActive(this.#parts.plot.getRootNode().activeElement === this.#parts.plot); // maybe in a shadow root
  }

  #cellTitle(row, col) {
    const value = this.#data.weights[row * this.#keys.length + col];
    return `${this.#tokens[row]} → ${this.#keys[col]}: ${value.toFixed(4)}`;
  }

  // The ramp's stops as this element's CSS resolves them (--ae-heat-0..2, else light or dark
  // defaults by the host's color-scheme): read on connecting and when the scheme changes.
  #recolour() {
    const { probe } = this.#parts;
    const stops = DEFAULT_STOPS.map(
      (d, i) => (this.isConnected && resolvedColour(probe, `var(--ae-hm-heat-${i})`)) || d,
    );
    this.#ramp = rampOf(stops);
    this.dataset.ramp = stops.join(' ');
    this.#drawLegend();
    if (this.#cells.length) this.#update();
  }

  #drawLegend() {
    const { bar } = this.#parts ?? {};
    if (!bar) return;
    const id = `ae-hm-gradient-${nextId++}`;
    bar.replaceChildren();
    const gradient = svgNode('linearGradient', { id }, svgNode('defs', {}, bar));
    for (let i = 0; i <= 10; i++)
      svgNode('stop', { offset: i / 10, 'stop-color': this.#ramp[rampIndex(i / 10)].fill }, gradient);
    svgNode('rect', { width: 100, height: 10, fill: `url(#${id})` }, bar);
  }

  #onKey(e) {
    if (!this.#active) return;
    const lastRow = this.#tokens.length - 1;
    const lastCol = this.#keys.length - 1;
    let { row, col } = this.#active;
    const moves = {
      ArrowUp: () => row--,
      ArrowDown: () => row++,
      ArrowLeft: () => col--,
      ArrowRight: () => col++,
      Home: () => {
        col = 0;
        if (e.ctrlKey) row = 0;
      },
      End: () => {
        col = lastCol;
        if (e.ctrlKey) row = lastRow;
      },
    };
    if (!moves[e.key]) return;
    moves[e.key]();
    e.preventDefault(); // keep the page from scrolling
    this.#moveTo(clamp(row, lastRow), clamp(col, lastCol));
    this.#emit('ae-token-select', this.#cellDetail(this.#active));
  }

  // A cell as the events describe it: its query (row) and key (column) tokens and its weight.
  #cellDetail({ row, col }) {
    const weight = this.#data.weights[row * this.#keys.length + col];
    return { row, col, query: this.#tokens[row], key: this.#keys[col], weight };
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  #moveTo(row, col) {
    if (!this.#tokens.length) return;
    this.#active = { row, col };
    this.#showActive(true);
  }

  // Marker, highlighted labels and readout for the active cell; only while the plot has focus.
  #showActive(visible) {
    const g = this.#grid;
    if (!g) return;
    const on = Boolean(visible && this.#active);
    const { row, col } = this.#active ?? {};
    g.marker.classList.toggle('on', on);
    g.rowLabels.forEach((t, i) => t.classList.toggle('on', on && i === row));
    g.colLabels.forEach((t, j) => t.classList.toggle('on', on && j === col));
    if (!on) return this.#say(this.#strings.hint);
    g.marker.setAttribute('x', g.left + col * g.cell - 1);
    g.marker.setAttribute('y', g.top + row * g.cell - 1);
    const value = this.#data.weights[row * this.#keys.length + col].toFixed(4);
    this.#say(
      format(this.#strings.cell, { q: this.#tokens[row], k: this.#keys[col], row: row + 1, col: col + 1, value }),
    );
  }

  // The cell another panel points at (the highlight property), while it is inside the grid.
  #showHighlight() {
    const mark = this.#grid?.highlight;
    if (!mark) return;
    const h = this.#highlight;
    const on = Boolean(h && h.row >= 0 && h.col >= 0 && h.row < this.#tokens.length && h.col < this.#keys.length);
    mark.classList.toggle('on', on);
    if (!on) return;
    mark.setAttribute('x', this.#grid.left + h.col * this.#grid.cell - 1);
    mark.setAttribute('y', this.#grid.top + h.row * this.#grid.cell - 1);
    Object.assign(mark.dataset, { row: h.row, col: h.col });
  }

  // Writes only on change: rewriting the same text can make screen readers repeat it.
  #say(text) {
    if (this.#parts.readout.textContent !== text) this.#parts.readout.textContent = text;
  }
}

define('ae-attention-heatmap', AttentionHeatmap);
