// The hand-written WAT GEMM of the relaxed-SIMD benchmark (tools/bench/relaxed-gemm.mjs): both
// variants compute C = A·B for sizes that exercise every edge (rows left over by the 5-row
// micro-kernel, columns left over by the 8-column panels, K of 1, more than one block of K, N
// or M), and they differ only in the
// multiply–add. The relaxed variant needs an engine with relaxed SIMD: in Node 20 that is a
// child process with --experimental-wasm-relaxed-simd.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { root } from './helpers.mjs';
import { buildRelaxedGemm, gemmWat, instantiateGemm, relaxedSimdSupported } from '../../tools/bench/relaxed-gemm.mjs';

const DIMS = [1, 3, 5, 8, 13, 17, 33];
// Every M×N×K over DIMS, then the blocking edges: K past one 512-row block of B (later blocks
// add to C), N past one 1024-column block, M past one 256-row block of A.
const CASES = [
  ...DIMS.flatMap((m) => DIMS.flatMap((n) => DIMS.map((k) => [m, n, k]))),
  [7, 9, 600],
  [2, 1027, 514],
  [261, 10, 3],
];
const TOLERANCE = 1e-5;
// NaN (an entry never written) arrives from the child's JSON as null: only a number passes.
const agrees = (worst) => typeof worst === 'number' && worst <= TOLERANCE;

// Every [M, N, K] of sizes on one instance: seeded values in [−1, 1), C filled with NaN first (an
// entry the kernel does not write fails), compared with a double-precision reference: the
// largest |C − ref| relative to the size of the entry's terms, Σ_p |a_ip·b_pj| (float32 sums of
// K ≤ 33 terms are within ~K·6e-8 of that; relative to |ref| alone a sum that cancels to
// near 0 would fail). Self-contained: its source also runs in the child process.
async function checkAll(instantiate, bytes, sizes) {
  const g = await instantiate(bytes);
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 31 - 1;
  let worst = 0,
    worstCase = '',
    cases = 0;
  for (const [m, n, k] of sizes) {
    const op = g.prepare(m, n, k);
    for (let i = 0; i < op.a.length; i++) op.a[i] = next();
    for (let i = 0; i < op.b.length; i++) op.b[i] = next();
    op.c.fill(NaN);
    op.run();
    let rel = 0;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0,
          terms = 0;
        for (let p = 0; p < k; p++)
          ((s += op.a[i * k + p] * op.b[p * n + j]), (terms += Math.abs(op.a[i * k + p] * op.b[p * n + j])));
        const r = Math.abs(op.c[i * n + j] - s) / Math.max(terms, 1e-30);
        rel = Number.isNaN(r) || r > rel ? r : rel;
      }
    }
    if (!Number.isNaN(worst) && !(rel <= worst)) ((worst = rel), (worstCase = `M=${m} N=${n} K=${k}`)); // NaN sticks
    cases++;
  }
  return { worst, worstCase, cases };
}

// The parenthesised expression starting at text[i] (which is '('), as [its text, index after it].
function sexp(text, i) {
  let depth = 0,
    j = i;
  do {
    if (text[j] === '(') depth++;
    else if (text[j] === ')') depth--;
    j++;
  } while (depth > 0 && j < text.length);
  return [text.slice(i, j), j];
}
// Every (f32x4.add ACC (f32x4.mul B X)) of a WAT text replaced by (f32x4.relaxed_madd B X ACC).
function toRelaxed(text) {
  const ADD = '(f32x4.add ',
    MUL = '(f32x4.mul ';
  let out = '',
    i = 0;
  for (let at; (at = text.indexOf(ADD, i)) >= 0;) {
    const [acc, afterAcc] = sexp(text, at + ADD.length);
    assert.equal(
      text.slice(afterAcc, afterAcc + 1 + MUL.length),
      ` ${MUL}`,
      'f32x4.add of something else than a product',
    );
    const [b, afterB] = sexp(text, afterAcc + 1 + MUL.length);
    const [x, afterX] = sexp(text, afterB + 1);
    assert.equal(text.slice(afterX, afterX + 2), '))');
    out += `${text.slice(i, at)}(f32x4.relaxed_madd ${b} ${x} ${acc})`;
    i = afterX + 2;
  }
  return out + text.slice(i);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'relaxed-gemm-'));
