// A hand-written WebAssembly GEMM, C = A·B (row-major float32; A M×K, B K×N, C M×N), generated
// as WAT text in two variants from one template that differ only in the multiply–add:
//   'relaxed'  f32x4.relaxed_madd (relaxed SIMD: a fused multiply–add where the CPU has one)
//   'muladd'   f32x4.mul then f32x4.add (plain SIMD128, like the project's kernels)
// clang 14 cannot emit the final relaxed-SIMD opcodes (TOOLCHAIN.md §9), so the text is
// assembled with wabt's `wat2wasm --enable-relaxed-simd` into build/bench/.
//
// The algorithm mirrors src/ops/gemm_simd128.cpp (f32_gemm_ukernel_5x8__wasmsimd) so the comparison is
// fair: the same blocking (NC = 1024 columns, KC = 512 rows of B, MC = 256 rows of A), B packed
// inside the call into panels of 8 columns (zero-padded at the right edge), and an mr×8
// micro-kernel (mr = 5 by default) keeping its tile of C in 2·mr vector locals: per step of K one
// panel row (two v128.load), mr v128.load32_splat from A's rows and 2·mr multiply–adds, written
// in the order clang emits for the C++ loop. The last < mr rows of a block go through the
// (mr−1)×8 … 1×8 kernels; tiles cut by the right edge of C go through a staging area at address 0
// (one 8-float row per tile row). Unlike the C++ kernel the micro-kernel is a separate wasm
// function, called once per tile.
//
// relaxed-simd.mjs disassembles what V8 makes of the loop (broadcasts interleaved with the
// multiply–adds, no accumulator spilled), next to the project's kernel.
//
// Use:  const built = buildRelaxedGemm();          // {relaxed: {wat, wasm, bytes}, muladd: {…}}
//       const g = await instantiateGemm(built.relaxed.bytes);
//       const op = g.prepare(m, n, k);  op.a.set(A); op.b.set(B); op.run(); op.c → C
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WAT2WASM = '/usr/bin/wat2wasm';
export const NR = 8,
  KC = 512,
  MC = 256,
  NC = 1024;
export const MR_DEFAULT = 5; // rows of the micro-kernel, as f32_gemm_ukernel_5x8__wasmsimd
export const VARIANTS = ['relaxed', 'muladd'];

const get = (x) => `(local.get $${x})`;
const set = (x, v) => `(local.set $${x} ${v})`;
const i32 = (v) => `(i32.const ${v})`;
const add = (a, b) => `(i32.add ${a} ${b})`;
const mul = (a, b) => `(i32.mul ${a} ${b})`;
const min = (a, b) => `(select ${a} ${b} (i32.lt_s ${a} ${b}))`; // operands must be pure
// for (v = 0; v < end; v += step) body — as block/loop.
const forLoop = (v, end, step, body) => [
  set(v, i32(0)),
  `(block $${v}_done (loop $${v}_next`,
  `  (br_if $${v}_done (i32.ge_s ${get(v)} ${end}))`,
  ...body.map((l) => `  ${l}`),
  `  ${set(v, add(get(v), step))}`,
  `  (br $${v}_next)))`,
];

// acc + b·x (operands are WAT expressions): the one place the variants differ.
const madd = (variant, b, x, acc) =>
  variant === 'relaxed' ? `(f32x4.relaxed_madd ${b} ${x} ${acc})` : `(f32x4.add ${acc} (f32x4.mul ${b} ${x}))`;

