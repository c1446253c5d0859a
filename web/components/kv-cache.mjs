// <ae-kv-cache>: panel 10, "KV cache and generation". The decoder (coref-decoder) completes an
// editable prompt one word at a time; Step / Play / Reset reveal the greedy steps that
// TrainedModel.generateSteps computed, with the cache (each step computes only its new rows)
// and without (each step re-runs the whole forward pass). For the chosen layer and head the
// panel draws the K and V cache row by row (reused rows vs the rows new in this step, labelled
// with their tokens) and the new token's attention over every cached position, and it
// compares the work of both ways: multiply-adds counted by the core per step, and the time
// of the whole generation measured here (generateCached vs generate, median of timed batches).
// Nothing is computed in JS but sums of the core's counts and the median of the timings.
// The model loads when the panel comes near the viewport or on the first interaction.
// Shown numbers are mirrored in data-* attributes (String(value)) for the tests.
//   element.playMs = milliseconds between steps while playing (default 900)
// Reads the shared store: lang, and model: a model opened from disk runs here while it is the
// page's model (lib/panel-model.mjs), its next-token probabilities under each step.
// The link keeps the prompt (kvcache.prompt, ≤ 200 characters) and the head shown
// (kvcache.layer, kvcache.head, 1-based; left out while it is the default head), not the
// generation's progress; see panel-controls.mjs.
import { define } from '../lib/define.mjs';
import { modelNote, modelOutdated, panelModelName } from '../lib/panel-model.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { headControl } from '../lib/panel-controls.mjs';
import { percent } from '../lib/panel-strings.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import strings from '../strings/kv-cache.mjs';
import { failure, failureText, rawMessages } from '../lib/error-text.mjs';
import { dataTable, el, svgNode as svg } from '../lib/dom.mjs';
import { spread } from '../lib/stats.mjs';
import { DECODER_SENTENCE, adjectiveOf, partnerOf } from '../lib/lesson.mjs';
import { bar, drawCacheGrid } from './kv-cache-grid.mjs';
import { nextFrame } from './cost-timing.mjs';
import css from './kv-cache.css.mjs';

const MODEL = 'coref-decoder';
const MAX_NEW = 8; // the lesson completion "it = animal [SEP]" needs 4 steps
const DEFAULT_PROMPT = DECODER_SENTENCE.tired;
// The head shown first: the decoder's coreference head from its config.json (its row at "="
// points at the referent, so the step that writes the answer shows where it was read). A
// decoder trained before that key existed gets layer 2, head 3, which at "=" looked at the
// deciding word (tired / wide) in that model.
const FALLBACK_VIEW = { layer: 1, head: 2 };
const PLAY_MS = 900;
const BATCH_MS = 20; // a timed batch of the faster way lasts at least this long
const BATCHES = 7; // per way; the median and the range are shown

const CONTROLS = 'ae-kv-controls';
const BUTTONS = 'ae-kv-buttons';
const COMPARE = 'ae-kv-compare-box';
const TIMING = 'ae-kv-measure-box';
const headSelect = (kind, key, count) =>
  headControl(kind, count, {
    label: `${kind}Label`,
    optionText: (i, p) => p.t(key, { i: i + 1 }),
    group: CONTROLS,
    field: 'field',
  });
const button = (label, className, press, group = BUTTONS, attrs = {}) => ({
  kind: 'button',
  label,
  className: `chip ${className}`,
  group,
  press,
  attrs,
});

