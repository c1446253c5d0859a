// <ae-attention-heatmap>: one attention matrix as an SVG grid, rows = queries, columns = keys.
//   element.data = { tokens: string[], weights: Float32Array (n×n, row-major), caption?: string,
//                    unknown?: number[] (positions of words outside the model's vocabulary) }
//   element.strings = messages[lang].heatmap (see ../i18n.mjs)
//   element.highlight = {row, col} | null: marks one cell for another panel (e.g. <ae-qkv-steps>
//     pointing at the score it explains); the mark is rect.highlight with data-row/data-col.
// Events (CustomEvent, bubbling out of shadow roots), detail {row, col, query, key, weight}:
//   ae-token-hover   the pointer enters a cell (detail null when it leaves the grid)
//   ae-token-select  a cell is clicked or tapped, or the keyboard cursor moves to it
// As in bertviz, new tokens rebuild the grid (#render); new values only recolour it (#update).
// CSP-safe: colours are SVG presentation attributes, sizes are set through CSSOM.
import { ElementBase, define } from '../lib/define.mjs';
import { format, messages } from '../i18n.mjs';
import { el, svgNode } from '../lib/dom.mjs';

const FONT = 13; // label size in viewBox units (= px at natural size)
const VALUES_MAX_N = 16; // print values inside cells only while they fit
const VALUES_CELL = 40,
  PLAIN_CELL = 24; // cell sizes in viewBox units, with and without values
const VALUES_MIN_SCALE = 0.72,
  PLAIN_MIN_SCALE = 0.4; // smallest scales at which text stays legible
const TITLES_MAX_N = 32; // above this, one shared <title> follows the pointer: halves the DOM
const DEFAULT_STOPS = ['#ffffff', '#4a90c8', '#0b2a5b']; // style.css sets --ae-heat-0..2

const clamp = (v, max) => Math.min(max, Math.max(0, v));

// --- colour ramp, interpolated in OKLab so equal steps in weight look like equal steps ---

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const mix = (m, v) => m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);
// Matrices from Björn Ottosson's OKLab definition.
const RGB_LMS = [
  [0.4122214708, 0.5363325363, 0.0514459929],
  [0.2119034982, 0.6806995451, 0.1073969566],
  [0.0883024619, 0.2817188376, 0.6299787005],
];
const LMS_LAB = [
  [0.2104542553, 0.793617785, -0.0040720468],
  [1.9779984951, -2.428592205, 0.4505937099],
  [0.0259040371, 0.7827717662, -0.808675766],
];
const LAB_LMS = [
  [1, 0.3963377774, 0.2158037573],
  [1, -0.1055613458, -0.0638541728],
  [1, -0.0894841775, -1.291485548],
];
const LMS_RGB = [
  [4.0767416621, -3.3077115913, 0.2309699292],
  [-1.2684380046, 2.6097574011, -0.3413193965],
  [-0.0041960863, -0.7034186147, 1.707614701],
];

function hexToOklab(hex) {
  const rgb = [1, 3, 5].map((i) => toLinear(parseInt(hex.slice(i, i + 2), 16) / 255));
  return mix(LMS_LAB, mix(RGB_LMS, rgb).map(Math.cbrt));
}

const oklabToLinear = (lab) =>
  mix(
    LMS_RGB,
    mix(LAB_LMS, lab).map((c) => c ** 3),
  ).map((c) => clamp(c, 1));