const built = { 5: buildRelaxedGemm({ outDir: tmp }), 4: buildRelaxedGemm({ mr: 4, outDir: tmp }) };
test.after(() => rmSync(tmp, { recursive: true, force: true }));

test('the two variants come from one template and differ only in the multiply–add', () => {
  for (const mr of [5, 4]) {
    const relaxed = gemmWat('relaxed', mr),
      muladd = gemmWat('muladd', mr);
    const madds = relaxed.match(/f32x4\.relaxed_madd/g) ?? [];
    assert.equal(
      madds.length,
      [...Array(mr).keys()].reduce((s, r) => s + 2 * (r + 1), 0),
      'two per row of each kernel 1…mr',
    );
    assert.doesNotMatch(relaxed, /f32x4\.(mul|add)\b/);
    assert.doesNotMatch(muladd, /relaxed_madd/);
    // (f32x4.add ACC (f32x4.mul B X)) ⇔ (f32x4.relaxed_madd B X ACC): rewrite one into the other.
    const rewritten = toRelaxed(muladd).replace('"muladd"', '"relaxed"');
    assert.equal(rewritten, relaxed);
  }
});

test('mul+add variant: C = A·B for every M, N, K in {1, 3, 5, 8, 13, 17, 33} and across blocks', async () => {
  for (const mr of [5, 4]) {
    const r = await checkAll(instantiateGemm, built[mr].muladd.bytes, CASES);
    assert.equal(r.cases, CASES.length);
    assert.ok(agrees(r.worst), `${mr}×8: relative difference ${r.worst} at ${r.worstCase}`);
  }
});

test('sizes below 1 are refused', async () => {
  const g = await instantiateGemm(built[5].muladd.bytes);
  assert.throws(() => g.prepare(0, 4, 4), /m must be an integer ≥ 1/);
  assert.throws(() => g.prepare(4, 4, 2.5), /k must be an integer ≥ 1/);
});

test('relaxed_madd variant: C = A·B for the same sizes', async (t) => {
  if (relaxedSimdSupported()) {
    for (const mr of [5, 4]) {
      const r = await checkAll(instantiateGemm, built[mr].relaxed.bytes, CASES);
      assert.equal(r.cases, CASES.length);
      assert.ok(agrees(r.worst), `${mr}×8: relative difference ${r.worst} at ${r.worstCase}`);
    }
    return;
  }
  // This Node needs the flag: the same check in a child process that has it.
  const module = pathToFileURL(path.join(root, 'tools/bench/relaxed-gemm.mjs')).href;
  const script = `
    import { readFileSync } from 'node:fs';
    import { instantiateGemm, relaxedSimdSupported } from ${JSON.stringify(module)};
    ${checkAll.toString()}
    const out = { supported: relaxedSimdSupported(), results: {} };
    if (out.supported)
      for (const [mr, file] of Object.entries(${JSON.stringify({ 5: built[5].relaxed.wasm, 4: built[4].relaxed.wasm })}))
        out.results[mr] = await checkAll(instantiateGemm, readFileSync(file), ${JSON.stringify(CASES)});
    console.log(JSON.stringify(out));`;
  const child = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (child.error) {
    t.skip(`cannot start a child node with --experimental-wasm-relaxed-simd: ${child.error.message}`);
    return;
  }
  assert.equal(child.status, 0, child.stderr);
  const out = JSON.parse(child.stdout.trim().split('\n').pop());
  assert.ok(out.supported, 'node --experimental-wasm-relaxed-simd does not validate f32x4.relaxed_madd');
  for (const mr of ['5', '4']) {
    assert.equal(out.results[mr].cases, CASES.length);
    assert.ok(
      agrees(out.results[mr].worst),
      `${mr}×8: relative difference ${out.results[mr].worst} at ${out.results[mr].worstCase}`,
    );
  }
});
