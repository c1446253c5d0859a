// Which model <attention-explorer> shows (./attention-explorer.mjs): its menu, the first model
// once the engine and models/index.json are here, and a model chosen — fetched (its progress on
// the status line), random weights, or one opened from disk ("Open a model…"). What the element
// does with a model is its own: `host` says how to reach it.
import { messages } from '../i18n.mjs';
import {
  getEngine,
  getLocalModels,
  getModelIndex,
  getTrainedModel,
  modelsBaseURL,
  shareModel,
} from '../lib/context.mjs';
import { LESSON_MODELS } from '../lib/lesson.mjs';
import * as mainView from '../lib/main-view.mjs';
import { OWN_MODEL, UNTRAINED } from '../lib/main-view.mjs';
import { ownModelText } from '../lib/panel-model.mjs';
import { numberFormat } from '../lib/panel-strings.mjs';

export class ExplorerModels {
  engine = null;
  index = []; // models/index.json's entries, in the lesson's order
  local = new Map(); // name → label of the models trained in the page or loaded from disk
  started = false; // the first model is chosen once the engine and the index are here
  badBase = false; // models-base is no URL: shown as this element's error
  base = null; // URL of this element's models/ directory (models-base), null: the page's
  name = null; // the model chosen (the menu's value)
  chosen = false; // chosen by the host or the reader: it no longer follows the language
  own = null; // the "Open a model…" picker, once chosen (own-model-picker.mjs)
  random = null; // the RandomModel, kept while its recipe stays
  #randomKey = ''; // JSON of the config it was built from
  #host;
  #element;
  #line;

  // host: {element, ui, line (its StatusLine), lang(), store(), fail(key, params, cause),
  // use(model): show it (null: the random model), unshow(): none is on view while one loads,
  // leave(): the sentence stays with the model left}
  constructor(host) {
    this.#host = host;
    this.#element = host.element;
    this.#line = host.line;
  }