const toHex = (rgb) =>
  '#' +
  rgb
    .map((c) =>
      Math.round(toGamma(c) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

// 256 precomputed {fill, ink} over [0, 1]; ink is whichever of white/black text contrasts more.
function buildRamp(hexes) {
  const stops = hexes.map((h, i) => hexToOklab(/^#[0-9a-f]{6}$/i.test(h) ? h : DEFAULT_STOPS[i]));
  return Array.from({ length: 256 }, (_, i) => {
    const t = (i / 255) * (stops.length - 1);
    const k = Math.min(Math.floor(t), stops.length - 2);
    const rgb = oklabToLinear(stops[k].map((v, c) => v + (stops[k + 1][c] - v) * (t - k)));
    const luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    return { fill: toHex(rgb), ink: luminance < 0.18 ? '#ffffff' : '#111111' }; // 0.18: equal contrast
  });
}

// The ramp of each set of stops, built once: every heatmap of a page (the main view's, each
// panel's) asks for the same colours (the first view's heatmaps spent 37 ms building theirs).
const ramps = new Map();
function rampOf(hexes) {
  const key = hexes.join(' ');
  if (!ramps.has(key)) ramps.set(key, buildRamp(hexes));
  return ramps.get(key);
}

const rampIndex = (value) => Math.round(clamp(value, 1) * 255) || 0;

// --- DOM helpers ---

// An element (SVG unless an HTML tag) with attributes, optional parent and text.
const shorten = (s) => (s.length > 12 ? s.slice(0, 11) + '…' : s);
// Label width without layout (the element may be hidden): CJK glyphs are full width.
const textWidth = (s) => [...s].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? 1 : 0.62), 0) * FONT;
// What #render draws: the labels and which of them are marked unknown.
const layoutKey = ({ tokens, unknown = [] }) => JSON.stringify([tokens, [...unknown]]);

let nextId = 0;

export class AttentionHeatmap extends ElementBase {
  #data = null;
  #tokens = [];
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
  #scheme = matchMedia('(prefers-color-scheme: dark)');
  #onScheme = () => this.#recolour();

  // A narrower or wider plot may call for the other layout (with or without values in cells).
  #resize = new ResizeObserver(() => {
    if (this.#grid && this.#data && this.#showsValues() !== this.#grid.values) this.#render();
  });

  connectedCallback() {
    if (!this.#parts) this.#build();
    this.#scheme.addEventListener('change', this.#onScheme);
    this.#resize.observe(this.#parts.plot);
    this.#recolour();
  }

  disconnectedCallback() {
    this.#scheme.removeEventListener('change', this.#onScheme);
    this.#resize.disconnect();
  }

  get data() {
    return this.#data;
  }

  set data(value) {
    const { tokens, weights } = value ?? {};
    if (!Array.isArray(tokens) || weights?.length !== tokens.length ** 2)
      throw new TypeError('ae-attention-heatmap: weights must hold tokens.length² values');
    this.#data = { caption: '', ...value };
    if (!this.#parts) this.#build();
    if (layoutKey(this.#data) === this.#layout) this.#update();
    else if (!this.#relabel()) this.#render();
  }

  // Other words in the same geometry (tired ↔ wide: same length, same unknowns, same label
  // width): only the label texts change, and the cells are recoloured — a fraction of #render.
  #relabel() {
    if (!this.#grid) return false;
    const tokens = [...this.#data.tokens];
    const unknown = [...(this.#data.unknown ?? [])];
    const labels = tokens.map(shorten);
    const labelWidth = Math.max(textWidth(this.#strings.queries), ...labels.map(textWidth)) + 10;
    const before = JSON.parse(this.#layout);
    if (
      tokens.length !== this.#tokens.length ||
      JSON.stringify(unknown) !== JSON.stringify(before[1]) ||
      labelWidth !== this.#grid.labelWidth
    )
      return false;
    // The label's own text node (an [UNK] label also holds a <title> after it).
    const setText = (node, label) => {
      if (node.firstChild?.nodeType === Node.TEXT_NODE) node.firstChild.nodeValue = label;
      else node.prepend(label);
    };
    labels.forEach((label, i) => {
      setText(this.#grid.rowLabels[i], label);
      setText(this.#grid.colLabels[i], label);
    });
    this.#tokens = tokens;
    this.#layout = layoutKey(this.#data);
    this.#update();
    return true;
  }

  set strings(value) {
    this.#strings = { ...messages.en.heatmap, ...value };
    if (this.#parts) this.#build();
    if (this.#data) this.#render();
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
    this.#parts = { caption, plot, svg, bar, readout };
    this.#layout = ''; // the next data renders in full
    this.#drawLegend();
  }

  // The grid's geometry in viewBox units: row labels on the left, column labels rotated 45°.
  #geometry(n, cell) {
    const labels = this.#data.tokens.map(shorten);
    const labelWidth = Math.max(textWidth(this.#strings.queries), ...labels.map(textWidth)) + 10;
    const left = labelWidth + 6;
    const top = labelWidth * 0.71 + 12;
    const width = Math.round(left + n * cell + labelWidth * 0.71);
    return { labels, labelWidth, left, top, width, height: Math.round(top + n * cell + 4) };
  }

  // Values are printed in the cells of short sentences, unless the plot is too narrow for them
  // to stay legible (a phone): then the whole grid fits without them, and a tap reads a cell.
  #showsValues() {
    const n = this.#data.tokens.length;
    if (n > VALUES_MAX_N) return false;
    const room = this.#parts.plot.clientWidth; // 0 while hidden: judged again when shown
    return room === 0 || room >= this.#geometry(n, VALUES_CELL).width * VALUES_MIN_SCALE;
  }

  // New token sequence: rebuild labels and cells, then fill in the values.
  #render() {
    const { svg } = this.#parts;
    const tokens = [...this.#data.tokens];
    const unknown = new Set(this.#data.unknown);
    const n = tokens.length;
    const small = this.#showsValues();
    const cell = small ? VALUES_CELL : PLAIN_CELL;
    const { labels, labelWidth, left, top, width, height } = this.#geometry(n, cell);

    this.#hoverTitle.remove();
    svg.replaceChildren();
    for (const [k, v] of Object.entries({ viewBox: `0 0 ${width} ${height}`, width, height })) svg.setAttribute(k, v);
    // Fit the container, but keep labels readable: a long sentence scrolls instead.
    svg.style.maxWidth = `${Math.round(width * 1.6)}px`;
    svg.style.minWidth = `${Math.round(width * (small ? VALUES_MIN_SCALE : PLAIN_MIN_SCALE))}px`;
    this.dataset.layout = small ? 'values' : 'plain';

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
    const colLabels = labels.map((label, j) => {
      const x = left + (j + 0.5) * cell,
        y = top - 8;
      return svgNode('text', { x, y, class: 'label', transform: `rotate(-45 ${x} ${y})` }, svg, label);
    });
    for (const i of unknown) {
      for (const text of i < n ? [rowLabels[i], colLabels[i]] : []) {
        text.classList.add('unknown');
        svgNode('title', {}, text, this.#strings.unknown);
      }
    }

    const cells = svgNode('g', {}, svg);
    const values = small ? svgNode('g', { class: 'values', 'text-anchor': 'middle' }, svg) : null;
    this.#cells = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const x = left + j * cell,
          y = top + i * cell;
        const rect = svgNode(
          'rect',
          { class: 'cell', x, y, width: cell - 1, height: cell - 1, 'data-row': i, 'data-col': j },
          cells,
        );
        const title = n <= TITLES_MAX_N ? svgNode('title', {}, rect) : null;
        const text =
          values && svgNode('text', { x: x + cell / 2, y: y + cell / 2, 'dominant-baseline': 'central' }, values);
        this.#cells.push({ rect, title, text });
      }
    }
    svgNode('rect', { class: 'frame', x: left - 0.5, y: top - 0.5, width: n * cell, height: n * cell }, svg);
    const marker = svgNode('rect', { class: 'marker', width: cell + 1, height: cell + 1 }, svg);
    const highlight = svgNode('rect', { class: 'highlight', width: cell + 1, height: cell + 1 }, svg);

    this.#tokens = tokens;
    this.#layout = layoutKey(this.#data);
    this.#grid = { left, top, cell, marker, highlight, rowLabels, colLabels, labelWidth, values: small };
    if (this.#active && Math.max(this.#active.row, this.#active.col) >= n) this.#active = null;
    this.#update();
    this.#showHighlight();
  }

  // Same tokens, new values (another head, layer, mask or seed): attributes and text only.
  #update() {
    const { weights, caption } = this.#data;
    const n = this.#tokens.length;
    this.#parts.caption.textContent = caption;
    this.#parts.plot.setAttribute('aria-label', format(this.#strings.summary, { caption, n }));
    this.#cells.forEach(({ rect, title, text }, index) => {
      const value = weights[index];
      const colour = this.#ramp[rampIndex(value)];
      rect.setAttribute('data-value', String(value));
      rect.setAttribute('fill', colour.fill);
      if (title) title.textContent = this.#cellTitle(Math.floor(index / n), index % n);
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
    const value = this.#data.weights[row * this.#tokens.length + col];
    return `${this.#tokens[row]} → ${this.#tokens[col]}: ${value.toFixed(4)}`;
  }

  #recolour() {
    const style = getComputedStyle(this);
    this.#ramp = rampOf(DEFAULT_STOPS.map((d, i) => style.getPropertyValue(`--ae-heat-${i}`).trim() || d));
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
    const last = this.#tokens.length - 1;
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
        col = last;
        if (e.ctrlKey) row = last;
      },
    };
    if (!moves[e.key]) return;
    moves[e.key]();
    e.preventDefault(); // keep the page from scrolling
    this.#moveTo(clamp(row, last), clamp(col, last));
    this.#emit('ae-token-select', this.#cellDetail(this.#active));
  }

  // A cell as the events describe it: its query (row) and key (column) tokens and its weight.
  #cellDetail({ row, col }) {
    const weight = this.#data.weights[row * this.#tokens.length + col];
    return { row, col, query: this.#tokens[row], key: this.#tokens[col], weight };
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
    const value = this.#data.weights[row * this.#tokens.length + col].toFixed(4);
    this.#say(
      format(this.#strings.cell, { q: this.#tokens[row], k: this.#tokens[col], row: row + 1, col: col + 1, value }),
    );
  }

  // The cell another panel points at (the highlight property), while it is inside the grid.
  #showHighlight() {
    const mark = this.#grid?.highlight;
    if (!mark) return;
    const h = this.#highlight;
    const on = Boolean(h && h.row >= 0 && h.col >= 0 && h.row < this.#tokens.length && h.col < this.#tokens.length);
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