// C[mr×nr] = (loadc ? C : 0) + A[mr×kc] · panel[kc×8]; addresses in bytes, lda4/ldc4 = stride·4.
function microKernel(mr, variant) {
  const rows = [...Array(mr).keys()];
  const locals = [
    ...rows.map((r) => `(local $a${r} i32)`),
    '(local $pp i32) (local $o i32) (local $i i32) (local $cr i32)',
    ...rows.map((r) => `(local $lo${r} v128) (local $hi${r} v128)`),
    '(local $bl v128) (local $bh v128) (local $x v128)',
  ];
  const rowAddr = (r) => (r === 0 ? get('c') : add(get('c'), mul(get('ldc4'), i32(r))));
  return [
    `(func $mk${mr} (param $kc i32) (param $a i32) (param $lda4 i32) (param $panel i32) (param $c i32) (param $ldc4 i32) (param $nr i32) (param $loadc i32)`,
    ...locals,
    ...rows.map((r) => set(`a${r}`, r === 0 ? get('a') : add(get(`a${r - 1}`), get('lda4')))),
    `(if ${get('loadc')} (then`,
    `  (if (i32.eq ${get('nr')} ${i32(NR)}) (then`,
    ...rows.flatMap((r) => [
      `    ${set('cr', rowAddr(r))}`,
      `    ${set(`lo${r}`, `(v128.load ${get('cr')})`)} ${set(`hi${r}`, `(v128.load offset=16 ${get('cr')})`)}`,
    ]),
    '  ) (else', // all calls first: no vector may be live across a call (V8 would spill it in the loop)
    ...rows.map((r) => `    (call $load_edge ${rowAddr(r)} ${i32(32 * r)} ${get('nr')})`),
    ...rows.map(
      (r) =>
        `    ${set(`lo${r}`, `(v128.load offset=${32 * r} ${i32(0)})`)} ${set(`hi${r}`, `(v128.load offset=${32 * r + 16} ${i32(0)})`)}`,
    ),
    '  ))))', // v128 locals start at zero otherwise
    // As clang compiles the C++ loop: a step counter i, one byte offset o = 4·i into every row of
    // A, the panel pointer stepped by 32 bytes, and the loop guarded by kc > 0 (always true
    // here). The guard matters to V8 11.3: without it, it schedules all mr broadcasts of a step
    // ahead of the multiply–adds, which needs 10 accumulators + 2 panel vectors + 5 broadcasts =
    // 17 xmm registers for mr = 5, and spills accumulators inside the loop.
    `(if (i32.gt_s ${get('kc')} ${i32(0)}) (then`,
    set('pp', get('panel')),
    set('i', i32(0)),
    '(loop $k',
    ...rows.flatMap((r) => {
      const x = `(v128.load32_splat ${add(get(`a${r}`), r === 0 ? `(local.tee $o (i32.shl ${get('i')} ${i32(2)}))` : get('o'))})`;
      return r === 0
        ? [
            `  ${set('hi0', madd(variant, `(local.tee $bh (v128.load offset=16 ${get('pp')}))`, `(local.tee $x ${x})`, get('hi0')))}`,
            `  ${set('lo0', madd(variant, `(local.tee $bl (v128.load ${get('pp')}))`, get('x'), get('lo0')))}`,
          ]
        : [
            `  ${set(`hi${r}`, madd(variant, get('bh'), `(local.tee $x ${x})`, get(`hi${r}`)))}`,
            `  ${set(`lo${r}`, madd(variant, get('bl'), get('x'), get(`lo${r}`)))}`,
          ];
    }),
    `  ${set('pp', add(get('pp'), i32(4 * NR)))}`,
    `  (br_if $k (i32.ne (local.tee $i ${add(get('i'), i32(1))}) ${get('kc')})))`,
    '))',
    `(if (i32.eq ${get('nr')} ${i32(NR)}) (then`,
    ...rows.flatMap((r) => [
      `  ${set('cr', rowAddr(r))}`,
      `  (v128.store ${get('cr')} ${get(`lo${r}`)}) (v128.store offset=16 ${get('cr')} ${get(`hi${r}`)})`,
    ]),
    ') (else', // every vector to the staging area, then the calls
    ...rows.map(
      (r) =>
        `  (v128.store offset=${32 * r} ${i32(0)} ${get(`lo${r}`)}) (v128.store offset=${32 * r + 16} ${i32(0)} ${get(`hi${r}`)})`,
    ),
    ...rows.map((r) => `  (call $store_edge ${rowAddr(r)} ${i32(32 * r)} ${get('nr')})`),
    ')))',
  ];
}

