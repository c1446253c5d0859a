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
// the model's coreference head), causal and no-scale (booleans; properties `causal`, `scale`;
// by default the mask the model was trained with, and ÷√d on), lang ('en' | 'zh'; by default the
// nearest lang="" around it), models-base (this element's models/ directory, by default the page's
// (setModelsBase); a bad one is this element's error, other elements keep theirs), untrained and open-files (booleans: the menu offers random weights,
// and "Open a model…" for a GPT-2 checkpoint on disk), heads, layers, positional and seed (the
// untrained model's recipe). Without `model` it opens the lesson's model in its language and
// follows the language until a model is chosen. Properties only: `store` (get, or set to share
// one store with panels elsewhere), `shownModel` (the model on view), `heatmap`, `view()`.
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
import {
  getEngine,
  getLocalModels,
  getModelIndex,
  getTrainedModel,
  onLocalModel,
  modelsBaseURL,
  shareModel,
} from '../lib/context.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import { LESSON_MODELS } from '../lib/lesson.mjs';
import * as mainView from '../lib/main-view.mjs';
import { OWN_MODEL, UNTRAINED } from '../lib/main-view.mjs';
import { ownModelText } from '../lib/panel-model.mjs';
import { locale as localeOf, numberFormat } from '../lib/panel-strings.mjs';
import { mountShadow } from '../lib/panel-styles.mjs';
import { createStore, initialView } from '../lib/store.mjs';
import { unreadLanguage } from '../lib/vocabulary-help.mjs';
import { VocabularyView } from '../lib/vocabulary-view.mjs';
import css from './attention-explorer.css.mjs';
import { IDS, viewTemplate } from './attention-explorer.markup.mjs';
import { StatusLine } from './explorer-status.mjs';
import { drawAnswer } from './explorer-answer.mjs';
import heatmapCss from './attention-heatmap.css.mjs';
import './attention-heatmap.mjs';

export class AttentionExplorer extends ElementBase {
  static observedAttributes = [
    'model',
    'sentence',
    'layer',
    'head',
    'causal',
    'no-scale',
    'lang',
    'models-base',
    'untrained',
    'open-files',
    'heads',
    'layers',
    'positional',
    'seed',
  ];

