// The word every lesson panel starts with when no word is selected (store.token is null or
// out of range): the first "it" — the lesson's question is what "it" refers to — else the
// last word (for a decoder, the position that predicts the next word). Used by the head view,
// the Q, K, V steps, the multi-head panel and the layer panel, so that they agree.
export const DEFAULT_WORD = 'it';

export function selectedToken(tokens, token) {
  if (Number.isInteger(token) && token >= 0 && token < tokens.length) return token;
  const it = tokens.findIndex((t) => String(t).toLowerCase() === DEFAULT_WORD);
  return it >= 0 ? it : tokens.length - 1;
}
