// The packed analysis (one Float32Array and its offsets, bindings/packed.cpp) as the nested
// object analyze() returns; shared by engine.mjs and own-model.mjs.

// {data, offsets, n, nLayers, nHeads, …} from analyzePacked → analyze's nested shape, every
// matrix a subarray view of `data` (JS-owned; the views share its buffer). Order: packed.h.
export function unpackAnalysis(p) {
  let i = 0;
  const next = () => p.data.subarray(p.offsets[i], p.offsets[++i]);
  const embeddings = next();
  const layers = Array.from({ length: p.nLayers }, () => {
    const heads = Array.from({ length: p.nHeads }, () => {
      const [q, k, v, rawScores, scaledScores, maskedScores, weights, output] = Array.from({ length: 8 }, next);
      return { q, k, v, rawScores, scaledScores, maskedScores, weights, output };
    });
    const [concat, attentionOutput, output] = [next(), next(), next()];
    return { selfAttention: { heads, concat, output: attentionOutput }, output };
  });
  const output = next();
  // Layer stages (forward_to_js's stages/stageNorms): new matrices, then the nine norms.
  layers.forEach((layer, l) => {
    const [norm1, residual1, norm2, ffnHidden, ffn, residual2] = Array.from({ length: 6 }, next);
    const input = l === 0 ? embeddings : layers[l - 1].output;
    layer.stages = {
      input,
      norm1,
      attention: layer.selfAttention.output,
      residual1,
      norm2,
      ffnHidden,
      ffn,
      residual2,
      output: layer.output,
    };
    layer.stageNorms = Object.fromEntries(Object.keys(layer.stages).map((key) => [key, next()]));
  });
  const { tokens, ids, n, unknown, prediction } = p;
  return { tokens, ids, n, embeddings, layers, output, unknown, prediction };
}
