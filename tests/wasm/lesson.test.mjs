// The lesson bindings (bindings/lesson.cpp) in wasm: the ÷√d experiment, the row entropy and
// the head split, checked against identities and against the trained model's own trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadNodeEngine } from './helpers.mjs';

const engine = await loadNodeEngine();

test('scalingDemo: shapes, rows summing to 1, entropy = rowEntropy of the same weights', () => {
  const demo = engine.scalingDemo({ d: 64, keys: 8, queries: 16, seed: 3, scale: true });
  assert.equal(demo.weights.length, 8 * 16);
  assert.equal(demo.scores.length, 8 * 16);
  assert.equal(demo.entropy.length, 16);
  assert.equal(demo.factor, Math.fround(1 / 8));
  for (let q = 0; q < 16; q++) {
    const row = demo.weights.subarray(q * 8, q * 8 + 8);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-6);
    assert.equal(Math.fround(engine.rowEntropy(row)), demo.entropy[q]);
  }
  assert.ok(Math.abs(demo.uniformEntropy - Math.log(8)) < 1e-12);
});

test('scalingDemo: the same seed repeats, unscaled large d collapses onto one key', () => {
  const a = engine.scalingDemo({ d: 1024, keys: 8, queries: 32, seed: 9, scale: false });
  const b = engine.scalingDemo({ d: 1024, keys: 8, queries: 32, seed: 9, scale: false });
  assert.deepEqual(a.scores, b.scores);
  const scaled = engine.scalingDemo({ d: 1024, keys: 8, queries: 32, seed: 9, scale: true });
  assert.ok(a.meanMaxWeight > 0.95, `unscaled mean max weight ${a.meanMaxWeight}`);
  assert.ok(scaled.meanEntropy > 1, `scaled mean entropy ${scaled.meanEntropy}`);
  assert.ok(Math.abs(scaled.scoreVariance * 1024 - a.scoreVariance) / a.scoreVariance < 1e-4);
});

test('scalingDemo and rowEntropy reject bad input with a message, and keep working', () => {
  assert.throws(() => engine.scalingDemo({ d: 0 }), /d must be 1/);
  assert.throws(() => engine.scalingDemo({ d: 8, keys: 100000 }), /number of keys/);
  assert.throws(() => engine.rowEntropy(new Float32Array(0)), /must not be empty/);
  assert.throws(() => engine.rowEntropy(new Float32Array([0.5, -0.1])), /≥ 0/);
  assert.equal(engine.scalingDemo({ d: 2, keys: 2, queries: 1 }).weights.length, 2);
});

test('headSplit and attentionParameterCount: 4096 / 128 = 32 heads, count independent of heads', () => {
  const s = engine.headSplit(4096, 128);
  assert.equal(s.nHeads, 32);
  assert.equal(s.divides, true);
  assert.equal(s.total, 4 * 4096 * 4096 + 4 * 4096);
  for (const h of [1, 2, 4, 8, 16, 32]) assert.equal(engine.attentionParameterCount(4096, h), s.total);
  assert.equal(engine.headSplit(4096, 100).divides, false);
  assert.throws(() => engine.attentionParameterCount(32, 3), /must divide/);
  assert.throws(() => engine.headSplit(0, 8), /d_model must be/);
});