// The staging area [0, 32·5) holds one 8-float row per row of a tile cut by the right edge of
// C: load_edge copies nr ≤ 8 floats from src to a row and zeros the rest, store_edge writes the
// first nr floats of a row to dst.
const edgeHelpers = [
  '(func $load_edge (param $src i32) (param $row i32) (param $nr i32) (local $j i32)',
  ...forLoop('j', i32(NR), i32(1), [
    `(f32.store ${add(get('row'), `(i32.shl ${get('j')} ${i32(2)})`)} (if (result f32) (i32.lt_s ${get('j')} ${get('nr')})` +
      ` (then (f32.load ${add(get('src'), `(i32.shl ${get('j')} ${i32(2)})`)})) (else (f32.const 0))))`,
  ]),
  ')',
  '(func $store_edge (param $dst i32) (param $row i32) (param $nr i32) (local $j i32)',
  ...forLoop('j', get('nr'), i32(1), [
    `(f32.store ${add(get('dst'), `(i32.shl ${get('j')} ${i32(2)})`)} (f32.load ${add(get('row'), `(i32.shl ${get('j')} ${i32(2)})`)}))`,
  ]),
  ')',
];

// Rows [p0, p0+kc) × columns [j0, j0+nc) of B into panels of 8 columns (kc rows of 8 floats
// each, one after the other), columns past the end of B set to 0 — gemm_simd128.cpp's pack_b.
const packB = [
  '(func $pack_b (param $b i32) (param $ldb4 i32) (param $p0 i32) (param $kc i32) (param $j0 i32) (param $nc i32) (param $out i32)',
  '(local $jp i32) (local $nr i32) (local $panel i32) (local $src i32) (local $p i32) (local $j i32)',
  ...forLoop('jp', get('nc'), i32(NR), [
    set('nr', min(i32(NR), `(i32.sub ${get('nc')} ${get('jp')})`)),
    set('panel', add(get('out'), mul(mul(get('jp'), get('kc')), i32(4)))),
    set('src', add(add(get('b'), mul(get('p0'), get('ldb4'))), mul(add(get('j0'), get('jp')), i32(4)))),
    `(if (i32.eq ${get('nr')} ${i32(NR)}) (then`,
    ...forLoop('p', get('kc'), i32(1), [
      `(v128.store ${get('panel')} (v128.load ${get('src')}))`,
      `(v128.store offset=16 ${get('panel')} (v128.load offset=16 ${get('src')}))`,
      set('panel', add(get('panel'), i32(4 * NR))),
      set('src', add(get('src'), get('ldb4'))),
    ]),
    ') (else',
    ...forLoop('p', get('kc'), i32(1), [
      ...forLoop('j', i32(NR), i32(1), [
        `(f32.store ${add(get('panel'), `(i32.shl ${get('j')} ${i32(2)})`)} (if (result f32) (i32.lt_s ${get('j')} ${get('nr')})` +
          ` (then (f32.load ${add(get('src'), `(i32.shl ${get('j')} ${i32(2)})`)})) (else (f32.const 0))))`,
      ]),
      set('panel', add(get('panel'), i32(4 * NR))),
      set('src', add(get('src'), get('ldb4'))),
    ]),
    '))',
  ]),
  ')',
];

