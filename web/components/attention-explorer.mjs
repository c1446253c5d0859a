// <attention-explorer>: the main view of Attention Explorer as one element — the page
// (web/index.html) is built from it, and other sites embed the same code. A model (trained,
// untrained with its recipe, or opened from disk), a sentence (with the tired ↔ wide swap and
// the model's vocabulary), the causal mask, ÷√d, layer and head; the heatmap, the model's
// answer with the runners-up, unknown words and "did you mean". It runs the model itself (the
// shared context's engine and models, ../lib/context.mjs; the logic without DOM is
// ../lib/main-view.mjs) and keeps the run in its store, which lesson panels share:
//   <attention-explorer model="coref-encoder" layer="3" head="4">
//     <ae-head-view></ae-head-view>           (the default slot: under the heatmap)
//     <section slot="aside">…</section>       (under the controls)
//   </attention-explorer>
// Attributes (and properties): model, sentence, layer and head (1-based, as labelled; by default
// the model's coreference head), causal and no-scale (booleans; properties `causal`, `scale`; by
// default the mask the model was trained with, and ÷√d on), lang ('en' | 'zh'; by default the
// nearest lang="" around it), models-base (this element's models/ directory, by default the
// page's (setModelsBase); a bad one is this element's error only), untrained and open-files
// (booleans: the menu offers random weights, and "Open a model…" for a GPT-2 checkpoint on disk),
// heads, layers, positional and seed (the untrained model's recipe). Without `model` it opens the
// lesson's model in its language and follows the language until a model is chosen. Properties
// only: `store` (get, or set to share one store with panels elsewhere), `shownModel` (the model
// on view), `heatmap`, `view()`; reset() (its "Back to defaults" button) returns to its markup's view.
// Events (CustomEvent, bubbling; named ae-* so that a native `change` from a control an author
// puts inside is never taken for one of them): ae-change (detail: view()) whenever what it
// shows changes; ae-model-load ({model, config}) when a model is on view; ae-error ({key, code,
// message}) when it shows an error; ae-token-hover / ae-token-select from its heatmap
// (./attention-heatmap.mjs). Its state is mirrored as data-* on the element (data-status:
// loading | ready | error, …) for styling and tests.
// Shadow DOM with constructable stylesheets: the host's CSS does not reach inside and its own
// does not leak out; theme with --ae-* custom properties and ::part() (docs/embedding.md).
import { ElementBase, define } from '../lib/define.mjs';
import { format, messages } from '../i18n.mjs';
import { onLocalModel } from '../lib/context.mjs';
import { LESSON_MODELS } from '../lib/lesson.mjs';
import * as mainView from '../lib/main-view.mjs';
import { UNTRAINED } from '../lib/main-view.mjs';
import { MAIN_CONTROLS, attributeOf, controlOfAttribute, controlsOf } from '../lib/main-controls.mjs';
import { locale as localeOf } from '../lib/panel-strings.mjs';
import { mountShadow } from '../lib/panel-styles.mjs';
import { createStore, initialView } from '../lib/store.mjs';
import { unreadLanguage } from '../lib/vocabulary-help.mjs';
import { VocabularyView } from '../lib/vocabulary-view.mjs';
import css from './attention-explorer.css.mjs';
import { IDS, viewTemplate } from './attention-explorer.markup.mjs';
import { StatusLine } from './explorer-status.mjs';
import { ViewControls, controlAttributes, readControl, setAttributes } from './explorer-controls.mjs';
import { drawAnswer } from './explorer-answer.mjs';
import { ExplorerModels } from './explorer-models.mjs';
import { SentenceBox } from './explorer-sentence.mjs';
import { layOut, shareStore } from './explorer-slots.mjs';
import heatmapCss from './attention-heatmap.css.mjs';
import './attention-heatmap.mjs';

export class AttentionExplorer extends ElementBase {
  static observedAttributes = [
    ...Object.keys(MAIN_CONTROLS).map(attributeOf),
    'lang',
    'models-base',
    'untrained',
    'open-files',
  ];

