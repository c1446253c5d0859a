// The guidance bar of a lesson panel (issue 11): Show me, Reset and the Predict-then-reveal
// question, under the panel's intro. LessonPanel.addGuidance(after) makes one; what it shows is
// read from the panel's declarations (showMe(), defaults(), guideControls(), question() and
// static guidance: see lesson-panel.mjs), and the moves it makes are ./guidance.mjs's.
import { el } from './dom.mjs';
import { guidanceText, onPredictChange, predictOn, reveal, setControl } from './guidance.mjs';

export class GuidanceBar {
  #panel;
  #parts; // the bar's elements
  #guesses = new Map(); // question key → the reader's guess
  #hidden = []; // the numbers hidden until the reader guesses
  #asked = ''; // the question shown, with its language
  #pending = false;
  #unlisten = null;

  // The bar goes after the element `after`, in the panel `panel`.
  constructor(panel, after) {
    this.#panel = panel;
    const bar = el('div', 'ae-guide');
    after.after(bar);
    const show = el('button', 'chip ae-guide-show', bar, { type: 'button' });
    const reset = el('button', 'chip ae-guide-reset', bar, { type: 'button' });
    const ask = el('div', 'ae-guide-ask', bar, { role: 'group' });
    const prompt = el('p', 'ae-guide-question', ask, { id: panel.newId('ae-guide-q') });
    ask.setAttribute('aria-labelledby', prompt.id);
    const choices = el('div', 'ae-guide-choices', ask);
    const verdict = el('p', 'ae-guide-verdict', bar, { role: 'status', tabindex: '-1' });
    show.hidden = reset.hidden = ask.hidden = true;
    if (!this.#has('showMe')) show.remove(); // a declared panel has only the guidance it lists
    if (!this.#has('predict')) ask.remove();
    show.addEventListener('click', () => this.#applyShowMe());
    reset.addEventListener('click', () => this.#applyDefaults());
    choices.addEventListener('click', (e) => {
      const choice = e.target.closest('button');
      if (choice) this.#guess(choice.dataset.value);
    });
    this.#parts = { bar, show, reset, ask, prompt, choices, verdict };
    // A control the reader changes may change the answer or whether there is a point to show.
    // Listened to on the panel's root, not the element: `change` does not leave a shadow root.
    for (const type of ['input', 'change']) after.parentNode.addEventListener(type, () => this.schedule());
    this.schedule();
  }

  // The panel left the page: it stops following the store and the switch.
  disconnect() {
    this.#unlisten?.();
    this.#unlisten = null;
  }

  // Re-reads the panel's declarations after a redraw, a store change or the switch: coalesced
  // into one update per task, before the browser paints numbers that should be hidden.
  schedule() {
    const panel = this.#panel;
    if (!this.#unlisten && panel.isConnected) {
      const offStore = panel.store.subscribe(() => this.schedule());
      const offPredict = onPredictChange(() => this.schedule());
      this.#unlisten = () => (offStore(), offPredict());
    }
    if (this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#update();
    });
  }

  #text(key, params) {
    return guidanceText(this.#panel.store.get().lang, key, params);
  }

  async #update() {
    const g = this.#parts;
    g.show.textContent = this.#text('showMe');
    g.show.title = this.#text('showMeLabel');
    g.reset.textContent = this.#text('reset');
    g.reset.title = this.#text('resetLabel');
    g.reset.hidden = !this.#panel.defaults();
    this.#updateQuestion();
    const view = this.#has('showMe') ? await this.#panel.showMe() : null;
    g.show.hidden = !view;
  }

  #updateQuestion() {
    const g = this.#parts;
    const panel = this.#panel;
    const q = predictOn() && this.#has('predict') ? panel.question() : null;
    const guess = q ? this.#guesses.get(q.key) : undefined;
    const asking = Boolean(q) && guess === undefined;
    for (const node of this.#hidden) node.style.visibility = '';
    this.#hidden = asking ? q.hide.filter(Boolean) : [];
    for (const node of this.#hidden) node.style.visibility = 'hidden';
    panel.toggleAttribute('data-guessing', asking);
    g.ask.hidden = !asking;
    if (asking) {
      const asked = `${q.key}|${panel.store.get().lang}|${q.text}`;
      if (this.#asked !== asked) {
        this.#asked = asked;
        g.prompt.textContent = `${this.#text('guessFirst')} ${q.text}`;
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
    g.verdict.textContent = this.#text(agreed ? 'verdictRight' : 'verdictWrong', {
      answer: label(answer),
      guess: label(guess),
    });
  }

  #guess(value) {
    const q = this.#panel.question();
    if (!q) return;
    this.#guesses.set(q.key, value);
    this.#updateQuestion();
    this.#parts.verdict.focus(); // the pressed choice is gone: keep the keyboard in the panel
  }

  async #applyShowMe() {
    const panel = this.#panel;
    const view = await panel.showMe();
    if (!view) return;
    const patch = typeof view.store === 'function' ? await view.store() : view.store;
    if (patch) panel.store.set(patch);
    this.#setControls(view.controls);
    reveal(view.reveal ?? document.getElementById(panel.getAttribute('reveal') ?? '') ?? panel);
  }

  #applyDefaults() {
    this.#setControls(this.#panel.defaults());
    this.#guesses.clear();
    this.#updateQuestion();
  }

  // A declared panel lists its guidance; the others have what their methods give.
  #has(what) {
    const { controls, guidance } = this.#panel.constructor;
    return !controls || guidance.includes(what);
  }

  #setControls(values) {
    const panel = this.#panel;
    if (panel.constructor.controls) return panel.setValues(values);
    const controls = panel.guideControls();
    for (const [name, value] of Object.entries(values ?? {})) {
      const control = controls[name];
      if (typeof control === 'function') control(value);
      else if (control) setControl(control, value);
    }
  }
}
