// <ae-head-view>: one head as lines (the head view of attention visualizers such as bertviz).
// Tokens stand in two columns, queries on the left and keys on the right; from the selected
// query a line goes to every key, its thickness and opacity the head's weight (row of the n×n
// weights, row-major). Reads the shared store (../lib/store.mjs): result, layer, head, token,
// lang; pointing at or focusing a query token selects it through store.set({token}).
// Every line carries data-weight = the engine's value, as the heatmap's cells do. No math here.
// Keyboard: the query tokens are one tab stop; Up/Down (Home/End) move the selection.
// "All heads" overlay (a toggle button): the lines of every head of the layer at once, one
// colour per head (CSS classes ae-hv-h0…7), with a legend whose entries show one head alone.
// exportSvg() returns a standalone SVG of what is drawn (labels, lines, colours resolved).
//   element.store = another store (default: the page's shared one)
//   element.overlay = true | false; attribute no-overlay hides the toggle (embedded views)
//   attribute link-name="view": the overlay switch is kept in the link (?view.overlay=1)
//   element.data = AttentionData / attribute src="file.json": your own attention instead of the
//     page's run (../lib/attention-source.mjs, docs/own-attention.md); cross-attention draws the
//     query tokens on the left and the key tokens on the right
import { define } from '../lib/define.mjs';
import { format, messages } from '../i18n.mjs';
import { readControl, writeControl } from '../lib/panel-controls.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { AttentionSource } from '../lib/attention-source.mjs';
import { selectedToken } from '../lib/default-token.mjs';
import { exportSvgRoot, pageColours, svgNode } from '../lib/export.mjs';
import { rowKey } from '../lib/dom.mjs';
import css from './head-view.css.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_STROKE = 8; // px at weight 1
const COLOURS = 8; // distinct overlay colours (style.css: --ae-hv-c0…7); more heads reuse them
const SPREAD = 0.5; // overlay: the heads' line ends share this fraction of a row, side by side

export class HeadView extends AttentionSource(LessonPanel) {
  static styles = [css];
  static watched = ['result', 'layer', 'head', 'token', 'lang'];

  #parts = null;
  #tokens = ''; // JSON of the rendered tokens
  #queries = []; // buttons
  #keys = []; // spans
  #lines = []; // SVG lines, one per key
  #overlay = false;
  #overlayLines = []; // [head][key], only while the overlay is on
  #overlayShape = ''; // tokens and head count of the overlay lines

  storeChanged(full) {
    if (!this.store.get().result) this.awaitRun(); // alone on a page: the lesson's run
    this.#draw(full);
  }

  get overlay() {
    return this.#overlay;
  }

