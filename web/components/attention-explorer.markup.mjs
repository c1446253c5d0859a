// <attention-explorer>'s markup (./attention-explorer.mjs): the controls card (model, sentence with
// the swap and the vocabulary, the untrained model's recipe) and the result card (status, answer,
// layer and head, the switches, the heatmap), and the two slots.
import { MAIN_CONTROLS, controlsOf } from '../lib/main-controls.mjs';
import { trustedHTML } from '../lib/trusted.mjs';

// A declared control's field (../lib/main-controls.mjs), built from its kind: its element, with
// the id of its name, and its label (data-t: the string of its name, in the page's language). A
// recipe's element is a menu of its options with the default selected, or a number box; a switch
// is checked when its default is on. `extra` is the view's own markup inside the field.
const ELEMENT = {
  model: (name) => `<select id="${name}" part="select"></select>`,
  index: (name) => `<select id="${name}" part="select"></select>`,
  sentence: (name) =>
    `<textarea id="${name}" rows="3" part="sentence" autocomplete="off" spellcheck="false"></textarea>`,
  switch: (name) =>
    `<input id="${name}" type="checkbox" part="checkbox"${MAIN_CONTROLS[name].default ? ' checked' : ''}>`,
  recipe: recipeElement,
};
const FIELD_CLASS = {
  model: 'field',
  index: 'field inline',
  sentence: 'field sentence',
  recipe: 'field',
  switch: 'check',
};

function recipeElement(name) {
  const { options, default: value, max } = MAIN_CONTROLS[name];
  const option = ([v, key]) =>
    `<option value="${v}"${key ? ` data-t="${key}"` : ''}${v === value ? ' selected' : ''}>${key ? '' : v}</option>`;
  const entries = Array.isArray(options) ? options.map((v) => [v]) : Object.entries(options ?? {});
  return options
    ? `<select id="${name}" part="select">${entries.map(option).join('')}</select>`
    : `<input id="${name}" type="number" inputmode="numeric" min="0" max="${max}" step="1" value="${value}">`;
}

function controlField(name, extra = '') {
  const { kind } = MAIN_CONTROLS[name];
  const label = `<label for="${name}" data-t="${name}"></label>`;
  const element = ELEMENT[kind](name);
  const inside = kind === 'switch' ? element + label : label + element; // a check box before its label
  return `<div class="${FIELD_CLASS[kind]}">${inside}${extra}</div>`;
}

// The fields of every declared control of `kind`, in the table's order.
const fields = (kind) =>
  controlsOf(kind)
    .map((name) => controlField(name))
    .join('');

// The sentence field's own parts: the swap, the note under it and the vocabulary.
const SENTENCE_EXTRAS = `
    <button type="button" id="swap" class="chip" part="button" hidden></button>
    <p id="sentence-note" class="answer-note" role="status" hidden></p>
    <details id="vocab" class="vocab" hidden>
      <summary id="vocab-summary"></summary>
      <div class="vocab-body">
        <label for="vocab-filter" data-t="vocabFilter"></label>
        <input id="vocab-filter" type="search" autocomplete="off" spellcheck="false" aria-describedby="vocab-hint">
        <p id="vocab-hint" class="vocab-hint" data-t="vocabHint"></p>
        <ul id="vocab-list" class="vocab-list" aria-labelledby="vocab-summary"></ul>
        <p id="vocab-none" class="vocab-hint" hidden data-t="vocabNone"></p>
      </div>
    </details>`;

// The view's markup, parsed once, when the first element is made (viewTemplate(): nothing
// touches the DOM at import). Ids are the shadow root's own (one set per element).
const MARKUP = `
<form id="controls" class="card controls" part="controls panel" aria-labelledby="controls-title">
  <h2 id="controls-title" class="visually-hidden" data-t="controls"></h2>
  ${controlField('model')}
  <div id="own-model" class="own-model" hidden>
    <p class="own-local" data-own="local"></p>
    <label for="own-files" data-own="pick"></label>
    <input id="own-files" type="file" multiple accept=".json,.txt,.bpe,.safetensors">
    <div id="own-drop" class="own-drop" data-own="drop"></div>
    <progress id="own-progress" max="1" value="0" hidden></progress>
    <p id="own-status" role="status" aria-live="polite"></p>
    <p class="own-panels" data-own="panels"></p>
  </div>
  ${controlField('sentence', SENTENCE_EXTRAS)}
  <fieldset id="random-settings" hidden>
    <legend data-t="randomSettings"></legend>
    <div class="grid">${fields('recipe')}</div>
  </fieldset>
</form>
<section class="card result" part="result panel" aria-labelledby="result-title">
  <h2 id="result-title" data-t="result"></h2>
  <p id="status" class="status" part="status" role="status"></p>
  <progress id="load-progress" class="load-progress" max="1" value="0" hidden aria-labelledby="status"></progress>
  <div id="error" class="error" part="error" role="alert"></div>
  <button type="button" id="other-model" class="chip" part="button" hidden></button>
  <div id="prediction" class="prediction" part="answer" hidden>
    <p id="answer" class="answer"></p>
    <p id="answer-note" class="answer-note" hidden></p>
    <div id="focus" class="focus" part="focus" hidden>
      <p class="focus-title"></p>
      <ol class="focus-words"></ol>
      <p class="focus-note"></p>
    </div>
    <div class="alternatives">
      <span id="alternatives-title" data-t="alternatives"></span>
      <ol id="alternatives" aria-labelledby="alternatives-title"></ol>
    </div>
  </div>
  <p id="unknown" class="unknown-note" hidden></p>
  <ul id="suggestions" class="suggestions" hidden></ul>
  <div class="result-head">
    <div class="view">
      ${fields('index')}
    </div>
    <button type="button" id="reset" class="chip" part="button" data-t="resetView"></button>
    <fieldset class="switches">
      <legend data-t="attention"></legend>
      ${fields('switch')}
    </fieldset>
  </div>
  <p class="howto" data-t="howToRead"></p>
  <ae-attention-heatmap id="heatmap" part="heatmap"></ae-attention-heatmap>
  <ae-export-buttons target="heatmap" view="heatmap" json></ae-export-buttons>
</section>
<div class="slot-box aside" hidden><slot name="aside"></slot></div>
<div class="slot-box below" hidden><slot></slot></div>`;

// The elements the element finds by id (its `ui`, by id): every declared control, and the rest.
export const IDS = [
  ...Object.keys(MAIN_CONTROLS),
  'controls',
  'own-model',
  'own-files',
  'swap',
  'sentence-note',
  'vocab',
  'vocab-summary',
  'vocab-filter',
  'vocab-list',
  'vocab-none',
  'random-settings',
  'reset',
  'status',
  'load-progress',
  'error',
  'other-model',
  'prediction',
  'answer',
  'answer-note',
  'alternatives',
  'unknown',
  'suggestions',
  'focus',
  'heatmap',
];

let template = null;
export function viewTemplate() {
  if (!template) {
    template = document.createElement('template');
    template.innerHTML = trustedHTML(MARKUP);
  }
  return template;
}
