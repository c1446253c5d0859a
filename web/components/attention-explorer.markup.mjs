// <attention-explorer>'s markup (./attention-explorer.mjs): the controls card (model, sentence with
// the swap and the vocabulary, the untrained model's recipe) and the result card (status, answer,
// layer and head, the switches, the heatmap), and the two slots.
import { MAIN_CONTROLS, controlsOf } from '../lib/main-controls.mjs';
import { trustedHTML } from '../lib/trusted.mjs';

// An untrained model's recipe field, as declared (../lib/main-controls.mjs): a menu of its
// options with the default selected, or a number box.
function recipeField(name) {
  const { options, default: value, max } = MAIN_CONTROLS[name];
  const option = ([v, key]) =>
    `<option value="${v}"${key ? ` data-t="${key}"` : ''}${v === value ? ' selected' : ''}>${key ? '' : v}</option>`;
  const entries = Array.isArray(options) ? options.map((v) => [v]) : Object.entries(options ?? {});
  const control = options
    ? `<select id="${name}" part="select">${entries.map(option).join('')}</select>`
    : `<input id="${name}" type="number" inputmode="numeric" min="0" max="${max}" step="1" value="${value}">`;
  return `
      <div class="field"><label for="${name}" data-t="${name}"></label>${control}</div>`;
}

// The view's markup, parsed once, when the first element is made (viewTemplate(): nothing
// touches the DOM at import). Ids are the shadow root's own (one set per element).
const MARKUP = `
<form id="controls" class="card controls" part="controls panel" aria-labelledby="controls-title">
  <h2 id="controls-title" class="visually-hidden" data-t="controls"></h2>
  <div class="field"><label for="model" data-t="model"></label><select id="model" part="select"></select></div>
  <div id="own-model" class="own-model" hidden>
    <p class="own-local" data-own="local"></p>
    <label for="own-files" data-own="pick"></label>
    <input id="own-files" type="file" multiple accept=".json,.txt,.bpe,.safetensors">
    <div id="own-drop" class="own-drop" data-own="drop"></div>
    <progress id="own-progress" max="1" value="0" hidden></progress>
    <p id="own-status" role="status" aria-live="polite"></p>
    <p class="own-panels" data-own="panels"></p>
  </div>
  <div class="field sentence">
    <label for="sentence" data-t="sentence"></label>
    <textarea id="sentence" rows="3" part="sentence" autocomplete="off" spellcheck="false"></textarea>
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
    </details>
  </div>
  <fieldset id="random-settings" hidden>
    <legend data-t="randomSettings"></legend>
    <div class="grid">${controlsOf('recipe').map(recipeField).join('')}</div>
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
      <div class="field inline"><label for="layer" data-t="layer"></label><select id="layer" part="select"></select></div>
      <div class="field inline"><label for="head" data-t="head"></label><select id="head" part="select"></select></div>
    </div>
    <button type="button" id="reset" class="chip" part="button" data-t="resetView"></button>
    <fieldset class="switches">
      <legend data-t="attention"></legend>
      <div class="check"><input id="causal" type="checkbox" part="checkbox"><label for="causal" data-t="causal"></label></div>
      <div class="check"><input id="scale" type="checkbox" part="checkbox" checked><label for="scale" data-t="scale"></label></div>
    </fieldset>
  </div>
  <p class="howto" data-t="howToRead"></p>
  <ae-attention-heatmap id="heatmap" part="heatmap"></ae-attention-heatmap>
  <ae-export-buttons target="heatmap" view="heatmap" json></ae-export-buttons>
</section>
<div class="slot-box aside" hidden><slot name="aside"></slot></div>
<div class="slot-box below" hidden><slot></slot></div>`;

// The elements the element finds by id (its `ui`, by id).
export const IDS = [
  'controls',
  'model',
  'own-model',
  'own-files',
  'sentence',
  'swap',
  'sentence-note',
  'vocab',
  'vocab-summary',
  'vocab-filter',
  'vocab-list',
  'vocab-none',
  'random-settings',
  'heads',
  'layers',
  'positional',
  'seed',
  'causal',
  'scale',
  'layer',
  'head',
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
