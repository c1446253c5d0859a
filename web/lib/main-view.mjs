// What the page's main view and <attention-explorer> share, so that both run the same code:
// the model menu's order, the sentence pair a model opens with and its swap, the run itself
// and the answer's wording. Plain functions over a model's config and the run's result: no
// DOM here, each view draws them its own way.
import { format, messages } from '../i18n.mjs';
import { DEFAULT_SENTENCES, LESSON } from './lesson.mjs';
import { deciderSwap, lessonPair, pronounOf } from './model-lesson.mjs';

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

// The swap button's {first, second, test(text), swap(text)}: the model's own pair (累 ↔ 宽),
// else tired ↔ wide.
export const swapFor = (config) => deciderSwap(lessonPair(config) ?? [LESSON.tired, LESSON.wide]);

// One run of the main view: analyze()'s numbers through the packed call (cheaper to cross from wasm).
export const runView = (model, text, { causal, scale }) => model.analyzePacked(text, { causal, scale, topK: TOP_K });

// The answer as [before, probability, after], e.g. ['“it” → animal ', '(99.99 %)', ''], in `lang`;
// `percent` formats a probability.
export function answerParts(prediction, config, lang, percent) {
  const strings = messages[lang];
  const template = strings.answer[taskOf(config)] ?? '{word} {p}';
  const [before, after = ''] = format(template, { word: prediction.token, pronoun: pronounOf(config) }).split('{p}');
  return [before, format(strings.probability, { p: percent(prediction.probability) }), after];
}
