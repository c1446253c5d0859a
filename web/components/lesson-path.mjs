// <ae-lesson-path>: the path through the lesson (path-steps.mjs), one step at a time, on the page
// between the main view and the lesson panels. Closed, it says what the path is, lists its steps
// (links, ✓ for those visited) and offers Start, or Continue where the reader left off. Open, a
// step shows its question (strings/path.mjs), the live figure of its panel (path-figures.mjs: read
// from what the panel or the main view shows, and read again whenever that changes), and Back,
// Next, Go to the panel and Leave; the card moves to just above the step's panel, which it
// highlights, scrolls into view and hands the keyboard focus.
// The open step is the shared store's `step` (null: closed), so it is in the link (?step=<id>;
// ?step=<n> opens the n-th step) and in the history: Back and Forward move between steps.
// While a step is open the panels ask for a guess before showing their numbers (guidance.mjs's
// predict-then-reveal, turned on for the path without changing the reader's own setting).
// The step reached and the steps visited are kept in localStorage (when it can be used).
// Light DOM, styled by the page's style.css (ae-lesson-path). A reader who never opens the path
// meets every panel as before.
import { PATH_STEPS, pathStep } from '../lib/path-steps.mjs';
import { readFigure } from '../lib/path-figures.mjs';
import { forcePredict } from '../lib/guidance.mjs';
import { StoreElement } from '../lib/store-element.mjs';
import { el } from '../lib/dom.mjs';
import { text } from '../lib/panel-strings.mjs';
import { LESSON } from '../lib/lesson.mjs';
import { deciderSwap, lessonPair, pronounOf } from '../lib/model-lesson.mjs';
import strings from '../strings/path.mjs';

const STORAGE_KEY = 'ae-path'; // {step: id, done: [id]}

function loadProgress() {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? 'null');
    const step = pathStep(saved?.step)?.id ?? null;
    const done = Array.isArray(saved?.done) ? saved.done.filter((id) => pathStep(id)) : [];
    return { step, done: new Set(done) };
  } catch {
    return { step: null, done: new Set() }; // storage off or unreadable: the path starts afresh
  }
}

function saveProgress({ step, done }) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify({ step, done: [...done] }));
  } catch {
    // kept for this visit only
  }
}

// A link's step: its id, or its 1-based number.
export function stepOf(value) {
  if (/^\d{1,2}$/.test(value ?? '')) return PATH_STEPS[Number(value) - 1] ?? null;
  return pathStep(value);
}

export class LessonPath extends StoreElement {
  static watched = ['lang', 'step', 'result', 'layer', 'head', 'config'];

  #ui = null;
  #progress = loadProgress();
  #shown = undefined; // the step last shown (null: closed), to tell a move from a redraw
  #home = null; // the comment that marks the card's place while closed
  #observer = null; // of the step's panel
  #observed = null;

  connectedCallback() {
    if (!this.#ui) this.#build();
    super.connectedCallback();
  }

  #t(key, params) {
    return text(strings, this.store.get().lang, key, params);
  }

