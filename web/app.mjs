// Attention Explorer page: runs an untrained RandomModel, or one of the trained models listed
// in models/index.json, in wasm and shows one head's attention weights and the model's answer.
// The model, its config, run options, sentence, layer and head are mirrored as data-* attributes
// on #app, so tests can recompute exactly what is shown.
import { getEngine, getModelIndex, getTrainedModel, onLocalModel, shareModel } from './lib/context.mjs';
import { format, messages, pickLanguage } from './i18n.mjs';
import { store } from './lib/store.mjs';
import { readUrlState, urlFor } from './lib/url-state.mjs';
import './components/attention-heatmap.mjs';
import './components/head-view.mjs';
import { locale as localeOf, percent as formatPercent } from './lib/panel-strings.mjs';
import { coreferenceHead } from './lib/coreference-head.mjs';
import { pronounOf } from './lib/model-lesson.mjs';
import {
  SentenceMemory,
  TYPING_DELAY_MS,
  answerParts,
  orderModels,
  runView,
  sentencePair,
  swapFor,
} from './lib/main-view.mjs';
import { OWN_MODEL, ownModelText, setUpOwnModel } from './lib/own-model-picker.mjs';
import { insertWord, replaceWord, suggestionsFor, unreadLanguage, vocabularyLanguage } from './lib/vocabulary-help.mjs';
// The lesson panels and the All heads grid come from ./panels.mjs, imported after the first
// draw (loadLessonPanels).

const D_MODEL = 32; // 1, 2, 4 and 8 heads all divide it
const SEED_MAX = 0xffffffff; // the binding casts the seed to uint64: keep it a small whole number
const UNTRAINED = 'untrained';
// The lesson opens on the trained coreference head in the page's language (English stays one click away).
const DEFAULT_MODELS = { en: 'coref-encoder', zh: 'coref-encoder-zh' };
const SUGGESTIONS = 3; // known words offered for a word read as [UNK]

const $ = (id) => document.getElementById(id);
const ui = Object.fromEntries(
  [
    'app',
    'result',
    'status',
    'error',
    'heatmap',
    'model',
    'sentence',
    'swap',
    'random-settings',
    'heads',
    'layers',
    'positional',
    'seed',
    'causal',
    'scale',
    'layer',
    'head',
    'lang',
    'banner-title',
    'banner-text',
    'other-model',
    'sentence-note',
    'prediction',
    'answer',
    'alternatives',
    'unknown',
    'fact-params-row',
    'fact-params',
    'fact-dmodel',
    'fact-headdim',
    'fact-heads',
    'fact-layers',
    'fact-positional',
    'fact-task',
    'fact-size-row',
    'fact-size',
    'fact-tokens',
    'fact-splits-row',
    'fact-splits',
    'fact-simd',
    'fact-arithmetic',
    'answer-note',
    'suggestions',
    'vocab',
    'vocab-summary',
    'vocab-filter',
    'vocab-list',
    'vocab-none',
  ].map((id) => [id, $(id)]),
);

// The page's language, like every shared setting, lives in the store only (panels follow it there).
store.set({ lang: pickLanguage(storage('ae-lang'), navigator.language) });
const lang = () => store.get().lang;

// What the view shows — model name, sentence, switches, layer, head, language and the last
// successful run (`result`) — is the store's alone. The page keeps only what the store has no
// place for: the wasm objects behind the view, its own messages and bookkeeping.
const resources = {
  engine: null,
  index: [], // the entries of models/index.json
  random: null, // the RandomModel, kept while its config stays
  configKey: '', // JSON of the config the RandomModel was built from
  own: null, // the own-model picker (own-model-picker.mjs)
};
let shownModel = null; // the model shown: the RandomModel or a TrainedModel (null while one loads)
let runBy = null; // the model that made the store's result
// The store's run while it is the shown model's (after another model is chosen, not yet).
const shownRun = () => (runBy && runBy === shownModel ? store.get().result : null);
let statusShown = null; // {key, params} of the status line while something loads
let errorShown = null; // {key, params, cause}, kept so it can be re-translated
let pendingLink = null; // {layer?, head?, causal?, scale?} from the URL, applied once the first model is shown
let vocabulary = null; // {words, language} of the trained model shown (vocabularyWords), or null
let starting = true; // until the first model is chosen
let modelChosen = false; // the reader (or the link) chose the model: it no longer follows the language
let shownName = null; // the name of the model last shown
const sentences = new SentenceMemory(); // each model keeps its own sentence

// localStorage may be blocked (privacy settings); the page then just doesn't remember.
function storage(key, value) {
  try {
    return value === undefined ? localStorage.getItem(key) : localStorage.setItem(key, value);
  } catch {
    return null;
  }
}