  // model, sentence, layer, head, causal, scale and the recipe (heads, layers, positional, seed):
  // a property per declared control (../lib/main-controls.mjs) that reads what the view shows
  // and sets its attribute.
  static {
    for (const [name, spec] of Object.entries(MAIN_CONTROLS)) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get() {
          // the model: the one chosen, else the markup's, else the lesson's in the element's language
          const model = () => this.#models?.name ?? this.getAttribute('model') ?? LESSON_MODELS[this.#lang()];
          return readControl(name, this.#ui?.[name], this, model);
        },
        set(value) {
          const on = spec.kind === 'switch' && Boolean(value) !== Boolean(spec.inverted);
          this.#reflect(attributeOf(name), spec.kind === 'switch' ? on : String(value));
        },
      });
    }
  }

  #store = createStore({ ...initialView(), model: '', controls: {} });
  #unsubscribe = null;
  #ui = null;
  #root = null; // the shadow root's wrapper (part="root")
  #vocabulary = null; // VocabularyView
  #models = null; // ExplorerModels: the menu and the model chosen, once built
  #offLocal = null;
  #shown = null; // the model on view: a TrainedModel, the RandomModel, or null while one loads
  #shownName = null; // the name of the model last shown
  #runBy = null; // the model that made the store's result
  #controls = null; // ViewControls: the selectors and switches, and what the host set for the next model
  #sentence = null; // SentenceBox: the sentence each model keeps, the swap, the other language's model
  #attempt = null; // {text, causal, scale} of the last run tried
  #line = null; // StatusLine: the status line, the load bar and the error box
  #timer = 0;
  #scheduled = false;
  #reflecting = false; // a property setter is writing its attribute
  #langObserver = null;
  #authored = {}; // {control name: its attribute as the markup set it, or null}: what Reset returns to

  // --- properties ---

  get store() {
    return this.#store;
  }

  // Another store (e.g. the page's shared one, which every panel follows by default): the view
  // carries over, and the panels inside follow the new one too.
  set store(next) {
    if (!next || next === this.#store) return;
    const s = this.#store.get();
    this.#store = next;
    if (this.#runBy) {
      const { model, sentence, layer, head, causal, scale, result, config } = s;
      next.set({ model, sentence, layer, head, causal, scale, result, config });
    }
    if (this.#models?.base) next.set({ modelsBase: this.#models.base.href }); // the panels inside load from it
    if (this.isConnected) this.#subscribe();
    this.#shareStore();
    // The language is the new store's (a host that shares its store sets both).
    if (this.#ui && this.#ui.model.dataset.lang !== this.#lang()) this.#languageChanged();
  }

  get lang() {
    return this.#lang();
  }
  set lang(value) {
    this.setAttribute('lang', String(value));
  }

  get modelsBase() {
    return this.getAttribute('models-base');
  }
  set modelsBase(url) {
    this.setAttribute('models-base', String(url));
  }

  // The model on view (TrainedModel, RandomModel or a model opened from disk: its config,
  // parameterCount, …), or null while one loads. Owned by the element: do not delete it.
  get shownModel() {
    return this.#shown;
  }

  // The <ae-attention-heatmap> it draws (a panel such as <ae-qkv-steps> marks a cell on it).
  get heatmap() {
    return this.#ui?.heatmap ?? null;
  }

  // What is shown: {model, sentence, layer, head (1-based), causal, scale, lang, status
  // ('loading' | 'ready' | 'error'), tokens, prediction}; after an error, no tokens or prediction.
  view() {
    const run = this.#line.error ? null : this.#shownRun();
    const attempt = this.#attempt ?? { text: this.sentence, causal: this.causal, scale: this.scale };
    return {
      model: this.model,
      sentence: attempt.text,
      layer: this.layer,
      head: this.head,
      causal: attempt.causal,
      scale: attempt.scale,
      lang: this.#lang(),
      status: this.dataset.status ?? 'loading',
      tokens: run?.tokens ?? [],
      prediction: run?.prediction ?? null,
    };
  }

  // Back to what the element opened with: the model, sentence, layer, head and switches its
  // markup set, else the defaults (../lib/main-controls.mjs) — the lesson's model in its language,
  // that model's sentence, coreference head and trained mask, ÷√d on, the declared recipe. The
  // attributes return to the markup's too. An ae-change follows, as for any change.
  reset() {
    if (!this.#ui) return;
    this.#reflecting = true;
    try {
      setAttributes(this, this.#authored);
    } finally {
      this.#reflecting = false;
    }
    this.#controls.reset(this.#authored);
    this.#sentence.reset();
    const model = this.#models.resetTo(this.#authored.model);
    if (model === this.#models.name && (this.#shown || model === UNTRAINED))
      this.#use(model === UNTRAINED ? null : this.#shown);
    else this.#models.choose(model);
  }

  // --- lifecycle ---

  connectedCallback() {
    if (!this.#ui) this.#build();
    this.#subscribe();
    this.#followHostLanguage();
    this.#offLocal ??= onLocalModel(({ name, label }) => {
      this.#models.local.set(name, label);
      this.#models.fillMenu();
    });
    // A microtask later: a host that configures the element in the same script (the page
    // applying its link) does so before the first model is chosen.
    queueMicrotask(() => this.#models.start());
  }

  disconnectedCallback() {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#langObserver?.disconnect();
    this.#langObserver = null;
    this.#offLocal?.();
    this.#offLocal = null;
  }

  attributeChangedCallback(name, before, after) {
    if (this.#ui && !this.#reflecting && before !== after) this.#apply(name);
  }

  // A property setter: writes the attribute, then applies it even when it was already there
  // (the reader may have changed the view since).
  #reflect(name, value) {
    this.#reflecting = true;
    try {
      if (typeof value === 'boolean') this.toggleAttribute(name, value);
      else this.setAttribute(name, value);
    } finally {
      this.#reflecting = false;
    }
    if (this.#ui) this.#apply(name);
  }

  #apply(name) {
    const value = this.getAttribute(name);
    switch (name) {
      case 'model':
        this.#models.chosen = true;
        // The model on view again: nothing to do (a model that failed to load is tried again).
        if (value !== null && !(value === this.#models.name && this.#shown)) this.#models.choose(value);
        return;
      case 'models-base':
        if (!this.#models.useBase(value)) return;
        this.#models.started = false;
        this.#models.start();
        return;
      case 'lang':
        return this.#followHostLanguage();
      case 'untrained':
      case 'open-files':
        return this.#models.fillMenu();
      default:
        this.#controls.take(controlOfAttribute(name), value);
    }
    // Applied now to a trained model on view; a model still loading takes it when it shows, the
    // random model at its next run (after its recipe, which may change the selectors' range).
    if (this.#shown && this.#models.name !== UNTRAINED) {
      delete this.#controls.pending.sentence;
      this.#controls.applyPending();
    }
    this.#schedule();
  }

  // --- building ---

  #build() {
    this.#root = mountShadow(this, [css, heatmapCss], [viewTemplate().content.cloneNode(true)]);
    this.#root.classList.add('root');
    const shadow = this.shadowRoot;
    const ui = Object.fromEntries(IDS.map((id) => [id, shadow.getElementById(id)]));
    ui.result = shadow.querySelector('.result');
    ui.slots = [...shadow.querySelectorAll('slot')];
    this.#ui = ui;
    this.#controls = new ViewControls(ui, (k, p) => this.#t(k, p));
    this.#line = new StatusLine(ui, { t: (k, p) => this.#t(k, p), lang: () => this.#lang() });
    this.#models = new ExplorerModels({
      element: this,
      ui,
      line: this.#line,
      lang: () => this.#lang(),
      store: () => this.#store,
      fail: (key, params, cause) => this.#fail(key, params, cause),
      use: (model) => this.#use(model),
      unshow: () => (this.#shown = null),
      leave: () => this.#sentence.leave(this.#shownName),
    });
    this.#sentence = new SentenceBox(ui, {
      t: (k, p) => this.#t(k, p),
      lang: () => this.#lang(),
      models: this.#models,
    });
    this.#authored = controlAttributes(this);
    this.#models.chosen = this.hasAttribute('model');
    if (this.hasAttribute('models-base')) this.#models.useBase(this.getAttribute('models-base'));
    if (this.hasAttribute('sentence')) {
      ui.sentence.value = this.getAttribute('sentence');
      this.#controls.pending.sentence = true;
    } else {
      ui.sentence.value = mainView.sentencePair(null)[0];
    }
    for (const kind of ['index', 'switch', 'recipe'])
      for (const name of controlsOf(kind).map(attributeOf)) if (this.hasAttribute(name)) this.#apply(name);
    this.#vocabulary = new VocabularyView(
      {
        box: ui.vocab,
        summary: ui['vocab-summary'],
        filter: ui['vocab-filter'],
        list: ui['vocab-list'],
        none: ui['vocab-none'],
        suggestions: ui.suggestions,
      },
      { sentence: ui.sentence, edited: () => this.#runNow(), t: (k, p) => this.#t(k, p), locale: () => this.#locale() },
    );
    // With a single-line field (the seed), Enter would submit the form and reload the page.
    ui.controls.addEventListener('submit', (e) => e.preventDefault());
    ui.sentence.addEventListener('input', () => this.#runSoon());
    ui.seed.addEventListener('input', () => this.#runSoon());
    for (const control of [ui.heads, ui.layers, ui.positional, ui.causal, ui.scale])
      control.addEventListener('change', () => this.#runNow());
    ui.model.addEventListener('change', () => {
      this.#models.chosen = true;
      this.#models.choose(ui.model.value);
    });
    ui.swap.addEventListener('click', () => {
      this.#sentence.swap(this.#shown?.config);
      this.#runNow();
    });
    ui['other-model'].addEventListener('click', () => {
      this.#models.chosen = true;
      ui['other-model'].hidden = true;
      this.#models.choose(ui['other-model'].dataset.model);
    });
    for (const select of [ui.layer, ui.head]) select.addEventListener('change', () => this.#showView(true));
    ui.reset.addEventListener('click', () => this.reset());
    for (const slot of ui.slots)
      slot.addEventListener('slotchange', () => {
        this.#shareStore();
        layOut(this.#root, ui.slots);
      });
    this.#line.set('loading');
    this.dataset.status = 'loading';
    this.#translate();
    layOut(this.#root, ui.slots);
  }

  #subscribe() {
    this.#unsubscribe?.();
    this.#unsubscribe = this.#store.subscribe((s, changed) => this.#storeChanged(s, changed));
  }

  // The panels inside share this element's store (./explorer-slots.mjs).
  #shareStore() {
    if (this.#ui) shareStore(this, this.#ui.slots, this.#store);
  }

  // --- language ---

  #lang() {
    return this.#store.get().lang === 'zh' ? 'zh' : 'en';
  }

  #t(key, params) {
    return format(messages[this.#lang()][key], params);
  }

  #locale() {
    return localeOf(this.#lang());
  }

  // lang="" on the element, else the nearest one around it (watched, so that the host can switch).
  #followHostLanguage() {
    const from = this.closest('[lang]');
    const lang = /^zh/i.test(from?.getAttribute('lang') ?? '') ? 'zh' : 'en';
    this.#langObserver?.disconnect();
    this.#langObserver = null;
    if (from && from !== this) {
      this.#langObserver = new MutationObserver(() => this.#followHostLanguage());
      this.#langObserver.observe(from, { attributes: true, attributeFilter: ['lang'] });
    }
    if (lang !== this.#store.get().lang)
      this.#store.set({ lang }); // → #storeChanged
    else if (this.#ui.model.dataset.lang !== lang) this.#languageChanged();
  }

  #languageChanged() {
    this.#ui.model.dataset.lang = this.#lang();
    this.#translate();
    this.#followLanguage();
  }

  #translate() {
    const ui = this.#ui;
    const strings = messages[this.#lang()];
    for (const node of this.shadowRoot.querySelectorAll('[data-t]')) node.textContent = strings[node.dataset.t];
    ui.heatmap.strings = strings.heatmap;
    this.#models.own?.translate();
    this.#models.fillMenu();
    this.#vocabulary.translate();
    this.#sentence.translate(this.#shown?.config);
    if (this.#shown) this.#controls.fillRanges(this.#shown.config);
    this.#line.translate();
    this.#showView();
    this.#showPrediction();
  }

  // The lesson's model follows the language while the view is its default (ExplorerModels).
  #followLanguage() {
    if (this.#shown) this.#models.followLanguage(this.#shown.config, this.#ui.sentence.value);
  }

  // --- the store ---

  #storeChanged(s, changed) {
    if (changed.has('lang')) this.#languageChanged();
    // A panel's Show me may choose another model (web/lib/guidance.mjs): open it as the menu would,
    // at the layer and head it names.
    if (changed.has('model') && s.model && s.model !== this.#models.name && this.#models.offers(s.model)) {
      this.#models.chosen = true;
      Object.assign(this.#controls.pending, { layer: s.layer, head: s.head });
      this.#models.choose(s.model);
      return;
    }
    // Another panel (the head grid, the head view) focused a head: follow it.
    if (!(changed.has('layer') || changed.has('head')) || !this.#shown) return;
    if (this.#controls.select(s.layer, s.head)) this.#showView(true);
  }

  // Shows `model` (a TrainedModel, or null for the random one) with its task's defaults, then
  // what the host set for it.
  #use(model) {
    this.#shown = model ?? this.#models.random;
    if (model) this.#emit('ae-model-load', { model: this.#models.name, config: model.config });
    const previous = this.#shownName;
    this.#shownName = this.#models.name;
    this.#sentence.open(this.#shownName, model, previous, this.#controls.pending.sentence);
    delete this.#controls.pending.sentence;
    this.#sentence.swapFor(this.#shown?.config);
    this.#controls.openOn(this.#shown?.config, model?.config); // the mask it was trained with, its coreference head
    this.#vocabulary.show(model);
    if (model) this.#controls.applyPending(); // the random model: at the run, once its recipe is built
    this.#runNow();
  }

  // --- run ---

  // The random model of `config` on view, when it is another than the one shown.
  #ensureRandomModel(config) {
    const random = this.#models.randomModel(config);
    if (!random) return;
    this.#shown = random;
    this.dataset.config = JSON.stringify(config);
    this.#controls.fillRanges(this.#shown.config);
    this.#emit('ae-model-load', { model: UNTRAINED, config: random.config });
  }

  // The store's run while it is the shown model's (after another model is chosen, not yet).
  #shownRun() {
    return this.#runBy && this.#runBy === this.#shown ? this.#store.get().result : null;
  }

  #run() {
    const ui = this.#ui;
    clearTimeout(this.#timer);
    this.#sentence.showSwap(this.#shown?.config);
    if (!this.#models.engine || !this.#models.name) return; // the first run happens once the engine has loaded
    const trained = this.#models.name !== UNTRAINED;
    if (trained && !this.#shown) return; // still loading, or it failed and says so
    if (!trained) {
      const seed = mainView.readSeed(ui.seed.value);
      if (seed === null) return this.#fail('seedError', { max: mainView.SEED_MAX }, null);
      try {
        this.#ensureRandomModel(mainView.randomConfig(this.#controls.recipe(), seed));
      } catch (error) {
        return this.#fail('runError', {}, error);
      }
      delete this.#controls.pending.sentence;
      this.#controls.applyPending(); // the host's layer, head and switches, in the recipe's range
    }
    const text = ui.sentence.value;
    const options = this.#controls.options();
    this.#attempt = { text, ...options };
    let result;
    try {
      const { layer } = this.#controls;
      result = mainView.runView(this.#shown, text, { ...options, ...mainView.tracedLayers(this.#shown.config, layer) });
    } catch (error) {
      const unread = trained && this.#readLanguage(text);
      if (unread) {
        const example = mainView.sentencePair(this.#shown.config)[0];
        this.#fail(unread === 'zh' ? 'readsEnglish' : 'readsChinese', { example }, error);
        return this.#sentence.offerModelFor(unread);
      }
      return this.#fail('runError', {}, error);
    }
    Object.assign(this.dataset, { model: this.#models.name, run: JSON.stringify(options), text, status: 'ready' });
    this.#runBy = this.#shown;
    this.#store.set({ model: this.#models.name, sentence: text, ...options, result, config: this.#shown.config });
    this.#clearError();
    this.#showView();
    this.#showPrediction();
    this.#changed();
  }

  #runSoon() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run(), mainView.TYPING_DELAY_MS); // coalesce keystrokes
  }

  #runNow() {
    this.#scheduled = false;
    this.#run();
  }

  // One run for several properties set in a row.
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      if (!this.#scheduled) return;
      this.#scheduled = false;
      this.#run();
    });
  }

  // The language a sentence the model refused is in, when it is not the model's ('zh' | 'en'),
  // judged from how the model's own vocabulary reads it; null when that is not the problem.
  #readLanguage(text) {
    const language = this.#vocabulary.language;
    if (!language) return null;
    try {
      return unreadLanguage(this.#shown.encodeWords(text), language);
    } catch {
      return null; // e.g. text that is not UTF-8: the engine's own message says so
    }
  }

  // --- output ---

  // Cheap: shows another head of the last run; the heatmap only recolours when the tokens are the
  // same. (Another layer of an opened GPT-2 model is traced first: a new run.)
  #showView(changed = false) {
    const ui = this.#ui;
    const result = this.#shownRun();
    if (!result) return;
    const { layer, head } = this.#controls;
    if (!result.layers[layer]) return this.#run();
    ui.heatmap.data = {
      tokens: result.tokens,
      weights: result.layers[layer].selfAttention.heads[head].weights,
      unknown: result.unknown ?? [],
      caption: this.#t('caption', { layer: layer + 1, head: head + 1 }),
    };
    Object.assign(this.dataset, { layer, head });
    this.#store.set({ layer, head });
    if (changed && !this.#line.error) this.#changed();
  }

  // The trained model's answer with the runners-up, and the words it does not know.
  #showPrediction() {
    const run = (!this.#line.error && this.#shownRun()) || {};
    const shown = drawAnswer(this.#ui, run, {
      config: this.#shown?.config,
      lang: this.#lang(),
      t: (k, p) => this.#t(k, p),
      vocabulary: this.#vocabulary,
    });
    Object.assign(this.dataset, shown);
  }

  // `cause`, the error thrown, is worded in the element's language by its code (error-text.mjs).
  #fail(key, params, cause) {
    const ui = this.#ui;
    this.#line.fail(key, params, cause);
    this.dataset.status = 'error';
    this.dataset.errorCode = cause?.code ?? '';
    // The heatmap and answer of the last good run are not shown for another sentence.
    ui.result.classList.add('failed');
    ui.prediction.hidden = ui.unknown.hidden = ui.suggestions.hidden = ui.focus.hidden = true;
    this.dataset.prediction = '';
    const message = cause?.message ?? params.message ?? key;
    this.#emit('ae-error', { key, code: cause?.code ?? null, message });
    this.#changed();
  }

  #clearError() {
    const ui = this.#ui;
    this.#line.clear();
    ui['other-model'].hidden = true;
    delete this.dataset.errorCode;
    ui.result.classList.remove('stale', 'failed');
  }

  #changed() {
    this.#emit('ae-change', this.view());
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

define('attention-explorer', AttentionExplorer);