  #build() {
    this.#home = document.createComment(' ae-lesson-path ');
    this.before(this.#home);
    this.classList.add('panel');
    const title = el('h2', '', this, { id: 'path-title' });
    this.setAttribute('role', 'region');
    this.setAttribute('aria-labelledby', title.id);
    const intro = el('p', 'howto path-intro', this);
    const list = el('ol', 'path-list', this);
    const links = PATH_STEPS.map(({ id }, i) => {
      const a = el('a', 'path-link', el('li', '', list), { href: `?step=${id}`, 'data-step': id });
      a.addEventListener('click', (event) => {
        event.preventDefault();
        this.go(id);
      });
      return { a, i };
    });
    const start = el('div', 'path-start', this);
    const begin = el('button', 'chip path-begin', start, { type: 'button' });
    const restart = el('button', 'chip path-restart', start, { type: 'button' });
    begin.addEventListener('click', () => this.go(this.#progress.step ?? PATH_STEPS[0].id));
    restart.addEventListener('click', () => this.go(PATH_STEPS[0].id));
    const open = el('div', 'path-open', this);
    const count = el('p', 'path-count', open, { id: 'path-count', tabindex: '-1' });
    const question = el('p', 'path-question', open);
    const figure = el('div', 'path-figure', open, { role: 'status' });
    const figureLabel = el('span', 'path-figure-label', figure);
    figure.append(' ');
    const figureText = el('span', 'path-figure-text', figure);
    const nav = el('div', 'path-nav', open);
    const back = el('button', 'chip path-back', nav, { type: 'button' });
    const next = el('button', 'chip path-next', nav, { type: 'button' });
    const goTo = el('button', 'chip path-goto', nav, { type: 'button' });
    const leave = el('button', 'chip path-leave', nav, { type: 'button' });
    back.addEventListener('click', () => this.#move(-1));
    next.addEventListener('click', () => this.#move(1));
    goTo.addEventListener('click', () => this.#focusPanel());
    leave.addEventListener('click', () => this.store.set({ step: null }));
    list.setAttribute('aria-labelledby', title.id);
    this.#ui = {
      title,
      intro,
      list,
      links,
      start,
      begin,
      restart,
      open,
      count,
      question,
      figure,
      figureLabel,
      figureText,
      back,
      next,
      goTo,
      leave,
    };
  }

  // Opens step `id` (the reader's move: a history entry, app.mjs).
  go(id) {
    if (pathStep(id)) this.store.set({ step: id });
  }

  #move(delta) {
    const i = PATH_STEPS.findIndex((s) => s.id === this.store.get().step);
    const target = PATH_STEPS[i + delta];
    if (target) this.go(target.id);
  }

  storeChanged() {
    const raw = this.store.get().step;
    const step = raw ? stepOf(raw) : null;
    if (raw && step?.id !== raw) {
      // ?step=4, or a step this page does not have: the link is set right (no history entry)
      queueMicrotask(() => this.store.set({ step: step?.id ?? null }));
      return;
    }
    const before = this.#shown;
    const moved = before !== (step?.id ?? null);
    this.#shown = step?.id ?? null;
    this.#render(step);
    if (moved) this.#arrive(step, Boolean(before));
    this.#showFigure();
  }

  #render(step) {
    const ui = this.#ui;
    const s = strings[this.store.get().lang] ?? strings.en;
    const { done } = this.#progress;
    ui.title.textContent = s.title;
    ui.intro.textContent = s.intro;
    ui.list.setAttribute('aria-label', s.stepsLabel);
    for (const { a, i } of ui.links) {
      const id = PATH_STEPS[i].id;
      const current = step?.id === id;
      const mark = done.has(id) && !current ? ' ✓' : '';
      a.textContent = `${i + 1}. ${s.names[id]}${mark}`;
      if (mark) a.setAttribute('aria-description', s.done);
      else a.removeAttribute('aria-description');
      if (current) a.setAttribute('aria-current', 'step');
      else a.removeAttribute('aria-current');
    }
    this.dataset.step = step?.id ?? '';
    this.toggleAttribute('data-open', Boolean(step));
    ui.intro.hidden = Boolean(step);
    ui.start.hidden = Boolean(step);
    ui.open.hidden = !step;
    const reached = this.#progress.step && stepOf(this.#progress.step);
    ui.begin.textContent = reached ? this.#t('continue', { n: PATH_STEPS.indexOf(reached) + 1 }) : this.#t('start');
    ui.restart.textContent = s.restart;
    ui.restart.hidden = !reached;
    if (!step) return;
    const i = PATH_STEPS.indexOf(step);
    ui.count.textContent = `${this.#t('step', { n: i + 1, total: PATH_STEPS.length })} · ${s.names[step.id]}`;
    // The shown model's own words: its pronoun (it, 它) and the two words its swap exchanges.
    const { config } = this.store.get();
    const { first, second } = deciderSwap(lessonPair(config) ?? [LESSON.tired, LESSON.wide]);
    ui.question.textContent = this.#t(`steps.${step.id}`, { pronoun: pronounOf(config), a: first, b: second });
    ui.figureLabel.textContent = `${s.figureLabel}:`;
    ui.back.textContent = `← ${s.back}`;
    ui.next.textContent = `${s.next} →`;
    ui.back.disabled = i === 0;
    ui.next.disabled = i === PATH_STEPS.length - 1;
    ui.goTo.textContent = s.goTo;
    ui.leave.textContent = s.leave;
  }

  // A step opened (or the path closed): the card goes above the step's panel (below the main
  // view for the first step; a closed card stays where it is), the panel is highlighted and brought into view, the panels ask before they reveal, the progress is kept.
  #arrive(step, left) {
    for (const old of document.querySelectorAll('[data-path-highlight]')) old.removeAttribute('data-path-highlight');
    this.#observe(step);
    forcePredict(Boolean(step));
    const section = step && document.getElementById(step.section);
    const place = section && section.tagName === 'SECTION' ? section : null; // the main view: the card stays below it
    if (place && this.nextElementSibling !== place) place.before(this);
    else if (step && !place && this.#home && this.previousSibling !== this.#home) this.#home.after(this);
    if (!step) {
      // Left (a step was open): the card stays where the reader is, closed; the keyboard goes on
      // to Continue. On the page's first draw nothing was open: the focus stays where it is (the
      // skip link must stay the first Tab stop, however late the path arrives).
      if (left && (this.contains(document.activeElement) || document.activeElement === document.body))
        this.#ui.begin.focus({ preventScroll: true });
      return;
    }
    section?.setAttribute('data-path-highlight', '');
    this.#progress.step = step.id;
    this.#progress.done.add(step.id);
    saveProgress(this.#progress);
    this.#render(step); // the ✓ of the step just added
    // Into view once the panels above have their height (a linked step opens with the page).
    requestAnimationFrame(() => {
      if (this.#shown !== step.id) return;
      this.scrollIntoView({ block: place ? 'start' : 'end' });
      this.#ui.count.focus({ preventScroll: true });
    });
  }

  // "Go to the panel": the keyboard into the panel (its first control), the panel into view.
  #focusPanel() {
    const step = stepOf(this.store.get().step);
    const section = step && document.getElementById(step.section);
    if (!section) return;
    section.scrollIntoView({ block: 'start' });
    const host = section.tagName === 'SECTION' ? section.firstElementChild : section;
    const target = (host?.shadowRoot ?? host)?.querySelector(
      'button:not([hidden]), select, input, textarea, [tabindex="0"]',
    );
    (target ?? section).focus({ preventScroll: true });
  }

  // The figure is read again whenever the step's panel changes (its attributes or what it shows).
  #observe(step) {
    this.#observer?.disconnect();
    this.#observed = null;
    if (!step) return;
    const section = document.getElementById(step.section);
    const host = section?.tagName === 'SECTION' ? section.firstElementChild : null;
    if (!host) return; // the main view: its run is in the store
    this.#observer ??= new MutationObserver(() => this.#showFigure());
    this.#observer.observe(host, { attributes: true });
    if (host.shadowRoot)
      this.#observer.observe(host.shadowRoot, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    this.#observed = host;
  }

  #showFigure() {
    const step = stepOf(this.store.get().step);
    const ui = this.#ui;
    if (!step) return;
    // A panel defined after the step opened has its shadow root now.
    const host = document.getElementById(step.section)?.firstElementChild;
    if (host && host !== this.#observed && host.shadowRoot && step.section !== 'result') this.#observe(step);
    const figure = readFigure(step.id, { store: this.store, doc: document });
    let words;
    if (figure?.guess) words = this.#t('figureGuess');
    else if (figure) words = this.#t(`figures.${step.id}`, figure.params);
    else words = this.#t('figureWait');
    if (figure && !figure.guess) ui.figure.dataset.figure = String(figure.value);
    else delete ui.figure.dataset.figure;
    if (ui.figureText.textContent !== words) ui.figureText.textContent = words;
  }
}

if (!customElements.get('ae-lesson-path')) customElements.define('ae-lesson-path', LessonPath);
