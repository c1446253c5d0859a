// <ae-head-grid>: the model overview, one thumbnail per layer × head of the current run.
// Reads the shared store (../lib/store.mjs): result, layer, head, lang; a click, Enter or Space
// on a thumbnail focuses that head through store.set({layer, head}). Thumbnails are drawn
// from the run's own weights (n×n, row-major); nothing is computed here.
// Keyboard: one tab stop (roving tabindex); arrow keys move within the grid, Home/End jump.
//   element.store = another store (default: the page's shared one)
//   element.data = AttentionData / attribute src="file.json": your own attention instead of the
//     page's run (../lib/attention-source.mjs, docs/own-attention.md); thumbnails q×k
//   reveal="id": after a choice, scroll the element with that id (the view the choice changes)
//     into sight if it is not fully visible — instantly under prefers-reduced-motion
import { define } from '../lib/define.mjs';
import { format, messages } from '../i18n.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { AttentionSource } from '../lib/attention-source.mjs';
import { resolvedColour } from '../lib/resolved-colour.mjs';
import css from './head-grid.css.mjs';
import { lessonView, shownCoreferenceHead } from '../lib/guidance.mjs';

const THUMB_PX = 64; // canvas size in device-independent pixels; CSS scales the element

export class HeadGrid extends AttentionSource(LessonPanel) {
  static styles = [css];
  static watched = ['result', 'layer', 'head', 'lang'];

