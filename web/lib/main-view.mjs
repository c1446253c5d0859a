// The main view's logic without its DOM (<attention-explorer>, which the page is built from,
// draws it): the model menu's order, the untrained model's recipe, the sentence pair a model
// opens with and its swap, the run itself and the answer's wording. Plain functions over a
// model's config and the run's result, so Node tests them too.
import { format, messages } from '../i18n.mjs';
import { DEFAULT_SENTENCES, LESSON } from './lesson.mjs';
import { MAIN_CONTROLS } from './main-controls.mjs';
import { deciderSwap, lessonPair, pronounOf } from './model-lesson.mjs';
import { OWN_MODEL } from './panel-model.mjs';
import { unreadLanguage, vocabularyLanguage } from './vocabulary-help.mjs';

export { OWN_MODEL };

export const TOP_K = 4; // the answer and three alternatives
export const TYPING_DELAY_MS = 40; // coalesce keystrokes into one run
export const SUGGESTIONS = 3; // known words offered for a word read as [UNK]

// The menu's name that is not a directory of models/ (nor OWN_MODEL, a model opened from disk).
export const UNTRAINED = 'untrained';

// The untrained model: d_model 32 (1, 2, 4 and 8 heads all divide it) and the recipe the
// reader chooses. The binding casts the seed to uint64: it stays a small whole number.
const D_MODEL = 32;
export const SEED_MAX = MAIN_CONTROLS.seed.max;

// The seed typed in the box, or null when it is not a whole number from 0 to SEED_MAX.
export function readSeed(text) {
  const trimmed = String(text).trim();
  return /^\d{1,10}$/.test(trimmed) && Number(trimmed) <= SEED_MAX ? Number(trimmed) : null;
}

// createRandomModel's config for a recipe {heads, layers, positional} and a seed. The mask is a
// run option, so toggling it keeps the same weights.
export const randomConfig = ({ heads, layers, positional }, seed) => ({
  dModel: D_MODEL,
  nHeads: Number(heads),
  nLayers: Number(layers),
  positional,
  causal: false,
  seed,
});

// The lesson's order for the model menu; models not listed here follow in index order.
const MODEL_ORDER = [
  'coref-encoder',
  'coref-encoder-zh',
  'coref-decoder',
  'word-order-none',
  'word-order-sinusoidal',
  'word-order-learned',
  'word-order-rope',
];

// models/index.json's entries (context.mjs getModelIndex) in the lesson's order.
export function orderModels(entries) {
  const rank = (m) => (MODEL_ORDER.includes(m.name) ? MODEL_ORDER.indexOf(m.name) : MODEL_ORDER.length);
  return [...entries].sort((a, b) => rank(a) - rank(b));
}

export const taskOf = (config) => config?.task ?? 'none'; // 'none' for a random model

// The model's own lesson pair (a trained coreference model's config names it, in its language),
// else its task's default sentence and that sentence with tired → wide.
export function sentencePair(config) {
  const own = taskOf(config) === 'coreference' && lessonPair(config);
  if (own) return own;
  const first = DEFAULT_SENTENCES[taskOf(config)] ?? DEFAULT_SENTENCES.coreference;
  return [first, first.replace('tired', 'wide')];
}

// Whether `model` (a TrainedModel; null for the random one, which reads anything) can read a
// sentence typed for another: its language, and for a coreference model its pronoun.
export function fits(model, text) {
  if (!model) return true;
  try {
    const encoded = model.encodeWords(text);
    if (unreadLanguage(encoded, vocabularyLanguage(model.vocabularyWords()))) return false;
    if (encoded.unknown.length * 2 > encoded.tokens.length) return false; // mostly words it never saw
    return model.config.task !== 'coreference' || encoded.tokens.includes(pronounOf(model.config));
  } catch {
    return false;
  }
}

// Each model's own sentence in a view that switches models: a sentence the reader typed goes
// along while the next model can read it, else that model gets back the sentence it showed
// last, else its own pair's first.
export class SentenceMemory {
  #byModel = new Map(); // model name → the sentence it showed last
  #defaults = new Set([...Object.values(DEFAULT_SENTENCES), LESSON.wide]); // put there by a view, not typed

  // Model `name` showed `text` and is about to give way to another.
  leave(name, text) {
    if (name) this.#byModel.set(name, text);
  }

  // What model `name` (`model`: its TrainedModel, null for the random one) opens with while `text`
  // is shown: {text, setAside}, setAside when a typed sentence had to give way. `keep` keeps `text`
  // (a link's, the host's).
  open(name, model, text, keep = false) {
    const pair = sentencePair(model?.config);
    pair.forEach((sentence) => this.#defaults.add(sentence));
    if (keep || pair.includes(text)) return { text, setAside: false };
    const typed = !this.#defaults.has(text);
    if (typed && fits(model, text)) return { text, setAside: false };
    return { text: this.#byModel.get(name) ?? pair[0], setAside: typed };
  }
}

// The swap button's {first, second, test(text), swap(text)}: the model's own pair (累 ↔ 宽),
// else tired ↔ wide.
export const swapFor = (config) => deciderSwap(lessonPair(config) ?? [LESSON.tired, LESSON.wide]);

// One run of the main view: a trained model's analyze() numbers through the packed call
// (cheaper to cross from wasm); a RandomModel's run(), which has no answer. `layers` (an opened
// GPT-2 model only): trace just those layers (docs/own-models.md#memory).
export const runView = (model, text, { causal, scale, layers }) =>
  model.analyzePacked
    ? model.analyzePacked(text, { causal, scale, topK: TOP_K, ...(layers ? { layers } : {}) })
    : model.run(text, { causal, scale });

// A model opened from disk may be big: its trace is computed for the layer on view only, so a
// long text fits and a step costs one layer's n×n matrices, not every layer's.
export const tracedLayers = (config, layer) => (config?.architecture === 'gpt2' ? { layers: [layer] } : {});

// Whether the answer should be a word of the sentence but is not (e.g. "highway" for a sentence
// without it). Coreference and word-order answers name a word of the sentence; a next-word
// answer does only where the decoder's prompt asks for the referent (it ends in "=").
export function answerOutsideSentence(answer, tokens, config) {
  const task = taskOf(config);
  const asksForAWord =
    task === 'coreference' || task === 'word-order' || (task === 'next-word' && tokens.at(-1) === '=');
  return asksForAWord && !tokens.includes(answer);
}

// Whether a next-word model's prompt does not ask for the referent: without a last "=" the
// decoder just continues the sentence (often with "it"), so the page hints to end it "it =".
export const needsAskingPrompt = (tokens, config) => taskOf(config) === 'next-word' && tokens.at(-1) !== '=';

// The answer as [before, probability, after], e.g. ['“it” → animal ', '(99.99 %)', ''], in `lang`;
// `percent` formats a probability.
export function answerParts(prediction, config, lang, percent) {
  const strings = messages[lang];
  const template = strings.answer[taskOf(config)] ?? '{word} {p}';
  const [before, after = ''] = format(template, { word: prediction.token, pronoun: pronounOf(config) }).split('{p}');
  return [before, format(strings.probability, { p: percent(prediction.probability) }), after];
}