const t = (key, params) => format(messages[lang()][key], params);
const locale = () => localeOf(lang());
// A share measured over a split (not a probability, so 100 % and 0 % can be exact).
const formatRate = (x) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(x);
const localLabels = new Map(); // name → label of the models trained here or loaded from disk
const modelLabel = (name) => messages[lang()].models[name] ?? localLabels.get(name) ?? name;
const indexEntry = (name) => resources.index.find((m) => m.name === name);
const choice = () => ui.model.value;
const task = () => shownModel?.config.task ?? 'none';

// --- model menu ---

const fetchIndex = async () => orderModels(await getModelIndex());

function fillModelMenu() {
  if (!resources.index.length) return;
  const group = document.createElement('optgroup');
  group.id = 'trained-models';
  group.append(...resources.index.map((m) => new Option(modelLabel(m.name), m.name)));
  ui.model.append(group);
}

// A model trained in the page or loaded from disk (<ae-train>): a menu entry like the shipped ones.
function addLocalModelOption({ name, label }) {
  localLabels.set(name, label);
  let group = $('local-models');
  if (!group) {
    group = document.createElement('optgroup');
    group.id = 'local-models';
    group.label = t('localGroup');
    ui.model.append(group);
  }
  group.append(new Option(label, name));
}

function translateModelMenu() {
  const group = $('trained-models');
  const local = $('local-models');
  if (local) local.label = t('localGroup');
  if (!group) return;
  group.label = t('trainedGroup');
  for (const option of group.children) option.textContent = modelLabel(option.value);
}

async function selectModel() {
  const name = choice();
  sentences.leave(shownName, ui.sentence.value);
  const trained = name !== UNTRAINED;
  ui['random-settings'].hidden = trained;
  ui['fact-size-row'].hidden = !trained;
  ui.app.dataset.model = name;
  $('own-model').hidden = name !== OWN_MODEL;
  if (name === OWN_MODEL) return selectOwnModel();
  if (!trained) {
    setStatus(null); // another model may still be loading: it is kept for later
    return useModel(null);
  }

  shownModel = null; // run() waits until the model is here
  setStatus('loadingModel', { name: modelLabel(name) });
  ui.app.dataset.status = 'loading';
  ui.result.classList.add('stale');
  try {
    const progress = ({ loaded, total }) => {
      if (choice() !== name) return;
      const kb = (bytes) => Math.round(bytes / 1024).toLocaleString(locale());
      setStatus(total ? 'loadingModelBytes' : 'loadingModelSoFar', {
        name: modelLabel(name),
        loaded: kb(loaded),
        total: kb(total ?? 0),
      });
    };
    const model = await getTrainedModel(name, progress); // fetched once, shared with the other panels
    if (choice() === name) useModel(model);
  } catch (error) {
    if (choice() === name) showError('modelError', { name: modelLabel(name) }, error);
  } finally {
    if (choice() === name) setStatus(null);
  }
}

// A model the reader opened from disk (own-model-picker.mjs), or nothing until one is opened.
function selectOwnModel() {
  setStatus(null);
  const model = resources.own.current();
  if (model) return useModel(model);
  shownModel = null;
  ui.result.classList.add('stale');
}

// Shows `model` (a TrainedModel, or null for the random one) with its task's defaults.
function useModel(model) {
  shownModel = model ?? resources.random;
  const previous = shownName;
  shownName = choice();
  chooseSentence(model, previous);
  translateSwap();
  ui.causal.checked = Boolean(shownModel?.config.causal); // start from the mask it was trained with
  if (shownModel) fillRanges();
  const head = model && coreferenceHead(model.config);
  if (head) [ui.layer.value, ui.head.value] = [head.layer, head.head];
  showVocabulary(model);
  applyLink();
  runNow();
}

// The sentence a model opens with: the link's; a sentence the reader typed, when this model can
// read it (carried over); else the one this model showed last, else its own default — and when a
// typed sentence had to give way, a note says so (it comes back with the model it was typed for).
function chooseSentence(model, previous) {
  ui['sentence-note'].hidden = true;
  const { text, setAside } = sentences.open(shownName, model, ui.sentence.value, pendingLink?.sentence);
  if (text !== ui.sentence.value) ui.sentence.value = text;
  if (setAside && previous) {
    ui['sentence-note'].dataset.model = previous;
    translateSentenceNote();
    ui['sentence-note'].hidden = false;
  }
}

function translateSentenceNote() {
  const { model } = ui['sentence-note'].dataset;
  if (model)
    ui['sentence-note'].textContent = t('sentenceKeptAside', {
      model: model === UNTRAINED ? t('untrained') : modelLabel(model),
    });
}

// The shown model's pair (main-view.mjs).
const modelPair = () => sentencePair(shownModel?.config);
const swapper = () => swapFor(shownModel?.config);

