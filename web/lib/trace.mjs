// The reader of the packed trace (bindings/packed.h, docs/trace-format.md): a header naming
// every matrix with its shape and offset in one Float32Array. Every consumer finds a matrix by
// its name, never by its position, so the C++ side may reorder or add matrices freely; a trace
// of another format version is refused, as its names may mean something else.
import { EngineError } from './contract.mjs';

export const TRACE_FORMAT = 'attention-explorer-trace';
export const TRACE_VERSION = 1;

// The names of packed.h, built in one place.
export const traceName = {
  head: (layer, head, matrix) => `layer.${layer}.head.${head}.${matrix}`,
  layer: (layer, matrix) => `layer.${layer}.${matrix}`,
  stage: (layer, stage) => `layer.${layer}.stage.${stage}`,
  stageNorm: (layer, stage) => `layer.${layer}.stageNorm.${stage}`,
};

// A reader of {header, data}: get(name) is the matrix as a view of `data` (row-major), shape(name)
// its [rows, cols], has(name) whether the trace holds it, names every name in the header;
// header is the parsed header.
export function readTrace({ header, data }) {
  const h = typeof header === 'string' ? JSON.parse(header) : header;
  if (h?.format !== TRACE_FORMAT || h?.version !== TRACE_VERSION)
    throw new EngineError(
      `trace: this is ${JSON.stringify(h?.format)} version ${JSON.stringify(h?.version)}; this reader reads ` +
        `${JSON.stringify(TRACE_FORMAT)} version ${TRACE_VERSION} (the wasm module and web/lib do not match: rebuild, or reload the page)`,
      'internal',
      { call: 'readTrace', got: h?.version, expected: TRACE_VERSION },
    );
  const matrices = new Map(h.matrices.map((m) => [m.name, m]));
  const entry = (name) => {
    const m = matrices.get(name);
    if (!m) throw new EngineError(`trace: no matrix named ${JSON.stringify(name)}`, 'internal', { call: 'readTrace' });
    return m;
  };
  return {
    header: h,
    data,
    version: h.version,
    nLayers: h.nLayers,
    names: [...matrices.keys()],
    has: (name) => matrices.has(name),
    shape: (name) => [entry(name).rows, entry(name).cols],
    get(name) {
      const { offset, rows, cols } = entry(name);
      return data.subarray(offset, offset + rows * cols);
    },
  };
}
