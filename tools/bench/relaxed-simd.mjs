// `npm run bench:relaxed`: what fused multiply-add (relaxed SIMD's f32x4.relaxed_madd) gains
// for this project's GEMM, measured with a hand-written WAT kernel (tools/bench/relaxed-gemm.mjs)
// in two variants that differ only in the multiply–add, next to the project's own
// f32_gemm_ukernel_5x8__wasmsimd in web/dist/attention.wasm. Writes docs/relaxed-simd.md.
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
  const r = spawnSync(
    process.execPath,
    [...new Set([...process.execArgv, ...FLAGS])].concat(self, process.argv.slice(2)),
    { stdio: 'inherit' },
  );
  process.exit(r.status ?? 1);
}

const { describeMachine, machineLine, loadNow } = await import('./machine.mjs');
const { fmt, fmtRatio, median, ratio, relDiff, table, timeCall, timeRound } = await import('./stats.mjs');
const { loadOurs, ourWorkspace, root } = await import('./runtimes.mjs');
const { buildRelaxedGemm, instantiateGemm, relaxedMaddIsFused, relaxedSimdSupported } =
  await import('./relaxed-gemm.mjs');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outFile = args.includes('--out') ? args[args.indexOf('--out') + 1] : path.join(root, 'docs/relaxed-simd.md');
