// `npm run bench:relaxed`: what fused multiply-add (relaxed SIMD's f32x4.relaxed_madd) gains
// for this project's GEMM, measured with a hand-written WAT kernel (tools/bench/relaxed-gemm.mjs)
// in two variants that differ only in the multiply–add, next to the project's own
// f32_gemm__wasmsimd_5x8 in web/dist/attention.wasm. Writes docs/relaxed-simd.md.
//
//   node --no-liftoff --experimental-wasm-relaxed-simd tools/bench/relaxed-simd.mjs [--quick] [--out FILE]
//
// Node 20 accepts relaxed SIMD only behind --experimental-wasm-relaxed-simd; started without it
// the script runs itself again with it (and with --no-liftoff: optimised code only). Method as
// run.mjs: every implementation in every round, rotating order, ≥ 25 ms per measurement, medians
// over rounds, same-round ratios. Needs `npm run build` (web/dist/attention.wasm,
// build/native/bench_kernels for the clock) and wabt's wat2wasm.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FLAGS = ['--no-liftoff', '--experimental-wasm-relaxed-simd'];
const self = fileURLToPath(import.meta.url);
if (!FLAGS.every((f) => process.execArgv.includes(f))) {
  const r = spawnSync(process.execPath, [...new Set([...process.execArgv, ...FLAGS])].concat(self, process.argv.slice(2)), { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const { describeMachine, machineLine, loadNow } = await import('./machine.mjs');
const { fmt, fmtRatio, median, ratio, table, timeCall } = await import('./stats.mjs');
const { loadOurs, ourWorkspace, root } = await import('./runtimes.mjs');
const { buildRelaxedGemm, instantiateGemm, relaxedMaddIsFused, relaxedSimdSupported } = await import('./relaxed-gemm.mjs');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outFile = args.includes('--out') ? args[args.indexOf('--out') + 1] : path.join(root, 'docs/relaxed-simd.md');
const started = performance.now();
const log = (...m) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s]`, ...m);

const machine = describeMachine();
const nativePlain = path.join(root, 'build/native/bench_kernels');
function clockGHz() {  // as run.mjs: the fastest of several dependent-multiply chains
  try {
    return JSON.parse(execFileSync(nativePlain, ['--clock'], { encoding: 'utf8' })).clock_ghz_estimate;
  } catch {
    return machine.nominalMHz / 1000;
  }
}
const clocks = [clockGHz()];

// --- feature detection ----------------------------------------------------------------------
const supported = relaxedSimdSupported();
const fused = supported ? await relaxedMaddIsFused() : null;
if (!supported) {
  log('RELAXED SIMD IS NOT AVAILABLE in this engine (WebAssembly.validate rejects f32x4.relaxed_madd): ' +
    `Node ${process.version} needs --experimental-wasm-relaxed-simd. Only the mul+add variant is measured.`);
} else {
  log(`relaxed SIMD available; f32x4.relaxed_madd runs ${fused ? 'fused (one rounding)' : 'unfused (product rounded first)'}`);
}

// --- implementations --------------------------------------------------------------------------
const SHAPES = [5, 4];  // 5×8 mirrors the project's kernel; 4×8 fits V8's registers without spills
const built = Object.fromEntries(SHAPES.map((mr) => [mr, buildRelaxedGemm({ mr })]));
const engine = await loadOurs();
const OURS = 'f32_gemm__wasmsimd_5x8';
if (!engine.gemmKernelNames().includes(OURS)) throw new Error(`this build has no ${OURS}: ${engine.gemmKernelNames().join(', ')}`);
const sizes = [64, 128, 256, 512];
const rounds = quick ? 3 : 15;
const maxN = Math.max(...sizes);
const ws = ourWorkspace(engine, maxN * maxN, 11);  // seeded N(0, 1), as run.mjs
ws.reserveGemm(maxN, maxN, maxN);

const label = (variant, mr) => `${variant === 'relaxed' ? 'relaxed_madd' : 'mul+add'} WAT ${mr}×8`;
const impls = [
  ...SHAPES.flatMap((mr) => ['relaxed', 'muladd'].map((variant) => ({
    name: label(variant, mr), variant, mr,
    skip: variant === 'relaxed' && !supported ? 'relaxed SIMD not available' : null,
    async make(n) {
      const op = (await instantiateGemm(built[mr][variant].bytes)).prepare(n, n, n);
      op.a.set(ws.a.subarray(0, n * n)), op.b.set(ws.b.subarray(0, n * n));
      return op;
    },
  }))),
  { name: `${OURS} (project)`, ours: true, make: (n) => ({ run: () => ws.gemm(OURS, n, n, n, false), result: () => (ws.gemm(OURS, n, n, n, false), ws.c.slice(0, n * n)) }) },
];
const oursName = impls.at(-1).name;

// C = A·B in double precision, the reference for every implementation.
function reference(n, a, b) {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const ci = i * n;
    for (let p = 0; p < n; p++) {
      const x = a[i * n + p], bp = p * n;
      for (let j = 0; j < n; j++) c[ci + j] += x * b[bp + j];
    }
  }
  return c;
}
// Largest |x − y| over all entries, relative to the largest |y| (as run.mjs).
function relDiff(x, y) {
  let worst = 0, scale = 0;
  for (let i = 0; i < y.length; i++) worst = Math.max(worst, Math.abs(x[i] - y[i])), scale = Math.max(scale, Math.abs(y[i]));
  return x.length === y.length ? worst / scale : Infinity;
}

log(`GEMM: ${impls.length} implementations × n = ${sizes.join(', ')}, ${rounds} rounds`);
const res = {};  // res[n][name] = {op, times, vsReference, vsOurs}
for (const n of sizes) {
  res[n] = {};
  const ref = reference(n, ws.a.subarray(0, n * n), ws.b.subarray(0, n * n));
  const ours = impls.at(-1).make(n).result();
  for (const impl of impls) {
    if (impl.skip) continue;
    const op = await impl.make(n);
    const out = op.result();
    const vsReference = relDiff(out, ref), vsOurs = relDiff(out, ours);
    if (!(vsReference < 1e-4)) throw new Error(`n=${n}: ${impl.name} differs from the double-precision reference by ${vsReference}`);
    if (!(vsOurs < 1e-4)) throw new Error(`n=${n}: ${impl.name} differs from ${OURS} by ${vsOurs}`);
    res[n][impl.name] = { op, times: [], vsReference, vsOurs };
    await timeCall(op, 20);  // warm-up
  }
}
for (let r = 0; r < rounds; r++) {
  for (const n of sizes) {
    const names = Object.keys(res[n]);
    for (let i = 0; i < names.length; i++) {
      const entry = res[n][names[(i + r) % names.length]];
      entry.times.push(await timeCall(entry.op, 25));
    }
  }
}
ws.delete();
log('GEMM done');

// --- what V8 generated: the micro-kernels' inner loops, disassembled -------------------------
// --print-wasm-code prints V8's machine code (Node's release build has the disassembler). In
// each module the loop over K of the mr×8 kernel is found as the backward branch whose body has
// vbroadcastss; in the project's module, as the loop with 5 broadcasts and 10 vmulps.
function jitLoops() {
  const files = SHAPES.flatMap((mr) => ['relaxed', 'muladd'].filter((v) => v === 'muladd' || supported).map((v) => ({ mr, variant: v, file: built[mr][v].wasm })));
  const script = `
    const { instantiateGemm } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'tools/bench/relaxed-gemm.mjs')).href)});
    const { loadOurs, ourWorkspace } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'tools/bench/runtimes.mjs')).href)});
    const { readFileSync } = await import('node:fs');
    for (const [i, f] of ${JSON.stringify(files.map((f) => f.file))}.entries()) {
      console.log('=== module ' + i);
      const op = (await instantiateGemm(readFileSync(f))).prepare(16, 16, 16);
      op.run();
    }
    console.log('=== module ours');
    const engine = await loadOurs();
    const ws = ourWorkspace(engine, 16 * 16, 1);
    ws.gemm(${JSON.stringify(OURS)}, 16, 16, 16, false);
    console.log('=== end');`;
  // Into a file, not a pipe: Node makes a piped stdout non-blocking, and V8's own printing then
  // loses output.
  const dump = path.join(root, 'build/bench/relaxed-simd-jit.txt');
  let text;
  const fd = openSync(dump, 'w');
  try {
    execFileSync(process.execPath, [...FLAGS, '--print-wasm-code', '--input-type=module', '-e', script], { stdio: ['ignore', fd, 'pipe'] });
    text = readFileSync(dump, 'utf8');
  } catch (e) {
    return { error: String(e.message).split('\n')[0] };
  } finally {
    closeSync(fd);
  }
  const segment = (name) => {
    const i = text.indexOf(`=== module ${name}\n`);
    return i < 0 ? '' : text.slice(i, text.indexOf('=== ', i + 4));
  };
  const functionCode = (seg, index) => {
    for (const block of seg.split('--- WebAssembly code ---'))
      if (block.includes(`name: wasm-function[${index}]\n`)) return block;
    return '';
  };
  // Instructions as {offset, text}; loops as the bodies of backward jumps.
  const instructions = (code) => code.split('\n').map((l) => l.match(/^0x[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+(.*)$/))
    .filter(Boolean).map((m) => ({ offset: parseInt(m[1], 16), text: m[2].trim() }));
  const loops = (code) => {
    const ins = instructions(code), out = [];
    for (const x of ins) {
      const m = x.text.match(/^j\w+ .*<\+0x([0-9a-f]+)>/);
      if (m && parseInt(m[1], 16) < x.offset) out.push(ins.filter((y) => y.offset >= parseInt(m[1], 16) && y.offset <= x.offset));
    }
    return out;
  };
  const count = (body, re) => body.filter((x) => re.test(x.text)).length;
  const describe = (body) => body && {
    instructions: body.length,
    broadcasts: count(body, /^vbroadcastss/), fma: count(body, /^vfmadd/), mul: count(body, /^vmulps/), add: count(body, /^vaddps/),
    spills: count(body, /^vmov\w+ .*\[rbp[-+]0x[0-9a-f]+\]/),  // vector moves to or from a stack slot
  };
  const result = { modules: [] };
  files.forEach((f, i) => {
    // Function order in the module: load_edge, store_edge, pack_b, mk1 … mk5, gemm.
    const body = loops(functionCode(segment(i), 2 + f.mr)).find((b) => b.some((x) => /^vbroadcastss/.test(x.text)));
    result.modules.push({ ...f, loop: describe(body) });
  });
  const oursLoops = segment('ours').split('--- WebAssembly code ---').flatMap((c) => loops(c))
    .filter((b) => count(b, /^vbroadcastss/) === 5 && count(b, /^vmulps/) === 10);
  result.ours = describe(oursLoops[0]);
  result.oursMatches = oursLoops.length;
  return result;
}
log('disassembling the inner loops (--print-wasm-code)');
const jit = jitLoops();
clocks.push(clockGHz());
const clock = Math.max(...clocks);
const peak12 = 12 * clock, peak16 = 16 * clock;

// --- report ---------------------------------------------------------------------------------
const gflops = (n, ms) => (2 * n ** 3) / ms / 1e6;
const names = impls.map((x) => x.name);
const med = (n, name) => (res[n][name] ? gflops(n, median(res[n][name].times)) : null);
const sameRound = (n, faster, slower) => (res[n][faster] && res[n][slower] ? ratio(res[n][slower].times, res[n][faster].times) : null);
const out = [];
const say = (s = '') => out.push(s);
const cmd = '`npm run bench:relaxed` (`node --no-liftoff --experimental-wasm-relaxed-simd tools/bench/relaxed-simd.mjs`)';

say('# Relaxed SIMD: what fused multiply-add gains for the GEMM');
say();
say(`Generated by ${cmd} on ${machine.date}; total run time ${((performance.now() - started) / 1000).toFixed(0)} s. ` +
  'Do not edit by hand: run it again.');
say();
say(`- Machine: ${machineLine(machine)}.`);
say(`- Clock under load, estimated: ${clock.toFixed(2)} GHz (build/native/bench_kernels --clock at the start and at the end: ` +
  `${clocks.map((c) => c.toFixed(2)).join(' and ')} GHz; the higher is used). Peaks on one core: ` +
  `**12 flop/cycle without FMA = ${peak12.toFixed(1)} GFLOP/s** (f32x4.mul and f32x4.add, three 128-bit FP ports: ` +
  `1.5 multiply–add pairs × 4 lanes × 2 flop; docs/benchmarks.md), **16 flop/cycle with FMA = ${peak16.toFixed(1)} GFLOP/s** ` +
  '(two 128-bit FMA ports × 4 lanes × 2 flop).');
say(`- Node ${machine.node} (V8 ${machine.v8}), ${FLAGS.map((f) => `\`${f}\``).join(' ')}, one thread. ` +
  (supported
    ? `Relaxed SIMD: available (WebAssembly.validate accepts a module using f32x4.relaxed_madd); f32x4.relaxed_madd runs ` +
      `**${fused ? 'fused' : 'unfused'}** here ((1+2⁻²³)(1−2⁻²³) − 1 gives ${fused ? '−2⁻⁴⁶, one rounding' : '0: the product is rounded first'}).`
    : '**Relaxed SIMD: NOT available in this engine** (WebAssembly.validate rejects f32x4.relaxed_madd); only mul+add was measured.'));
say('- Kernels: tools/bench/relaxed-gemm.mjs generates WAT for C = A·B, assembled by wabt\'s `wat2wasm --enable-relaxed-simd` ' +
  '(clang 14 cannot emit the final relaxed-SIMD opcodes; TOOLCHAIN.md §9). The same template gives both variants, which ' +
  'differ only in the multiply–add: `f32x4.relaxed_madd` or `f32x4.mul` + `f32x4.add`. It mirrors src/ops/gemm_simd128.cpp: ' +
  'the same blocking (KC = 512, MC = 256, NC = 1024), B packed into 8-column panels inside the call (timed), an mr×8 ' +
  'micro-kernel with its tile in 2·mr vector locals. 5×8 is the project\'s shape; 4×8 is added because V8 spills the 5×8 ' +
  'tile of the WAT kernel (below). The project\'s kernel is called through web/dist/attention.wasm as in `npm run bench`.');
say('- Inputs: seeded N(0, 1) A and B (the KernelWorkspace of run.mjs), the same for all. Every output is checked before timing ' +
  'against a double-precision JS reference and against the project\'s kernel (max |difference| / max |reference| < 1e-4).');
say(`- Timing: all implementations in each of ${rounds} rounds, rotating order; a measurement is ≥ 25 ms of back-to-back calls. ` +
  'Medians over rounds; ratios taken within each round, as median (min–max).');
say();
say('## GFLOP/s (2n³ / median time)');
say();
say(table(['n', ...names], sizes.map((n) => [n, ...names.map((name) => fmt(med(n, name)))])));
say();
say(`Share of peak: against 12 flop/cycle (${peak12.toFixed(1)} GFLOP/s) / against 16 flop/cycle (${peak16.toFixed(1)} GFLOP/s).`);
say();
say(table(['n', ...names], sizes.map((n) => [n, ...names.map((name) => {
  const g = med(n, name);
  return g == null ? '–' : `${fmt((100 * g) / peak12, 0)} % / ${fmt((100 * g) / peak16, 0)} %`;
})])));
say();
say('Same-round speed-ups (time of the other ÷ time of the first):');
say();
const pairs = [
  ...SHAPES.map((mr) => [label('relaxed', mr), label('muladd', mr), `relaxed vs mul+add, ${mr}×8`]),
  ...SHAPES.map((mr) => [label('relaxed', mr), oursName, `relaxed ${mr}×8 vs project 5×8`]),
  [label('muladd', 4), oursName, 'mul+add 4×8 vs project 5×8'],
];
say(table(['n', ...pairs.map((p) => p[2])], sizes.map((n) => [n, ...pairs.map(([a, b]) => fmtRatio(sameRound(n, a, b)))])));
say();
say('Checks (max |difference| / max |reference| against the double-precision reference):');
say();
say(table(['n', ...names], sizes.map((n) => [n, ...names.map((name) => (res[n][name] ? res[n][name].vsReference.toExponential(1) : '–'))])));
say();
say('## What V8 generated');
say();
if (jit.error) {
  say(`Not checked: \`--print-wasm-code\` failed (${jit.error}).`);
} else {
  say('The loop over K of each micro-kernel, from `node --print-wasm-code` (x64 machine code): instructions per iteration, ' +
    'and vector moves to or from the stack (spilled accumulators, reloaded and stored every iteration).');
  say();
  const row = (name, l) => (l ? [name, l.instructions, l.broadcasts, l.fma, l.mul, l.add, l.spills] : [name, '–', '–', '–', '–', '–', 'loop not found']);
  say(table(['kernel', 'instructions', 'vbroadcastss', 'vfmadd…ps', 'vmulps', 'vaddps', 'stack moves'], [
    ...jit.modules.map((m) => row(label(m.variant, m.mr), m.loop)),
    row(`${OURS} (project)`, jit.ours),
  ]));
}
say();

