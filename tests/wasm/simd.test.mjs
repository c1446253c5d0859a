// The shipped .wasm really is a SIMD build: the compiler emitted v128 instructions.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { loadNodeEngine, wasmPath } from './helpers.mjs';

test('the module reports a SIMD build', async () => {
  const engine = await loadNodeEngine();
  assert.equal(engine.simd, true);
});

test('the .wasm code section contains SIMD128 instructions', () => {
  const disassembly = execFileSync('wasm-objdump', ['-d', wasmPath], { maxBuffer: 1 << 28 }).toString();
  const simd = disassembly.match(/\b(v128|f32x4|i32x4|i8x16|i16x8|i64x2|f64x2)\.\w+/g) ?? [];
  const kinds = new Set(simd.map((s) => s.split('.')[0]));
  assert.ok(simd.length > 100, `only ${simd.length} SIMD instructions`);
  assert.ok(kinds.has('f32x4'), 'no f32x4 arithmetic: the float kernels were not vectorised');
});