  #lang() {
    return this.#host.lang();
  }

  // The random model of `config`, built only when its config changed (the old one's wasm memory
  // freed); null when it is the one built already.
  randomModel(config) {
    const key = JSON.stringify(config);
    if (key === this.#randomKey) return null;
    this.random?.delete();
    this.random = null;
    this.#randomKey = '';
    this.random = this.engine.createRandomModel(config);
    this.#randomKey = key;
    return this.random;
  }

  // The lesson's model follows the language while the view is still its default (the lesson
  // model and its own sentence, nothing chosen); a typed sentence or another model stays.
  // shown: the config of the model on view; sentence: the one in the box.
  followLanguage(shown, sentence) {
    if (!this.started || this.chosen) return;
    const wanted = this.lessonModel(this.#lang());
    if (!wanted || wanted === this.name || !Object.values(LESSON_MODELS).includes(this.name)) return;
    if (!mainView.sentencePair(shown).includes(sentence)) return;
    this.choose(wanted);
  }

  // Whether the menu has `name`.
  offers(name) {
    if (name === UNTRAINED) return this.#element.hasAttribute('untrained');
    return this.index.some((m) => m.name === name) || this.local.has(name);
  }

  // The trained coreference model that reads `lang`, if the menu lists it.
  lessonModel(lang) {
    const name = LESSON_MODELS[lang];
    return this.index.some((m) => m.name === name) ? name : undefined;
  }

  // Untrained (with the attribute), models/index.json's models in the lesson's order, the models
  // trained in the page or loaded from disk (context.mjs addLocalModel), "Open a model…" (with
  // the attribute); the model chosen is always one of them.
  fillMenu() {
    const ui = this.#host.ui;
    const strings = messages[this.#lang()];
    const label = (name) => strings.models?.[name] ?? this.local.get(name) ?? name;
    const options = [];
    if (this.#element.hasAttribute('untrained')) options.push(new Option(strings.untrained, UNTRAINED));
    const group = (id, title, names) => {
      if (!names.length) return;
      const node = Object.assign(document.createElement('optgroup'), { id, label: title });
      node.append(...names.map((name) => new Option(label(name), name)));
      options.push(node);
    };
    group(
      'trained-models',
      strings.trainedGroup,
      this.index.map((m) => m.name),
    );
    group('local-models', strings.localGroup, [...this.local.keys()]);
    if (this.#element.hasAttribute('open-files'))
      options.push(new Option(ownModelText(this.#lang(), 'option'), OWN_MODEL));
    const name = this.#element.model;
    const listed = (node) => (node.tagName === 'OPTGROUP' ? [...node.children] : [node]).some((o) => o.value === name);
    if (!options.some(listed)) options.push(new Option(label(name), name));
    ui.model.replaceChildren(...options);
    ui.model.value = name;
  }

  // A models-base that is no URL is this element's error (shown in it), not an exception that
  // leaves it blank; false then.
  useBase(value) {
    try {
      this.base = value ? modelsBaseURL(value) : null;
      this.#host.store().set({ modelsBase: this.base?.href ?? null }); // the panels inside load from it
      this.badBase = false;
    } catch (error) {
      this.badBase = true; // nothing is loaded from the page's base instead
      this.#host.fail('baseError', { message: error.message }, error);
    }
    return !this.badBase;
  }

  // The first model, once the engine and models/index.json are here: the host's, else the lesson's
  // in the element's language. Again when models-base changes: the menu and the model anew.
  async start() {
    if (this.started || this.badBase) return;
    this.started = true;
    try {
      const engine = getEngine((p) => this.#line.progress().set('engine', p));
      this.index = mainView.orderModels(await getModelIndex(this.base));
      this.#downloadFirstModel();
      this.engine = await engine;
    } catch (error) {
      this.started = false;
      return this.#host.fail('loadError', { message: error.message }, null);
    }
    for (const { name, label } of getLocalModels()) this.local.set(name, label);
    if (this.#line.status?.key === 'loading') this.#line.set(null);
    const name = this.#startingModel();
    this.name = null;
    this.fillMenu();
    this.choose(name);
  }

  // The model the start will open begins to download as soon as the menu is read, while the
  // engine may still compile (a link's model is named by then: the page reads the same menu).
  #downloadFirstModel() {
    const name = this.#startingModel();
    if (this.index.some((m) => m.name === name)) getTrainedModel(name, null, this.base).catch(() => {}); // #choose reports
  }

  // Reset: the model the view opens with (`authored`: the host's markup's, else #firstModel()),
  // which follows the language again unless the markup named it.
  resetTo(authored) {
    this.chosen = authored !== null;
    return authored ?? this.#firstModel();
  }

  // The model the start opens: one chosen before it, the host's, else #firstModel().
  #startingModel() {
    return this.name ?? this.#element.getAttribute('model') ?? this.#firstModel();
  }

  // No model named: the lesson's trained model in the element's language (else the English one),
  // else random weights when offered, else the first listed.
  #firstModel() {
    const lesson = this.lessonModel(this.#lang()) ?? this.lessonModel('en');
    if (lesson) return lesson;
    if (this.#element.hasAttribute('untrained')) return UNTRAINED;
    return this.index[0]?.name ?? LESSON_MODELS.en;
  }

  async choose(name) {
    if (!this.engine) {
      this.name = name; // chosen before the start: the start opens it
      return;
    }
    const ui = this.#host.ui;
    this.#host.leave();
    this.name = name;
    if ([...ui.model.options].some((o) => o.value === name)) ui.model.value = name;
    else this.fillMenu();
    const trained = name !== UNTRAINED;
    ui['random-settings'].hidden = trained;
    ui['own-model'].hidden = true;
    ui['other-model'].hidden = true;
    this.#element.dataset.model = name;
    if (name === OWN_MODEL) return this.chooseOwn();
    if (!trained) {
      this.#line.set(null); // another model may still be loading: it is kept for later
      return this.#host.use(null);
    }
    this.#host.unshow(); // a run waits until the model is here
    const label = messages[this.#lang()].models?.[name] ?? this.local.get(name) ?? name;
    this.#line.set('loadingModel', { name: label });
    this.#element.dataset.status = 'loading';
    ui.result.classList.add('stale');
    const expected = this.index.find((m) => m.name === name)?.bytes ?? null; // a gzipped download has no length
    const progress = ({ loaded, total }) => {
      if (this.name !== name) return;
      const bar = this.#line.progress();
      bar.set('model', { loaded, total: total ?? expected });
      const sum = bar.sum(); // the engine's bytes and the model's, as the bar shows them
      const kb = (bytes) => numberFormat(this.#lang()).format(Math.round(bytes / 1024));
      this.#line.set('loadingModelBytes', { name: label, loaded: kb(sum.loaded), total: kb(sum.total) });
    };
    try {
      const model = await getTrainedModel(name, progress, this.base); // fetched once, shared with the panels
      if (this.name === name) this.#host.use(model);
    } catch (error) {
      if (this.name === name) this.#host.fail('modelError', { name: label }, error);
    } finally {
      if (this.name === name && this.#line.status?.key.startsWith('loadingModel')) this.#line.set(null);
    }
  }

  // "Open a model…": the picker (fetched on first use), and the model opened, if any.
  async chooseOwn() {
    const ui = this.#host.ui;
    this.#line.set(null);
    if (!this.own) {
      const { setUpOwnModel } = await import('../lib/own-model-picker.mjs');
      this.own ??= setUpOwnModel({
        box: ui['own-model'],
        getEngine,
        lang: () => this.#lang(),
        onModel: (model) => {
          shareModel(OWN_MODEL, model); // the lesson panels ask the context for the shown model
          if (this.name !== OWN_MODEL) return;
          if (model) this.#host.use(model);
          else this.chooseOwn();
        },
      });
      // Files given to the picker before it was set up (e.g. by a script) are opened now.
      if (ui['own-files'].files?.length) this.own.open(ui['own-files'].files);
      if (this.name !== OWN_MODEL) return;
    }
    ui['own-model'].hidden = false;
    const model = this.own.current();
    if (model) return this.#host.use(model);
    this.#host.unshow();
    ui.result.classList.add('stale');
  }
}