// --- conclusion --------------------------------------------------------------------------------
say('## Conclusion');
say();
const gain = (mr) => {
  const rs = sizes.map((n) => sameRound(n, label('relaxed', mr), label('muladd', mr))?.median).filter((x) => x != null);
  return rs.length ? { lo: Math.min(...rs), hi: Math.max(...rs), mid: median(rs) } : null;
};
const pct = (x) => `${x >= 1 ? '+' : '−'}${fmt(Math.abs(100 * (x - 1)), 0)} %`;
const emitted = jit.modules?.find((m) => m.variant === 'relaxed' && m.mr === 5)?.loop?.fma;
const spills5 = jit.modules?.filter((m) => m.mr === 5).map((m) => m.loop?.spills ?? 0) ?? [];
const spills4 = jit.modules?.filter((m) => m.mr === 4).map((m) => m.loop?.spills ?? 0) ?? [];
if (!supported) {
  say(`Relaxed SIMD could not be measured: this engine (Node ${process.version}) rejects f32x4.relaxed_madd, so only the ` +
    'mul+add variant ran. Run it under Node with `--experimental-wasm-relaxed-simd` (the script re-spawns itself with it) or in Chromium.');
} else {
  const g5 = gain(5), g4 = gain(4);
  const best = (name) => Math.max(...sizes.map((n) => med(n, name) ?? 0));
  const relaxedBest = Math.max(best(label('relaxed', 4)), best(label('relaxed', 5))), oursBest = best(oursName);
  say([
    `**Did the engine emit FMA?** ${fused ? 'Yes: f32x4.relaxed_madd gives the once-rounded result here' : 'No: f32x4.relaxed_madd gives the twice-rounded result here'}` +
      (emitted != null ? `, and the relaxed 5×8 kernel's inner loop holds ${emitted} \`vfmadd…ps\` instructions ` +
        `(the mul+add one ${jit.modules.find((m) => m.variant === 'muladd' && m.mr === 5)?.loop?.fma ?? '–'}).` : '.') +
      ' V8 lowers relaxed_madd to vfmadd only when the CPU has FMA3 (this one has); without it, to a multiply and an add, and the gain would be 0.',
    `**What FMA gains.** Same kernel, only the multiply–add changed: ${g4 ? `${pct(g4.mid)} in the 4×8 kernel (per-size medians ${g4.lo.toFixed(2)}–${g4.hi.toFixed(2)}×)` : '–'}` +
      `${g5 ? `, ${pct(g5.mid)} in the 5×8 one (${g5.lo.toFixed(2)}–${g5.hi.toFixed(2)}×)` : ''}.` +
      ' One FMA replaces two instructions, so the arithmetic of a step of K (2·mr vector multiply–adds) takes mr cycles on ' +
      'two FMA ports instead of 4·mr/3 on three ports: at most 16/12 = 1.33× where arithmetic is the limit.' +
      (Math.abs((g4?.mid ?? 1) - 1) < 0.03 && Math.abs((g5?.mid ?? 1) - 1) < 0.03 ? ' Here the gain is about 0.' : ''),
    `**Against the project's kernel.** The best relaxed WAT kernel reaches ${fmt(relaxedBest)} GFLOP/s, the project's ` +
      `f32_gemm__wasmsimd_5x8 ${fmt(oursBest)} GFLOP/s (${fmt((100 * oursBest) / peak12, 0)} % of the 12 flop/cycle peak).` +
      (spills5.some((s) => s > 0)
        ? ` The 5×8 WAT kernel does not reach the project's 5×8: V8 schedules the five broadcasts of a step before the ` +
          `multiply–adds and then runs out of xmm registers, spilling accumulators in the loop (${spills5.join(' and ')} stack moves ` +
          `per iteration, relaxed and mul+add; the project's loop, compiled by clang from the same algorithm, has ` +
          `${jit.ours?.spills ?? '–'}). The 4×8 kernel has ${spills4.join(' and ')}.`
        : ''),
  ].join('\n\n'));
}
say();
say('Left out: a relaxed build of the project itself (clang 14 cannot emit the opcodes, so it would mean hand-written WAT for ' +
  'every kernel, with feature detection choosing the module at load time), browsers (Chromium ships relaxed SIMD without a ' +
  'flag; this measures Node\'s V8 only), and CPUs without FMA3.');

writeFileSync(outFile, out.join('\n') + '\n');
console.log(out.join('\n'));
log(`wrote ${path.relative(root, outFile)}; load now ${loadNow()}`);
