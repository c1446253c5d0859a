// The head a trained model's config.json names as its coreference head: `coreference_head`
// {layer, head} (0-based), written by training for the encoder (the head whose row at "it"
// points at the referent) and for the decoder (its row at "="; `coreference_row` says which).
// Panels open on it so their defaults follow the shipped model through retraining; every reader
// of the head goes through coreferenceHead (config.metadata is config.json parsed once, engine.mjs).

// {layer, head} when the config names a head the model has, else `fallback`.
export function coreferenceHead(config, fallback = null) {
  const named = config?.metadata?.coreference_head; // a random model has no config.json
  const within = (value, count) => Number.isInteger(value) && value >= 0 && value < count;
  if (!named || !within(named.layer, config.nLayers) || !within(named.head, config.nHeads)) return fallback;
  return { layer: named.layer, head: named.head };
}

// The row of the coreference head that a run's answer is read at, as the trace holds it: the
// answer's position (the pronoun's last occurrence for the encoder, the last token for the
// decoder), when that word is the one config.json's `coreference_row` names ("it", 它, "=").
// {layer, head, row, token, weights (a view of the trace's row: one weight per word), top (the
// position of its largest weight)}, else null (a model without a coreference head, a decoder
// prompt that does not end in "=", no answer).
export function coreferenceRow(result, config) {
  const named = coreferenceHead(config);
  const row = result?.prediction?.position;
  const tokens = result?.tokens ?? [];
  const word = config?.metadata?.coreference_row ?? config?.metadata?.pronoun ?? 'it';
  const layer = named && result.layers?.[named.layer];
  if (!layer || !Number.isInteger(row) || tokens[row] !== word) return null;
  const n = tokens.length;
  const weights = layer.selfAttention.heads[named.head].weights.subarray(row * n, (row + 1) * n);
  let top = 0;
  for (let i = 1; i < n; i++) if (weights[i] > weights[top]) top = i;
  return { ...named, row, token: word, weights, top };
}
