// The packed analysis (one Float32Array and its offsets, bindings/packed.cpp) as the nested
// object analyze() returns; shared by engine.mjs and own-model.mjs.

// {data, offsets, n, nLayers, nHeads, …} from analyzePacked → analyze's nested shape, every
// matrix a subarray view of `data` (JS-owned; the views share its buffer). Order: packed.h.
// A layer left out of the trace (analyze's `layers` option) is null in `layers`; tracedLayers
// lists the others.
export function unpackAnalysis(p) {
  let i = 0;
  const next = () => p.data.subarray(p.offsets[i], p.offsets[++i]);
  const isTraced = (l) => !p.traced || p.traced[l] === 1;
  const embeddings = next();
  const outputs = []; // every layer's output, the next traced layer's input
  const layers = Array.from({ length: p.nLayers }, (_, l) => {
    if (!isTraced(l)) {
      outputs.push(next());
      return null;
    }
    const heads = Array.from({ length: p.nHeads }, () => {
      const [q, k, v, rawScores, scaledScores, maskedScores, weights, output] = Array.from({ length: 8 }, next);
      return { q, k, v, rawScores, scaledScores, maskedScores, weights, output };
    });
    const [concat, attentionOutput, output] = [next(), next(), next()];
    outputs.push(output);
    return { selfAttention: { heads, concat, output: attentionOutput }, output };
  });
  const output = next();
  // Layer stages (forward_to_js's stages/stageNorms): new matrices, then the nine norms.
  layers.forEach((layer, l) => {
    if (!layer) return;
    const [norm1, residual1, norm2, ffnHidden, ffn, residual2] = Array.from({ length: 6 }, next);
    const input = l === 0 ? embeddings : outputs[l - 1];
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
  const tracedLayers = layers.flatMap((layer, l) => (layer ? [l] : []));
  return { tokens, ids, n, embeddings, layers, tracedLayers, output, unknown, prediction };
}