  #store = createStore({ ...initialView(), model: '', controls: {} });
  #unsubscribe = null;
  #ui = null;
  #root = null; // the shadow root's wrapper (part="root")
  #vocabulary = null; // VocabularyView
  #engine = null;
  #index = []; // models/index.json's entries, in the lesson's order
  #local = new Map(); // name → label of the models trained in the page or loaded from disk
  #offLocal = null;
  #started = false; // the first model is chosen once the engine and the index are here
  #badBase = false; // models-base is no URL: shown as this element's error
  #base = null; // URL of this element's models/ directory (models-base), null: the page's
  #name = null; // the model chosen (the menu's value)
  #chosen = false; // chosen by the host or the reader: it no longer follows the language
  #shown = null; // the model on view: a TrainedModel, the RandomModel, or null while one loads
  #shownName = null; // the name of the model last shown
  #runBy = null; // the model that made the store's result
  #random = null; // the RandomModel, kept while its recipe stays
  #randomKey = ''; // JSON of the config it was built from
  #own = null; // the "Open a model…" picker, once chosen (own-model-picker.mjs)
  #pending = {}; // {layer, head, causal, scale, sentence}: set by the host, applied once a model shows
  #sentences = new mainView.SentenceMemory(); // each model keeps its own sentence
  #attempt = null; // {text, causal, scale} of the last run tried
  #line = null; // StatusLine: the status line, the load bar and the error box
  #timer = 0;
  #scheduled = false;
  #reflecting = false; // a property setter is writing its attribute
  #langObserver = null;

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
    if (this.#base) next.set({ modelsBase: this.#base.href }); // the panels inside load from it
    if (this.isConnected) this.#subscribe();
    this.#shareStore();
    // The language is the new store's (a host that shares its store sets both).
    if (this.#ui && this.#ui.model.dataset.lang !== this.#lang()) this.#languageChanged();
  }

  get model() {
    return this.#name ?? this.getAttribute('model') ?? LESSON_MODELS[this.#lang()] ?? LESSON_MODELS.en;
  }
  set model(name) {
    this.#reflect('model', String(name));
  }

  // What the text box holds (the reader may have typed since it was set).
  get sentence() {
    return this.#ui?.sentence.value ?? this.getAttribute('sentence') ?? '';
  }
  set sentence(text) {
    this.#reflect('sentence', String(text));
  }

  // 1-based, as labelled; null until a model says which head it opens on.
  get layer() {
    return this.#selected('layer');
  }
  set layer(n) {
    this.#reflect('layer', String(n));
  }

  get head() {
    return this.#selected('head');
  }
  set head(n) {
    this.#reflect('head', String(n));
  }

  get causal() {
    return this.#ui?.causal.checked ?? this.hasAttribute('causal');
  }
  set causal(on) {
    this.#reflect('causal', Boolean(on));
  }

  get scale() {
    return this.#ui?.scale.checked ?? !this.hasAttribute('no-scale');
  }
  set scale(on) {
    this.#reflect('no-scale', !on);
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

  // The untrained model's recipe (strings, as in the link): heads, layers, positional, seed.
  get heads() {
    return this.#ui?.heads.value ?? this.getAttribute('heads');
  }
  set heads(n) {
    this.#reflect('heads', String(n));
  }
  get layers() {
    return this.#ui?.layers.value ?? this.getAttribute('layers');
  }
  set layers(n) {
    this.#reflect('layers', String(n));
  }
  get positional() {
    return this.#ui?.positional.value ?? this.getAttribute('positional');
  }
  set positional(kind) {
    this.#reflect('positional', String(kind));
  }
  get seed() {
    return this.#ui?.seed.value.trim() ?? this.getAttribute('seed');
  }
  set seed(n) {
    this.#reflect('seed', String(n));
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

  // --- lifecycle ---

  connectedCallback() {
    if (!this.#ui) this.#build();
    this.#subscribe();
    this.#followHostLanguage();
    this.#offLocal ??= onLocalModel(({ name, label }) => {
      this.#local.set(name, label);
      this.#fillMenu();
    });
    // A microtask later: a host that configures the element in the same script (the page
    // applying its link) does so before the first model is chosen.
    queueMicrotask(() => this.#start());
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
    const ui = this.#ui;
    const value = this.getAttribute(name);
    switch (name) {
      case 'model':
        this.#chosen = true;
        // The model on view again: nothing to do (a model that failed to load is tried again).
        if (value !== null && !(value === this.#name && this.#shown)) this.#choose(value);
        return;
      case 'models-base':
        if (!this.#useModelsBase(value)) return;
        this.#started = false;
        this.#start();
        return;
      case 'lang':
        return this.#followHostLanguage();
      case 'untrained':
      case 'open-files':
        return this.#fillMenu();
      case 'sentence':
        ui.sentence.value = value ?? '';
        this.#pending.sentence = true;
        break;
      case 'layer':
      case 'head': {
        const n = Number(value);
        if (value !== null && Number.isInteger(n) && n >= 1) this.#pending[name] = n - 1;
        break;
      }
      case 'causal':
        this.#pending.causal = value !== null;
        break;
      case 'no-scale':
        this.#pending.scale = value === null;
        break;
      default: {
        // the recipe: a value the menu does not offer is ignored
        const control = ui[name];
        if (value === null) break;
        if (control.tagName === 'SELECT' && ![...control.options].some((o) => o.value === value)) break;
        control.value = value;
      }
    }
    // Applied now to a trained model on view; a model still loading takes it when it shows, the
    // random model at its next run (after its recipe, which may change the selectors' range).
    if (this.#shown && this.#name !== UNTRAINED) {
      delete this.#pending.sentence;
      this.#applyPending();
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
    this.#line = new StatusLine(ui, { t: (k, p) => this.#t(k, p), lang: () => this.#lang() });
    this.#chosen = this.hasAttribute('model');
    if (this.hasAttribute('models-base')) this.#useModelsBase(this.getAttribute('models-base'));
    if (this.hasAttribute('sentence')) {
      ui.sentence.value = this.getAttribute('sentence');
      this.#pending.sentence = true;
    } else {
      ui.sentence.value = mainView.sentencePair(null)[0];
    }
    for (const name of ['layer', 'head', 'causal', 'no-scale', 'heads', 'layers', 'positional', 'seed'])
      if (this.hasAttribute(name)) this.#apply(name);
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
      this.#chosen = true;
      this.#choose(ui.model.value);
    });
    ui.swap.addEventListener('click', () => {
      ui.sentence.value = mainView.swapFor(this.#shown?.config).swap(ui.sentence.value);
      this.#runNow();
    });
    ui['other-model'].addEventListener('click', () => {
      this.#chosen = true;
      ui['other-model'].hidden = true;
      this.#choose(ui['other-model'].dataset.model);
    });
    for (const select of [ui.layer, ui.head]) select.addEventListener('change', () => this.#showView(true));
    for (const slot of ui.slots)
      slot.addEventListener('slotchange', () => {
        this.#shareStore();
        this.#layOut();
      });
    this.#line.set('loading');
    this.dataset.status = 'loading';
    this.#translate();
    this.#layOut();
  }

  // The slots' boxes show only when something is placed in them (so that empty ones take no room).
  #layOut() {
    for (const slot of this.#ui.slots) {
      const filled = slot.assignedElements().length > 0;
      slot.parentElement.hidden = !filled;
      this.#root.classList.toggle(slot.name ? 'has-aside' : 'has-below', filled);
    }
  }

  #subscribe() {
    this.#unsubscribe?.();
    this.#unsubscribe = this.#store.subscribe((s, changed) => this.#storeChanged(s, changed));
  }

  // Panels that follow a store (they have a `store` property) share this element's: those placed
  // inside it, and its own export buttons; one whose module loads later, once its tag is defined.
  #shareStore() {
    if (!this.#ui) return;
    const inside = (panel) => this.contains(panel) || this.shadowRoot.contains(panel);
    const share = (panel) => {
      if ('store' in panel && panel.store !== this.#store && inside(panel)) panel.store = this.#store;
    };
    const panels = [...this.shadowRoot.querySelectorAll('ae-export-buttons')];
    for (const slot of this.#ui.slots)
      for (const node of slot.assignedElements({ flatten: true })) panels.push(node, ...node.querySelectorAll('*'));
    for (const panel of panels) {
      if (!panel.localName.startsWith('ae-')) continue;
      if (customElements.get(panel.localName)) share(panel);
      else customElements.whenDefined(panel.localName).then(() => share(panel));
    }
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
    this.#own?.translate();
    this.#fillMenu();
    this.#vocabulary.translate();
    this.#translateSwap();
    this.#translateSentenceNote();
    if (!ui['other-model'].hidden) this.#offerModelFor(ui['other-model'].dataset.lang);
    if (this.#shown) this.#fillRanges();
    this.#line.translate();
    this.#showView();
    this.#showPrediction();
  }

  // The lesson's model follows the language while the view is still its default (the lesson
  // model and its own sentence, nothing chosen); a typed sentence or another model stays.
  #followLanguage() {
    if (!this.#started || this.#chosen || !this.#shown) return;
    const wanted = this.#lessonModel(this.#lang());
    if (!wanted || wanted === this.#name || !Object.values(LESSON_MODELS).includes(this.#name)) return;
    if (!mainView.sentencePair(this.#shown.config).includes(this.#ui.sentence.value)) return;
    this.#choose(wanted);
  }

  // The trained coreference model that reads `lang`, if the menu lists it.
  #lessonModel(lang) {
    const name = LESSON_MODELS[lang];
    return this.#index.some((m) => m.name === name) ? name : undefined;
  }

  // --- the store ---

  #storeChanged(s, changed) {
    if (changed.has('lang')) this.#languageChanged();
    // A panel's Show me may choose another model (web/lib/guidance.mjs): open it as the menu would,
    // at the layer and head it names.
    if (changed.has('model') && s.model && s.model !== this.#name && this.#offers(s.model)) {
      this.#chosen = true;
      Object.assign(this.#pending, { layer: s.layer, head: s.head });
      this.#choose(s.model);
      return;
    }
    // Another panel (the head grid, the head view) focused a head: follow it.
    if (!(changed.has('layer') || changed.has('head')) || !this.#shown) return;
    const ui = this.#ui;
    if (String(s.layer) === ui.layer.value && String(s.head) === ui.head.value) return;
    if (s.layer >= ui.layer.options.length || s.head >= ui.head.options.length) return;
    [ui.layer.value, ui.head.value] = [s.layer, s.head];
    this.#showView(true);
  }

  // Whether the menu has `name`.
  #offers(name) {
    if (name === UNTRAINED) return this.hasAttribute('untrained');
    return this.#index.some((m) => m.name === name) || this.#local.has(name);
  }

  // --- the model menu ---

  // Untrained (with the attribute), models/index.json's models in the lesson's order, the models
  // trained in the page or loaded from disk (context.mjs addLocalModel), "Open a model…" (with
  // the attribute); the model chosen is always one of them.
  #fillMenu() {
    const ui = this.#ui;
    if (!ui) return;
    const strings = messages[this.#lang()];
    const label = (name) => strings.models?.[name] ?? this.#local.get(name) ?? name;
    const options = [];
    if (this.hasAttribute('untrained')) options.push(new Option(strings.untrained, UNTRAINED));
    const group = (id, title, names) => {
      if (!names.length) return;
      const node = Object.assign(document.createElement('optgroup'), { id, label: title });
      node.append(...names.map((name) => new Option(label(name), name)));
      options.push(node);
    };
    group(
      'trained-models',
      strings.trainedGroup,
      this.#index.map((m) => m.name),
    );
    group('local-models', strings.localGroup, [...this.#local.keys()]);
    if (this.hasAttribute('open-files')) options.push(new Option(ownModelText(this.#lang(), 'option'), OWN_MODEL));
    const name = this.model;
    const listed = (node) => (node.tagName === 'OPTGROUP' ? [...node.children] : [node]).some((o) => o.value === name);
    if (!options.some(listed)) options.push(new Option(label(name), name));
    ui.model.replaceChildren(...options);
    ui.model.value = name;
  }

  // --- choosing a model ---

  // A models-base that is no URL is this element's error (shown in it), not an exception that
  // leaves it blank; false then.
  #useModelsBase(value) {
    try {
      this.#base = value ? modelsBaseURL(value) : null;
      this.#store.set({ modelsBase: this.#base?.href ?? null }); // the panels inside load from it
      this.#badBase = false;
    } catch (error) {
      this.#badBase = true; // nothing is loaded from the page's base instead
      this.#fail('baseError', { message: error.message }, error);
    }
    return !this.#badBase;
  }

  // The first model, once the engine and models/index.json are here: the host's, else the lesson's
  // in the element's language. Again when models-base changes: the menu and the model anew.
  async #start() {
    if (this.#started || this.#badBase) return;
    this.#started = true;
    try {
      const engine = getEngine((p) => this.#line.progress().set('engine', p));
      this.#index = mainView.orderModels(await getModelIndex(this.#base));
      this.#downloadFirstModel();
      this.#engine = await engine;
    } catch (error) {
      this.#started = false;
      return this.#fail('loadError', { message: error.message }, null);
    }
    for (const { name, label } of getLocalModels()) this.#local.set(name, label);
    if (this.#line.status?.key === 'loading') this.#line.set(null);
    const name = this.#startingModel();
    this.#name = null;
    this.#fillMenu();
    this.#choose(name);
  }

  // The model the start will open begins to download as soon as the menu is read, while the
  // engine may still compile (a link's model is named by then: the page reads the same menu).
  #downloadFirstModel() {
    const name = this.#startingModel();
    if (this.#index.some((m) => m.name === name)) getTrainedModel(name, null, this.#base).catch(() => {}); // #choose reports
  }

  // The model the start opens: one chosen before it, the host's, else #firstModel().
  #startingModel() {
    return this.#name ?? this.getAttribute('model') ?? this.#firstModel();
  }

  // No model named: the lesson's trained model in the element's language (else the English one),
  // else random weights when offered, else the first listed.
  #firstModel() {
    const lesson = this.#lessonModel(this.#lang()) ?? this.#lessonModel('en');
    if (lesson) return lesson;
    if (this.hasAttribute('untrained')) return UNTRAINED;
    return this.#index[0]?.name ?? LESSON_MODELS.en;
  }

  async #choose(name) {
    if (!this.#engine) {
      this.#name = name; // chosen before the start: the start opens it
      return;
    }
    const ui = this.#ui;
    this.#sentences.leave(this.#shownName, ui.sentence.value);
    this.#name = name;
    if ([...ui.model.options].some((o) => o.value === name)) ui.model.value = name;
    else this.#fillMenu();
    const trained = name !== UNTRAINED;
    ui['random-settings'].hidden = trained;
    ui['own-model'].hidden = true;
    ui['other-model'].hidden = true;
    this.dataset.model = name;
    if (name === OWN_MODEL) return this.#chooseOwn();
    if (!trained) {
      this.#line.set(null); // another model may still be loading: it is kept for later
      return this.#use(null);
    }
    this.#shown = null; // a run waits until the model is here
    const label = messages[this.#lang()].models?.[name] ?? this.#local.get(name) ?? name;
    this.#line.set('loadingModel', { name: label });
    this.dataset.status = 'loading';
    ui.result.classList.add('stale');
    const expected = this.#index.find((m) => m.name === name)?.bytes ?? null; // a gzipped download has no length
    const progress = ({ loaded, total }) => {
      if (this.#name !== name) return;
      const bar = this.#line.progress();
      bar.set('model', { loaded, total: total ?? expected });
      const sum = bar.sum(); // the engine's bytes and the model's, as the bar shows them
      const kb = (bytes) => numberFormat(this.#lang()).format(Math.round(bytes / 1024));
      this.#line.set('loadingModelBytes', { name: label, loaded: kb(sum.loaded), total: kb(sum.total) });
    };
    try {
      const model = await getTrainedModel(name, progress, this.#base); // fetched once, shared with the panels
      if (this.#name === name) this.#use(model);
    } catch (error) {
      if (this.#name === name) this.#fail('modelError', { name: label }, error);
    } finally {
      if (this.#name === name && this.#line.status?.key.startsWith('loadingModel')) this.#line.set(null);
    }
  }

  // "Open a model…": the picker (fetched on first use), and the model opened, if any.
  async #chooseOwn() {
    const ui = this.#ui;
    this.#line.set(null);
    if (!this.#own) {
      const { setUpOwnModel } = await import('../lib/own-model-picker.mjs');
      this.#own ??= setUpOwnModel({
        box: ui['own-model'],
        getEngine,
        lang: () => this.#lang(),
        onModel: (model) => {
          shareModel(OWN_MODEL, model); // the lesson panels ask the context for the shown model
          if (this.#name !== OWN_MODEL) return;
          if (model) this.#use(model);
          else this.#chooseOwn();
        },
      });
      // Files given to the picker before it was set up (e.g. by a script) are opened now.
      if (ui['own-files'].files?.length) this.#own.open(ui['own-files'].files);
      if (this.#name !== OWN_MODEL) return;
    }
    ui['own-model'].hidden = false;
    const model = this.#own.current();
    if (model) return this.#use(model);
    this.#shown = null;
    ui.result.classList.add('stale');
  }

  // Shows `model` (a TrainedModel, or null for the random one) with its task's defaults, then
  // what the host set for it.
  #use(model) {
    const ui = this.#ui;
    this.#shown = model ?? this.#random;
    if (model) this.#emit('ae-model-load', { model: this.#name, config: model.config });
    const previous = this.#shownName;
    this.#shownName = this.#name;
    this.#chooseSentence(model, previous);
    this.#translateSwap();
    ui.causal.checked = Boolean(this.#shown?.config.causal); // start from the mask it was trained with
    if (this.#shown) this.#fillRanges();
    const head = model && coreferenceHead(model.config);
    if (head) [ui.layer.value, ui.head.value] = [head.layer, head.head];
    this.#vocabulary.show(model);
    if (model) this.#applyPending(); // the random model: at the run, once its recipe is built
    this.#runNow();
  }

  // The sentence a model opens with: the host's; a sentence the reader typed, when this model can
  // read it (carried over); else the one this model showed last, else its own default — and when
  // a typed sentence had to give way, a note says so (it comes back with the model it was typed for).
  #chooseSentence(model, previous) {
    const ui = this.#ui;
    const note = ui['sentence-note'];
    note.hidden = true;
    const { text, setAside } = this.#sentences.open(this.#shownName, model, ui.sentence.value, this.#pending.sentence);
    delete this.#pending.sentence;
    if (text !== ui.sentence.value) ui.sentence.value = text;
    if (setAside && previous) {
      note.dataset.model = previous;
      this.#translateSentenceNote();
      note.hidden = false;
    }
  }

  #translateSentenceNote() {
    const note = this.#ui['sentence-note'];
    const { model } = note.dataset;
    if (!model) return;
    const strings = messages[this.#lang()];
    const name = model === UNTRAINED ? strings.untrained : (strings.models?.[model] ?? this.#local.get(model) ?? model);
    note.textContent = this.#t('sentenceKeptAside', { model: name });
  }

  // "Swap tired ↔ wide", or the words of the model's own pair (累 ↔ 宽).
  #translateSwap() {
    const { first, second } = mainView.swapFor(this.#shown?.config);
    this.#ui.swap.textContent = this.#t('swap', { a: first, b: second });
  }

  // A refused sentence in the other language: offer the model that reads it, keeping the sentence.
  #offerModelFor(lang) {
    const button = this.#ui['other-model'];
    const name = this.#lessonModel(lang);
    button.hidden = !name;
    if (!name) return;
    Object.assign(button.dataset, { model: name, lang });
    button.textContent = this.#t('openModel', { name: messages[this.#lang()].models?.[name] ?? name });
  }

  // Options 1..count for the layer and head selectors, keeping a selection that still exists;
  // the head that config.json calls the coreference head is named (short, to fit a phone).
  #fillRanges() {
    const { nLayers, nHeads } = this.#shown.config;
    for (const [select, count, key] of [
      [this.#ui.layer, nLayers, 'layerN'],
      [this.#ui.head, nHeads, 'headN'],
    ]) {
      const previous = Number(select.value) || 0;
      select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(this.#t(key, { i: i + 1 }), i)));
      select.value = previous < count ? previous : 0;
    }
    const named = coreferenceHead(this.#shown.config);
    const option = named && this.#ui.head.options[named.head];
    if (option) option.textContent = this.#t('headNamed', { i: named.head + 1 });
  }

  // What the host set while a model loaded, now that one is on view: the sentence is the
  // model's to open with (#chooseSentence); the switches at once; layer and head once the
  // selectors have the model's range (those out of range are dropped).
  #applyPending() {
    const ui = this.#ui;
    const p = this.#pending;
    if (p.causal !== undefined) ui.causal.checked = p.causal;
    if (p.scale !== undefined) ui.scale.checked = p.scale;
    delete p.causal;
    delete p.scale;
    if (!ui.layer.options.length) return;
    for (const key of ['layer', 'head']) {
      if (p[key] !== undefined && p[key] < ui[key].options.length) ui[key].value = p[key];
      delete p[key];
    }
  }

  #selected(key) {
    const select = this.#ui?.[key];
    if (select?.options.length) return Number(select.value) + 1;
    const n = Number(this.getAttribute(key));
    return this.hasAttribute(key) && Number.isInteger(n) && n >= 1 ? n : null;
  }

  // --- run ---

  // Builds the random model only when its config changed, freeing the old one's wasm memory.
  #ensureRandomModel(config) {
    const key = JSON.stringify(config);
    if (key === this.#randomKey) return;
    this.#random?.delete();
    this.#random = null;
    this.#randomKey = '';
    this.#shown = this.#random = this.#engine.createRandomModel(config);
    this.#randomKey = this.dataset.config = key;
    this.#fillRanges();
    this.#emit('ae-model-load', { model: UNTRAINED, config: this.#random.config });
  }

  // The store's run while it is the shown model's (after another model is chosen, not yet).
  #shownRun() {
    return this.#runBy && this.#runBy === this.#shown ? this.#store.get().result : null;
  }

  #run() {
    const ui = this.#ui;
    clearTimeout(this.#timer);
    ui.swap.hidden = !mainView.swapFor(this.#shown?.config).test(ui.sentence.value);
    if (!this.#engine || !this.#name) return; // the first run happens once the engine has loaded
    const trained = this.#name !== UNTRAINED;
    if (trained && !this.#shown) return; // still loading, or it failed and says so
    if (!trained) {
      const seed = mainView.readSeed(ui.seed.value);
      if (seed === null) return this.#fail('seedError', { max: mainView.SEED_MAX }, null);
      try {
        this.#ensureRandomModel(mainView.randomConfig(this.#recipe(), seed));
      } catch (error) {
        return this.#fail('runError', {}, error);
      }
      delete this.#pending.sentence;
      this.#applyPending(); // the host's layer, head and switches, in the recipe's range
    }
    const text = ui.sentence.value;
    const options = { causal: ui.causal.checked, scale: ui.scale.checked };
    this.#attempt = { text, ...options };
    let result;
    try {
      const layer = Number(ui.layer.value) || 0;
      result = mainView.runView(this.#shown, text, { ...options, ...mainView.tracedLayers(this.#shown.config, layer) });
    } catch (error) {
      const unread = trained && this.#readLanguage(text);
      if (unread) {
        const example = mainView.sentencePair(this.#shown.config)[0];
        this.#fail(unread === 'zh' ? 'readsEnglish' : 'readsChinese', { example }, error);
        return this.#offerModelFor(unread);
      }
      return this.#fail('runError', {}, error);
    }
    Object.assign(this.dataset, { model: this.#name, run: JSON.stringify(options), text, status: 'ready' });
    this.#runBy = this.#shown;
    this.#store.set({ model: this.#name, sentence: text, ...options, result, config: this.#shown.config });
    this.#clearError();
    this.#showView();
    this.#showPrediction();
    this.#changed();
  }

  #recipe() {
    const { heads, layers, positional } = this.#ui;
    return { heads: heads.value, layers: layers.value, positional: positional.value };
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
    const layer = Number(ui.layer.value) || 0;
    const head = Number(ui.head.value) || 0;
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