function swapDecider() {
  ui.sentence.value = swapper().swap(ui.sentence.value);
  runNow();
}

// "Swap tired ↔ wide", or the words of the model's own pair (累 ↔ 宽).
function translateSwap() {
  const { first, second } = swapper();
  ui.swap.textContent = t('swap', { a: first, b: second });
}

// The trained coreference model that reads `lang` ('en' | 'zh'), if the page has one.
const coreferenceModelIn = (lang) => (indexEntry(DEFAULT_MODELS[lang]) ? DEFAULT_MODELS[lang] : undefined);

// A refused sentence in the other language: offer the model that reads it, keeping the sentence.
function offerModelFor(lang) {
  const name = coreferenceModelIn(lang);
  ui['other-model'].hidden = !name;
  if (!name) return;
  ui['other-model'].dataset.model = name;
  ui['other-model'].textContent = t('openModel', { name: modelLabel(name) });
}

function openOfferedModel() {
  modelChosen = true;
  ui.model.value = ui['other-model'].dataset.model;
  ui['other-model'].hidden = true;
  selectModel();
}

// --- controls → model → run ---

function readSeed() {
  const text = ui.seed.value.trim();
  return /^\d{1,10}$/.test(text) && Number(text) <= SEED_MAX ? Number(text) : null;
}

const readConfig = (seed) => ({
  dModel: D_MODEL,
  nHeads: Number(ui.heads.value),
  nLayers: Number(ui.layers.value),
  positional: ui.positional.value,
  causal: false, // the mask is a run option, so toggling it keeps the same weights
  seed,
});

// Builds the random model only when its config changed, freeing the old one's wasm memory.
function ensureRandomModel(config) {
  const key = JSON.stringify(config);
  if (key === resources.configKey) return;
  resources.random?.delete();
  Object.assign(resources, { random: null, configKey: '' });
  shownModel = resources.random = resources.engine.createRandomModel(config);
  resources.configKey = ui.app.dataset.config = key;
  fillRanges();
}

// Options 1..count for the layer and head selectors, keeping a selection that still exists.
function fillRanges() {
  const { nLayers, nHeads } = shownModel.config;
  for (const [select, count, key] of [
    [ui.layer, nLayers, 'layerN'],
    [ui.head, nHeads, 'headN'],
  ]) {
    const previous = Number(select.value) || 0;
    select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(t(key, { i: i + 1 }), i)));
    select.value = previous < count ? previous : 0;
  }
  markCoreferenceHead();
}

// The head selector names the head config.json calls the coreference head (the grid marks its
// layer too); short, so that the selector still fits a 375 px phone.
function markCoreferenceHead() {
  const named = coreferenceHead(shownModel?.config);
  const option = named && ui.head.options[named.head];
  if (option) option.textContent = t('headNamed', { i: named.head + 1 });
}

function run() {
  ui.swap.hidden = !swapper().test(ui.sentence.value);
  if (!resources.engine) return; // the first run happens once the engine has loaded
  const trained = choice() !== UNTRAINED;
  if (trained && !shownModel) return; // still loading, or it failed and says so
  const seed = readSeed();
  if (!trained && seed === null) return showError('seedError', { max: SEED_MAX });
  const text = ui.sentence.value;
  const options = { causal: ui.causal.checked, scale: ui.scale.checked };
  let result;
  try {
    if (trained) {
      result = runView(shownModel, text, { ...options, ...tracedLayers() }); // an opened model: the layer on view
    } else {
      ensureRandomModel(readConfig(seed));
      applyLink();
      result = shownModel.run(text, options);
    }
  } catch (error) {
    const unread = trained && readLanguage(text);
    if (unread) {
      showError(unread === 'zh' ? 'readsEnglish' : 'readsChinese', { example: modelPair()[0] }, error);
      return offerModelFor(unread);
    }
    return showError('runError', {}, error);
  }
  Object.assign(ui.app.dataset, { model: choice(), run: JSON.stringify(options), text, status: 'ready' });
  runBy = shownModel;
  store.set({ model: choice(), sentence: text, ...options, result });
  clearError();
  showView();
  showPrediction();
  showFacts();
  showBanner();
  loadLessonPanels();
}

let timer = 0;
function runSoon() {
  clearTimeout(timer);
  timer = setTimeout(run, TYPING_DELAY_MS); // coalesce keystrokes
}

function runNow() {
  clearTimeout(timer);
  run();
}

// --- output ---

// A model opened from disk may be big: its trace is computed for the layer on view only,
// so a long text fits and a step costs one layer's n×n matrices, not every layer's.
function tracedLayers() {
  return shownModel?.config.architecture === 'gpt2' ? { layers: [Number(ui.layer.value) || 0] } : {};
}