const started = performance.now();
const log = (...m) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s]`, ...m);

const machine = describeMachine();
const nativePlain = path.join(root, 'build/native/bench_kernels');
function clockGHz() {
  // as run.mjs: the fastest of several dependent-multiply chains
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
  log(
    'RELAXED SIMD IS NOT AVAILABLE in this engine (WebAssembly.validate rejects f32x4.relaxed_madd): ' +
      `Node ${process.version} needs --experimental-wasm-relaxed-simd. Only the mul+add variant is measured.`,
  );
} else {
  log(
    `relaxed SIMD available; f32x4.relaxed_madd runs ${fused ? 'fused (one rounding)' : 'unfused (product rounded first)'}`,
  );
}

// --- implementations --------------------------------------------------------------------------
const SHAPES = [5]; // the micro-kernel's rows: 5×8 as the project's kernel (relaxed-gemm.mjs also makes 1…4)
const built = Object.fromEntries(SHAPES.map((mr) => [mr, buildRelaxedGemm({ mr })]));
const engine = await loadOurs('simd128');
const OURS = 'f32_gemm_ukernel_5x8__wasmsimd';
if (!engine.gemmKernelNames().includes(OURS))
  throw new Error(`this build has no ${OURS}: ${engine.gemmKernelNames().join(', ')}`);
const sizes = [64, 128, 256, 512];
const rounds = quick ? 3 : 15;
const maxN = Math.max(...sizes);
const ws = ourWorkspace(engine, maxN * maxN, 11); // seeded N(0, 1), as run.mjs
ws.reserveGemm(maxN, maxN, maxN);

const label = (variant, mr) => `${variant === 'relaxed' ? 'relaxed_madd' : 'mul+add'} WAT ${mr}×8`;
const impls = [
  ...SHAPES.flatMap((mr) =>
    ['relaxed', 'muladd'].map((variant) => ({
      name: label(variant, mr),
      variant,
      mr,
      skip: variant === 'relaxed' && !supported ? 'relaxed SIMD not available' : null,
      async make(n) {
        const op = (await instantiateGemm(built[mr][variant].bytes)).prepare(n, n, n);
        (op.a.set(ws.a.subarray(0, n * n)), op.b.set(ws.b.subarray(0, n * n)));
        return op;
      },
    })),
  ),
  {
    name: `${OURS} (project)`,
    ours: true,
    make: (n) => ({
      run: () => ws.gemm(OURS, n, n, n, false),
      result: () => (ws.gemm(OURS, n, n, n, false), ws.c.slice(0, n * n)),
    }),
  },
];
const oursName = impls.at(-1).name;

// C = A·B in double precision, the reference for every implementation.
function reference(n, a, b) {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const ci = i * n;
    for (let p = 0; p < n; p++) {
      const x = a[i * n + p],
        bp = p * n;
      for (let j = 0; j < n; j++) c[ci + j] += x * b[bp + j];
    }
  }
  return c;
}

log(`GEMM: ${impls.length} implementations × n = ${sizes.join(', ')}, ${rounds} rounds`);
const res = {}; // res[n][name] = {op, times, vsReference, vsOurs}
for (const n of sizes) {
  res[n] = {};
  const ref = reference(n, ws.a.subarray(0, n * n), ws.b.subarray(0, n * n));
  const ours = impls.at(-1).make(n).result();
  for (const impl of impls) {
    if (impl.skip) continue;
    const op = await impl.make(n);
    const out = op.result();
    const vsReference = relDiff(out, ref),
      vsOurs = relDiff(out, ours);
    if (!(vsReference < 1e-4))
      throw new Error(`n=${n}: ${impl.name} differs from the double-precision reference by ${vsReference}`);
    if (!(vsOurs < 1e-4)) throw new Error(`n=${n}: ${impl.name} differs from ${OURS} by ${vsOurs}`);
    res[n][impl.name] = { op, times: [], vsReference, vsOurs };
    await timeCall(op, 20); // warm-up
  }
}
for (let r = 0; r < rounds; r++) for (const n of sizes) await timeRound(res[n], r);
ws.delete();
log('GEMM done');

// --- what V8 generated: the micro-kernels' inner loops, disassembled -------------------------
// --print-wasm-code prints V8's machine code (Node's release build has the disassembler). In
// each module the loop over K of the mr×8 kernel is found as the backward branch whose body has
// vbroadcastss; in the project's module, as the loop with 5 broadcasts and 10 vmulps.
function jitLoops() {
  const files = SHAPES.flatMap((mr) =>
    ['relaxed', 'muladd']
      .filter((v) => v === 'muladd' || supported)
      .map((v) => ({ mr, variant: v, file: built[mr][v].wasm })),
  );
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
    const engine = await loadOurs('simd128');
    const ws = ourWorkspace(engine, 16 * 16, 1);
    ws.gemm(${JSON.stringify(OURS)}, 16, 16, 16, false);
    console.log('=== end');`;
  // Into a file, not a pipe: Node makes a piped stdout non-blocking, and V8's own printing then
  // loses output.
  const dump = path.join(root, 'build/bench/relaxed-simd-jit.txt');
  let text;
  const fd = openSync(dump, 'w');
  try {
    execFileSync(process.execPath, [...FLAGS, '--print-wasm-code', '--input-type=module', '-e', script], {
      stdio: ['ignore', fd, 'pipe'],
    });
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
  const instructions = (code) =>
    code
      .split('\n')
      .map((l) => l.match(/^0x[0-9a-f]+\s+([0-9a-f]+)\s+[0-9a-f]+\s+(.*)$/))
      .filter(Boolean)
      .map((m) => ({ offset: parseInt(m[1], 16), text: m[2].trim() }));
  const loops = (code) => {
    const ins = instructions(code),
      out = [];
    for (const x of ins) {
      const m = x.text.match(/^j\w+ .*<\+0x([0-9a-f]+)>/);
      if (m && parseInt(m[1], 16) < x.offset)
        out.push(ins.filter((y) => y.offset >= parseInt(m[1], 16) && y.offset <= x.offset));
    }
    return out;
  };
  const count = (body, re) => body.filter((x) => re.test(x.text)).length;
  const describe = (body) =>
    body && {
      instructions: body.length,
      broadcasts: count(body, /^vbroadcastss/),
      fma: count(body, /^vfmadd/),
      mul: count(body, /^vmulps/),
      add: count(body, /^vaddps/),
      spills: count(body, /^vmov\w+ .*\[rbp[-+]0x[0-9a-f]+\]/), // vector moves to or from a stack slot
      // broadcasts issued before the first multiply(-add): 1 when the step is interleaved
      broadcastsAhead: body
        .slice(
          0,
          Math.max(
            0,
            body.findIndex((x) => /^(vfmadd|vmulps)/.test(x.text)),
          ),
        )
        .filter((x) => /^vbroadcastss/.test(x.text)).length,
    };
  const result = { modules: [] };
  files.forEach((f, i) => {
    // Function order in the module: load_edge, store_edge, pack_b, mk1 … mk5, gemm.
    const body = loops(functionCode(segment(i), 2 + f.mr)).find((b) => b.some((x) => /^vbroadcastss/.test(x.text)));
    result.modules.push({ ...f, loop: describe(body) });
  });
  const oursLoops = segment('ours')
    .split('--- WebAssembly code ---')
    .flatMap((c) => loops(c))
    .filter((b) => count(b, /^vbroadcastss/) === 5 && count(b, /^vmulps/) === 10);
  result.ours = describe(oursLoops[0]);
  result.oursMatches = oursLoops.length;
  return result;
}
log('disassembling the inner loops (--print-wasm-code)');
const jit = jitLoops();
clocks.push(clockGHz());
const clock = Math.max(...clocks);
const peak12 = 12 * clock,
  peak16 = 16 * clock;

