// Base class of the lesson panels (web/components): what each of them used to write again.
// How a panel is made, with its smallest one as the worked example: docs/panels.md.
//   static strings          the panel's {en, zh} (web/strings/<panel>.mjs); t(key, params) reads them
//                           in the page's language, locale() names it for Intl
//   static controls         the panel's controls, declared once as data (below): the base builds
//                           them, labels them in both languages, keeps them in the link and the
//                           history, restores them on Back/Forward and resets them to their defaults
//   static link             the prefix of the controls' link parameters (?<link>.<name>=…)
//   static guidance         which guidance it has: ['showMe', 'predict'] (Reset comes with controls)
//   build()                 builds the panel's DOM, once, on its first connection (before the
//                           first storeChanged(true)); draws in storeChanged()
//   load()                  if the panel has one (fetching its model): called when the panel comes
//                           near the window or takes the keyboard focus, whichever is first
//   trainedModel(name)      a trained model (translationModel(name): an encoder–decoder pair)
//                           from this panel's models/ directory: its own models-base attribute,
//                           else that of the <attention-explorer> whose store it follows, else
//                           the page's (context.mjs); a models-base that is no URL rejects, so
//                           the panel shows it as its load error
//   newId(prefix)           element ids unique on the page (`${prefix}-0`, `${prefix}-1`, …)
//   controlsIn(root, cls)   the declared controls without frame()'s title, intro and guidance (an
//                           element placed under a site author's own heading)
//   frame(cls, lines)       what every build() starts with: {id, root, title, intro}, and the
//                           declared controls and guidance under the intro, then the lines that
//                           say the panel's state, named in `lines` (below); build() ends with
//                           this.mount(root) (the panel's shadow root, ./store-element.mjs)
//   text(tag, cls, parent, key, attrs)   an element whose text is the string `key`, in the
//                           page's language (set again when it changes; title and intro are);
//                           labelled(node, key) the same for an element built otherwise;
//                           headings(row, keys) the labelled <th scope=col> of a table's head
//   setState(s) / state     loading | error | ready (and a panel's own steps) mirrored in one
//                           data-* attribute for tests and styles: data-state, or data-status
//                           where static stateAttribute = 'status'
//   showWhenReady(ready, {waiting, body})   a panel drawn from the run: waiting until it is there
//                           (awaitRun(): alone on a page, the lesson's run is made for it)
//   addGuidance(after)      Show me, Reset and the Predict-then-reveal question, after the element
//                           `after` (frame() adds it for a declared panel); see the guidance section
//
// A declared control, static controls = {name: spec}; spec:
//   kind      sentence | text | select | range | toggle | layer | head | counter | button |
//             toggles (panel-controls.mjs)
//   label     key of its label in the panel's strings (en and zh), or (panel) => key (a Play
//             button that reads Pause while playing)
//   default   its value when the link has none, or (panel) => value (undefined until known, e.g.
//             the model's coreference head before the model is loaded)
//   group     class of the <div> it is placed in (one per class, in declaration order, under
//             the intro; this.group(cls) hands it to a panel that draws it elsewhere)
//   options   select: [{value, label}] (label: a string key) or (panel) => […]
//   count     layer/head: (panel) => how many (0-based in the panel, 1-based in link and labels);
//             optionText(i, panel): an option's text, if not i + 1; hideSingle: the field is
//             hidden while it offers fewer than two choices
//   min, max, step   range: numbers or (panel) => number
//   param     its name in the link, if not `name`; toLink / fromLink: value ↔ what the link
//             holds, when they differ (the slider's 2ᵉ exponent e, linked as d = 2ᵉ)
//   store     instead of a link parameter of its own, a key of the shared store the control is
//             bound to (the main view's word `token` or `layer`): its link and history are the
//             main view's, and Reset leaves it; follows: the store keys its options come from
//             (['result']: the run's words or layers)
//   field     class of the <div> around it and its label (field, field inline, check …);
//             className, attrs: the control's own class and attributes
//   option    the engine option it sets: this.engineOptions() gathers {option: value}
//   sample    (for the page's tests) a value other than the default to set it to
//   press     button: (panel) => void
//   check     toggles: (value, panel) => whether a link's value is one the panel can show
// The panel reads value(name) / values() and sets setValues({name: value}); a change, whether
// the reader's, Back/Forward's, Show me's or Reset's, reaches it as controlsChanged(names).
import { StoreElement } from './store-element.mjs';
import { getTrainedModel, getTranslationModel, modelsBaseURL } from './context.mjs';
import { errorText } from './error-text.mjs';
import { el } from './dom.mjs';
import { labelHostBy } from './panel-styles.mjs';
import { locale, text } from './panel-strings.mjs';
import { guidanceText } from './guidance.mjs';
import { GuidanceBar } from './panel-guidance.mjs';
import {
  buildControl,
  fillOptions,
  kindOf,
  readControl,
  readValue,
  showValue,
  streamingControls,
  writeControls,
} from './panel-controls.mjs';

