// The lesson pair a trained coreference model was trained on, in its own language (config.json
// `lesson`, written by training: "… too tired." / "… too wide.", or 那只动物…太累了。/ 太宽了。),
// and the swap between its two sentences that the main view's button makes. The swap is found
// from the pair itself — the one word where the two sentences differ, after the word before
// it — so a model in another language brings its own pair without code here knowing its words.

export function lessonPair(config) {
  const pair = config?.metadata?.lesson; // a random model has no config.json
  const valid =
    Array.isArray(pair) && pair.length === 2 && pair.every((s) => typeof s === 'string' && s) && pair[0] !== pair[1];
  return valid ? pair : null;
}

// The word a coreference model resolves (config.json `pronoun`): "it", or 它 for the Chinese model.
export function pronounOf(config) {
  const pronoun = config?.metadata?.pronoun;
  return typeof pronoun === 'string' && pronoun ? pronoun : 'it';
}

const isCjk = (ch) => /\p{Script=Han}/u.test(ch);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// {test(text), swap(text)} for a pair of sentences that differ in one place: "too tired" ↔
// "too wide" anywhere in a sentence the learner edited, as long as the deciding word is still
// there after the same word ("too" / 太).
export function deciderSwap([a, b]) {
  const chars = (s) => Array.from(s);
  const [x, y] = [chars(a), chars(b)];
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x.at(-1 - end) === y.at(-1 - end)) end++;
  const first = x.slice(start, x.length - end).join('');
  const second = y.slice(start, y.length - end).join('');
  const before = x.slice(0, start).join('');
  // The word before the difference: one character in Chinese, a word and its space otherwise.
  const context = isCjk(before.at(-1) ?? '') ? before.at(-1) : (/\S+\s*$/u.exec(before)?.[0] ?? '');
  const wordEnd = /^[\p{L}\p{N}]/u.test(first) && !isCjk(first[0]) ? '(?![\\p{L}\\p{N}])' : '';
  const wordStart = context && !isCjk(context) ? '(?<![\\p{L}\\p{N}])' : '';
  const pattern = new RegExp(`${wordStart}${escape(context)}(${escape(first)}|${escape(second)})${wordEnd}`, 'iu');
  return {
    first,
    second,
    test: (text) => first !== '' && second !== '' && pattern.test(text),
    swap: (text) =>
      text.replace(
        pattern,
        (match, word) =>
          match.slice(0, match.length - word.length) + (word.toLowerCase() === first.toLowerCase() ? second : first),
      ),
  };
}
