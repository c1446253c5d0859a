// <ae-head-view>: one head as lines (the head view of attention visualizers such as bertviz).
// Tokens stand in two columns, queries on the left and keys on the right; from the selected
// query a line goes to every key, its thickness and opacity the head's weight (row of the n×n
// weights, row-major). Reads the shared store (../lib/store.mjs): result, layer, head, token,
// lang; pointing at or focusing a query token selects it through store.set({token}).
// Every line carries data-weight = the engine's value, as the heatmap's cells do. No math here.
// Keyboard: the query tokens are one tab stop; Up/Down (Home/End) move the selection.
//   element.store = another store (default: the page's shared one)
import { format, messages } from '../i18n.mjs';
import { StoreElement } from '../lib/store-element.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_STROKE = 8; // px at weight 1
const DEFAULT_QUERY = 'it'; // the lesson's question: what does "it" refer to?

export class HeadView extends StoreElement {
  static watched = ['result', 'layer', 'head', 'token', 'lang'];

  #parts = null;
  #tokens = ''; // JSON of the rendered tokens
  #queries = []; // buttons
  #keys = []; // spans
  #lines = []; // SVG lines, one per key

  connectedCallback() {
    if (!this.#parts) this.#build();
    super.connectedCallback();
  }

  storeChanged(full) {
    this.#draw(full);
  }

  #build() {
    const root = document.createElement('div');
    root.className = 'ae-hv';
    const caption = document.createElement('p');
    caption.className = 'ae-hv-caption';
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
    root.append(caption, board, readout);
    this.replaceChildren(root);

    const pick = (e) => {
      const button = e.target.closest('button.ae-hv-token');
      if (button) this.store.set({ token: Number(button.dataset.index) });
    };
    queries.addEventListener('pointerover', pick);
    queries.addEventListener('focusin', pick);
    queries.addEventListener('click', pick);
    queries.addEventListener('keydown', (e) => this.#onKey(e));
    this.#parts = { caption, board, queries, svg, keys, readout };
  }

  get #strings() {
    return messages[this.store.get().lang]?.headView ?? messages.en.headView;
  }

  // The selected query: the store's, else the first "it", else the first token.
  #selected(tokens) {
    const { token } = this.store.get();
    if (Number.isInteger(token) && token >= 0 && token < tokens.length) return token;
    const it = tokens.findIndex((t) => t.toLowerCase() === DEFAULT_QUERY);
    return it >= 0 ? it : 0;
  }

  #draw(relabel = false) {
    const { result, layer, head } = this.store.get();
    const weightsOfHead = result?.layers[layer]?.selfAttention.heads[head]?.weights;
    if (!weightsOfHead) return;
    const tokens = [...result.tokens];
    const n = tokens.length;
    const s = this.#strings;
    const { queries, svg, keys, board, caption, readout } = this.#parts;
    const key = JSON.stringify(tokens);
    if (key !== this.#tokens) {
      this.#tokens = key;
      relabel = true;
      board.style.setProperty('--ae-hv-n', n); // CSSOM, allowed by the CSP
      svg.setAttribute('viewBox', `0 0 100 ${n}`);
      this.#queries = tokens.map((token, i) => {
        const button = document.createElement('button');
        Object.assign(button, { type: 'button', className: 'ae-hv-token', tabIndex: -1, textContent: token });
        button.dataset.index = i;
        button.style.gridRow = i + 1; // CSSOM: row i of the board, level with its line
        return button;
      });
      this.#keys = tokens.map((token, j) => {
        const span = document.createElement('span');
        Object.assign(span, { className: 'ae-hv-token', textContent: token });
        span.dataset.index = j;
        span.style.gridRow = j + 1;
        return span;
      });
      this.#lines = tokens.map((_, j) => {
        const line = document.createElementNS(SVG, 'line');
        line.setAttribute('x1', 0);
        line.setAttribute('x2', 100);
        line.setAttribute('y2', j + 0.5);
        line.setAttribute('vector-effect', 'non-scaling-stroke');
        line.dataset.to = j;
        return line;
      });
      queries.replaceChildren(...this.#queries);
      keys.replaceChildren(...this.#keys);
      svg.replaceChildren(...this.#lines);
    }
    if (relabel) {
      queries.setAttribute('aria-label', s.queries);
      this.#queries.forEach((b, i) => b.setAttribute('aria-label', format(s.token, { token: tokens[i], i: i + 1 })));
    }

    const from = this.#selected(tokens);
    const row = weightsOfHead.subarray(from * n, from * n + n);
    let strongest = 0;
    this.#lines.forEach((line, j) => {
      const w = row[j];
      if (w > row[strongest]) strongest = j;
      line.setAttribute('y1', from + 0.5);
      line.setAttribute('stroke-width', Math.max(0.5, w * MAX_STROKE).toFixed(2));
      line.setAttribute('stroke-opacity', Math.max(0.12, Math.min(1, w)).toFixed(3));
      line.dataset.from = from;
      line.dataset.weight = String(w);
    });
    this.#queries.forEach((b, i) => {
      b.setAttribute('aria-pressed', String(i === from));
      b.tabIndex = i === from ? 0 : -1;
    });
    this.#keys.forEach((span, j) => span.classList.toggle('strongest', j === strongest));
    this.#lines.forEach((line, j) => line.classList.toggle('strongest', j === strongest));
    Object.assign(this.dataset, { from, strongest, layer, head });
    caption.textContent = format(s.caption, { layer: layer + 1, head: head + 1 });
    const text = format(s.readout, { q: tokens[from], k: tokens[strongest], value: row[strongest].toFixed(4) });
    if (readout.textContent !== text) readout.textContent = text;
  }

  #onKey(e) {
    const button = e.target.closest('button.ae-hv-token');
    if (!button) return;
    const last = this.#queries.length - 1;
    let i = Number(button.dataset.index);
    const moves = { ArrowUp: () => i--, ArrowDown: () => i++, Home: () => { i = 0; }, End: () => { i = last; } };
    if (!moves[e.key]) return;
    moves[e.key]();
    e.preventDefault();
    this.#queries[Math.min(last, Math.max(0, i))].focus(); // focusing selects (focusin)
  }
}

customElements.define('ae-head-view', HeadView);
