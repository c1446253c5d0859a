// The lesson's sentences, one home for every panel, tool and test: the minimal pair in which
// `it` is the animal (too tired) or the street (too wide), the same pair in the decoder's
// training format, and the word-order pair. Plain data and string functions: no DOM, so Node
// (tests, tools) imports it too.

export const LESSON = {
  tired: "The animal didn't cross the street because it was too tired.",
  wide: "The animal didn't cross the street because it was too wide.",
};

// The decoder reads lower case, words and punctuation apart; "it =" asks for the referent.
export const DECODER_SENTENCE = {
  tired: "the animal didn't cross the street because it was too tired .",
  wide: "the animal didn't cross the street because it was too wide .",
};
export const DECODER_PROMPT = {
  tired: `${DECODER_SENTENCE.tired} it =`,
  wide: `${DECODER_SENTENCE.wide} it =`,
};

// The lesson pair's two nouns, one of which `it` (它) refers to, in English and Chinese: the
// choices of the guess "where will `it` look?" (lesson-panel.mjs).
export const LESSON_NOUNS = ['animal', 'street', '动物', '马路'];

// Subject–verb–object in Chinese: "the cat chases the dog" / "the dog chases the cat".
export const WORD_ORDER_PAIR = { a: '猫追狗', b: '狗追猫' };

// The lesson's trained coreference model per language ('en' | 'zh'): the model the main view
// opens on, and the one a panel's Show me falls back to.
export const LESSON_MODELS = { en: 'coref-encoder', zh: 'coref-encoder-zh' };

// The sentence a model of each task opens with (config.json `task`; 'none' for a random model),
// in the page's main view and in <attention-explorer>.
export const DEFAULT_SENTENCES = {
  none: LESSON.tired,
  coreference: LESSON.tired,
  'word-order': WORD_ORDER_PAIR.a,
  'next-word': DECODER_PROMPT.tired,
};

// "too tired" / "too wide" anywhere in a sentence …
export const TIRED_OR_WIDE = /\btoo (tired|wide)\b/;
// … or only right before the sentence's full stop ("too tired." or "too tired ."): the main
// view, the tired | wide pair and the explanation panel swap only a sentence that ends so.
export const TIRED_OR_WIDE_AT_END = /\btoo (tired|wide)(?= ?\.)/;

// 'tired', 'wide', or null when `text` has neither where `pattern` looks.
export function adjectiveOf(text, pattern = TIRED_OR_WIDE) {
  return pattern.exec(text ?? '')?.[1] ?? null;
}

// `text` with its adjective set to `word` ('tired' | 'wide').
export function withAdjective(text, word, pattern = TIRED_OR_WIDE) {
  return text.replace(pattern, `too ${word}`);
}

// `text` with tired ↔ wide swapped, or null when it has neither.
export function partnerOf(text, pattern = TIRED_OR_WIDE) {
  const adjective = adjectiveOf(text, pattern);
  return adjective && withAdjective(text, adjective === 'tired' ? 'wide' : 'tired', pattern);
}