const handedOut = new Map(); // id prefix → ids given so far
const TYPING_DELAY_MS = 120; // a sentence is run when the typing pauses, not on every key
const given = (x, panel) => (typeof x === 'function' ? x(panel) : x);

export class LessonPanel extends StoreElement {
  static strings = null;
  static stateAttribute = 'state';
  static controls = null;
  static link = null;
  static guidance = [];

  #built = false;
  #controls = null; // name → {spec, kind, label, node}, once built
  #groups = new Map(); // group class → its <div>
  #shown = {}; // name → the value the controls show (and the panel last heard of)
  #typing = 0; // the timer of a pause in typing
  #offControls = null;
  #loadWired = false;
  #guide = null; // the GuidanceBar, once addGuidance() has run
  #runAsked = false; // awaitRun() has asked for the lesson's run (and it has not failed)
  #texts = []; // [element, string key, attribute] of text() and labelled(): set again when the language changes

  connectedCallback() {
    if (!this.#built) {
      this.#built = true;
      this.build();
    }
    super.connectedCallback();
    this.#listen();
    this.#wireLoad();
  }

  get store() {
    return super.store;
  }

  set store(value) {
    super.store = value;
    if (this.isConnected) this.#listen();
  }

  build() {}

  // The models/ directory this panel loads from, read when it loads (see the header).
  get modelsBase() {
    return this.getAttribute('models-base');
  }

  set modelsBase(url) {
    if (url === null) this.removeAttribute('models-base');
    else this.setAttribute('models-base', String(url));
  }

  trainedModel(name, onProgress = null) {
    return this.#fromBase((base) => getTrainedModel(name, onProgress, base));
  }

  // The encoder–decoder pair `name`, from the same directory.
  translationModel(name) {
    return this.#fromBase((base) => getTranslationModel(name, base));
  }

