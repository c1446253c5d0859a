// The one trace format (bindings/packed.h, docs/trace-format.md, web/lib/trace.mjs): every
// matrix found by its name, the nested result built from names only, and a trace of another
// version refused with a clear error.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { EngineError } from '../../web/lib/contract.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';
import { TRACE_VERSION, readTrace, traceName } from '../../web/lib/trace.mjs';
import { unpackAnalysis } from '../../web/lib/unpack.mjs';
import { loadNodeEngine, shippedModel } from './helpers.mjs';

const LESSON = PAIR.tired;

let engine, coref;
before(async () => {
  engine = await loadNodeEngine();
  coref = engine.loadTrainedModel(shippedModel('coref-encoder'));
});

// The packed answer {tokens, ids, n, trace: {header, data}, …} that unpackAnalysis read.
const packedOf = (result) => {
  const { header, data } = result.trace;
  const { embeddings, layers, tracedLayers, output, ...rest } = result;
  return { ...rest, trace: { header: JSON.stringify(header), data } };
};

test('a matrix is found by its name: the last layer, last head, weights', () => {
  const r = coref.analyze(LESSON);
  const [l, h] = [coref.config.nLayers - 1, coref.config.nHeads - 1];
  const name = traceName.head(l, h, 'weights');
  assert.equal(name, `layer.${l}.head.${h}.weights`);
  assert.deepEqual(r.trace.shape(name), [r.n, r.n]);
  assert.deepEqual(r.trace.get(name), r.layers[l].selfAttention.heads[h].weights);
  assert.deepEqual(r.trace.shape(traceName.stage(0, 'ffnHidden')), [r.n, coref.config.dFF]);
  assert.deepEqual(r.trace.shape(traceName.stageNorm(0, 'input')), [r.n, 1]);
});

test('the header names each matrix once, and the matrices tile the data exactly', () => {
  for (const t of [
    coref.analyze(LESSON).trace,
    engine.createRandomModel({ nLayers: 2, seed: 5 }).run('a cat sat').trace,
  ]) {
    const { matrices, version } = t.header;
    assert.equal(version, TRACE_VERSION);
    assert.equal(new Set(matrices.map((m) => m.name)).size, matrices.length);
    const spans = matrices.map((m) => [m.offset, m.offset + m.rows * m.cols]).sort((a, b) => a[0] - b[0]);
    spans.forEach(([start], i) => assert.equal(start, i === 0 ? 0 : spans[i - 1][1]));
    assert.equal(spans.at(-1)[1], t.data.length);
  }
});

test('the nested result is read by name: a header listed in another order gives the same result', () => {
  const r = coref.analyze(LESSON, { ablate: [[0, 1]] });
  const packed = packedOf(r);
  const header = JSON.parse(packed.trace.header);
  header.matrices.reverse();
  const reordered = unpackAnalysis({ ...packed, trace: { ...packed.trace, header: JSON.stringify(header) } });
  assert.deepEqual(reordered, r);
});

test('a trace of another version is refused, naming both versions', () => {
  const packed = packedOf(coref.analyze('it was'));
  const header = { ...JSON.parse(packed.trace.header), version: TRACE_VERSION + 1 };
  assert.throws(
    () => unpackAnalysis({ ...packed, trace: { ...packed.trace, header: JSON.stringify(header) } }),
    (e) =>
      e instanceof EngineError &&
      e.code === 'internal' &&
      e.message.includes(`version ${TRACE_VERSION + 1}`) &&
      e.message.includes(`version ${TRACE_VERSION}`),
  );
  assert.throws(() => readTrace({ header: '{"version": 1}', data: new Float32Array() }), { code: 'internal' });
});

test('a name the trace lacks is an error, not undefined', () => {
  const t = coref.analyze('it was').trace;
  assert.equal(t.has('layer.99.output'), false);
  assert.throws(() => t.get('layer.99.output'), /no matrix named "layer.99.output"/);
});
