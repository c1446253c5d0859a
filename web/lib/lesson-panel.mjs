// Base class of the lesson panels (web/components): what each of them used to write again.
//   static strings          the panel's {en, zh} (web/strings/<panel>.mjs); t(key, params) reads them
//                           in the page's language, locale() names it for Intl
//   build()                 builds the panel's DOM, once, on its first connection (before the
//                           first storeChanged(true)); a panel declares its controls there and
//                           draws in storeChanged()
//   newId(prefix)           element ids unique on the page (`${prefix}-0`, `${prefix}-1`, …)
//   frame(cls)              what every build() starts with: {id, root, title, intro}; build()
//                           ends with this.mount(root) (the panel's shadow root, ./store-element.mjs)
//   setState(s) / state     loading | error | ready (and a panel's own steps) mirrored in one
//                           data-* attribute for tests and styles: data-state, or data-status
//                           where static stateAttribute = 'status'
//   addGuidance(after)      Show me, Reset and the Predict-then-reveal question, after the element
//                           `after` (one line in build()); see the guidance section below
import { StoreElement } from './store-element.mjs';
import { el } from './dom.mjs';
import { labelHostBy } from './panel-styles.mjs';
import { locale, text } from './panel-strings.mjs';
import { guidanceText, onPredictChange, predictOn, reveal, setControl } from './guidance.mjs';

const handedOut = new Map(); // id prefix → ids given so far

export class LessonPanel extends StoreElement {
  static strings = null;
  static stateAttribute = 'state';

  #built = false;
  #guide = null; // the guidance bar's parts, once addGuidance() has run
  #guesses = new Map(); // question key → the reader's guess

  connectedCallback() {
    if (!this.#built) {
      this.#built = true;
      this.build();
    }
    super.connectedCallback();
  }

  build() {}

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
  // names the element (labelHostBy), and an intro paragraph under it.
  frame(cls) {
    const id = this.newId(cls);
    const root = el('div', cls);
    const title = el('h2', '', root, { id: `${id}-title`, part: 'title' });
    const intro = el('p', 'howto', root, { part: 'intro' });
    labelHostBy(this, title);
    return { id, root, title, intro };
  }

  get state() {
    return this.dataset[this.constructor.stateAttribute];
  }

  setState(state) {
    this.dataset[this.constructor.stateAttribute] = state;
    this.#scheduleGuidance();
  }

  // --- guidance (issue 11): Show me, Reset, Predict then reveal (../lib/guidance.mjs) ---
  // A panel opts in with this.addGuidance(after) in build() and declares what it has:
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

  defaults() {
    return null;
  }

  guideControls() {
    return {};
  }

  question() {
    return null;
  }