// Cheap: shows another head of the last run; the heatmap only recolours when tokens are unchanged.
// (Another layer of an opened model is traced first: run() again.)
function showView() {
  const result = shownRun();
  if (!result) return;
  const layer = Number(ui.layer.value) || 0;
  const head = Number(ui.head.value) || 0;
  if (!result.layers[layer]) return run();
  ui.heatmap.data = {
    tokens: result.tokens,
    weights: result.layers[layer].selfAttention.heads[head].weights,
    unknown: result.unknown ?? [],
    caption: t('caption', { layer: layer + 1, head: head + 1 }),
  };
  Object.assign(ui.app.dataset, { layer, head });
  store.set({ layer, head });
}

const percent = (p) => formatPercent(p, lang()); // never a rounded 100 % (panel-strings.mjs)

// The trained model's answer with the runners-up, and the words it does not know.
function showPrediction() {
  const { prediction, unknown = [], tokens = [] } = (!errorShown && shownRun()) || {};
  ui.prediction.hidden = !prediction;
  ui.app.dataset.prediction = prediction?.token ?? '';
  if (prediction) {
    const [before, p, after] = answerParts(prediction, shownModel?.config, lang(), percent);
    const probability = Object.assign(document.createElement('span'), { className: 'probability', textContent: p });
    ui.answer.replaceChildren(before, probability, after);
    ui.alternatives.replaceChildren(
      ...prediction.top.slice(1).map(({ token, probability }) => {
        const item = document.createElement('li');
        item.textContent = `${token} ${percent(probability)}`;
        return item;
      }),
    );
  }
  const outside = prediction && answerOutsideSentence(prediction.token, tokens);
  ui['answer-note'].hidden = !outside;
  ui['answer-note'].textContent = outside ? t('answerNotInSentence', { word: prediction.token }) : '';
  ui.app.dataset.answerInSentence = prediction ? String(!outside) : '';
  showSuggestions(prediction ? unknown : [], tokens);
  // The words are styled like their labels in the heatmap.
  const words = unknown.map((i) =>
    Object.assign(document.createElement('span'), { className: 'unknown-word', textContent: tokens[i] }),
  );
  const [before, after] = t('unknownNote').split('{words}');
  ui.unknown.replaceChildren(before, ...words.flatMap((w, i) => (i ? [', ', w] : [w])), after);
  // A whole sentence in the other language: say that, rather than list every word of it.
  const unread = vocabulary && unreadLanguage({ tokens, unknown }, vocabulary.language);
  if (unread)
    ui.unknown.textContent = t(unread === 'zh' ? 'readsEnglish' : 'readsChinese', { example: modelPair()[0] });
  ui.unknown.hidden = unknown.length === 0;
}

// Whether the answer should be a word of the sentence but is not (e.g. "highway" for a
// sentence without it). Coreference and word-order answers name a word of the sentence; a
// next-word answer does only where the decoder's prompt asks for the referent (it ends in "=").
function answerOutsideSentence(answer, tokens) {
  const asksForAWord =
    task() === 'coreference' || task() === 'word-order' || (task() === 'next-word' && tokens.at(-1) === '=');
  return asksForAWord && !tokens.includes(answer);
}

// --- vocabulary help ---

// The language a sentence the model refused is in, when it is not the model's ('zh' | 'en'),
// judged from how the model's own vocabulary reads it; null when that is not the problem.
function readLanguage(text) {
  if (!vocabulary) return null;
  try {
    return unreadLanguage(shownModel.encodeWords(text), vocabulary.language);
  } catch {
    return null; // e.g. text that is not UTF-8: the engine's own message says so
  }
}

