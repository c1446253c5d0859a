// <attention-explorer>'s sentence box (./attention-explorer.mjs): each model keeps its own
// sentence (one the reader typed carries over to a model that reads it; when it has to give way,
// a note says so), the tired ↔ wide swap, and the offer of the model that reads a sentence in
// the other language.
import { messages } from '../i18n.mjs';
import { SentenceMemory, UNTRAINED, sentencePair, swapFor } from '../lib/main-view.mjs';

export class SentenceBox {
  #ui;
  #t;
  #lang;
  #models; // ExplorerModels: the lesson's models, the labels of the page's own
  #memory = new SentenceMemory(); // each model keeps its own sentence
  #fresh = false; // reset() was the last move: nothing to keep

  // ui: the element's elements by id; t(key, params), lang(): its words; models: ExplorerModels.
  constructor(ui, { t, lang, models }) {
    this.#ui = ui;
    this.#t = t;
    this.#lang = lang;
    this.#models = models;
  }

  // The model `name` leaves the view: its sentence is kept for it (not after reset(), until the
  // next model opens).
  leave(name) {
    if (!this.#fresh) this.#memory.leave(name, this.#ui.sentence.value);
  }

  // Reset: no model keeps a sentence, and the next one opens with its own.
  reset() {
    this.#memory = new SentenceMemory();
    this.#fresh = true;
    this.#ui.sentence.value = sentencePair(null)[0]; // a default, so no model takes it for typed
    this.#ui['sentence-note'].hidden = true;
  }

  // The sentence the model `name` opens with: the host's (`given`); a sentence the reader typed,
  // when this model can read it (carried over); else the one this model showed last, else its
  // own default — and when a typed sentence had to give way, a note says so (it comes back with
  // the model it was typed for, `previous`).
  open(name, model, previous, given) {
    this.#fresh = false;
    const ui = this.#ui;
    const note = ui['sentence-note'];
    note.hidden = true;
    const { text, setAside } = this.#memory.open(name, model, ui.sentence.value, given);
    if (text !== ui.sentence.value) ui.sentence.value = text;
    if (setAside && previous) {
      note.dataset.model = previous;
      this.#translateNote();
      note.hidden = false;
    }
  }

  // Its words in the element's language, for the model on view (`config`: its config).
  translate(config) {
    this.swapFor(config);
    this.#translateNote();
    const offer = this.#ui['other-model'];
    if (!offer.hidden) this.offerModelFor(offer.dataset.lang);
  }

  #translateNote() {
    const note = this.#ui['sentence-note'];
    const { model } = note.dataset;
    if (!model) return;
    const strings = messages[this.#lang()];
    const name =
      model === UNTRAINED ? strings.untrained : (strings.models?.[model] ?? this.#models.local.get(model) ?? model);
    note.textContent = this.#t('sentenceKeptAside', { model: name });
  }

  // "Swap tired ↔ wide", or the words of the model's own pair (累 ↔ 宽).
  swapFor(config) {
    const { first, second } = swapFor(config);
    this.#ui.swap.textContent = this.#t('swap', { a: first, b: second });
  }

  // The swap button shows when the sentence has one of the model's pair.
  showSwap(config) {
    this.#ui.swap.hidden = !swapFor(config).test(this.#ui.sentence.value);
  }

  swap(config) {
    this.#ui.sentence.value = swapFor(config).swap(this.#ui.sentence.value);
  }

  // A refused sentence in the other language: offer the model that reads it, keeping the sentence.
  offerModelFor(lang) {
    const button = this.#ui['other-model'];
    const name = this.#models.lessonModel(lang);
    button.hidden = !name;
    if (!name) return;
    Object.assign(button.dataset, { model: name, lang });
    button.textContent = this.#t('openModel', { name: messages[this.#lang()].models?.[name] ?? name });
  }
}