// gemm(m, n, k, a, b, c, pack): byte addresses; pack holds packFloats(n, k) floats.
function driver(MR) {
  const callKernel = (mr) =>
    `(call $mk${mr} ${get('kc')} ${get('ap')} ${get('lda4')} ${get('panel')} ${get('cp')} ${get('ldc4')} ${get('nr')} ${get('loadc')})`;
  let dispatch = callKernel(1);
  for (let mr = 2; mr <= MR; mr++)
    dispatch = `(if (i32.eq ${get('rows')} ${i32(mr)}) (then ${callKernel(mr)}) (else ${dispatch}))`;
  return [
    '(func (export "gemm") (param $m i32) (param $n i32) (param $k i32) (param $a i32) (param $b i32) (param $c i32) (param $pack i32)',
    '(local $lda4 i32) (local $ldb4 i32) (local $ldc4 i32) (local $jc i32) (local $nc i32) (local $pc i32) (local $kc i32) (local $loadc i32)',
    '(local $ic i32) (local $mc i32) (local $jr i32) (local $nr i32) (local $panel i32) (local $ir i32) (local $rows i32) (local $ap i32) (local $cp i32)',
    set('lda4', mul(get('k'), i32(4))),
    set('ldb4', mul(get('n'), i32(4))),
    set('ldc4', mul(get('n'), i32(4))),
    ...forLoop('jc', get('n'), i32(NC), [
      set('nc', min(i32(NC), `(i32.sub ${get('n')} ${get('jc')})`)),
      ...forLoop('pc', get('k'), i32(KC), [
        set('kc', min(i32(KC), `(i32.sub ${get('k')} ${get('pc')})`)),
        set('loadc', `(i32.ne ${get('pc')} ${i32(0)})`), // later K blocks add to C
        `(call $pack_b ${get('b')} ${get('ldb4')} ${get('pc')} ${get('kc')} ${get('jc')} ${get('nc')} ${get('pack')})`,
        ...forLoop('ic', get('m'), i32(MC), [
          set('mc', min(i32(MC), `(i32.sub ${get('m')} ${get('ic')})`)),
          ...forLoop('jr', get('nc'), i32(NR), [
            set('nr', min(i32(NR), `(i32.sub ${get('nc')} ${get('jr')})`)),
            set('panel', add(get('pack'), mul(mul(get('jr'), get('kc')), i32(4)))),
            ...forLoop('ir', get('mc'), i32(MR), [
              set('rows', min(i32(MR), `(i32.sub ${get('mc')} ${get('ir')})`)),
              set('ap', add(add(get('a'), mul(add(get('ic'), get('ir')), get('lda4'))), mul(get('pc'), i32(4)))),
              set(
                'cp',
                add(add(get('c'), mul(add(get('ic'), get('ir')), get('ldc4'))), mul(add(get('jc'), get('jr')), i32(4))),
              ),
              dispatch,
            ]),
          ]),
        ]),
      ]),
    ]),
    ')',
  ];
}

// The module's text for one variant with an mr×8 micro-kernel (mr = 1…5).
export function gemmWat(variant, mr = MR_DEFAULT) {
  if (!(Number.isInteger(mr) && mr >= 1 && mr <= 5)) throw new Error(`relaxed-gemm: mr must be 1…5, got ${mr}`);
  if (!VARIANTS.includes(variant))
    throw new Error(`relaxed-gemm: unknown variant "${variant}" (${VARIANTS.join(', ')})`);
  const lines = [
    `;; Generated by tools/bench/relaxed-gemm.mjs (variant "${variant}", ${mr}×8 micro-kernel); do not edit.`,
    '(module',
    '(memory (export "memory") 1)',
    ...edgeHelpers,
    ...packB,
    ...[...Array(mr).keys()].flatMap((r) => microKernel(r + 1, variant)),
    ...driver(mr),
    ')',
  ];
  return lines.join('\n') + '\n';
}

// Floats of the packing buffer for an M×N×K call (gemm_workspace_floats in gemm_simd128.cpp).
export const packFloats = (n, k) => Math.min(k, KC) * Math.ceil(Math.min(n, NC) / NR) * NR;