// --- report ---------------------------------------------------------------------------------
const gflops = (n, ms) => (2 * n ** 3) / ms / 1e6;
const names = impls.map((x) => x.name);
const med = (n, name) => (res[n][name] ? gflops(n, median(res[n][name].times)) : null);
const sameRound = (n, faster, slower) =>
  res[n][faster] && res[n][slower] ? ratio(res[n][slower].times, res[n][faster].times) : null;
const out = [];
const say = (s = '') => out.push(s);
const cmd =
  '`npm run bench:relaxed` (`node --no-liftoff --experimental-wasm-relaxed-simd tools/bench/relaxed-simd.mjs`)';

say('# Relaxed SIMD: what fused multiply-add gains for the GEMM');
say();
say(
  `Generated by ${cmd} on ${machine.date}; total run time ${((performance.now() - started) / 1000).toFixed(0)} s. ` +
    'Do not edit by hand: run it again.',
);
say();
say(`- Machine: ${machineLine(machine)}.`);
say(
  `- Clock under load, estimated: ${clock.toFixed(2)} GHz (build/native/bench_kernels --clock at the start and at the end: ` +
    `${clocks.map((c) => c.toFixed(2)).join(' and ')} GHz; the higher is used). Peaks on one core: ` +
    `**12 flop/cycle without FMA = ${peak12.toFixed(1)} GFLOP/s** (f32x4.mul and f32x4.add, three 128-bit FP ports: ` +
    `1.5 multiply–add pairs × 4 lanes × 2 flop; docs/benchmarks.md), **16 flop/cycle with FMA = ${peak16.toFixed(1)} GFLOP/s** ` +
    '(two 128-bit FMA ports × 4 lanes × 2 flop).',
);
say(
  `- Node ${machine.node} (V8 ${machine.v8}), ${FLAGS.map((f) => `\`${f}\``).join(' ')}, one thread. ` +
    (supported
      ? `Relaxed SIMD: available (WebAssembly.validate accepts a module using f32x4.relaxed_madd); f32x4.relaxed_madd runs ` +
        `**${fused ? 'fused' : 'unfused'}** here ((1+2⁻²³)(1−2⁻²³) − 1 gives ${fused ? '−2⁻⁴⁶, one rounding' : '0: the product is rounded first'}).`
      : '**Relaxed SIMD: NOT available in this engine** (WebAssembly.validate rejects f32x4.relaxed_madd); only mul+add was measured.'),
);
say(
  "- Kernels: tools/bench/relaxed-gemm.mjs generates WAT for C = A·B, assembled by wabt's `wat2wasm --enable-relaxed-simd` " +
    '(clang 14 cannot emit the final relaxed-SIMD opcodes; TOOLCHAIN.md §9). The same template gives both variants, which ' +
    'differ only in the multiply–add: `f32x4.relaxed_madd` or `f32x4.mul` + `f32x4.add`. It mirrors src/ops/gemm_simd128.cpp: ' +
    'the same blocking (KC = 512, MC = 256, NC = 1024), B packed into 8-column panels inside the call (timed), an mr×8 ' +
    "micro-kernel (5×8, as the project's) with its tile in 10 vector locals, the loop written as clang emits the C++ one. " +
    "The project's kernel is called through web/dist/attention.wasm as in `npm run bench`.",
);
say(
  '- Inputs: seeded N(0, 1) A and B (the KernelWorkspace of run.mjs), the same for all. Every output is checked before timing ' +
    "against a double-precision JS reference and against the project's kernel (max |difference| / max |reference| < 1e-4).",
);
say(
  `- Timing: all implementations in each of ${rounds} rounds, rotating order; a measurement is ≥ 25 ms of back-to-back calls. ` +
    'Medians over rounds; ratios taken within each round, as median (min–max).',
);
say();
say('## GFLOP/s (2n³ / median time)');
say();
say(
  table(
    ['n', ...names],
    sizes.map((n) => [n, ...names.map((name) => fmt(med(n, name)))]),
  ),
);
say();
say(
  `Share of peak: against 12 flop/cycle (${peak12.toFixed(1)} GFLOP/s) / against 16 flop/cycle (${peak16.toFixed(1)} GFLOP/s).`,
);
say();
say(
  table(
    ['n', ...names],
    sizes.map((n) => [
      n,
      ...names.map((name) => {
        const g = med(n, name);
        return g == null ? '–' : `${fmt((100 * g) / peak12, 0)} % / ${fmt((100 * g) / peak16, 0)} %`;
      }),
    ]),
  ),
);
say();
say('Same-round speed-ups (time of the other ÷ time of the first):');
say();
const pairs = [
  ...SHAPES.map((mr) => [label('relaxed', mr), label('muladd', mr), `relaxed vs mul+add, ${mr}×8`]),
  ...SHAPES.map((mr) => [label('relaxed', mr), oursName, `relaxed ${mr}×8 vs project 5×8`]),
  ...SHAPES.map((mr) => [label('muladd', mr), oursName, `mul+add ${mr}×8 vs project 5×8`]),
];
say(
  table(
    ['n', ...pairs.map((p) => p[2])],
    sizes.map((n) => [n, ...pairs.map(([a, b]) => fmtRatio(sameRound(n, a, b)))]),
  ),
);
say();
say('Checks (max |difference| / max |reference| against the double-precision reference):');
say();
say(
  table(
    ['n', ...names],
    sizes.map((n) => [n, ...names.map((name) => (res[n][name] ? res[n][name].vsReference.toExponential(1) : '–'))]),
  ),
);
say();
say('## What V8 generated');
say();
if (jit.error) {
  say(`Not checked: \`--print-wasm-code\` failed (${jit.error}).`);
} else {
  say(
    'The loop over K of each micro-kernel, from `node --print-wasm-code` (x64 machine code): instructions per step, ' +
      'vector moves to or from the stack (spilled accumulators, reloaded and stored every step) and how many broadcasts V8 ' +
      'issues before the first multiply. The WAT loop is guarded by K > 0, as clang emits the C++ loop: without the guard, ' +
      'V8 11.3 issued all five broadcasts first, ran out of xmm registers (10 accumulators + 2 panel vectors + 5 broadcasts ' +
      "= 17 of 15) and spilled accumulators inside the loop, and a first version of the kernel ran well below the project's.",
  );
  say();
  const row = (name, l) =>
    l
      ? [name, l.instructions, l.broadcasts, l.fma, l.mul, l.add, l.spills, l.broadcastsAhead]
      : [name, '–', '–', '–', '–', '–', '–', 'loop not found'];
  say(
    table(
      [
        'kernel',
        'instructions',
        'vbroadcastss',
        'vfmadd…ps',
        'vmulps',
        'vaddps',
        'stack moves',
        'broadcasts before the first multiply',
      ],
      [...jit.modules.map((m) => row(label(m.variant, m.mr), m.loop)), row(`${OURS} (project)`, jit.ours)],
    ),
  );
}
say();

