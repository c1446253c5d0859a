// <ae-attention-pattern>: your own attention as coloured tokens, with no model and no neurons
// (the "attention pattern" view of CircuitsVis): choose a query token (point at, focus or click
// it; Left/Right or Home/End move) and every key token is shaded by its weight, 0 = the panel
// colour, 1 = the ramp's end (--ae-heat-0 / --ae-heat-2, light or dark as the host). With
// several layers or heads, a Layer and a Head picker. Self-attention shows one row of tokens,
// the queries also being the keys; cross-attention a row of queries over a row of keys.
//   element.data = AttentionData / attribute src="file.json" (../lib/attention-source.mjs,
//     docs/own-attention.md); bad data: the error in the element and `ae-error`
//   element.store = a store with a model's run instead (as <ae-head-view>), e.g. the page's
// Each key token carries data-weight (the value shown), the host data-layer/head/from (0-based).
import { define } from '../lib/define.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { AttentionSource } from '../lib/attention-source.mjs';
import { selectedToken } from '../lib/default-token.mjs';
import { el, rowKey } from '../lib/dom.mjs';
import strings from '../strings/attention-pattern.mjs';
import css from './attention-pattern.css.mjs';

const INK_FROM = 0.55; // from this weight on, the token's text takes the panel colour (contrast)

// Its layer and head, bound to the element's store (the page's, or its own data's): one option per
// layer or head of the run, named by the data's labels where it has them, hidden while there is
// only one.
const run = (panel) => panel.store.get().result;
const picker = (kind, count, names) => ({
  kind,
  label: kind,
  store: kind,
  follows: ['result', 'layer'],
  count,
  optionText: (i, panel) => run(panel).labels?.[names]?.[i] ?? String(i + 1),
  default: 0,
  group: 'ae-ap-pick',
  hideSingle: true,
});

export class AttentionPattern extends AttentionSource(LessonPanel) {
  static styles = [css];
  static strings = strings;
  static watched = ['result', 'layer', 'head', 'token', 'lang'];
  static controls = {
    layer: picker('layer', (p) => run(p)?.layers?.length, 'layers'),
    head: picker('head', (p) => run(p)?.layers?.[p.store.get().layer]?.selfAttention.heads.length, 'heads'),
  };

  #parts = null;
  #shape = ''; // tokens drawn
  #queries = []; // buttons
  #keys = []; // spans (self-attention: the buttons themselves)

  build() {
    const root = el('div', 'ae-ap');
    this.controlsIn(root, 'ae-ap');
    const queryLabel = el('p', 'ae-ap-label', root);
    const queries = el('div', 'ae-ap-tokens ae-ap-queries', root, { role: 'group' });
    const keyLabel = el('p', 'ae-ap-label', root);
    const keys = el('div', 'ae-ap-tokens ae-ap-keys', root);
    const readout = el('p', 'ae-ap-readout', root, { 'aria-live': 'polite' });
    const choose = (e) => {
      const button = e.target.closest('button.ae-ap-token');
      if (button) this.store.set({ token: Number(button.dataset.index) });
    };
    for (const type of ['pointerover', 'focusin', 'click']) queries.addEventListener(type, choose);
    queries.addEventListener('keydown', (e) => {
      const button = e.target.closest('button.ae-ap-token');
      const to = { ArrowLeft: 'ArrowUp', ArrowRight: 'ArrowDown' }[e.key] ?? e.key;
      const i = button ? rowKey(to, Number(button.dataset.index), this.#queries.length - 1) : null;
      if (i === null) return;
      e.preventDefault();
      this.#queries[i].focus();
    });
    this.#parts = { queryLabel, queries, keyLabel, keys, readout };
    this.mount(root);
  }

  storeChanged() {
    if (!this.store.get().result) this.awaitRun(); // alone on a page: the lesson's run
    this.#draw();
  }

  #draw() {
    const { result, layer: l, head: h, token } = this.store.get();
    const heads = result?.layers?.[l]?.selfAttention.heads;
    if (!heads?.[h]) return;
    const { queryLabel, queries, keyLabel, keys, readout } = this.#parts;
    const tokens = [...result.tokens];
    const keyTokens = [...(result.keyTokens ?? tokens)];
    const cross = Boolean(result.keyTokens) && result.keyTokens !== result.tokens;
    const lang = this.store.get().lang;
    const shape = JSON.stringify([tokens, cross && keyTokens, lang]);
    if (shape !== this.#shape) {
      this.#shape = shape;
      this.#queries = tokens.map((t, i) => {
        const button = el('button', 'ae-ap-token', null, { type: 'button', 'data-index': i }, t);
        button.setAttribute('aria-label', this.t('token', { token: t, i: i + 1 }));
        return button;
      });
      queries.replaceChildren(...this.#queries);
      queries.setAttribute('aria-label', this.t('queries'));
      queryLabel.textContent = this.t('queries');
      this.#keys = cross
        ? keyTokens.map((t, j) => el('span', 'ae-ap-token', null, { 'data-index': j }, t))
        : this.#queries;
      keys.replaceChildren(...(cross ? this.#keys : []));
      keys.hidden = keyLabel.hidden = !cross;
      keyLabel.textContent = this.t('keys');
    }
    const from = selectedToken(tokens, token);
    const k = keyTokens.length;
    const row = heads[h].weights.subarray(from * k, from * k + k);
    let strongest = 0;
    for (let j = 1; j < k; j++) if (row[j] > row[strongest]) strongest = j;
    this.#keys.forEach((node, j) => {
      node.style.setProperty('--w', Math.min(1, Math.max(0, row[j])).toFixed(4)); // CSSOM: allowed by the CSP
      node.dataset.weight = String(row[j]);
      node.classList.toggle('ink', row[j] >= INK_FROM);
      node.classList.toggle('strongest', j === strongest);
    });
    this.#queries.forEach((b, i) => {
      b.setAttribute('aria-pressed', String(i === from));
      b.tabIndex = i === from ? 0 : -1;
    });
    Object.assign(this.dataset, { layer: l, head: h, from, strongest });
    const text = this.t('readout', { q: tokens[from], k: keyTokens[strongest], value: row[strongest].toFixed(4) });
    if (readout.textContent !== text) readout.textContent = text;
  }
}

define('ae-attention-pattern', AttentionPattern);