// Writes build/bench/gemm-<variant>-<mr>x8.wat, assembles it with wat2wasm into .wasm, and
// returns {relaxed: {wat, wasm, bytes}, muladd: {…}}. Throws with wat2wasm's message on failure.
export function buildRelaxedGemm({ mr = MR_DEFAULT, outDir = path.join(root, 'build/bench') } = {}) {
  mkdirSync(outDir, { recursive: true });
  const built = {};
  for (const variant of VARIANTS) {
    const base = path.join(outDir, `gemm-${variant}-${mr}x8`);
    const wat = `${base}.wat`,
      wasm = `${base}.wasm`;
    writeFileSync(wat, gemmWat(variant, mr));
    try {
      execFileSync(WAT2WASM, ['--enable-relaxed-simd', wat, '-o', wasm], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      const why =
        e.code === 'ENOENT'
          ? `${WAT2WASM} not found (apt package wabt; scripts/ensure-deps.sh installs it)`
          : String(e.stderr || e.message);
      throw new Error(`relaxed-gemm: wat2wasm failed for ${variant} ${mr}×8: ${why}`, { cause: e });
    }
    built[variant] = { wat, wasm, bytes: readFileSync(wasm) };
  }
  return built;
}

// A wasm module exporting one function `f` of type (params) → (results) whose body (its
// locals and code, `end` included) is `body`.
function oneFunctionModule(params, results, body) {
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // \0asm, version 1
    ...[0x01, 4 + params.length + results.length, 0x01, 0x60, params.length, ...params, results.length, ...results], // its type
    ...[0x03, 0x02, 0x01, 0x00], // one function of that type
    ...[0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00], // export "f"
    ...[0x0a, body.length + 2, 0x01, body.length, ...body], // its code
  ]);
}

const V128 = 0x7b;
const F32 = 0x7d;

// A tiny module using f32x4.relaxed_madd, for WebAssembly.validate: true when this engine
// accepts relaxed SIMD (Chromium; Node 20 only with --experimental-wasm-relaxed-simd).
export const RELAXED_PROBE = oneFunctionModule(
  [V128, V128, V128],
  [V128],
  [0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x85, 0x02, 0x0b], // no locals; local.get 0 1 2; f32x4.relaxed_madd; end
);
export const relaxedSimdSupported = () => WebAssembly.validate(RELAXED_PROBE);

// Whether relaxed_madd runs fused on this engine and CPU: (1+2⁻²³)(1−2⁻²³) − 1 is −2⁻⁴⁶ with
// one rounding, 0 when the product is rounded to float first. Only call when supported.
export async function relaxedMaddIsFused() {
  const f32 = (x) => [...new Uint8Array(Float32Array.of(x).buffer)];
  const body = [
    0x00, // no locals
    0x43,
    ...f32(1 + 2 ** -23),
    0xfd,
    0x13, // f32.const a; f32x4.splat
    0x43,
    ...f32(1 - 2 ** -23),
    0xfd,
    0x13, // f32.const b; f32x4.splat
    0x43,
    ...f32(-1),
    0xfd,
    0x13, // f32.const −1; f32x4.splat
    0xfd,
    0x85,
    0x02, // f32x4.relaxed_madd
    0xfd,
    0x1f,
    0x00, // f32x4.extract_lane 0
    0x0b, // end
  ];
  const bytes = oneFunctionModule([], [F32], body);
  const { instance } = await WebAssembly.instantiate(bytes);
  return instance.exports.f() !== 0;
}

// Instantiates one variant; prepare(m, n, k) lays out A, B, C and the packing buffer in its
// memory (growing it if needed) and returns {a, b, c (Float32Array views), run(), result()}.
// The views stay valid until the next prepare() that grows the memory.
export async function instantiateGemm(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes);
  const { memory, gemm } = instance.exports;
  return {
    prepare(m, n, k) {
      for (const [name, v] of Object.entries({ m, n, k }))
        if (!Number.isInteger(v) || v < 1) throw new Error(`relaxed-gemm: ${name} must be an integer ≥ 1, got ${v}`);
      const align = (x) => Math.ceil(x / 64) * 64;
      const a = align(4 * NR * 5),
        b = align(a + 4 * m * k),
        c = align(b + 4 * k * n),
        pack = align(c + 4 * m * n);
      const end = pack + 4 * packFloats(n, k);
      if (end > 2 ** 31) throw new Error('relaxed-gemm: operands too large for 2 GiB of memory');
      const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
      if (pages > 0) memory.grow(pages);
      const views = {
        a: new Float32Array(memory.buffer, a, m * k),
        b: new Float32Array(memory.buffer, b, k * n),
        c: new Float32Array(memory.buffer, c, m * n),
      };
      const run = () => gemm(m, n, k, a, b, c, pack);
      return { ...views, run, result: () => (run(), views.c.slice()) };
    },
  };
}