  #shape = ''; // "layers×heads" of the rendered buttons
  #buttons = []; // [layer][head]
  #parts = null;
  #drawn = null; // the result drawn last
  #colourCache = null; // the ramp's ends, read once: getComputedStyle forces a style recalculation
  #scheme = matchMedia('(prefers-color-scheme: dark)');
  #onScheme = () => {
    this.#colourCache = null;
    this.#draw(true);
  };

  connectedCallback() {
    super.connectedCallback();
    this.#scheme.addEventListener('change', this.#onScheme);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#scheme.removeEventListener('change', this.#onScheme);
  }

  storeChanged(full) {
    if (!this.store.get().result) this.awaitRun(); // alone on a page: the lesson's run
    this.#draw(full);
    this.#markNamed();
  }

  // Show me (LessonPanel): the coreference head training chose; the choice shows in `reveal`.
  showMe() {
    return this.ownData ? null : lessonView(this.store);
  }

  // The badge on the head the shown model's config.json names as its coreference head (none for
  // an untrained model), in the thumbnail's caption and its accessible name.
  async #markNamed() {
    const named = await shownCoreferenceHead(this.store);
    const s = this.#strings;
    this.#buttons.forEach((row, l) =>
      row.forEach((button, h) => {
        const on = named?.layer === l && named?.head === h;
        let badge = button.querySelector('.ae-hg-badge');
        if (on && !badge) badge = Object.assign(document.createElement('span'), { className: 'ae-hg-badge' });
        if (on) button.append(badge);
        else badge?.remove();
        if (badge) badge.textContent = s.coreference;
        const thumb = format(s.thumb, { layer: l + 1, head: h + 1 });
        button.setAttribute('aria-label', on ? `${thumb}, ${s.coreference}` : thumb);
        button.toggleAttribute('data-coreference', on);
      }),
    );
  }

  build() {
    const grid = document.createElement('div');
    grid.className = 'ae-hg-grid';
    grid.setAttribute('role', 'group');
    grid.addEventListener('click', (e) => {
      const button = e.target.closest('button.ae-hg-thumb');
      if (button) this.#select(Number(button.dataset.layer), Number(button.dataset.head), button);
    });
    grid.addEventListener('keydown', (e) => this.#onKey(e));
    const probe = document.createElement('span'); // resolves the ramp's colours (#colours)
    probe.hidden = true;
    this.mount(grid, probe);
    this.addGuidance(grid);
    this.#parts = { grid, probe };
  }

  get #strings() {
    return messages[this.store.get().lang]?.headGrid ?? messages.en.headGrid;
  }

  // Rebuilds the buttons when the model's shape changes, redraws thumbnails when the run
  // changes, and always moves the pressed state to the focused head.
  #draw(relabel = false) {
    const { result, layer, head } = this.store.get();
    const { grid } = this.#parts;
    const nLayers = result?.layers.length ?? 0;
    // An opened model's run traces only the layer on view (null elsewhere): its other rows stay
    // blank until chosen, which traces that layer (app.mjs, tracedLayers).
    const nHeads = result?.layers.find(Boolean)?.selfAttention.heads.length ?? 0;
    const shape = `${nLayers}×${nHeads}`;
    if (shape !== this.#shape) {
      this.#shape = shape;
      this.#drawn = null;
      relabel = true;
      grid.replaceChildren();
      this.#buttons = Array.from({ length: nLayers }, (_, l) => {
        const row = document.createElement('div');
        row.className = 'ae-hg-row';
        const label = document.createElement('span');
        label.className = 'ae-hg-layer';
        label.setAttribute('aria-hidden', 'true');
        row.append(label);
        grid.append(row);
        return Array.from({ length: nHeads }, (_, h) => {
          const button = document.createElement('button');
          Object.assign(button, { type: 'button', className: 'ae-hg-thumb', tabIndex: -1 });
          Object.assign(button.dataset, { layer: l, head: h });
          const canvas = document.createElement('canvas');
          canvas.setAttribute('aria-hidden', 'true');
          const caption = document.createElement('span');
          caption.className = 'ae-hg-head';
          caption.setAttribute('aria-hidden', 'true');
          button.append(canvas, caption);
          row.append(button);
          return button;
        });
      });
    }
    if (relabel) {
      const s = this.#strings;
      grid.setAttribute('aria-label', s.label);
      this.#buttons.forEach((row, l) => {
        row[0]?.parentNode.querySelector('.ae-hg-layer').replaceChildren(format(s.layer, { i: l + 1 }));
        row.forEach((button, h) => {
          button.setAttribute('aria-label', format(s.thumb, { layer: l + 1, head: h + 1 }));
          button.querySelector('.ae-hg-head').textContent = format(s.head, { i: h + 1 });
        });
      });
    }
    if (result && (result !== this.#drawn || relabel)) {
      this.#drawn = result;
      const colours = this.#colours();
      this.#buttons.forEach((row, l) =>
        row.forEach((button, h) => {
          const traced = result.layers[l];
          button.dataset.traced = String(Boolean(traced));
          const k = result.keyTokens?.length ?? result.n; // cross-attention: q×k
          if (traced) paint(button.firstChild, result.n, k, traced.selfAttention.heads[h].weights, colours);
          else button.firstChild.getContext('2d')?.clearRect(0, 0, button.firstChild.width, button.firstChild.height);
        }),
      );
    }
    const focused = this.#buttons[layer]?.[head] ?? this.#buttons[0]?.[0];
    for (const button of this.#buttons.flat()) {
      const on = button === focused;
      button.setAttribute('aria-pressed', String(on));
      button.tabIndex = on ? 0 : -1;
    }
    this.dataset.shape = shape;
  }

  // Read on the first draw and again when the colour scheme changes, as the heatmap's ramp is:
  // reading them on every run cost a style recalculation of the page per swap.
  #colours() {
    if (this.#colourCache) return this.#colourCache;
    // Resolved in the shadow root (SHARED's --heat-0/2: --ae-heat-* or the host's light or dark).
    const probe = this.#parts.probe;
    const colours = {
      low: resolvedColour(probe, 'var(--heat-0)') || '#ffffff',
      high: resolvedColour(probe, 'var(--heat-2)') || '#0b2a5b',
    };
    if (this.isConnected) this.#colourCache = colours; // unstyled outside the document: read again
    return colours;
  }

  #select(layer, head, button) {
    this.store.set({ layer, head });
    button?.focus();
    this.#reveal();
  }

  // The chosen head shows in another element, usually above and out of sight: bring it in.
  // Focus stays on the thumbnail, so the keyboard can go on choosing.
  #reveal() {
    const target = document.getElementById(this.getAttribute('reveal') ?? '');
    if (!target) return;
    const box = target.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= innerHeight) return; // already in sight: don't move the page
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ block: 'start', behavior: still ? 'instant' : 'smooth' });
  }

  #onKey(e) {
    const button = e.target.closest('button.ae-hg-thumb');
    if (!button) return;
    const rows = this.#buttons.length,
      cols = this.#buttons[0]?.length ?? 0;
    let l = Number(button.dataset.layer),
      h = Number(button.dataset.head);
    const moves = {
      ArrowUp: () => l--,
      ArrowDown: () => l++,
      ArrowLeft: () => h--,
      ArrowRight: () => h++,
      Home: () => {
        h = 0;
        if (e.ctrlKey) l = 0;
      },
      End: () => {
        h = cols - 1;
        if (e.ctrlKey) l = rows - 1;
      },
    };
    if (!moves[e.key]) return;
    moves[e.key]();
    e.preventDefault();
    l = Math.min(rows - 1, Math.max(0, l));
    h = Math.min(cols - 1, Math.max(0, h));
    const next = this.#buttons[l][h];
    for (const b of this.#buttons.flat()) b.tabIndex = b === next ? 0 : -1;
    next.focus(); // moving only focuses; Enter or Space selects (the button's own click)
  }
}

// One cell per weight (q rows × k columns): the panel colour, then the high end of the ramp at opacity = weight.
function paint(canvas, q, k, weights, { low, high }) {
  const cell = Math.max(1, Math.floor(THUMB_PX / Math.max(q, k)));
  const [width, height] = [cell * k, cell * q];
  if (canvas.width !== width || canvas.height !== height) [canvas.width, canvas.height] = [width, height];
  const ctx = canvas.getContext('2d');
  ctx.globalAlpha = 1;
  ctx.fillStyle = low;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = high;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < k; j++) {
      ctx.globalAlpha = Math.min(1, Math.max(0, weights[i * k + j]));
      ctx.fillRect(j * cell, i * cell, cell, cell);
    }
  }
}

define('ae-head-grid', HeadGrid);