// --- conclusion --------------------------------------------------------------------------------
say('## Conclusion');
say();
const gain = (mr) => {
  const rs = sizes.map((n) => sameRound(n, label('relaxed', mr), label('muladd', mr))?.median).filter((x) => x != null);
  return rs.length ? { lo: Math.min(...rs), hi: Math.max(...rs), mid: median(rs) } : null;
};
const parity = sizes.map((n) => sameRound(n, label('muladd', 5), oursName)?.median).filter((x) => x != null);
const pct = (x) => `${x >= 1 ? '+' : '−'}${fmt(Math.abs(100 * (x - 1)), 0)} %`;
const loopOf = (variant) => jit.modules?.find((m) => m.variant === variant && m.mr === 5)?.loop;
const peakShare = (name, peak) => median(sizes.map((n) => med(n, name)).filter((g) => g != null)) / peak;
if (!supported) {
  say(
    `Relaxed SIMD could not be measured: this engine (Node ${process.version}) rejects f32x4.relaxed_madd, so only the ` +
      'mul+add variant ran. Run it under Node with `--experimental-wasm-relaxed-simd` (the script re-spawns itself with it) or in Chromium.',
  );
} else {
  const g = gain(5);
  const none = g && Math.abs(g.mid - 1) < 0.03;
  say(
    [
      `**Did the engine emit FMA?** ${fused ? 'Yes' : 'No'}: f32x4.relaxed_madd gives the ${fused ? 'once' : 'twice'}-rounded result here` +
        (loopOf('relaxed')
          ? `, and the relaxed kernel's inner loop holds ${loopOf('relaxed').fma} \`vfmadd…ps\` instructions ` +
            `(the mul+add one ${loopOf('muladd')?.fma ?? '–'}, with ${loopOf('muladd')?.mul ?? '–'} vmulps and ${loopOf('muladd')?.add ?? '–'} vaddps).`
          : '.') +
        ' V8 lowers relaxed_madd to vfmadd only when the CPU has FMA3 (this one has); without it, to a multiply and an add, and ' +
        'the two variants would run the same code.',
      `**What FMA gains.** ${
        g
          ? `Same kernel, only the multiply–add changed: the relaxed_madd variant is ${g.mid.toFixed(2)}× as fast as ` +
            `mul+add (${pct(g.mid)}; medians per size ${g.lo.toFixed(2)}–${g.hi.toFixed(2)}×)${none ? ', i.e. about no gain' : ''}.`
          : '–'
      }` +
        ' One FMA does the work of two instructions, so a step of K (10 vector multiply–adds) needs 5 cycles on two FMA ports ' +
        'instead of 20/3 ≈ 6.7 on three: at most 16/12 = 1.33× where the arithmetic is the limit' +
        (g && g.mid > 1.4
          ? ` — the measured ${g.mid.toFixed(2)}× is above that, so other work on the shared machine disturbed ` +
            `these rounds (load at the end ${loadNow()}): run it again on a quiet machine. `
          : '. ') +
        `mul+add runs at ${fmt(100 * peakShare(label('muladd', 5), peak12), 0)} % of its 12 flop/cycle peak (median over sizes), ` +
        `relaxed_madd at ${fmt(100 * peakShare(label('relaxed', 5), peak16), 0)} % of the 16 flop/cycle one.`,
      (() => {
        const p = parity.length ? median(parity) : null;
        const sameLoop = loopOf('muladd') && jit.ours && loopOf('muladd').instructions === jit.ours.instructions;
        return (
          `**Would it carry over to the project?** The mul+add WAT kernel is ${p ? `${p.toFixed(2)}×` : '–'} as fast as ` +
          `the project's f32_gemm_ukernel_5x8__wasmsimd (same-round medians per size ${parity.map((x) => x.toFixed(2)).join(', ')})` +
          (sameLoop ? `, and V8 makes the same ${jit.ours.instructions}-instruction inner loop of both` : '') +
          '. ' +
          (p && Math.abs(p - 1) <= 0.1
            ? "So the WAT template stands in fairly for the project's kernel, and a relaxed build of that kernel could expect " +
              'about the gain above — on engines with relaxed SIMD and CPUs with FMA, with the mul+add module kept for the rest ' +
              '(feature-detected at load time).'
            : "The two differ by more than 10 %, so the gain above carries over to the project's kernel only roughly.") +
          (loopOf('relaxed')?.spills || loopOf('muladd')?.spills
            ? ` Note: V8 spilled accumulators in the WAT loop this time (${loopOf('relaxed')?.spills ?? 0} and ${loopOf('muladd')?.spills ?? 0} ` +
              'stack moves per step, relaxed and mul+add), which slows it.'
            : '')
        );
      })(),
    ].join('\n\n'),
  );
}
say();
say(
  'Left out: a relaxed build of the project itself (clang 14 cannot emit the opcodes, so it would mean hand-written WAT for ' +
    'every kernel, with feature detection choosing the module at load time), browsers (Chromium ships relaxed SIMD without a ' +
    "flag; this measures Node's V8 only), and CPUs without FMA3.",
);

writeFileSync(outFile, out.join('\n') + '\n');
console.log(out.join('\n'));
log(`wrote ${path.relative(root, outFile)}; load now ${loadNow()}`);
