// <ae-flip-pair>: the lesson's minimal pair side by side — the sentence ending "too tired."
// and the one ending "too wide." — each drawn as a head view of the same layer and head, so
// the flip of "it"'s strongest line (animal ↔ street) is seen at a glance. Shown (behind a
// toggle) when the page runs a trained model on a sentence of the tired/wide pattern. Both
// sentences are run with TrainedModel.analyzePacked (same causal/scale switches as the page) on the
// page's shared copy of the model (this.trainedModel(store.model)); nothing is computed here.
// Reads the shared store: model, sentence, layer, head, token, causal, scale, lang; choosing
// a word in either view selects it in both (store.set({token})).
// exportSvg(): both views in one standalone SVG.
// Attribute link-name="pair": whether the pair is open is kept in the link (?pair.open=1).
import { define } from '../lib/define.mjs';
import { readControl, writeControl } from '../lib/panel-controls.mjs';
import { createStore } from '../lib/store.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { exportSvgRoot, svgNode, pageColours } from '../lib/export.mjs';
import { percent } from '../lib/panel-strings.mjs';
import { HeadView } from './head-view.mjs';
import './export-buttons.mjs';
import strings from '../strings/flip-pair.mjs';
import { TIRED_OR_WIDE_AT_END, adjectiveOf, withAdjective } from '../lib/lesson.mjs';
import css, { FLIP_VIEW } from './flip-pair.css.mjs';

const UNTRAINED = 'untrained';
const SIDES = ['tired', 'wide'];
const TOP_K = 4;

// The panes are head views with their own stores; a separate tag keeps them apart from the
// page's one <ae-head-view>.
class FlipView extends HeadView {
  static styles = [...HeadView.styles, FLIP_VIEW];
}
define('ae-flip-view', FlipView);

export class FlipPair extends LessonPanel {
  static styles = [css];
  static watched = ['model', 'sentence', 'layer', 'head', 'token', 'causal', 'scale', 'lang'];
  static strings = strings;
  static stateAttribute = 'status';

  #parts = null;
  #open = false;
  #generation = 0;
  #key = ''; // what the panes show: model, sentences and switches
  #panes = null; // {tired: {view, store, title, answer, result}, wide: …}

