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
