// The two builds of the module (web/lib/engine.mjs): relaxed SIMD (fused multiply-add) and
// SIMD128 (mul + add), from the same sources. Node 20 without --experimental-wasm-relaxed-simd
// picks SIMD128, with it the relaxed build; both builds' key results agree within float32
// rounding (module-results.mjs computes them in a child Node per flag), and the kernel tests of
// this folder pass on the relaxed build as they do on the default one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { chooseModule, relaxedSimdSupported } from '../../web/lib/engine.mjs';
import { maxScaledDiff, modulePath, root } from './helpers.mjs';

const FLAG = '--experimental-wasm-relaxed-simd';
const node = (args) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
const results = (flags, build) => JSON.parse(node([...flags, path.join(root, 'tests/wasm/module-results.mjs'), build]));

test("both builds are shipped, each as the page's module and the full one", () => {
  for (const build of ['relaxed', 'simd128', 'full-relaxed', 'full'])
    assert.ok(existsSync(modulePath(build)), `${modulePath(build)}: npm run build (needs clang-19)`);
});

test('the probe picks the build: SIMD128 without the flag, relaxed with it', () => {
  const withFlag = process.execArgv.includes(FLAG);
  assert.equal(relaxedSimdSupported(), withFlag);
  assert.equal(chooseModule(), withFlag ? 'relaxed' : 'simd128');
  const other = JSON.parse(
    node([
      ...(withFlag ? [] : [FLAG]),
      '--input-type=module',
      '-e',
      "import('./web/lib/engine.mjs').then((e) => console.log(JSON.stringify(e.chooseModule())))",
    ]),
  );
  assert.equal(other, withFlag ? 'simd128' : 'relaxed');
});

test('the two builds agree: predictions, generated words, attention weights, GEMM and fused attention', () => {
  const plain = results([], 'simd128');
  const relaxed = results([FLAG], 'relaxed');
  assert.deepEqual(plain.features, {
    build: 'simd128',
    simd: true,
    relaxedSimd: false,
    fma: false,
    gemm: 'f32_gemm_ukernel_5x8__wasmsimd',
    full: false,
  });
  assert.deepEqual(relaxed.features, {
    build: 'relaxed',
    simd: true,
    relaxedSimd: true,
    fma: true,
    gemm: 'f32_gemm_ukernel_6x8__wasmrelaxedsimd',
    full: false,
  });
  assert.deepEqual(relaxed.generate, plain.generate);
  assert.deepEqual(
    relaxed.generate.map((words) => words.at(-1)),
    ['animal', 'street'],
  );
  for (const [text, p] of Object.entries(plain.lesson)) {
    const r = relaxed.lesson[text];
    assert.equal(r.prediction.word ?? r.prediction.token, p.prediction.word ?? p.prediction.token, text);
    assert.ok(
      Math.abs(r.prediction.probability - p.prediction.probability) < 1e-5,
      `${text}: p ${r.prediction.probability} vs ${p.prediction.probability}`,
    );
    // Softmax weights in [0, 1] after 3 layers: within 1e-5 (measured: ≤ 6e-7 of the row maximum).
    p.heads.forEach((layer, l) =>
      layer.forEach((w, h) =>
        assert.ok(maxScaledDiff(r.heads[l][h], w) < 1e-5, `${text}: layer ${l + 1} head ${h + 1}`),
      ),
    );
  }
  plain.random.forEach((layer, l) =>
    layer.forEach((w, h) => assert.ok(maxScaledDiff(relaxed.random[l][h], w) < 1e-5, `random ${l} ${h}`)),
  );
  for (const n of Object.keys(plain.gemm)) {
    const d = maxScaledDiff(relaxed.gemm[n], plain.gemm[n]);
    assert.ok(d < 1e-5 && d > 0, `GEMM n = ${n}: scaled difference ${d} (0 would mean no FMA ran)`);
  }
  for (const key of Object.keys(plain.attention))
    assert.ok(maxScaledDiff(relaxed.attention[key], plain.attention[key]) < 1e-5, `fused attention n = ${key}`);
});

test('the kernel and model tests pass on the relaxed build too', () => {
  const files = ['kernels.test.mjs', 'trained.test.mjs', 'lesson.test.mjs'].map((f) =>
    path.join(root, 'tests/wasm', f),
  );
  if (process.execArgv.includes(FLAG)) return; // already running them on this build
  node([FLAG, '--test', ...files]); // throws with the failing output when a test fails
});