// "Words this model knows (N)": the trained model's vocabulary, in the language's sort order.
function showVocabulary(model) {
  const words = model?.vocabularyWords?.() ?? null;
  vocabulary = words && {
    words: [...words].sort((a, b) => a.localeCompare(b, locale())),
    language: vocabularyLanguage(words),
  };
  ui.vocab.hidden = !words;
  ui['vocab-filter'].value = '';
  ui['vocab-list'].replaceChildren(
    ...(vocabulary?.words ?? []).map((word) => {
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
  translateVocabulary();
  filterVocabulary();
}

function translateVocabulary() {
  if (!vocabulary) return;
  ui['vocab-summary'].textContent = t('vocabSummary', { n: vocabulary.words.length.toLocaleString(locale()) });
  for (const button of ui['vocab-list'].querySelectorAll('button'))
    button.ariaLabel = t('vocabInsert', { word: button.dataset.word });
}

function filterVocabulary() {
  const query = ui['vocab-filter'].value.trim().toLowerCase();
  for (const item of ui['vocab-list'].children)
    item.hidden = Boolean(query) && !item.firstChild.dataset.word.includes(query);
  const shown = shownVocabulary();
  ui['vocab-none'].hidden = shown.length > 0;
  setVocabularyStop(shown[0]);
}

const shownVocabulary = () => [...ui['vocab-list'].querySelectorAll('li:not([hidden]) > button')];

// The list is one Tab stop however many words it has (a keyboard user would otherwise tab
// through hundreds): `button` is reachable by Tab, the arrow keys, Home and End move between
// the words shown.
function setVocabularyStop(button) {
  for (const b of ui['vocab-list'].querySelectorAll('button')) b.tabIndex = b === button ? 0 : -1;
}

const VOCABULARY_KEYS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };

function moveInVocabulary(event) {
  const step = VOCABULARY_KEYS[event.key];
  const shown = shownVocabulary();
  const at = shown.indexOf(document.activeElement);
  if (step === undefined || at < 0) return;
  event.preventDefault();
  const next = shown[Math.max(0, Math.min(shown.length - 1, at + step))]; // Home/End: ±Infinity clamps
  setVocabularyStop(next);
  next.focus();
}

// A word chosen in the list goes into the sentence at the caret (or over the selection).
function insertChosenWord(event) {
  const button = event.target.closest('button');
  const word = button?.dataset.word;
  if (!word) return;
  setVocabularyStop(button);
  const { selectionStart, selectionEnd, value } = ui.sentence;
  const { text, caret } = insertWord(value, selectionStart, selectionEnd, word);
  ui.sentence.value = text;
  ui.sentence.setSelectionRange(caret, caret); // the next word goes after this one
  runNow();
}

// "“bycicle” is not a word this model knows — did you mean “bicycle”?" for each unknown word
// with a known word close enough (Vocabulary::nearest in the core).
function showSuggestions(unknown, tokens) {
  const offers = vocabulary && !errorShown ? suggestionsFor(shownModel, tokens, unknown, SUGGESTIONS) : [];
  ui.suggestions.hidden = offers.length === 0;
  ui.suggestions.replaceChildren(
    ...offers.map(({ word, near }) => {
      const item = document.createElement('li');
      const choices = near.flatMap((choice, i) => {
        const button = Object.assign(document.createElement('button'), {
          type: 'button',
          className: 'chip',
          textContent: `“${choice}”`,
        });
        button.ariaLabel = t('suggestionLabel', { word, choice });
        Object.assign(button.dataset, { word, choice });
        return i ? [i === near.length - 1 ? t('suggestionOr') : ', ', button] : [button];
      });
      const [before, after] = t('suggestion', { word }).split('{choices}');
      item.append(before, ...choices, after);
      return item;
    }),
  );
}

function replaceSuggested(event) {
  const button = event.target.closest('button');
  if (!button) return;
  ui.sentence.value = replaceWord(ui.sentence.value, button.dataset.word, button.dataset.choice);
  runNow();
  ui.sentence.focus(); // the button is gone with the word it offered to replace
}

function showFacts() {
  const config = shownModel?.config;
  if (!config) return;
  const result = shownRun();
  const count = shownModel.parameterCount; // RandomModel only, for now
  ui['fact-params-row'].hidden = count === undefined;
  ui['fact-params'].textContent = count?.toLocaleString(locale()) ?? '–';
  ui['fact-dmodel'].textContent = config.dModel;
  ui['fact-headdim'].textContent = config.headDim;
  ui['fact-heads'].textContent = config.nHeads;
  ui['fact-layers'].textContent = config.nLayers;
  const positional = `pos${config.positional[0].toUpperCase()}${config.positional.slice(1)}`; // posNone, …
  ui['fact-positional'].textContent = messages[lang()][positional] ?? config.positional;
  ui['fact-task'].textContent = messages[lang()].tasks[task()] ?? task();
  const bytes = indexEntry(choice())?.bytes;
  ui['fact-size'].textContent = bytes
    ? `${(bytes / 1024).toLocaleString(locale(), { maximumFractionDigits: 0 })} KB`
    : '–';
  ui['fact-tokens'].textContent =
    result && !errorShown ? t('factTokensValue', { n: result.n, max: config.maxLen }) : '–';
  ui['fact-simd'].textContent = t(resources.engine.simd ? 'on' : 'off');
  // Which of the two builds runs (web/lib/engine.mjs picks it at load time).
  ui['fact-arithmetic'].textContent = t(resources.engine.features.fma ? 'arithmeticFused' : 'arithmeticSeparate');
  showSplitFacts(config);
}

// A trained coreference model's held-out checks (config.json "splits", written by the trainer):
// answer accuracy and how often the coreference head follows the referent in both sentences.
function showSplitFacts(config) {
  const splits = config.metadata?.splits;
  ui['fact-splits-row'].hidden = !splits;
  if (!splits) return;
  const names = messages[lang()].splitNames;
  // In the order of splitNames (validation first), then any split the page has no name for.
  const order = [
    ...Object.keys(names).filter((name) => name in splits),
    ...Object.keys(splits).filter((name) => !(name in names)),
  ];
  const item = (name) => {
    const { accuracy, flip_rate: flip } = splits[name];
    const text = t('factSplitValue', {
      name: names[name] ?? name,
      accuracy: formatRate(accuracy),
      flip: formatRate(flip),
    });
    return Object.assign(document.createElement('li'), { textContent: text });
  };
  ui['fact-splits'].replaceChildren(...order.map(item));
}

function showBanner() {
  if (!shownName && choice() === UNTRAINED && starting) {
    // Before the first model is chosen: say that it loads, never describe a model not shown.
    ui['banner-title'].textContent = t('loading');
    ui['banner-text'].textContent = '';
    return;
  }
  if (choice() === UNTRAINED) {
    ui['banner-title'].textContent = t('bannerTitle');
    ui['banner-text'].textContent = t('banner', { seed: resources.random?.config.seed ?? 42 });
    return;
  }
  const config = shownModel?.config;
  if (!config) return; // loading or failed: the banner still describes the model shown
  if (choice() === OWN_MODEL) {
    ui['banner-title'].textContent = ownModelText(store.get().lang, 'title');
    ui['banner-text'].textContent = ownModelText(store.get().lang, 'local');
    return;
  }
  const { seeds_passing: passing, seeds_trained: trained } = config.metadata;
  const parts = [format(messages[lang()].bannerTrained[task()] ?? '', { pronoun: pronounOf(config) })];
  if (passing !== undefined && trained !== undefined) parts.push(t('bannerSeeds', { passing, trained }));
  if (config.positional === 'none') parts.push(t('bannerNoPositions'));
  ui['banner-title'].textContent = t('bannerTrainedTitle');
  ui['banner-text'].textContent = parts.join(' ');
}

function setStatus(key, params) {
  statusShown = key && { key, params };
  ui.status.hidden = !key;
  if (key) ui.status.textContent = t(key, params);
}

// `cause`, the error thrown, is worded in the page's language by its code (error-text.mjs).
function showError(key, params, cause) {
  errorShown = { key, params, cause };
  showErrorText();
  ui.app.dataset.status = 'error';
  ui.app.dataset.errorCode = cause?.code ?? '';
  // The heatmap and token count of the last good run are not shown for another sentence.
  ui.result.classList.add('failed');
  ui.prediction.hidden = ui.unknown.hidden = ui.suggestions.hidden = true;
  ui['fact-tokens'].textContent = '–';
  if (key !== 'loadError') loadLessonPanels(); // the first run failed: the panels still work
}

// Fetched on the first error only, so that it is not part of the first view's transfer.
let errorText = null;
function showErrorText() {
  const { key, params, cause } = errorShown;
  if (cause && !errorText) {
    import('./lib/error-text.mjs')
      .then(
        (m) => m.errorText,
        () => (error) => error.message,
      ) // offline: the raw words
      .then((words) => {
        errorText = words;
        if (errorShown) showErrorText();
      });
  }
  const message = cause ? (errorText?.(cause, lang()) ?? '') : params.message;
  ui.error.textContent = t(key, { ...params, message });
  ui.error.title = cause?.message ?? ''; // the core's own words, for whoever debugs
}

function clearError() {
  errorShown = null;
  ui['other-model'].hidden = true;
  ui.error.textContent = ui.error.title = '';
  delete ui.app.dataset.errorCode;
  ui.result.classList.remove('stale', 'failed');
}

// --- language ---

const lookup = (dict, path) => path.split('.').reduce((node, key) => node?.[key], dict); // 'toc.qkv'

function applyLanguage(language) {
  store.set({ lang: language });
  const dict = messages[language];
  document.documentElement.lang = language === 'zh' ? 'zh-Hans' : 'en';
  document.title = dict.title;
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = lookup(dict, node.dataset.i18n);
  ui.lang.textContent = dict.switchTo;
  ui.lang.lang = dict.switchToLang;
  ui.heatmap.strings = dict.heatmap;
  translateModelMenu();
  translateVocabulary();
  translateSwap();
  translateSentenceNote();
  if (!ui['other-model'].hidden)
    offerModelFor(coreferenceModelIn('zh') === ui['other-model'].dataset.model ? 'zh' : 'en');
  if (shownModel) fillRanges();
  if (statusShown) setStatus(statusShown.key, statusShown.params);
  if (errorShown) showErrorText();
  showView();
  showPrediction();
  showFacts();
  showBanner();
}

function toggleLanguage() {
  const next = lang() === 'zh' ? 'en' : 'zh';
  storage('ae-lang', next);
  applyLanguage(next);
  followLanguage(next);
}

// The lesson's model follows the page's language while the view is still the page's default
// (its model and its own sentence); a typed sentence or another model stays as it is.
function followLanguage(lang) {
  const wanted = coreferenceModelIn(lang);
  const shown = choice();
  if (modelChosen || !wanted || shown === wanted || !Object.values(DEFAULT_MODELS).includes(shown)) return;
  if (!modelPair().includes(ui.sentence.value)) return;
  ui.model.value = wanted;
  selectModel();
}

// --- URL state ---

// Puts the link's values into the controls. Those the model sets itself on load (mask, layer,
// head) wait in pendingLink until applyLink() runs after the model is shown.
function readLink() {
  const link = readUrlState(location.search);
  if (link.sentence !== undefined) ui.sentence.value = link.sentence;
  for (const key of ['causal', 'scale']) if (link[key] !== undefined) ui[key].checked = link[key];
  const selects = { heads: ui.heads, layers: ui.layers, pos: ui.positional };
  for (const [key, select] of Object.entries(selects)) {
    const value = link.random[key];
    if ([...select.options].some((o) => o.value === value)) select.value = value;
  }
  if (link.random.seed !== undefined) ui.seed.value = link.random.seed;
  if (link.token !== undefined) store.set({ token: link.token });
  if (!store.get().controls) store.set({ controls: link.controls }); // panels' own, see panel-controls.mjs
  if (link.lang) store.set({ lang: link.lang }); // a shared link opens in the sender's language
  if (link.panel && document.getElementById(link.panel)) store.set({ panel: link.panel });
  const { layer, head, causal, scale } = link;
  pendingLink = { layer, head, causal, scale, sentence: link.sentence !== undefined };
  return link.model;
}

function applyLink() {
  const link = pendingLink;
  if (!link) return;
  pendingLink = null;
  for (const key of ['causal', 'scale']) if (link[key] !== undefined) ui[key].checked = link[key];
  for (const key of ['layer', 'head']) {
    if (link[key] !== undefined && link[key] < ui[key].options.length) ui[key].value = link[key];
  }
}

// The random model's recipe, kept in the URL with the view; null for a trained model.
const recipe = () =>
  choice() === UNTRAINED
    ? { heads: ui.heads.value, layers: ui.layers.value, pos: ui.positional.value, seed: ui.seed.value.trim() }
    : null;

const URL_DELAY_MS = 150; // browsers throttle rapid history calls
// A discrete experiment the reader makes (model, layer, head, a switch, a panel's control) gets a
// history entry of its own, so Back undoes it; typing, pointing at a word, scrolling and the
// language only update the entry shown. Changes the page makes by itself (defaults on load, a
// restored entry) never push.
const HISTORY_KEYS = ['model', 'layer', 'head', 'causal', 'scale', 'controls'];
const history_ = { timer: 0, discrete: false, byReader: false, restoring: false };
function writeLinkSoon(changed) {
  history_.discrete ||= HISTORY_KEYS.some((key) => changed.has(key));
  clearTimeout(history_.timer);
  history_.timer = setTimeout(() => {
    const url = urlFor(store.get(), recipe());
    const push = history_.discrete && history_.byReader && !history_.restoring;
    history_.discrete = history_.byReader = false;
    if (url === location.search) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(history.state, '', url);
  }, URL_DELAY_MS);
}

// Back / Forward: the entry's view is shown again (model, sentence, switches, layer, head, word,
// the panels' controls); the language stays the reader's.
async function restoreEntry() {
  history_.restoring = true;
  const reading = lang();
  const linked = readLink();
  store.set({ lang: reading });
  store.set({ controls: readUrlState(location.search).controls });
  const name = firstModel(linked);
  if (name !== choice()) {
    ui.model.value = name;
    await selectModel();
  } else {
    if (name === UNTRAINED) fillRanges();
    applyLink();
    runNow();
  }
  setTimeout(() => {
    history_.restoring = false;
  }, 2 * URL_DELAY_MS);
}

// Another panel (e.g. the head grid) focused a head: follow it in the selectors and heatmap.
function followStore(s, changed) {
  if (
    changed.has('result') ||
    changed.has('sentence') ||
    changed.has('model') ||
    changed.has('layer') ||
    changed.has('head') ||
    changed.has('token') ||
    changed.has('causal') ||
    changed.has('scale') ||
    changed.has('panel') ||
    changed.has('lang') ||
    changed.has('controls')
  )
    writeLinkSoon(changed);
  // A panel's Show me may choose a listed model (web/lib/guidance.mjs): open it as the menu would.
  if (changed.has('model') && s.model !== choice() && indexEntry(s.model)) {
    ui.model.value = s.model;
    modelChosen = true;
    selectModel();
    return;
  }
  if (!(changed.has('layer') || changed.has('head'))) return;
  if (String(s.layer) === ui.layer.value && String(s.head) === ui.head.value) return;
  if (s.layer >= ui.layer.options.length || s.head >= ui.head.options.length) return;
  [ui.layer.value, ui.head.value] = [s.layer, s.head];
  showView();
}

// --- lesson panels ---

// The panel being read (the section whose top most recently passed the upper third of the
// window) goes into the store, and so into the URL: a link opens where its sender was reading.
function trackPanels() {
  const sections = [...document.querySelectorAll('main > section[id]')];
  let pending = false;
  const update = () => {
    pending = false;
    const band = innerHeight / 3;
    const passed = sections
      .map((s) => [s.getBoundingClientRect(), s.id])
      .filter(([r]) => r.height > 0 && r.top <= band && r.bottom > 0)
      .sort((a, b) => b[0].top - a[0].top);
    store.set({ panel: scrollY < 50 || !passed.length ? null : passed[0][1] }); // at the top: no panel
  };
  addEventListener(
    'scroll',
    () => {
      if (!pending) requestAnimationFrame(update);
      pending = true;
    },
    { passive: true },
  );
}

// The lesson panels are fetched after the first run has been drawn (or has failed and said
// so), a frame later, so that they never delay the first attention on screen.
let lessonPanels = null;
function loadLessonPanels() {
  lessonPanels ??= new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))
    .then(() => import('./panels.mjs'))
    .then(openLinkedPanel, (error) => showError('loadError', { message: error.message }));
  return lessonPanels;
}

