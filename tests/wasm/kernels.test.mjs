// The kernel bindings (bindings/kernels.cpp via web/lib/engine.mjs): every GEMM variant and
// both attention paths compute the same numbers through the workspace API, errors arrive as
// Errors with the C++ message, and views survive wasm memory growth.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { build, loadNodeEngine, maxScaledDiff } from './helpers.mjs';

const engine = await loadNodeEngine();
// The default tile: fused multiply-add in the relaxed build, mul + add in the SIMD128 one.
const FIRST = build === 'relaxed' ? 'f32_gemm_ukernel_6x8__wasmrelaxedsimd' : 'f32_gemm_ukernel_5x8__wasmsimd';

function gemmReference(a, b, m, n, k, transposeB) {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += a[i * k + p] * (transposeB ? b[j * k + p] : b[p * n + j]);
      c[i * n + j] = s;
    }
  return c;
}

test('the build lists its GEMM variants, the fastest SIMD tile first', () => {
  const names = engine.gemmKernelNames();
  assert.equal(names[0], FIRST);
  assert.equal(engine.features.gemm, FIRST);
  const isas = build === 'relaxed' ? ['wasmsimd', 'wasmrelaxedsimd'] : ['wasmsimd'];
  for (const isa of isas)
    for (const tile of ['4x8', '5x8', '6x8'])
      assert.ok(names.includes(`f32_gemm_ukernel_${tile}__${isa}`), `${tile} ${isa}`);
  for (const name of ['f32_gemm__eigen', 'f32_gemm__scalar']) assert.ok(names.includes(name), name);
  assert.equal(
    names.some((n) => n.includes('relaxed')),
    build === 'relaxed',
  );
});

test('every GEMM variant matches a plain JS product, both layouts of B', () => {
  const ws = engine.createKernelWorkspace(40 * 40);
  ws.fillRandom(3);
  for (const [m, n, k] of [
    [1, 1, 1],
    [5, 17, 9],
    [33, 40, 31],
  ])
    for (const transposeB of [false, true]) {
      const expected = gemmReference(ws.a, ws.b, m, n, k, transposeB);
      for (const name of engine.gemmKernelNames()) {
        ws.gemm(name, m, n, k, transposeB);
        const diff = maxScaledDiff(ws.c.subarray(0, m * n), expected);
        assert.ok(diff < 1e-5, `${name} ${m}×${n}×${k} transposeB=${transposeB}: relative difference ${diff}`);
      }
    }
  ws.delete();
});

test('fused and traced attention agree on random data, causal and windowed', () => {
  const n = 100,
    d = 64;
  const ws = engine.createKernelWorkspace(2 * n * d);
  ws.fillRandom(5);
  for (const [causal, window] of [
    [false, 0],
    [true, 0],
    [false, 7],
    [true, 3],
  ]) {
    ws.attentionTraced(n, d, causal, window);
    const traced = ws.c.slice(0, n * d);
    ws.attentionFused(n, d, causal, window);
    const diff = maxScaledDiff(ws.c.subarray(0, n * d), traced);
    assert.ok(diff < 1e-5, `causal=${causal} window=${window}: relative difference ${diff}`);
  }
  ws.delete();
});

test('bad arguments throw Errors carrying the C++ message, and the workspace stays usable', () => {
  const ws = engine.createKernelWorkspace(32);
  assert.throws(
    () => ws.gemm('f32_gemm__nope', 2, 2, 2),
    new RegExp(`unknown variant "f32_gemm__nope"; this build has ${FIRST}`),
  );
  assert.throws(() => ws.gemm('f32_gemm__scalar', 6, 6, 6), /needs 36 floats; the workspace buffers hold 32/);
  assert.throws(() => ws.attentionFused(4, 8), /K and V \(2 × n×d, buffer b\) needs 64 floats/);
  assert.throws(() => ws.attentionFused(0, 4), /n and d must be ≥ 1/);
  assert.throws(() => ws.attentionFused(4, 4, false, -1), /window must be ≥ 0/);
  assert.throws(() => engine.createKernelWorkspace(0), /capacity must be ≥ 1/);
  ws.fillRandom(1);
  ws.gemm('f32_gemm__scalar', 2, 2, 2);
  assert.ok(Number.isFinite(ws.c[0]));
  ws.delete();
  assert.throws(() => ws.a, /deleted/);
});

test('views are taken again after wasm memory grows', () => {
  const ws = engine.createKernelWorkspace(2 * 512 * 8);
  ws.fillRandom(2);
  const before = ws.c;
  ws.attentionTraced(512, 8); // allocates four 512×512 matrices: memory may grow
  const grown = engine.memoryStats().heapBytes;
  assert.ok(grown > 0);
  assert.equal(ws.c.length, ws.capacity);
  assert.ok(Number.isFinite(ws.c[0]));
  if (before.buffer.byteLength === 0) assert.notEqual(ws.c, before); // detached: a new view
  ws.delete();
});
