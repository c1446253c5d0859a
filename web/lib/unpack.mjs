// The packed trace (bindings/packed.h: a named header and one Float32Array) as the nested
// object analyze() and run() return, every matrix found by its name (web/lib/trace.mjs) and a
// view of the one array; shared by engine.mjs and own-model.mjs.
import { readTrace, traceName } from './trace.mjs';

const HEAD_MATRICES = ['q', 'k', 'v', 'rawScores', 'scaledScores', 'maskedScores', 'weights', 'output'];
// The layer stages (ae::layer_stages): input, attention and output are matrices of their own
// names (the layer's input is the previous layer's output, or the embeddings).
const STAGES = ['input', 'norm1', 'attention', 'residual1', 'norm2', 'ffnHidden', 'ffn', 'residual2', 'output'];

// {tokens, ids, n, trace, …} from analyze, analyzePacked or run → {tokens, ids, n, embeddings,
// layers, tracedLayers, output, …, trace: the reader}. A layer left out of the trace (analyze's
// `layers` option) is null in `layers`; tracedLayers lists the others.
export function unpackAnalysis({ trace, ...rest }) {
  const t = readTrace(trace);
  const layers = Array.from({ length: t.nLayers }, (_, l) =>
    t.has(traceName.layer(l, 'concat')) ? readLayer(t, l) : null,
  );
  const tracedLayers = layers.flatMap((layer, l) => (layer ? [l] : []));
  const result = { ...rest, embeddings: t.get('embeddings'), layers, tracedLayers, output: t.get('output') };
  // The reader itself, for a caller that reads by name (not enumerable: results still compare
  // by their matrices).
  return Object.defineProperty(result, 'trace', { value: t });
}

function readLayer(t, l) {
  const heads = [];
  for (let h = 0; t.has(traceName.head(l, h, 'weights')); h++)
    heads.push(Object.fromEntries(HEAD_MATRICES.map((m) => [m, t.get(traceName.head(l, h, m))])));
  const matrix = {
    input: l === 0 ? t.get('embeddings') : t.get(traceName.layer(l - 1, 'output')),
    attention: t.get(traceName.layer(l, 'attention')),
    output: t.get(traceName.layer(l, 'output')),
  };
  const stages = Object.fromEntries(STAGES.map((s) => [s, matrix[s] ?? t.get(traceName.stage(l, s))]));
  const stageNorms = Object.fromEntries(STAGES.map((s) => [s, t.get(traceName.stageNorm(l, s))]));
  return {
    selfAttention: { heads, concat: t.get(traceName.layer(l, 'concat')), output: matrix.attention },
    output: matrix.output,
    stages,
    stageNorms,
  };
}
