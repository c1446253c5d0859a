// The bound functions behind the n² cost panel and the benchmarks: the traced kernel's memory
// (tracedAttentionBytes), the packed analysis (TrainedModel.analyzePacked) and the in-wasm
// timings (ModelBench). Timings are not asserted; what they report about the work done is.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadNodeBenchEngine, loadNodeEngine, shippedModel } from './helpers.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';

const LESSON = PAIR.tired;

const engine = await loadNodeEngine(); // the page's module
const benchEngine = await loadNodeBenchEngine(); // the benchmarks' (attention_bench)

test('tracedAttentionBytes is the size of the trace the traced kernel returns', () => {
  for (const [n, d] of [
    [1, 1],
    [5, 8],
    [17, 64],
    [64, 16],
  ]) {
    const q = new Float32Array(n * d).map((_, i) => Math.sin(i)),
      k = q.map((x) => x / 2),
      v = q.map((x) => -x);
    const t = engine.attention({ q, k, v, n, m: n, dk: d });
    const bytes = ['rawScores', 'scaledScores', 'maskedScores', 'weights', 'output'].reduce(
      (s, key) => s + t[key].byteLength,
      0,
    );
    assert.equal(engine.tracedAttentionBytes(n, d), bytes, `n = ${n}, d = ${d}`);
  }
  // Sizes far too large to run are still answered (four 8192² float matrices + the output).
  assert.equal(engine.tracedAttentionBytes(8192, 64), 4 * engine.tracedAttentionBytes(4096, 64) - 2 * 4096 * 64 * 4);
  assert.throws(() => engine.tracedAttentionBytes(-1, 64), /must not be negative/);
});

test('analyzePacked gives exactly what analyze gives, as views of one array', () => {
  const model = engine.loadTrainedModel(shippedModel('coref-encoder'));
  try {
    for (const text of [LESSON, PAIR.wide, 'The zebra saw it.']) {
      const a = model.analyze(text, { ablate: [[0, 1]] });
      const p = model.analyzePacked(text, { ablate: [[0, 1]] });
      assert.deepEqual(p.tokens, a.tokens);
      assert.deepEqual(p.ids, a.ids);
      assert.deepEqual(p.unknown, a.unknown);
      assert.deepEqual(p.prediction, a.prediction);
      assert.deepEqual(p.embeddings, a.embeddings);
      assert.deepEqual(p.output, a.output);
      assert.equal(p.layers.length, a.layers.length);
      const buffer = p.embeddings.buffer;
      a.layers.forEach((layer, l) => {
        assert.deepEqual(p.layers[l].output, layer.output);
        assert.deepEqual(p.layers[l].selfAttention.concat, layer.selfAttention.concat);
        assert.deepEqual(p.layers[l].selfAttention.output, layer.selfAttention.output);
        layer.selfAttention.heads.forEach((head, h) => {
          for (const [key, value] of Object.entries(head)) {
            assert.deepEqual(p.layers[l].selfAttention.heads[h][key], value, `layer ${l} head ${h} ${key}`);
            assert.equal(p.layers[l].selfAttention.heads[h][key].buffer, buffer);
          }
        });
      });
    }
    assert.throws(() => model.analyzePacked(''), /empty/i);
  } finally {
    model.delete();
  }
});

test("the page's module has no ModelBench: createModelBench says which module has it", () => {
  assert.throws(
    () => engine.createModelBench(shippedModel('coref-encoder')),
    (e) => e.code === 'bad-input' && /page's module has no benchmarks.*attention_bench/.test(e.message),
  );
});

test('ModelBench times analyze inside wasm and runs the recipe trainer deterministically', () => {
  const bench = benchEngine.createModelBench(shippedModel('coref-encoder'));
  try {
    const t = bench.analyzeTiming(LESSON, 3);
    assert.equal(t.reps, 3);
    for (const key of ['coreMicroseconds', 'withPackedMicroseconds', 'geluMicroseconds'])
      assert.ok(Number.isFinite(t[key]) && t[key] > 0, `${key} = ${t[key]}`);
    assert.throws(() => bench.analyzeTiming(LESSON, 0), /reps must be 1 … 100000, got 0/);
    assert.throws(() => bench.analyzeTiming('', 2), /empty/i);

    const a = bench.trainingThroughput({ steps: 3, batchSize: 4, examples: 16, seed: 2 });
    assert.equal(a.steps, 3);
    assert.equal(a.batchSize, 4);
    assert.equal(a.examples, 16);
    assert.ok(a.seconds > 0);
    assert.ok(Math.abs(a.stepsPerSecond - 3 / a.seconds) < 1e-9 * a.stepsPerSecond);
    const b = bench.trainingThroughput({ steps: 3, batchSize: 4, examples: 16, seed: 2 });
    assert.equal(b.firstLoss, a.firstLoss);
    assert.equal(b.lastLoss, a.lastLoss);
    assert.ok(a.firstLoss > 2, `a fresh model's loss is near ln(vocab), got ${a.firstLoss}`);
    assert.throws(() => bench.trainingThroughput({ steps: 0 }), /steps must be a whole number from 1 to 100000, got 0/);
  } finally {
    bench.delete();
  }
});