  #fromBase(load) {
    try {
      const own = this.modelsBase;
      return load(own !== null ? modelsBaseURL(own) : this.store.get().modelsBase);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  t(key, params) {
    return text(this.constructor.strings, this.store.get().lang, key, params);
  }

  locale() {
    return locale(this.store.get().lang);
  }

  newId(prefix) {
    const n = handedOut.get(prefix) ?? 0;
    handedOut.set(prefix, n + 1);
    return `${prefix}-${n}`;
  }

  // A root <div class=cls> (the panel mounts it at the end of build()), an <h2> title that
  // names the element (labelHostBy), and an intro paragraph under it (the strings `title` and
  // `intro`); after the controls, the lines named in `lines`, in that order:
  //   model: <p class=cls-model>, the model the panel reads (panel-model.mjs's modelNote)
  //   status: <p class=cls-status role=status>, loading …
  //   error: <div class="error cls-error" role=alert>
  frame(cls, lines = []) {
    const id = this.newId(cls);
    const root = el('div', cls);
    const title = this.text('h2', '', root, 'title', { id: `${id}-title`, part: 'title' });
    const intro = this.text('p', 'howto', root, 'intro', { part: 'intro' });
    labelHostBy(this, title);
    if (this.constructor.controls) this.#buildControls(root, id);
    if (this.constructor.controls || this.constructor.guidance.length) this.addGuidance(intro);
    const line = {
      model: () => ['modelLine', el('p', `${cls}-model`, root)],
      status: () => ['status', el('p', `${cls}-status`, root, { role: 'status' })],
      error: () => ['error', el('div', `error ${cls}-error`, root, { role: 'alert' })],
    };
    return { id, root, title, intro, ...Object.fromEntries(lines.map((name) => line[name]())) };
  }

  // The declared controls alone, in `root`, for a panel that has no title or intro of its own (an
  // element a site author places under their own heading): no guidance bar.
  controlsIn(root, cls) {
    this.#buildControls(root, this.newId(cls));
  }

  text(tag, className, parent, key, attrs = {}) {
    return this.labelled(el(tag, className, parent, attrs), key);
  }

  // `node`, whose text (or attribute `attr`: an aria-label) is from now on the string `key`
  // (or what the function `key` gives: a string with parameters).
  labelled(node, key, attr = null) {
    this.#texts.push([node, key, attr]);
    return node;
  }

  // Column headings <th scope=col> in the header row `row`, labelled by the string keys `keys`
  // (classOf(key): a heading's class).
  headings(row, keys, classOf = () => '') {
    return keys.map((key) => this.text('th', classOf(key), row, key, { scope: 'col' }));
  }

  // A panel drawn from the main view's run: `waiting` is shown until the run is `ready`, then
  // `body`; the state says which. Returns `ready`.
  showWhenReady(ready, { waiting, body }) {
    waiting.hidden = ready;
    body.hidden = !ready;
    this.setState(ready ? 'ready' : 'loading');
    if (!ready) this.awaitRun(waiting);
    return ready;
  }

  // A panel drawn from the main view's run calls this while there is none: on a page without
  // <attention-explorer>, the lesson's run is made for it (./lesson-run.mjs). If that fails,
  // `waiting` (the line shown meanwhile) says why, and the next call tries again.
  awaitRun(waiting = null) {
    if (this.#runAsked || !globalThis.document || document.querySelector('attention-explorer')) return;
    this.#runAsked = true;
    import('./lesson-run.mjs')
      .then(({ runLessonIfAlone }) => runLessonIfAlone(this))
      .catch((error) => {
        this.#runAsked = false;
        if (!waiting || this.store.get().result) return;
        const lang = this.store.get().lang;
        waiting.textContent = guidanceText(lang, 'lessonRunError', { message: errorText(error, lang) });
        this.setState('error');
      });
  }

  // The texts of text() in the page's language (./store-element.mjs calls it before a full redraw).
  relabel() {
    for (const [node, key, attr] of this.#texts) {
      const said = typeof key === 'function' ? key() : this.t(key);
      if (attr) node.setAttribute(attr, said);
      else node.textContent = said;
    }
  }

  // --- declared controls (see the top of this file) ---

  // The value of control `name`: the link's (or the shared store's), if it reads and is within
  // bounds, else the default.
  value(name) {
    const spec = this.constructor.controls[name];
    const kind = kindOf(spec);
    if (spec.store) {
      const shared = this.store.get()[spec.store];
      return shared !== undefined && shared !== null && kind.valid(shared, spec, this)
        ? shared
        : given(spec.default, this);
    }
    const raw = readControl(this.store, this.constructor.link, spec.param ?? name);
    let linked = raw === undefined ? undefined : kind.parse(raw);
    if (linked !== undefined && spec.fromLink) linked = spec.fromLink(linked);
    return linked !== undefined && kind.valid(linked, spec, this) ? linked : given(spec.default, this);
  }

  values() {
    return Object.fromEntries(this.#names().map((name) => [name, this.value(name)]));
  }

  // {option: value} of the controls that declare the engine option they set.
  engineOptions() {
    const specs = this.constructor.controls;
    return Object.fromEntries(
      this.#names(specs)
        .filter((n) => specs[n].option)
        .map((n) => [specs[n].option, this.value(n)]),
    );
  }

  // Sets controls as the reader would: into the store (so the link and the history follow; a
  // value at its default leaves the link), then onto the screen and to controlsChanged().
  setValues(values) {
    const specs = this.constructor.controls;
    const out = {};
    const shared = {};
    for (const [name, value] of Object.entries(values ?? {})) {
      const spec = specs[name];
      const kind = spec && kindOf(spec);
      if (!kind || kind.action || !kind.valid(value, spec, this)) continue;
      if (spec.store) {
        shared[spec.store] = value;
        continue;
      }
      const linked = spec.toLink ? spec.toLink(value) : value;
      out[spec.param ?? name] = Object.is(value, given(spec.default, this)) ? null : kind.format(linked);
    }
    writeControls(this.store, this.constructor.link, out);
    if (Object.keys(shared).length) this.store.set(shared);
    this.#sync();
  }

  control(name) {
    return this.#controls?.[name];
  }

  group(cls) {
    return this.#groups.get(cls);
  }

  // Called with the names of the controls whose value changed.
  controlsChanged() {}

  // Options, bounds and labels again (the model that gives a layer count has arrived, the
  // language changed); values shown again, without telling the panel unless `quiet` is false.
  refreshControls({ quiet = true } = {}) {
    if (!this.#controls) return;
    for (const { spec, kind, label, node } of Object.values(this.#controls)) {
      const name = this.t(given(spec.label, this));
      if (label) label.textContent = name;
      else if (kind.passive) node.setAttribute('aria-label', name);
      else node.textContent = name;
      if (kind.options) fillOptions(node, kind.options(spec, this), (key) => this.t(key));
      if (spec.hideSingle) node.parentElement.hidden = node.options.length < 2;
      for (const bound of ['min', 'max', 'step']) if (spec[bound] !== undefined) node[bound] = given(spec[bound], this);
    }
    this.#sync({ quiet });
  }

  #names(specs = this.constructor.controls) {
    return Object.keys(specs ?? {}).filter((name) => !kindOf(specs[name]).action);
  }

  // The store keys the controls bound to the shared store read, and what their options follow.
  #sharedKeys() {
    const specs = this.constructor.controls ?? {};
    const keys = Object.values(specs).flatMap((spec) => (spec.store ? [spec.store, ...(spec.follows ?? [])] : []));
    return new Set(keys);
  }

  #buildControls(root, id) {
    const { link, controls } = this.constructor;
    this.#controls = {};
    for (const [name, spec] of Object.entries(controls)) {
      const cls = spec.group ?? 'ae-controls';
      if (!this.#groups.has(cls)) this.#groups.set(cls, el('div', cls, root));
      const kind = kindOf(spec);
      const parts = buildControl(name, spec, `${id}-${name}`, this.#groups.get(cls));
      this.#controls[name] = { spec, kind, ...parts };
      if (kind.typing || kind.live) streamingControls.add(`${link}.${spec.param ?? name}`);
      if (kind.passive) continue; // the panel's own buttons inside call setValues
      if (kind.action) parts.node.addEventListener('click', () => (this.#flushTyping(), spec.press(this)));
      else if (kind.event) parts.node.addEventListener(kind.event, () => this.#take([name]));
      else if (kind.typing) parts.node.addEventListener('input', () => this.#typed());
      else parts.node.addEventListener(kind.live ? 'input' : 'change', () => this.#take([name]));
    }
    this.refreshControls();
  }

  // A button pressed while a field is still being typed in acts on what is typed.
  #flushTyping() {
    if (!this.#typing) return;
    clearTimeout(this.#typing);
    this.#typing = 0;
    this.#take(this.#names().filter((name) => this.#controls[name].kind.typing));
  }

  #typed() {
    clearTimeout(this.#typing);
    this.#typing = setTimeout(() => {
      this.#typing = 0;
      this.#take(this.#names().filter((name) => this.#controls[name].kind.typing));
    }, TYPING_DELAY_MS);
  }

  #take(names) {
    const c = this.#controls;
    this.setValues(Object.fromEntries(names.map((name) => [name, readValue(c[name].kind, c[name].node)])));
  }

  // Shows every control's value (a field the reader is typing in keeps what is typed) and tells
  // the panel which changed.
  #sync({ quiet = false } = {}) {
    if (!this.#controls) return;
    const changed = [];
    for (const name of this.#names()) {
      const { kind, node } = this.#controls[name];
      const value = this.value(name);
      if (!(kind.typing && this.#typing) && value !== undefined) showValue(kind, node, value);
      if (!Object.is(value, this.#shown[name])) changed.push(name);
      this.#shown[name] = value;
    }
    if (changed.length && !quiet) this.controlsChanged(changed);
  }

  #listen() {
    this.#offControls?.();
    this.#offControls = null;
    if (!this.#controls) return;
    const shared = [...this.#sharedKeys()];
    this.#offControls = this.store.subscribe((_, changed) => {
      const ran = shared.some((key) => changed.has(key)); // the shared store's word, layer, run
      if (changed.has('lang') || ran) this.refreshControls({ quiet: !ran && !changed.has('controls') });
      else if (changed.has('controls')) this.#sync();
    });
    this.refreshControls({ quiet: false }); // a store that already holds a run gives its options now
  }

  // A panel with a model to fetch fetches it when it comes near, or when the keyboard enters it.
  // Focus that a pointer press gives does not load: the press's own click does (a button's action
  // loads first), and a model arriving between press and release would redraw the panel under the
  // pointer, so that the release lands elsewhere and the click is lost.
  #wireLoad() {
    if (this.#loadWired || typeof this.load !== 'function') return;
    this.#loadWired = true;
    this.loadWhenNear(() => this.load());
    const root = this.shadowRoot;
    if (!root) return;
    let pressing = false;
    const released = () => (pressing = false);
    root.addEventListener('pointerdown', () => {
      pressing = true;
      globalThis.addEventListener('pointerup', released, { once: true, capture: true });
      globalThis.addEventListener('pointercancel', released, { once: true, capture: true });
    });
    const entered = () => {
      if (pressing) return;
      root.removeEventListener('focusin', entered);
      this.load();
    };
    root.addEventListener('focusin', entered);
  }

  get state() {
    return this.dataset[this.constructor.stateAttribute];
  }

  setState(state) {
    this.dataset[this.constructor.stateAttribute] = state;
    this.#guide?.schedule();
  }

  // --- guidance (issue 11): Show me, Reset, Predict then reveal (./panel-guidance.mjs) ---
  // A declared panel (static controls) has it under its intro, Reset from its declared defaults
  // and Show me's {controls} through setValues(). A panel without the table opts in with
  // this.addGuidance(after) in build() and declares what it has:
  //   showMe()         the view where its point shows, chosen from the model's own metrics (never
  //                    fixed head numbers), or null when the model has no such point (the button
  //                    hides); may return a promise. {store: {model, layer, head, token, …}} goes
  //                    through the shared store (the main view and the link follow; or a function
  //                    giving it, called on the click, when it needs a model loaded), {controls:
  //                    {name: value}} to its own controls, {reveal: element} is brought into sight
  //                    (default: the element named by the panel's reveal="id", else the panel)
  //   defaults()       {name: value} of its own controls at their defaults, for Reset; null: none
  //   guideControls()  {name: control} the names of showMe() and defaults() refer to; they are
  //                    set as a reader would set them, so the panel redraws and writes its link
  //                    (or {name: function(value)} for a setting that is no form control)
  //   question()       {key, text, choices: [{value, label}], hide: [elements], answer()} or null:
  //                    under the page-wide switch its numbers (`hide`) stay hidden until the reader
  //                    guesses; answer() reads the right choice from the model's numbers (null
  //                    while there are none)
  showMe() {
    return null;
  }

  // The declared defaults (null while one is not known yet, or for a panel without controls of
  // its own: a control bound to the shared store is the main view's, which Reset leaves alone).
  defaults() {
    const specs = this.constructor.controls;
    const names = this.#names(specs).filter((name) => !specs[name].store);
    const out = Object.fromEntries(names.map((name) => [name, given(specs[name].default, this)]));
    return names.length && Object.values(out).every((v) => v !== undefined) ? out : null;
  }

  guideControls() {
    return {};
  }

  question() {
    return null;
  }

  addGuidance(after) {
    this.#guide = new GuidanceBar(this, after);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#offControls?.();
    this.#offControls = null;
    this.#guide?.disconnect();
  }
}
