// The positional-encoding bindings (bindings/positional.cpp) against their formulas, computed
// here in double precision as an independent reference; the word-order grammar from JS; and
// bad arguments becoming Errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadNodeEngine } from './helpers.mjs';

const engine = await loadNodeEngine();

test('sinusoidalTable(n, d) is sin/cos of p / 10000^(2i/d), row-major n×d', () => {
  for (const [n, d] of [
    [1, 2],
    [5, 4],
    [16, 32],
    [64, 6],
  ]) {
    const table = engine.sinusoidalTable(n, d);
    assert.ok(table instanceof Float32Array);
    assert.equal(table.length, n * d);
    for (let p = 0; p < n; p++)
      for (let i = 0; i < d / 2; i++) {
        const angle = p / 10000 ** ((2 * i) / d);
        assert.ok(Math.abs(table[p * d + 2 * i] - Math.sin(angle)) < 1e-6, `sin at p=${p}, i=${i}`);
        assert.ok(Math.abs(table[p * d + 2 * i + 1] - Math.cos(angle)) < 1e-6, `cos at p=${p}, i=${i}`);
      }
  }
});

test('ropeRotate turns each pair (2i, 2i+1) by p·base^(−2i/d) and keeps the length', () => {
  const vec = Float32Array.from([0.3, -1.2, 0.5, 0.25, -0.7, 0.9]);
  for (const [position, base] of [
    [0, 10000],
    [1, 10000],
    [7, 10000],
    [3, 100],
  ]) {
    const out = engine.ropeRotate(vec, position, base);
    assert.equal(out.length, vec.length);
    for (let i = 0; i < vec.length / 2; i++) {
      const angle = position * base ** ((-2 * i) / vec.length);
      const [a, b] = [vec[2 * i], vec[2 * i + 1]];
      assert.ok(Math.abs(out[2 * i] - (a * Math.cos(angle) - b * Math.sin(angle))) < 1e-6);
      assert.ok(Math.abs(out[2 * i + 1] - (a * Math.sin(angle) + b * Math.cos(angle))) < 1e-6);
      assert.ok(Math.abs(Math.hypot(out[2 * i], out[2 * i + 1]) - Math.hypot(a, b)) < 1e-6);
    }
  }
  assert.deepEqual(engine.ropeRotate(vec, 5), engine.ropeRotate(vec, 5, 10000), 'base defaults to 10000');
});

test('wordOrderRoles reads the corpus grammar', () => {
  assert.deepEqual({ ...engine.wordOrderRoles('猫追狗') }, { agent: '猫', verb: '追', patient: '狗' });
  assert.deepEqual({ ...engine.wordOrderRoles('狗追猫') }, { agent: '狗', verb: '追', patient: '猫' });
  assert.equal(engine.wordOrderRoles('刚才马踢了牛').agent, '马');
  for (const text of ['', '猫狗追', '猫追龙', 'the cat chased the dog'])
    assert.equal(engine.wordOrderRoles(text), null, text);
});

test('bad arguments give readable Errors and the module keeps working', () => {
  assert.throws(() => engine.sinusoidalTable(0, 4), /need n ≥ 1/);
  assert.throws(() => engine.sinusoidalTable(4, 3), /d must be even/);
  assert.throws(() => engine.sinusoidalTable(4096, 4096), /more than/);
  assert.throws(() => engine.ropeRotate([1, 0, 0], 1), /must be even/);
  assert.throws(() => engine.ropeRotate([1, 0], 0.5), /position must be a whole number/);
  assert.throws(() => engine.ropeRotate([1, 0], 1, 1), /base must be more than 1/);
  assert.throws(() => engine.ropeRotate(null, 1), /vec must be an array/);
  assert.equal(engine.sinusoidalTable(1, 2).length, 2);
});