// Once the panels are there (the sections above the linked one have their height), it is shown.
function openLinkedPanel() {
  const { panel } = store.get();
  if (panel) requestAnimationFrame(() => document.getElementById(panel)?.scrollIntoView({ block: 'start' }));
}

// The model a visit opens with: the link's if it names a listed model (or the untrained
// one), else the lesson's trained model in the page's language (else the English one), else —
// no trained models at all — the untrained one.
function firstModel(linked) {
  if (linked === UNTRAINED || (linked && indexEntry(linked))) return linked;
  const lessonModel = coreferenceModelIn(lang()) ?? coreferenceModelIn('en');
  return lessonModel ?? UNTRAINED;
}

// --- start ---

async function start() {
  const linkedModel = readLink();
  modelChosen = Boolean(linkedModel);
  store.subscribe(followStore);
  setStatus('loading');
  applyLanguage(lang());
  // With a single-line field (the seed), Enter would submit the form and reload the page.
  $('controls').addEventListener('submit', (e) => e.preventDefault());
  ui.sentence.addEventListener('input', runSoon);
  ui.seed.addEventListener('input', runSoon);
  for (const control of [ui.heads, ui.layers, ui.positional, ui.causal, ui.scale])
    control.addEventListener('change', runNow);
  ui.model.addEventListener('change', () => {
    modelChosen = true;
    selectModel();
  });
  ui.swap.addEventListener('click', swapDecider);
  ui['other-model'].addEventListener('click', openOfferedModel);
  ui.layer.addEventListener('change', showView);
  ui.head.addEventListener('change', showView);
  ui.lang.addEventListener('click', toggleLanguage);
  // What the reader does (not what the page does by itself) may make a history entry.
  // (the page sets its controls without events, so an event is the reader's).
  for (const type of ['change', 'click'])
    addEventListener(
      type,
      () => {
        history_.byReader = true;
      },
      true,
    );
  addEventListener('popstate', restoreEntry);
  ui['vocab-list'].addEventListener('click', insertChosenWord);
  ui['vocab-filter'].addEventListener('input', filterVocabulary);
  ui['vocab-list'].addEventListener('keydown', moveInVocabulary);
  ui.suggestions.addEventListener('click', replaceSuggested);
  onLocalModel(addLocalModelOption);
  try {
    [resources.engine, resources.index] = await Promise.all([getEngine(), fetchIndex()]);
  } catch (error) {
    return showError('loadError', { message: error.message });
  } finally {
    setStatus(null);
  }
  fillModelMenu();
  translateModelMenu();
  resources.own = setUpOwnModel({
    box: $('own-model'),
    option: $('own-option'),
    getEngine,
    onModel: (model) => {
      shareModel(OWN_MODEL, model); // the lesson panels ask the context for the shown model
      if (choice() !== OWN_MODEL) return;
      if (model) useModel(model);
      else selectOwnModel();
    },
  });
  trackPanels();
  const name = firstModel(linkedModel);
  starting = false;
  if (name !== UNTRAINED) {
    ui.model.value = name;
    selectModel();
  } else {
    run();
  }
}

start();
