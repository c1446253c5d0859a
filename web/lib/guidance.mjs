// What the lesson panels' guidance shares (issue 11): the page-wide "Predict, then reveal"
// switch, remembered in localStorage, and the two moves Show me and Reset make on a panel —
// setting its own controls as a reader would, and bringing the changed view into sight.
// The buttons and the question themselves are the LessonPanel base's (lesson-panel.mjs).
import { define } from './define.mjs';
import { getModelIndex, getTrainedModel } from './context.mjs';
import { coreferenceHead } from './coreference-head.mjs';
import { LESSON_MODELS } from './lesson.mjs';
import { StoreElement } from './store-element.mjs';
import { text } from './panel-strings.mjs';
import strings from '../strings/guidance.mjs';

const PREDICT_KEY = 'ae-predict';
const listeners = new Set();

// localStorage can throw (storage disabled, an opaque origin): the switch then lasts the visit.
let predicting = (() => {
  try {
    return globalThis.localStorage?.getItem(PREDICT_KEY) === '1';
  } catch {
    return false;
  }
})();

// The path (<ae-lesson-path>) turns the switch on while a step is open, without storing it: the
// reader's own setting comes back when the path is left. The reader's click on the switch wins.
let forced = null; // true while the path holds it on, else null

export const predictOn = () => forced ?? predicting;

export function forcePredict(on) {
  const before = predictOn();
  forced = on ? true : null;
  if (predictOn() !== before) for (const listener of [...listeners]) listener(predictOn());
}

export function setPredict(on) {
  forced = null;
  predicting = Boolean(on);
  try {
    globalThis.localStorage?.setItem(PREDICT_KEY, predicting ? '1' : '0');
  } catch {
    // kept for this visit only
  }
  for (const listener of [...listeners]) listener(predicting);
}

// Returns the function that unsubscribes.
export function onPredictChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Sets a panel's control the way a reader would (value or checked, then the events its own
// handlers listen to), so the panel redraws and writes its link entry itself.
export function setControl(control, value) {
  if (control.type === 'checkbox') {
    if (control.checked === Boolean(value)) return;
    control.checked = Boolean(value);
  } else {
    if (control.value === String(value)) return;
    control.value = String(value);
  }
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

// Scrolls `target` into sight unless it is fully visible — at once under prefers-reduced-motion.
export function reveal(target) {
  if (!target) return;
  const box = target.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= innerHeight) return; // already in sight: don't move the page
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ block: 'start', behavior: still ? 'instant' : 'smooth' });
}

let listed = null; // Promise<Set> of models/index.json's names, read once

function listedModels() {
  listed ??= getModelIndex().then((models) => new Set(models.map((m) => m.name)));
  return listed;
}

// The head the shown model's config.json names as its coreference head, or null (an untrained
// or unlisted model: nothing is fetched for it).
export async function shownCoreferenceHead(store) {
  const { model } = store.get();
  if (!(await listedModels()).has(model)) return null;
  return coreferenceHead((await getTrainedModel(model).catch(() => null))?.config);
}

// Show me for the panels that draw the main view's run: its model at the coreference head that
// training chose (config.json's coreference_head, never a fixed number) and the default word,
// `it`. The shown model when it names such a head, else the page's lesson model; null when no
// listed model could. The heads are read on the click, so showing the button fetches nothing.
export async function lessonView(store) {
  const { model, lang } = store.get();
  const names = await listedModels();
  const candidates = [model, LESSON_MODELS[lang], LESSON_MODELS.en].filter((name) => names.has(name));
  if (!candidates.length) return null;
  return {
    store: async () => {
      for (const name of candidates) {
        const head = coreferenceHead((await getTrainedModel(name).catch(() => null))?.config);
        if (head) return { model: name, ...head, token: null };
      }
      return null;
    },
  };
}

export const guidanceText = (lang, key, params) => text(strings, lang, key, params);

// <ae-predict-switch>: the page-wide switch (one checkbox), above the lesson panels.
export class PredictSwitch extends StoreElement {
  static watched = ['lang'];

  #input = null;
  #label = null;
  #hint = null;
  #unlisten = null;

  connectedCallback() {
    if (!this.#input) this.#build();
    this.#unlisten = onPredictChange((on) => (this.#input.checked = on));
    this.#input.checked = predictOn();
    super.connectedCallback();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#unlisten?.();
  }

  storeChanged() {
    const { lang } = this.store.get();
    this.#label.textContent = guidanceText(lang, 'predict');
    this.#hint.textContent = guidanceText(lang, 'predictHint');
  }

  #build() {
    const box = document.createElement('div');
    box.className = 'check';
    this.#input = Object.assign(document.createElement('input'), { type: 'checkbox', id: 'ae-predict' });
    this.#label = Object.assign(document.createElement('label'), { htmlFor: 'ae-predict' });
    this.#hint = Object.assign(document.createElement('span'), { id: 'ae-predict-hint', className: 'hint' });
    this.#input.setAttribute('aria-describedby', this.#hint.id);
    this.#input.addEventListener('change', () => setPredict(this.#input.checked));
    box.append(this.#input, this.#label, this.#hint);
    this.replaceChildren(box);
  }
}

define('ae-predict-switch', PredictSwitch);
