// The main view's vocabulary help, drawn inside <attention-explorer>: "Words this model knows
// (N)" — a trained model's words, filtered by a search box, each put into the sentence at the
// caret by click or keyboard (the list is one Tab stop however many words it has; the arrow
// keys, Home and End move in it) — and, under the answer, "did you mean …" for each word read
// as [UNK], whose choices replace it. The words and the distances come from the engine
// (TrainedModel.vocabularyWords, nearestWords, through vocabulary-help.mjs); this module only
// draws them and edits the sentence's text.
import { insertWord, replaceWord, suggestionsFor, vocabularyLanguage } from './vocabulary-help.mjs';

const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };

export class VocabularyView {
  #ui;
  #sentence;
  #edited;
  #t;
  #locale;
  #model = null; // the TrainedModel whose words are listed, or null
  #words = []; // its words, as vocabularyWords gives them
  #drawn = false; // whether the list holds them yet
  #language = null; // 'en' | 'zh': the language of its words

  // ui: {box: the <details>, summary, filter, list, none: "no word contains that", suggestions};
  // sentence: the <textarea>; edited() runs the sentence after an edit; t(key, params) → the
  // view's strings (i18n.mjs); locale() → the Intl locale of its language.
  constructor(ui, { sentence, edited, t, locale }) {
    this.#ui = ui;
    this.#sentence = sentence;
    this.#edited = edited;
    this.#t = t;
    this.#locale = locale;
    ui.list.addEventListener('click', (e) => this.#insert(e));
    ui.list.addEventListener('keydown', (e) => this.#move(e));
    ui.filter.addEventListener('input', () => this.#filter());
    // Drawn at the click that opens the box, before the browser shows it (keyboard too: Enter
    // and Space on a summary click it), or when a script opens it.
    ui.summary.addEventListener('click', () => this.#draw());
    ui.box.addEventListener('toggle', () => ui.box.open && this.#draw());
    ui.suggestions.addEventListener('click', (e) => this.#replace(e));
  }

  // The language the listed words are in, or null while no model with a vocabulary is shown.
  get language() {
    return this.#language;
  }

  // Lists the words of `model` (a TrainedModel; null or a random model: no list). The list's
  // buttons (hundreds) are made when the reader first opens it, not with every model shown.
  show(model) {
    const words = model?.vocabularyWords?.() ?? null;
    this.#model = words ? model : null;
    this.#language = words && vocabularyLanguage(words);
    this.#words = words ?? [];
    const ui = this.#ui;
    ui.box.hidden = !words;
    ui.filter.value = '';
    ui.none.hidden = true;
    ui.list.replaceChildren();
    this.#drawn = false;
    if (ui.box.open) this.#draw();
    this.translate();
  }

  #draw() {
    if (this.#drawn || !this.#model) return;
    this.#drawn = true;
    const { compare } = new Intl.Collator(this.#locale());
    this.#ui.list.replaceChildren(
      ...[...this.#words].sort(compare).map((word) => {
        const item = document.createElement('li');
        const button = Object.assign(document.createElement('button'), {
          type: 'button',
          className: 'chip',
          textContent: word,
        });
        button.dataset.word = word;
        item.append(button);
        return item;
      }),
    );
    this.#labelButtons();
    this.#filter();
  }

  translate() {
    if (!this.#model) return;
    this.#ui.summary.textContent = this.#t('vocabSummary', {
      n: this.#words.length.toLocaleString(this.#locale()),
    });
    this.#labelButtons();
  }

  #labelButtons() {
    for (const button of this.#ui.list.querySelectorAll('button'))
      button.ariaLabel = this.#t('vocabInsert', { word: button.dataset.word });
  }

  // "“bycicle” is not a word this model knows — did you mean “bicycle”?" for each unknown word
  // of a run with known words close enough (Vocabulary::nearest in the core); none for [].
  suggest(tokens, unknown, count) {
    const offers = this.#model && unknown.length ? suggestionsFor(this.#model, tokens, unknown, count) : [];
    const list = this.#ui.suggestions;
    list.hidden = offers.length === 0;
    list.replaceChildren(
      ...offers.map(({ word, near }) => {
        const item = document.createElement('li');
        const choices = near.flatMap((choice, i) => {
          const button = Object.assign(document.createElement('button'), {
            type: 'button',
            className: 'chip',
            textContent: `“${choice}”`,
          });
          button.ariaLabel = this.#t('suggestionLabel', { word, choice });
          Object.assign(button.dataset, { word, choice });
          return i ? [i === near.length - 1 ? this.#t('suggestionOr') : ', ', button] : [button];
        });
        const [before, after] = this.#t('suggestion', { word }).split('{choices}');
        item.append(before, ...choices, after);
        return item;
      }),
    );
  }

  #filter() {
    if (!this.#drawn) return;
    const ui = this.#ui;
    const query = ui.filter.value.trim().toLowerCase();
    for (const item of ui.list.children) item.hidden = Boolean(query) && !item.firstChild.dataset.word.includes(query);
    const shown = this.#shown();
    ui.none.hidden = shown.length > 0;
    this.#setStop(shown[0]);
  }

  #shown() {
    return [...this.#ui.list.querySelectorAll('li:not([hidden]) > button')];
  }

  // `button` is the list's one Tab stop.
  #setStop(button) {
    for (const b of this.#ui.list.querySelectorAll('button')) b.tabIndex = b === button ? 0 : -1;
  }

  #move(event) {
    const step = MOVES[event.key];
    const shown = this.#shown();
    const at = shown.indexOf(this.#ui.list.getRootNode().activeElement); // the list may be in a shadow root
    if (step === undefined || at < 0) return;
    event.preventDefault();
    const next = shown[Math.max(0, Math.min(shown.length - 1, at + step))]; // Home/End: ±Infinity clamps
    this.#setStop(next);
    next.focus();
  }

  // A word chosen in the list goes into the sentence at the caret (or over the selection).
  #insert(event) {
    const button = event.target.closest('button');
    const word = button?.dataset.word;
    if (!word) return;
    this.#setStop(button);
    const sentence = this.#sentence;
    const { text, caret } = insertWord(sentence.value, sentence.selectionStart, sentence.selectionEnd, word);
    sentence.value = text;
    sentence.setSelectionRange(caret, caret); // the next word goes after this one
    this.#edited();
  }

  #replace(event) {
    const button = event.target.closest('button');
    if (!button) return;
    const sentence = this.#sentence;
    sentence.value = replaceWord(sentence.value, button.dataset.word, button.dataset.choice);
    this.#edited();
    sentence.focus(); // the button is gone with the word it offered to replace
  }
}
