// The shipped .wasm really is a SIMD build: the compiler emitted v128 instructions.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { loadNodeEngine, modulePath, wasmPath } from './helpers.mjs';

test('the module reports a SIMD build', async () => {
  const engine = await loadNodeEngine();
  assert.equal(engine.simd, true);
});

// wasm-objdump -d takes seconds per module: each file is disassembled once.
const disassemblies = new Map();
const disassemble = (file) =>
  disassemblies.get(file) ??
  disassemblies.set(file, execFileSync('wasm-objdump', ['-d', file], { maxBuffer: 1 << 28 }).toString()).get(file);

test('the .wasm code section contains SIMD128 instructions', () => {
  const disassembly = disassemble(wasmPath);
  const simd = disassembly.match(/\b(v128|f32x4|i32x4|i8x16|i16x8|i64x2|f64x2)\.\w+/g) ?? [];
  const kinds = new Set(simd.map((s) => s.split('.')[0]));
  assert.ok(simd.length > 100, `only ${simd.length} SIMD instructions`);
  assert.ok(kinds.has('f32x4'), 'no f32x4 arithmetic: the float kernels were not vectorised');
});

test('only the relaxed build has fused multiply-adds (f32x4.relaxed_madd), and every kernel file uses them', () => {
  const count = (file) => (disassemble(file).match(/f32x4\.relaxed_madd/g) ?? []).length;
  assert.equal(count(modulePath('simd128')), 0);
  // GEMM: 3 tiles × up to 6 rows × 2 halves; attention: scores, weighted sums, ℓ; exp: 8 per call site.
  const relaxed = count(modulePath('relaxed'));
  assert.ok(relaxed > 100, `only ${relaxed} relaxed_madd in ${modulePath('relaxed')}`);
});