export class KvCache extends LessonPanel {
  static styles = [css];
  static watched = ['lang', 'model', 'result'];
  static strings = strings;
  static stateAttribute = 'status';
  static link = 'kvcache';
  static guidance = ['showMe'];
  // The prompt, its tired ↔ wide swap, the head drawn, the grid without a cache; the stepping
  // and timing buttons.
  static controls = {
    prompt: {
      kind: 'text',
      label: 'promptLabel',
      default: DEFAULT_PROMPT,
      sample: DECODER_SENTENCE.wide,
      group: CONTROLS,
      field: 'field ae-kv-prompt',
    },
    swap: button(
      'swap',
      'ae-kv-swap',
      (p) => p.setValues({ prompt: partnerOf(p.value('prompt')) ?? p.value('prompt') }),
      CONTROLS,
    ),
    layer: headSelect('layer', 'layerN', (p) => p.#model?.config.nLayers),
    head: headSelect('head', 'headN', (p) => p.#model?.config.nHeads),
    step: button('step', 'ae-kv-step', async (p) => {
      p.#stop();
      if (await p.load()) p.#step();
    }),
    play: button(
      (p) => (p.#timer ? 'pause' : 'play'),
      'ae-kv-play',
      async (p) => {
        if (p.#timer) return p.#stop();
        if (!(await p.load())) return;
        if (p.#shown >= p.#steps().length) p.#shown = 0;
        p.#play();
      },
      BUTTONS,
      { 'aria-pressed': 'false' },
    ),
    reset: button('reset', 'ae-kv-reset', (p) => {
      p.#stop();
      p.#shown = 0;
      p.#render();
    }),
    nocache: { kind: 'toggle', label: 'compareLabel', default: false, group: COMPARE, field: 'check ae-kv-compare' },
    measure: button(
      (p) => (p.#measuring ? 'measuring' : 'measure'),
      'ae-kv-measure',
      (p) => p.#measure(),
      TIMING,
    ),
  };

  playMs = PLAY_MS; // time between two steps while playing

  #parts = null;
  #loading = null; // Promise of the model
  #model = null;
  #modelName = MODEL; // the model asked for: MODEL, or the page's opened model
  #cached = null; // generateSteps(prompt, MAX_NEW, true)
  #full = null; // generateSteps(prompt, MAX_NEW, false)
  #shown = 0; // steps revealed
  #status = { key: 'waiting' };
  #error = null; // {key, params}
  #timer = 0;
  #timing = null; // {with, without: {median, min, max, runs}, calls, words} of the current prompt
  #measuring = false;

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#stop();
  }

  storeChanged(full) {
    // The picture needs a name before its first draw too (an empty cache).
    if (full && !this.#parts.grid.childElementCount)
      this.#parts.grid.setAttribute('aria-label', this.t('cacheLabel', { rows: 0, fresh: 0 }));
    if ((this.#model || this.#loading) && modelOutdated(this.store, MODEL, this.#modelName, this.#model))
      return this.#switchModel();
    this.#render();
  }

  // The page's model changed to or from one opened from disk: start again with the other.
  #switchModel() {
    this.#stop();
    this.#model = this.#loading = this.#cached = this.#full = this.#timing = null;
    this.load();
  }

  #percent(p) {
    return percent(p, this.store.get().lang);
  }

  #number(x) {
    return new Intl.NumberFormat(this.locale()).format(x);
  }

  // --- structure ---

  build() {
    const p = this.frame('ae-kv', ['model', 'error', 'status']);
    const { root } = p;
    p.next = el('p', 'ae-kv-next', root);
    p.unknown = el('p', 'ae-kv-unknown', root);
    const textRow = el('p', 'ae-kv-text', root);
    p.textLabel = this.text('span', 'ae-kv-text-label', textRow, () => `${this.t('generatedLabel')}: `);
    p.words = el('span', 'ae-kv-words', textRow);

    const cache = (p.cache = el('figure', 'ae-kv-cache', root));
    p.cacheTitle = el('figcaption', '', cache);
    p.cacheCaption = el('p', 'ae-kv-note', cache);
    cache.append(this.group(COMPARE));
    const legend = el('ul', 'ae-kv-legend', cache);
    this.text('li', 'reused', legend, 'legendReused');
    this.text('li', 'new', legend, 'legendNew');
    p.grid = svg('svg', { class: 'ae-kv-grid', role: 'img' }, cache);
    p.cacheRows = el('p', 'ae-kv-rows', cache);

    const work = this.#section(p, 'section', 'ae-kv-work', 'work');
    this.text('p', 'ae-kv-note', work, 'workCaption');
    const { head, body } = dataTable(el('div', 'ae-kv-table-wrap', work), 'ae-kv-table', { caption: false });
    this.headings(head, ['colStep', 'colWith', 'colWithout']);
    p.tbody = body;
    p.tfoot = el('tfoot', '', body.parentNode);
    p.saving = el('p', 'ae-kv-saving', work);

    const time = this.#section(p, 'section', 'ae-kv-time', 'time');
    time.append(this.group(TIMING));
    p.timeResult = el('p', 'ae-kv-time-result', time, { 'aria-live': 'polite' });
    p.timeBars = el('div', 'ae-kv-time-bars', time);
    this.text('p', '', this.#section(p, 'aside', 'ae-kv-causal', 'causal'), 'causal');
    this.mount(root);
    this.#parts = p;
    this.setState('waiting');
  }

  // A <tag class=cls> in the panel, named by its <h3> (the string `${name}Title`).
  #section(p, tag, cls, name) {
    const section = el(tag, cls, p.root, { 'aria-labelledby': `${p.id}-${name}` });
    this.text('h3', '', section, `${name}Title`, { id: `${p.id}-${name}` });
    return section;
  }

  // --- guidance (LessonPanel): Show me and Reset ---

  // The decoder's own coreference head (config.json, chosen by training) on the lesson prompt.
  showMe() {
    const head = this.#model && coreferenceHead(this.#model.config);
    return head && { controls: { prompt: DEFAULT_PROMPT, ...head }, reveal: this.#parts.cache };
  }

  openingHead() {
    return this.#model && coreferenceHead(this.#model.config, FALLBACK_VIEW);
  }

  // A new prompt is generated again; the head and the grid's run are only drawn again.
  controlsChanged(names) {
    if (!names.includes('prompt')) return this.#render();
    this.#stop();
    this.#timing = null;
    if (this.#model) this.#generate();
    else this.load();
  }

  // --- model and generation ---

  // Resolves to true once the model is here and the prompt has been generated.
  async load() {
    if (this.#model) return true;
    if (!this.#loading) {
      this.#status = { key: 'loading' };
      this.setState('loading');
      this.#render();
      this.#modelName = panelModelName(this.store, MODEL);
      this.#loading = this.trainedModel(this.#modelName);
    }
    const loading = this.#loading;
    try {
      const model = await loading;
      if (loading !== this.#loading) return false; // the page's model changed meanwhile
      if (!this.#model) {
        this.#model = model;
        this.refreshControls(); // the layer and head counts, the opening head
        this.#generate();
      }
      return true;
    } catch (error) {
      if (loading !== this.#loading) return false;
      this.#loading = null; // the next interaction retries
      this.#status = null;
      this.#error = failure('modelError', error);
      this.setState('error');
      this.#render();
      return false;
    }
  }

  #generate() {
    this.#shown = 0;
    this.#error = null;
    this.#status = null;
    try {
      this.#cached = this.#model.generateSteps(this.value('prompt'), MAX_NEW, true);
      this.#full = this.#model.generateSteps(this.value('prompt'), MAX_NEW, false);
      this.setState('ready');
    } catch (error) {
      this.#cached = this.#full = null;
      this.#error = failure('error', error);
      this.setState('error');
    }
    this.#render();
  }

  #steps() {
    return this.#cached?.steps ?? [];
  }

  #step() {
    if (this.#shown >= this.#steps().length) return false;
    this.#shown += 1;
    this.#render();
    return this.#shown < this.#steps().length;
  }

  #play() {
    const tick = () => {
      if (!this.#step()) this.#stop();
    };
    // The timer first: the first tick renders, and the render names the button by it (Pause).
    this.#timer = setInterval(tick, this.playMs);
    this.control('play').node.setAttribute('aria-pressed', 'true');
    this.control('play').node.textContent = this.t('pause');
    tick();
  }

  #stop() {
    clearInterval(this.#timer);
    this.#timer = 0;
    if (this.#parts) {
      this.control('play').node.setAttribute('aria-pressed', 'false');
      this.control('play').node.textContent = this.t('play');
    }
  }

  // --- drawing ---

  #render() {
    const p = this.#parts;
    if (!p) return;
    const c = (name) => this.control(name).node;
    c('play').textContent = this.t(this.#timer ? 'pause' : 'play');
    c('measure').textContent = this.t(this.#measuring ? 'measuring' : 'measure');
    p.modelLine.textContent = modelNote(this.store, this.#modelName, this.#model);
    p.error.textContent = this.#error ? failureText(this.#error, strings, this.store.get().lang) : '';
    p.error.title = rawMessages([this.#error]);
    const g = this.#cached;
    const ready = Boolean(g) && !this.#error;
    // Before the model is here the buttons load it; afterwards they need a generation.
    const usable = ready || this.#model === null;
    c('step').disabled = !usable || (ready && this.#shown >= g.steps.length);
    c('play').disabled = !usable || (ready && g.steps.length === 0);
    c('reset').disabled = !usable;
    c('measure').disabled = !ready || this.#measuring;
    c('swap').hidden = !adjectiveOf(this.value('prompt'));

    const step = ready && this.#shown > 0 ? g.steps[this.#shown - 1] : null;
    this.#renderStatus(g, step, ready);
    this.#renderText(g, ready);
    // The grid shows the same step of either run; without a cache, every row is new.
    const withoutCache = this.value('nocache');
    const source = withoutCache && ready ? this.#full : g;
    this.#renderCache(source, ready && this.#shown > 0 ? source.steps[this.#shown - 1] : null);
    this.#renderWork(ready);
    this.#renderTime(ready);
    Object.assign(this.dataset, {
      step: String(this.#shown),
      steps: String(ready ? g.steps.length : 0),
      cacheRows: String(step ? step.cacheRows : 0),
      mode: withoutCache ? 'full' : 'cache',
      prompt: this.value('prompt'),
      layer: String(this.value('layer') ?? FALLBACK_VIEW.layer),
      head: String(this.value('head') ?? FALLBACK_VIEW.head),
    });
  }

  #renderStatus(g, step, ready) {
    const p = this.#parts;
    let message = '';
    if (this.#status) message = this.t(this.#status.key);
    else if (ready && g.steps.length === 0) message = this.t('noSteps', { max: this.#model.config.maxLen });
    else if (ready && !step) message = this.t('ready', { n: g.promptLength });
    else if (step) {
      message = this.t(step.end ? 'endStatus' : 'stepStatus', {
        k: this.#shown,
        total: g.steps.length,
        p: step.position + 1,
        token: step.inputToken,
        next: step.token,
        prob: this.#percent(step.probability),
      });
      if (this.#shown === g.steps.length) message += this.t('doneStatus');
    }
    p.status.textContent = message;
    // The next-token probabilities the step chose from (the core's softmax, most probable first).
    const top = step?.top ?? [];
    p.next.hidden = top.length === 0;
    p.next.textContent = top.length
      ? this.t('nextTokens', {
          list: top.map((w) => `“${w.token}” ${this.#percent(w.probability)}`).join(' · '),
        })
      : '';
    this.dataset.next = JSON.stringify(top.map((w) => w.token));
    const unknown = ready ? g.unknown.map((i) => g.tokens[i]) : [];
    p.unknown.hidden = unknown.length === 0;
    p.unknown.textContent = unknown.length ? this.t('unknown', { words: unknown.join(', ') }) : '';
  }

  // The prompt's tokens, then the words generated so far (marked).
  #renderText(g, ready) {
    const p = this.#parts;
    p.textLabel.parentNode.hidden = !ready;
    if (!ready) {
      this.dataset.generated = '[]';
      return;
    }
    const generated = g.tokens.slice(
      g.promptLength,
      g.promptLength + Math.min(this.#shown, g.tokens.length - g.promptLength),
    );
    const nodes = [document.createTextNode(g.tokens.slice(0, g.promptLength).join(' '))];
    for (const w of generated) {
      nodes.push(' ');
      nodes.push(Object.assign(document.createElement('mark'), { className: 'ae-kv-new-word', textContent: w }));
    }
    p.words.replaceChildren(...nodes);
    this.dataset.generated = JSON.stringify(generated);
  }

  // One row per cached position: token, position, K and V of the chosen head, attention bar.
  // Positions on screen count from 1, as in the other panels; data-position is the 0-based index.
  #renderCache(g, step) {
    const p = this.#parts;
    const { layer = FALLBACK_VIEW.layer, head = FALLBACK_VIEW.head } = this.values(); // until the model is here
    const lang = this.store.get().lang;
    p.cacheTitle.textContent = this.t('cacheTitle', { layer: layer + 1, head: head + 1 });
    const dh = g?.headDim ?? 8;
    p.cacheCaption.textContent = this.t('cacheCaption', { dh });
    const grid = p.grid;
    grid.replaceChildren();
    if (!step) {
      grid.setAttribute('viewBox', '0 0 10 10');
      grid.setAttribute('hidden', ''); // an attribute: SVG elements have no .hidden property
      p.cacheRows.textContent = g && !this.#error ? this.t('emptyCache') : '';
      return;
    }
    grid.removeAttribute('hidden');
    const rows = step.position + 1;
    const fresh = step.rowsNew;
    drawCacheGrid(grid, { generation: g, step, layer, head, dh, lang, t: (key, params) => this.t(key, params) });
    p.cacheRows.textContent = g.cached
      ? this.t('cacheRows', { rows, last: rows, reused: step.rowsReused, fresh })
      : this.t('noCacheRows', { rows, last: rows });
  }

  // Multiply-adds per revealed step, both ways, as numbers and bars on one scale.
  #renderWork(ready) {
    const p = this.#parts;
    p.tbody.replaceChildren();
    p.tfoot.replaceChildren();
    p.saving.textContent = '';
    if (!ready || this.#shown === 0) return;
    const withSteps = this.#cached.steps,
      withoutSteps = this.#full.steps;
    const scale = Math.max(...withoutSteps.map((s) => s.work.total)); // all steps: the bars keep their size
    let sumWith = 0,
      sumWithout = 0;
    const cell = (tr, ops, className, label) => {
      const td = document.createElement('td');
      const number = Object.assign(document.createElement('span'), {
        className: 'ops',
        textContent: this.#number(ops),
      });
      td.append(number, bar(ops / scale, className, label));
      tr.append(td);
    };
    for (let k = 0; k < this.#shown; k++) {
      const a = withSteps[k],
        b = withoutSteps[k];
      sumWith += a.work.total;
      sumWithout += b.work.total;
      const tr = document.createElement('tr');
      Object.assign(tr.dataset, {
        step: String(k),
        with: String(a.work.total),
        without: String(b.work.total),
        rowsWith: String(a.rowsNew),
        rowsWithout: String(b.rowsNew),
      });
      if (k === this.#shown - 1) tr.className = 'current';
      const th = Object.assign(document.createElement('th'), {
        scope: 'row',
        textContent: this.t('stepN', { k: k + 1, token: a.inputToken }),
      });
      const rows = Object.assign(document.createElement('span'), {
        className: 'ae-kv-rowcount',
        textContent: this.t('rowsShort', { with: a.rowsNew, without: b.rowsNew }),
        title: this.t('rowsWith', { with: a.rowsNew, without: b.rowsNew }),
      });
      th.append(document.createElement('br'), rows);
      tr.append(th);
      cell(tr, a.work.total, 'with', this.t('barWith', { ops: this.#number(a.work.total) }));
      cell(tr, b.work.total, 'without', this.t('barWithout', { ops: this.#number(b.work.total) }));
      p.tbody.append(tr);
    }
    const tr = document.createElement('tr');
    Object.assign(tr.dataset, { with: String(sumWith), without: String(sumWithout) });
    tr.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: this.t('total') }));
    for (const [ops, className] of [
      [sumWith, 'with'],
      [sumWithout, 'without'],
    ]) {
      const td = Object.assign(document.createElement('td'), {
        className: `sum ${className}`,
        textContent: this.#number(ops),
      });
      tr.append(td);
    }
    p.tfoot.append(tr);
    const x = new Intl.NumberFormat(this.locale(), { maximumFractionDigits: 1 }).format(sumWithout / sumWith);
    p.saving.textContent = this.t('saving', { x });
  }

  #renderTime(ready) {
    const p = this.#parts;
    const t = this.#timing;
    p.timeBars.replaceChildren();
    for (const key of ['msWith', 'msWithout', 'msWithRange', 'msWithoutRange', 'runs']) delete this.dataset[key];
    if (!ready) {
      p.timeResult.textContent = '';
      return;
    }
    if (!t) {
      p.timeResult.textContent = this.#measuring ? this.t('measuring') : this.t('timeIdle');
      return;
    }
    const ms = (x) =>
      new Intl.NumberFormat(this.locale(), { maximumFractionDigits: 3, minimumFractionDigits: 3 }).format(x);
    const spreadText = (s) => this.t('timeSpread', { ms: ms(s.median), min: ms(s.min), max: ms(s.max), runs: s.runs });
    // Overlapping ranges: some runs had the two ways the other way round, so say it is noise.
    const overlap = t.with.max >= t.without.min && t.without.max >= t.with.min;
    p.timeResult.textContent = this.t(overlap ? 'timeResultOverlap' : 'timeResult', {
      calls: t.calls,
      with: spreadText(t.with),
      without: spreadText(t.without),
      words: t.words,
    });
    const scale = Math.max(t.with.median, t.without.median);
    for (const [key, value] of [
      ['colWith', t.with.median],
      ['colWithout', t.without.median],
    ]) {
      const row = document.createElement('div');
      row.className = `ae-kv-time-row ${key === 'colWith' ? 'with' : 'without'}`;
      const label = Object.assign(document.createElement('span'), { className: 'name', textContent: this.t(key) });
      const figure = Object.assign(document.createElement('span'), {
        className: 'ms',
        textContent: this.t('msValue', { ms: ms(value) }),
      });
      row.append(
        label,
        bar(value / scale, key === 'colWith' ? 'with' : 'without', `${this.t(key)}: ${figure.textContent}`),
        figure,
      );
      p.timeBars.append(row);
    }
    Object.assign(this.dataset, {
      msWith: String(t.with.median),
      msWithout: String(t.without.median),
      msWithRange: `${t.with.min} ${t.with.max}`,
      msWithoutRange: `${t.without.min} ${t.without.max}`,
      runs: String(t.with.runs),
    });
  }

  // Times generateCached (with the cache) against generate (full passes) on the current
  // prompt: batches of back-to-back calls of at least BATCH_MS, alternating the two ways,
  // one batch per frame so the page stays responsive; the median batch and the range are shown.
  async #measure() {
    if (this.#measuring || !this.#cached || this.#error) return;
    this.#stop();
    this.#measuring = true;
    this.#timing = null;
    this.#render();
    const model = this.#model,
      prompt = this.value('prompt');
    const ways = { with: () => model.generateCached(prompt, MAX_NEW), without: () => model.generate(prompt, MAX_NEW) };
    try {
      let calls = 1;
      for (;;) {
        // enough calls that even the faster way fills a batch (timer resolution)
        const t0 = performance.now();
        for (let i = 0; i < calls; i++) ways.with();
        if (performance.now() - t0 >= BATCH_MS || calls >= 4096) break;
        calls *= 2;
      }
      const samples = { with: [], without: [] };
      for (let b = 0; b < BATCHES; b++) {
        for (const way of b % 2 ? ['without', 'with'] : ['with', 'without']) {
          await nextFrame();
          const t0 = performance.now();
          for (let i = 0; i < calls; i++) ways[way]();
          samples[way].push((performance.now() - t0) / calls);
        }
      }
      if (prompt === this.value('prompt')) {
        this.#timing = {
          with: spread(samples.with),
          without: spread(samples.without),
          calls,
          words: this.#cached.tokens.length - this.#cached.promptLength,
        };
      }
    } catch (error) {
      this.#error = failure('error', error);
    } finally {
      this.#measuring = false;
      this.#render();
    }
  }
}

define('ae-kv-cache', KvCache);