  build() {
    const toggle = document.createElement('button');
    Object.assign(toggle, { type: 'button', className: 'chip ae-fp-toggle' });
    const body = document.createElement('div');
    body.className = 'ae-fp-body';
    body.id = `ae-fp-${Math.random().toString(36).slice(2, 8)}`;
    body.hidden = true;
    toggle.setAttribute('aria-controls', body.id);
    const howTo = document.createElement('p');
    howTo.className = 'howto';
    const error = document.createElement('div');
    error.className = 'error';
    error.setAttribute('role', 'alert');
    const panes = document.createElement('div');
    panes.className = 'ae-fp-panes';
    const exporter = document.createElement('ae-export-buttons');
    exporter.setAttribute('view', 'flipPair');
    body.append(howTo, error, panes, exporter);
    this.mount(toggle, body);
    const link = this.getAttribute('link-name');
    if (link) this.#open = readControl(this.store, link, 'open') === '1';
    toggle.addEventListener('click', () => {
      this.#open = !this.#open;
      if (link) writeControl(this.store, link, 'open', this.#open ? 1 : null);
      this.storeChanged(true);
    });
    this.#parts = { toggle, body, howTo, error, panes, exporter };
    this.hidden = true;
    if (!this.id) this.id = `${body.id}-pair`;
    exporter.setAttribute('target', this.id);
  }

  // The pair of sentences for the page's sentence, or null when it is not of the pattern.
  static pair(sentence) {
    if (!adjectiveOf(sentence, TIRED_OR_WIDE_AT_END)) return null;
    const as = (word) => withAdjective(sentence, word, TIRED_OR_WIDE_AT_END);
    return { tired: as('tired'), wide: as('wide') };
  }

  storeChanged(relabel) {
    const s = this.store.get();
    const { toggle, body, howTo } = this.#parts;
    const pair = FlipPair.pair(s.sentence);
    const usable = Boolean(pair && s.model && s.model !== UNTRAINED && s.result);
    if (!s.result) this.awaitRun(); // alone on a page: the lesson's run
    this.hidden = !usable;
    this.setState(usable ? (this.#open ? (this.state ?? 'loading') : 'closed') : 'hidden');
    if (relabel) {
      toggle.textContent = this.t('toggle');
      howTo.textContent = this.t('howTo');
    }
    toggle.setAttribute('aria-expanded', String(this.#open));
    body.hidden = !this.#open;
    if (!usable || !this.#open) return;
    this.#show(pair, s, relabel);
  }

  async #show(pair, s, relabel) {
    if (!this.#panes) this.#makePanes();
    const key = JSON.stringify([s.model, pair, s.causal, s.scale]);
    if (key !== this.#key) {
      const generation = ++this.#generation;
      this.setState('loading');
      let results;
      try {
        const model = await this.trainedModel(s.model); // this panel's models-base, else the main view's
        if (generation !== this.#generation) return;
        results = SIDES.map((side) =>
          model.analyzePacked(pair[side], { causal: s.causal, scale: s.scale, topK: TOP_K }),
        );
      } catch (e) {
        if (generation !== this.#generation) return;
        this.#key = '';
        this.setState('error');
        this.#parts.error.textContent = this.t('error', { message: e.message });
        return;
      }
      this.#key = key;
      SIDES.forEach((side, i) => {
        this.#panes[side].result = results[i];
      });
      relabel = true;
    }
    this.#parts.error.textContent = '';
    const current = this.store.get(); // the store may have moved on while the model loaded
    const layers = this.#panes.tired.result.layers;
    const layer = Math.min(current.layer, layers.length - 1);
    const head = Math.min(current.head, layers[layer].selfAttention.heads.length - 1);
    for (const side of SIDES) {
      const pane = this.#panes[side];
      const { prediction } = pane.result;
      pane.store.set({ result: pane.result, layer, head, token: current.token, lang: current.lang });
      pane.title.textContent = this.t(side);
      pane.root.setAttribute('aria-label', this.t('sideLabel', { word: side }));
      pane.answer.textContent = prediction
        ? this.t('answer', { word: prediction.token, p: percent(prediction.probability, current.lang) })
        : '';
      this.dataset[`${side}Prediction`] = prediction?.token ?? '';
    }
    this.setState('ready');
    if (relabel) this.#parts.howTo.textContent = this.t('howTo');
  }

  #makePanes() {
    this.#panes = {};
    for (const side of SIDES) {
      const root = document.createElement('section');
      root.className = 'ae-fp-pane';
      root.dataset.side = side;
      const title = document.createElement('p');
      title.className = 'ae-fp-title';
      const answer = document.createElement('p');
      answer.className = 'ae-fp-answer';
      const store = createStore({ result: null, layer: 0, head: 0, token: null, lang: this.store.get().lang });
      const view = new FlipView();
      view.setAttribute('no-overlay', '');
      view.store = store;
      // A word chosen in either pane is chosen in both, and in the page's head view.
      store.subscribe((state, changed) => {
        if (changed.has('token') && state.token !== this.store.get().token) this.store.set({ token: state.token });
      });
      root.append(title, answer, view);
      this.#parts.panes.append(root);
      this.#panes[side] = { root, title, answer, store, view, result: null };
    }
  }

  // Both panes in one standalone SVG, side by side, each under its sentence's ending.
  exportSvg() {
    if (!this.#panes || this.state !== 'ready') throw new Error('open the side-by-side view first');
    const parts = SIDES.map((side) => this.#panes[side].view.exportSvg());
    const c = pageColours(this);
    const gap = 24,
      top = 28;
    const widths = parts.map((p) => Number(p.getAttribute('width')));
    const width = widths[0] + gap + widths[1];
    const height = top + Math.max(...parts.map((p) => Number(p.getAttribute('height'))));
    const svg = exportSvgRoot(width, height, c);
    let x = 0;
    SIDES.forEach((side, i) => {
      const pane = this.#panes[side];
      svgNode(
        'text',
        { x: x + 8, y: 18, fill: c.text, 'font-weight': 700 },
        svg,
        `${pane.title.textContent} ${pane.answer.textContent}`,
      );
      const inner = parts[i];
      inner.setAttribute('x', x);
      inner.setAttribute('y', top);
      inner.dataset.side = side;
      svg.append(inner);
      x += widths[i] + gap;
    });
    return svg;
  }
}

define('ae-flip-pair', FlipPair);