  set overlay(on) {
    this.#overlay = Boolean(on);
    const link = this.#linkName();
    if (link) writeControl(this.store, link, 'overlay', this.#overlay ? 1 : null);
    if (this.#parts) this.#draw(true);
  }

  #linkName() {
    return this.hasAttribute('no-overlay') ? null : this.getAttribute('link-name');
  }

  build() {
    const root = document.createElement('div');
    root.className = 'ae-hv';
    const caption = document.createElement('p');
    caption.className = 'ae-hv-caption';
    const bar = document.createElement('div');
    bar.className = 'ae-hv-bar';
    const toggle = document.createElement('button');
    Object.assign(toggle, { type: 'button', className: 'chip ae-hv-toggle' });
    toggle.hidden = this.hasAttribute('no-overlay');
    const legend = document.createElement('div');
    legend.className = 'ae-hv-legend';
    legend.setAttribute('role', 'group');
    legend.hidden = true;
    bar.append(toggle, legend);
    const board = document.createElement('div');
    board.className = 'ae-hv-board';
    const queries = document.createElement('div');
    queries.className = 'ae-hv-col ae-hv-queries';
    queries.setAttribute('role', 'group');
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'ae-hv-lines');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('preserveAspectRatio', 'none');
    const keys = document.createElement('div');
    keys.className = 'ae-hv-col ae-hv-keys';
    keys.setAttribute('aria-hidden', 'true'); // the readout names the strongest key; the heatmap has every value
    board.append(queries, svg, keys);
    const readout = document.createElement('p');
    readout.className = 'ae-hv-readout';
    readout.setAttribute('aria-live', 'polite');
    root.append(caption, bar, board, readout);
    this.mount(root);
    toggle.addEventListener('click', () => {
      this.overlay = !this.#overlay;
    });
    legend.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-head]');
      if (!button) return;
      this.store.set({ head: Number(button.dataset.head) });
      this.overlay = false;
      toggle.focus();
    });

    const pick = (e) => {
      const button = e.target.closest('button.ae-hv-token');
      if (button) this.store.set({ token: Number(button.dataset.index) });
    };
    queries.addEventListener('pointerover', pick);
    queries.addEventListener('focusin', pick);
    queries.addEventListener('click', pick);
    queries.addEventListener('keydown', (e) => this.#onKey(e));
    this.#parts = { caption, board, queries, svg, keys, readout, toggle, legend };
    const link = this.#linkName(); // a link may open the view with every head drawn
    if (link) this.#overlay = readControl(this.store, link, 'overlay') === '1';
  }

  get #strings() {
    return messages[this.store.get().lang]?.headView ?? messages.en.headView;
  }

  // The selected query: the store's, else the shared default (../lib/default-token.mjs).
  #selected(tokens) {
    return selectedToken(tokens, this.store.get().token);
  }

  #draw(relabel = false) {
    const { result, layer, head } = this.store.get();
    const weightsOfHead = result?.layers[layer]?.selfAttention.heads[head]?.weights;
    if (!weightsOfHead) return;
    const tokens = [...result.tokens];
    const keyTokens = [...(result.keyTokens ?? tokens)]; // another sequence in cross-attention
    const n = keyTokens.length; // a row's length
    const rows = Math.max(tokens.length, n);
    const s = this.#strings;
    const { queries, svg, keys, board, caption, readout, toggle } = this.#parts;
    const key = JSON.stringify([tokens, keyTokens]);
    if (key !== this.#tokens) {
      this.#tokens = key;
      relabel = true;
      board.style.setProperty('--ae-hv-n', rows); // CSSOM, allowed by the CSP
      svg.setAttribute('viewBox', `0 0 100 ${rows}`);
      this.#queries = tokens.map((token, i) => {
        const button = document.createElement('button');
        Object.assign(button, { type: 'button', className: 'ae-hv-token', tabIndex: -1, textContent: token });
        button.dataset.index = i;
        button.style.gridRow = i + 1; // CSSOM: row i of the board, level with its line
        return button;
      });
      this.#keys = keyTokens.map((token, j) => {
        const span = document.createElement('span');
        Object.assign(span, { className: 'ae-hv-token', textContent: token });
        span.dataset.index = j;
        span.style.gridRow = j + 1;
        return span;
      });
      this.#lines = keyTokens.map((_, j) => this.#line(j, j + 0.5));
      queries.replaceChildren(...this.#queries);
      keys.replaceChildren(...this.#keys);
      svg.replaceChildren(...this.#lines);
      this.#overlayShape = '';
    }
    if (relabel) {
      queries.setAttribute('aria-label', s.queries);
      this.#queries.forEach((b, i) => b.setAttribute('aria-label', format(s.token, { token: tokens[i], i: i + 1 })));
      toggle.textContent = s.allHeads;
    }
    toggle.setAttribute('aria-pressed', String(this.#overlay));

    const from = this.#selected(tokens);
    this.#queries.forEach((b, i) => {
      b.setAttribute('aria-pressed', String(i === from));
      b.tabIndex = i === from ? 0 : -1;
    });
    const heads = result.layers[layer].selfAttention.heads;
    this.#drawOverlay(this.#overlay ? heads : null, keyTokens, from, layer);

    const row = weightsOfHead.subarray(from * n, from * n + n);
    const strongest = argmax(row);
    this.#lines.forEach((line, j) => {
      paintLine(line, from, row[j]);
      line.classList.toggle('strongest', j === strongest);
      line.setAttribute('display', this.#overlay ? 'none' : 'inline');
    });
    this.#keys.forEach((span, j) => span.classList.toggle('strongest', !this.#overlay && j === strongest));
    Object.assign(this.dataset, { from, strongest, layer, head, overlay: this.#overlay ? 'on' : 'off' });
    caption.textContent = this.#overlay
      ? format(s.overlayCaption, { layer: layer + 1, count: heads.length })
      : format(s.caption, { layer: layer + 1, head: head + 1 });
    const text = this.#overlay
      ? format(s.overlayReadout, {
          q: tokens[from],
          list: heads
            .map((h, i) => {
              const r = h.weights.subarray(from * n, from * n + n);
              const k = argmax(r);
              return format(s.overlayItem, { head: i + 1, k: keyTokens[k], value: r[k].toFixed(4) });
            })
            .join('; '),
        })
      : format(s.readout, { q: tokens[from], k: keyTokens[strongest], value: row[strongest].toFixed(4) });
    if (readout.textContent !== text) readout.textContent = text;
  }

  // A line from the left column to the key at height y2 (viewBox: 100 wide, one unit per row).
  #line(to, y2) {
    const line = document.createElementNS(SVG, 'line');
    line.setAttribute('x1', 0);
    line.setAttribute('x2', 100);
    line.setAttribute('y2', y2);
    line.setAttribute('vector-effect', 'non-scaling-stroke');
    line.dataset.to = to;
    return line;
  }

  // The overlay: heads[h]'s lines in colour h, their key ends spread within the row so that
  // lines to the same key stay apart; null removes it. The legend lists the colours.
  #drawOverlay(heads, tokens, from, layer) {
    const { svg, legend } = this.#parts;
    if (!heads) {
      for (const line of this.#overlayLines.flat()) line.remove();
      this.#overlayLines = [];
      this.#overlayShape = '';
      legend.hidden = true;
      return;
    }
    const n = tokens.length;
    const s = this.#strings;
    const shape = `${this.#tokens}|${heads.length}|${layer}|${this.store.get().lang}`;
    if (shape !== this.#overlayShape) {
      for (const line of this.#overlayLines.flat()) line.remove();
      this.#overlayShape = shape;
      const step = heads.length > 1 ? SPREAD / (heads.length - 1) : 0;
      this.#overlayLines = heads.map((_, h) =>
        tokens.map((__, j) => {
          const line = this.#line(j, j + 0.5 + (heads.length > 1 ? h * step - SPREAD / 2 : 0));
          line.classList.add('ae-hv-overlay', `ae-hv-h${h % COLOURS}`);
          line.dataset.head = h;
          return line;
        }),
      );
      svg.append(...this.#overlayLines.flat());
      legend.setAttribute('aria-label', format(s.legend, { layer: layer + 1 }));
      legend.replaceChildren(
        ...heads.map((_, h) => {
          const button = document.createElement('button');
          Object.assign(button, { type: 'button', className: 'ae-hv-legend-item' });
          button.dataset.head = h;
          button.setAttribute('aria-label', format(s.legendHeadLabel, { head: h + 1 }));
          const swatch = document.createElement('span');
          swatch.className = `ae-hv-swatch ae-hv-h${h % COLOURS}`;
          swatch.setAttribute('aria-hidden', 'true');
          button.append(swatch, format(s.legendHead, { head: h + 1 }));
          return button;
        }),
      );
    }
    legend.hidden = false;
    heads.forEach((h, i) => {
      const row = h.weights.subarray(from * n, from * n + n);
      this.#overlayLines[i].forEach((line, j) => paintLine(line, from, row[j]));
    });
  }

  // A standalone SVG of the view as drawn now: query words, key words, the lines with their
  // colours resolved from the page's CSS (light or dark), a caption; no page CSS needed.
  exportSvg() {
    const { result } = this.store.get();
    if (!result || !this.#lines.length) throw new Error('nothing to export yet');
    const c = pageColours(this);
    const [tokens, keyTokens] = JSON.parse(this.#tokens);
    const n = Math.max(tokens.length, keyTokens.length);
    const from = Number(this.dataset.from);
    const rowH = 24,
      labelW = Math.max(60, ...[...tokens, ...keyTokens].map((t) => [...t].length * 8 + 16)),
      linesW = 200,
      top = 32;
    const width = labelW * 2 + linesW,
      height = top + n * rowH + 28;
    const svg = exportSvgRoot(width, height, c);
    svgNode('text', { x: 8, y: 20, fill: c.text, 'font-weight': 700 }, svg, this.#parts.caption.textContent);
    const x0 = labelW,
      x1 = labelW + linesW;
    const y = (i) => top + (i + 0.5) * rowH;
    const g = svgNode('g', { 'stroke-linecap': 'round' }, svg);
    const live = this.#overlay ? this.#overlayLines.flat() : this.#lines;
    for (const line of live) {
      const style = getComputedStyle(line);
      svgNode(
        'line',
        {
          x1: x0,
          y1: y(from),
          x2: x1,
          y2: top + Number(line.getAttribute('y2')) * rowH,
          stroke: style.stroke,
          'stroke-width': line.getAttribute('stroke-width'),
          'stroke-opacity': line.getAttribute('stroke-opacity'),
          'data-to': line.dataset.to,
          'data-weight': line.dataset.weight,
          ...(line.dataset.head ? { 'data-head': line.dataset.head } : {}),
        },
        g,
      );
    }
    const strongest = this.#overlay ? -1 : Number(this.dataset.strongest);
    tokens.forEach((token, i) => {
      svgNode(
        'text',
        {
          x: x0 - 8,
          y: y(i),
          'text-anchor': 'end',
          'dominant-baseline': 'central',
          fill: i === from ? c.accent : c.text,
          'font-weight': i === from ? 700 : 400,
        },
        svg,
        token,
      );
    });
    keyTokens.forEach((token, i) => {
      svgNode(
        'text',
        {
          x: x1 + 8,
          y: y(i),
          'dominant-baseline': 'central',
          fill: i === strongest ? c.marker : c.text,
          'font-weight': i === strongest ? 700 : 400,
        },
        svg,
        token,
      );
    });
    svgNode('text', { x: 8, y: height - 10, fill: c.muted, 'font-size': 12 }, svg, this.#parts.readout.textContent);
    return svg;
  }

  #onKey(e) {
    const button = e.target.closest('button.ae-hv-token');
    const i = button ? rowKey(e.key, Number(button.dataset.index), this.#queries.length - 1) : null;
    if (i === null) return;
    e.preventDefault();
    this.#queries[i].focus(); // focusing selects (focusin)
  }
}

// Thickness and opacity from the weight; the weight itself is kept as data-weight.
function paintLine(line, from, w) {
  line.setAttribute('y1', from + 0.5);
  line.setAttribute('stroke-width', Math.max(0.5, w * MAX_STROKE).toFixed(2));
  line.setAttribute('stroke-opacity', Math.max(0.12, Math.min(1, w)).toFixed(3));
  line.dataset.from = from;
  line.dataset.weight = String(w);
}

// Index of the largest value (the first of equals).
function argmax(values) {
  let best = 0;
  for (let j = 1; j < values.length; j++) if (values[j] > values[best]) best = j;
  return best;
}

define('ae-head-view', HeadView);
