// Helps a learner type sentences a trained (word-level) model can read: its word list, the
// known words nearest to a word it read as [UNK], and whether a sentence is in a language the
// model does not read. The words, the distances and which words are unknown all come from the
// engine (TrainedModel.vocabularyWords, nearestWords, encodeWords); this module only decides
// what to offer and edits the sentence's text. Out-of-range positions are bad-option EngineErrors.
import { MAX_WORD_LENGTH, integer, refuse } from './contract.mjs';

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;
export const isHan = (word) => HAN.test(word);

// How many edits a suggestion may be from the typed word: about one per three characters, and
// fewer than the word's length (else a one-character word — a Chinese character — would be
// "near" every other character).
export function suggestionDistance(word) {
  const length = [...word].length;
  return Math.min(Math.ceil(length / 3), length - 1);
}

// Function words that negate. A suggestion must keep the typed word's negation: "didnt" is
// offered "didn't" and never "did" (which turns "didn't cross" into "did cross"), and a word
// that does not negate is never offered one that does ("ot" → "not").
const NEGATIONS = new Set([
  'not',
  "n't",
  'never',
  'no',
  'nor',
  'none',
  'nothing',
  'nobody',
  'neither',
  'nowhere',
  'cannot',
]);
// A contraction typed without its apostrophe ("didnt", "cant", "wont"), or the bare "nt".
const CONTRACTION =
  /^(?:ai|are|ca|could|did|does|do|had|has|have|is|might|must|need|sha|should|was|were|wo|would)?n'?t$/;
export const negates = (word) => NEGATIONS.has(word) || CONTRACTION.test(word);

// Prefixes that turn a word into its opposite ("able" / "unable", "possible" / "impossible") and
// the suffixes that oppose each other ("careless" / "careful"). An offer that is the typed word
// with its opposite's affix is not a spelling fix but the other meaning: "unable" is never offered
// "able", nor "able" "unable".
const OPPOSING_PREFIX = /^(?:un|in|im|il|ir|dis|non)(?=.{3})/;
const OPPOSING_SUFFIX = /(?<=.{3})(?:less|ful)$/;
export function opposes(typed, offered) {
  if (typed === offered) return false;
  const [shorter, longer] = typed.length <= offered.length ? [typed, offered] : [offered, typed];
  if (longer.replace(OPPOSING_PREFIX, '') === shorter) return true;
  const stem = (word) => word.replace(OPPOSING_SUFFIX, '');
  return OPPOSING_SUFFIX.test(typed) && OPPOSING_SUFFIX.test(offered) && stem(typed) === stem(offered);
}

// A contraction typed without its apostrophe, with it ("didnt" → "didn't"), when the model reads
// every token of that (the tokenizer splits it into "did" and "n't"); else null.
function withApostrophe(model, word) {
  if (!CONTRACTION.test(word) || word.includes("'") || word.length < 3) return null;
  const fixed = `${word.slice(0, -2)}n't`;
  return model.encodeWords && model.encodeWords(fixed).unknown.length === 0 ? fixed : null;
}

// [{word, near: [known words, nearest first]}] for each distinct unknown word of a run that
// has a known word close enough to offer; none for a word over MAX_WORD_LENGTH (no typo: a
// pasted run of letters, which nearestWords refuses). An offer keeps the word's negation (see
// negates) and is never the word's opposite (see opposes).
export function suggestionsFor(model, tokens, unknown, k = 3) {
  const out = [];
  const position = integer(0, tokens.length - 1);
  for (const word of new Set(unknown.map((i) => tokens[position('suggestionsFor', 'unknown', i)]))) {
    const max = suggestionDistance(word);
    if (max < 1 || word.length > MAX_WORD_LENGTH) continue;
    const negating = negates(word);
    const fixed = withApostrophe(model, word);
    const near = model
      .nearestWords(word, k, max)
      .map((n) => n.word)
      .filter((w) => negates(w) === negating && !opposes(word, w) && w !== fixed);
    if (fixed) near.unshift(fixed);
    if (near.length) out.push({ word, near: near.slice(0, k) });
  }
  return out;
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// `text` with every standalone occurrence of `word` replaced by `replacement`. The tokenizer
// lower-cases, so the match ignores case, and a capital first letter is kept ("Bycicle" →
// "Bicycle").
export function replaceWord(text, word, replacement) {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(pattern, (match) =>
    match[0] !== match[0].toLowerCase() ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement,
  );
}

// `word` put in place of text[start, end) (the textarea's selection); a space goes between it
// and a neighbouring letter so that two words do not run together, except for Chinese
// characters, which are written without spaces. → {text, caret: the position after the word}.
export function insertWord(text, start, end, word) {
  if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= text.length))
    refuse('insertWord', 'start and end', `whole numbers with 0 ≤ start ≤ end ≤ ${text.length}`, `${start}, ${end}`);
  const spaced = !isHan(word);
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = spaced && before && !/\s$/.test(before) ? ' ' : '';
  const trail = spaced && LETTER.test(after[0] ?? '') ? ' ' : '';
  const inserted = lead + word + trail;
  return { text: before + inserted + after, caret: start + lead.length + word.length };
}

// 'zh' when most of a model's words are Chinese characters, else 'en'.
export function vocabularyLanguage(words) {
  return words.filter(isHan).length * 2 > words.length ? 'zh' : 'en';
}

// The language of a sentence a model cannot read, from how the model's vocabulary read it
// (encodeWords: {tokens, unknown}): 'zh' when more than half of its tokens are unknown Chinese
// characters and the model reads English, 'en' when more than half are unknown words with
// Latin letters and the model reads Chinese; otherwise null.
export function unreadLanguage(encoded, modelLanguage) {
  const unknown = encoded.unknown.map((i) => encoded.tokens[i]);
  const han = unknown.filter(isHan).length;
  const latin = unknown.filter((w) => /[a-z]/i.test(w)).length;
  const most = encoded.tokens.length / 2;
  if (modelLanguage === 'en' && han > most) return 'zh';
  if (modelLanguage === 'zh' && latin > most) return 'en';
  return null;
}