  addGuidance(after) {
    const bar = el('div', 'ae-guide');
    after.after(bar);
    const show = el('button', 'chip ae-guide-show', bar, { type: 'button' });
    const reset = el('button', 'chip ae-guide-reset', bar, { type: 'button' });
    const ask = el('div', 'ae-guide-ask', bar, { role: 'group' });
    const prompt = el('p', 'ae-guide-question', ask, { id: this.newId('ae-guide-q') });
    ask.setAttribute('aria-labelledby', prompt.id);
    const choices = el('div', 'ae-guide-choices', ask);
    const verdict = el('p', 'ae-guide-verdict', bar, { role: 'status', tabindex: '-1' });
    show.hidden = reset.hidden = ask.hidden = true;
    show.addEventListener('click', () => this.#applyShowMe());
    reset.addEventListener('click', () => this.#applyDefaults());
    choices.addEventListener('click', (e) => {
      const choice = e.target.closest('button');
      if (choice) this.#guess(choice.dataset.value);
    });
    this.#guide = { bar, show, reset, ask, prompt, choices, verdict, hidden: [], asked: '', unlisten: null };
    // A control the reader changes may change the answer or whether there is a point to show.
    // Listened to on the panel's root, not the element: `change` does not leave a shadow root.
    for (const type of ['input', 'change']) after.parentNode.addEventListener(type, () => this.#scheduleGuidance());
    this.#scheduleGuidance();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#guide?.unlisten?.();
    if (this.#guide) this.#guide.unlisten = null;
  }

  // Re-reads the panel's declarations after a redraw, a store change or the switch: coalesced
  // into one update per task, before the browser paints numbers that should be hidden.
  #scheduleGuidance() {
    const g = this.#guide;
    if (!g) return;
    if (!g.unlisten && this.isConnected) {
      const offStore = this.store.subscribe(() => this.#scheduleGuidance());
      const offPredict = onPredictChange(() => this.#scheduleGuidance());
      g.unlisten = () => (offStore(), offPredict());
    }
    if (g.pending) return;
    g.pending = true;
    queueMicrotask(() => {
      g.pending = false;
      this.#updateGuidance();
    });
  }

  #guideText(key, params) {
    return guidanceText(this.store.get().lang, key, params);
  }

  async #updateGuidance() {
    const g = this.#guide;
    g.show.textContent = this.#guideText('showMe');
    g.show.title = this.#guideText('showMeLabel');
    g.reset.textContent = this.#guideText('reset');
    g.reset.title = this.#guideText('resetLabel');
    g.reset.hidden = !this.defaults();
    this.#updateQuestion();
    const view = await this.showMe();
    g.show.hidden = !view;
  }

  #updateQuestion() {
    const g = this.#guide;
    const q = predictOn() ? this.question() : null;
    const guess = q ? this.#guesses.get(q.key) : undefined;
    const asking = Boolean(q) && guess === undefined;
    for (const node of g.hidden) node.style.visibility = '';
    g.hidden = asking ? q.hide.filter(Boolean) : [];
    for (const node of g.hidden) node.style.visibility = 'hidden';
    this.toggleAttribute('data-guessing', asking);
    g.ask.hidden = !asking;
    if (asking) {
      const asked = `${q.key}|${this.store.get().lang}|${q.text}`;
      if (g.asked !== asked) {
        g.asked = asked;
        g.prompt.textContent = `${this.#guideText('guessFirst')} ${q.text}`;
        g.choices.replaceChildren(
          ...q.choices.map(({ value, label }) =>
            el('button', 'chip', null, { type: 'button', 'data-value': value }, label),
          ),
        );
      }
    }
    const answer = q && !asking ? q.answer() : null;
    const label = (value) => q.choices.find((c) => String(c.value) === String(value))?.label ?? String(value);
    if (answer === null || answer === undefined) {
      g.verdict.textContent = '';
      delete g.verdict.dataset.agreed;
      return;
    }
    const agreed = String(answer) === String(guess);
    g.verdict.dataset.agreed = String(agreed);
    g.verdict.dataset.answer = String(answer);
    g.verdict.textContent = this.#guideText(agreed ? 'verdictRight' : 'verdictWrong', {
      answer: label(answer),
      guess: label(guess),
    });
  }

  #guess(value) {
    const q = this.question();
    if (!q) return;
    this.#guesses.set(q.key, value);
    this.#updateQuestion();
    this.#guide.verdict.focus(); // the pressed choice is gone: keep the keyboard in the panel
  }

  async #applyShowMe() {
    const view = await this.showMe();
    if (!view) return;
    const patch = typeof view.store === 'function' ? await view.store() : view.store;
    if (patch) this.store.set(patch);
    this.#setControls(view.controls);
    reveal(view.reveal ?? document.getElementById(this.getAttribute('reveal') ?? '') ?? this);
  }

  #applyDefaults() {
    this.#setControls(this.defaults());
    this.#guesses.clear();
    this.#updateQuestion();
  }

  #setControls(values) {
    const controls = this.guideControls();
    for (const [name, value] of Object.entries(values ?? {})) {
      const control = controls[name];
      if (typeof control === 'function') control(value);
      else if (control) setControl(control, value);
    }
  }
}
