// The word every lesson panel starts with when no word is selected (store.token is null or
// out of range): the first pronoun of the lesson — "it" in English, 它 in Chinese (the lesson's
// question is what it refers to); a byte-level BPE token's leading space ("Ġit", " it") does not
// count — else the last word (for a decoder, the position that predicts the next word). Used by
// the head view, the Q, K, V steps, the multi-head panel and the layer panel, so that they agree.
export const DEFAULT_WORDS = ['it', '它'];

const isPronoun = (t) =>
  DEFAULT_WORDS.includes(
    String(t)
      .replace(/^[\sĠ]+/, '')
      .toLowerCase(),
  );

export function selectedToken(tokens, token) {
  if (Number.isInteger(token) && token >= 0 && token < tokens.length) return token;
  const it = Array.from(tokens).findIndex(isPronoun);
  return it >= 0 ? it : tokens.length - 1;
}
