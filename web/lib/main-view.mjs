// What the page's main view and <attention-explorer> share, so that both run the same code:
// the model menu's order, the sentence pair a model opens with and its swap, the run itself
// and the answer's wording. Plain functions over a model's config and the run's result: no
// DOM here, each view draws them its own way.
import { format, messages } from '../i18n.mjs';
import { DEFAULT_SENTENCES, LESSON } from './lesson.mjs';
import { deciderSwap, lessonPair, pronounOf } from './model-lesson.mjs';
import { unreadLanguage, vocabularyLanguage } from './vocabulary-help.mjs';

export const TOP_K = 4; // the answer and three alternatives
export const TYPING_DELAY_MS = 40; // coalesce keystrokes into one run

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

const taskOf = (config) => config?.task ?? 'none';

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

// One run of the main view: analyze()'s numbers through the packed call (cheaper to cross from wasm).
// `layers` (an opened GPT-2 model only): trace just those layers (docs/own-models.md#memory).
export const runView = (model, text, { causal, scale, layers }) =>
  model.analyzePacked(text, { causal, scale, topK: TOP_K, ...(layers ? { layers } : {}) });

// The answer as [before, probability, after], e.g. ['“it” → animal ', '(99.99 %)', ''], in `lang`;
// `percent` formats a probability.
export function answerParts(prediction, config, lang, percent) {
  const strings = messages[lang];
  const template = strings.answer[taskOf(config)] ?? '{word} {p}';
  const [before, after = ''] = format(template, { word: prediction.token, pronoun: pronounOf(config) }).split('{p}');
  return [before, format(strings.probability, { p: percent(prediction.probability) }), after];
}
