// `npm run bench`: the fast kernels against XNNPACK (tfjs-backend-wasm) and ONNX Runtime Web,
// single-threaded wasm in Node, printed as tables and written to docs/benchmarks.md.
//
//   node --no-liftoff --experimental-wasm-relaxed-simd tools/bench/run.mjs [--quick] [--out FILE]
//
// --no-liftoff: V8 compiles every wasm function with its optimising tier at once, so no
// baseline-tier code is ever timed. Method: every implementation runs in every round,
// interleaved (the order rotates each round); a measurement times back-to-back calls for
// ≥ 25 ms; tables give medians over rounds and same-round ratios (median, min–max), because
// this machine is shared and one round can be several times slower than the next.
// --experimental-wasm-relaxed-simd: lets Node 20 run the relaxed-SIMD (FMA) GEMM written in WAT
// (tools/bench/relaxed-gemm.mjs), which then joins the GEMM comparison; without the flag it is left out.
// Needs `npm run build` first (web/dist/attention.wasm, build/native/bench_kernels).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import {
  loadOrt,
  loadOurs,
  loadTfjs,
  ortAttention,
  ortGemm,
  ourWorkspace,
  root,
  tfjsAttention,
  tfjsGemm,
} from './runtimes.mjs';
import {
  GPT2_END,
  GPT2_START,
  PAGE_RUN_END,
  PAGE_RUN_START,
  THREADS_END,
  THREADS_START,
  TRAIN_END,
  TRAIN_START,
  browserSection,
  describeMachine,
  machineLine,
  pageSection,
  section,
} from './machine.mjs';
import { buildRelaxedGemm, instantiateGemm, relaxedSimdSupported } from './relaxed-gemm.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';
import { benchCommandLine, fmt, fmtRatio, mb, median, ratio, relDiff, table, timeCall, timeRound } from './stats.mjs';

const { quick, outFile, started, log } = benchCommandLine(path.join(root, 'docs/benchmarks.md'));

// --- machine ---------------------------------------------------------------------------------
const machine = describeMachine();
const cpuinfoMHz = machine.nominalMHz;
const pkgVersion = (name) =>
  JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
machine.tfjs = pkgVersion('@tensorflow/tfjs-backend-wasm');
machine.ort = pkgVersion('onnxruntime-web');

// Native tools: build/native/bench_kernels (CMake, x86-64 baseline) and the same sources with
// -march=native, compiled here when missing or older than the sources.
const nativePlain = path.join(root, 'build/native/bench_kernels');
const nativeMarch = path.join(root, 'build/bench/bench_kernels_march_native');
function buildMarchNative() {
  const sources = [
    'tools/bench_kernels.cpp',
    'src/ops/gemm.cpp',
    'src/ops/gemm_simd128.cpp',
    'src/ops/attention_fused.cpp',
    'src/ops/attention.cpp',
    'src/ops/softmax.cpp',
    'src/tensor.cpp',
  ].map((s) => path.join(root, s));
  const headers = ['src/ops/f32x4.h', 'src/ops/gemm.h', 'src/ops/attention_fused.h', 'src/ops/attention.h'].map((s) =>
    path.join(root, s),
  );
  const newest = Math.max(...[...sources, ...headers].map((f) => statSync(f).mtimeMs));
  if (existsSync(nativeMarch) && statSync(nativeMarch).mtimeMs > newest) return;
  log('compiling bench_kernels with -march=native');
  mkdirSync(path.dirname(nativeMarch), { recursive: true });
  execFileSync(
    'g++',
    [
      '-std=c++20',
      '-O3',
      '-DNDEBUG',
      '-march=native',
      `-I${path.join(root, 'src')}`,
      '-I/usr/include/eigen3',
      ...sources,
      '-o',
      nativeMarch,
    ],
    { stdio: 'inherit' },
  );
}
// The core clock under load: the fastest of several dependent-multiply chains (see bench_kernels.cpp).
function clockGHz() {
  try {
    return JSON.parse(execFileSync(nativePlain, ['--clock'], { encoding: 'utf8' })).clock_ghz_estimate;
  } catch {
    return cpuinfoMHz / 1000;
  }
}
const clocks = [clockGHz()];

// --- runtimes -------------------------------------------------------------------------------
log('loading runtimes');
const engine = await loadOurs();
const tf = await loadTfjs();
const ort = await loadOrt();
const ourVariants = engine.gemmKernelNames();
const ourDefault = ourVariants[0];

// --- GEMM -----------------------------------------------------------------------------------
const gemmSizes = [64, 128, 256, 512];
const gemmRounds = quick ? 3 : 15;
const maxN = Math.max(...gemmSizes);
const gws = ourWorkspace(engine, maxN * maxN, 11);
gws.reserveGemm(maxN, maxN, maxN);
const gemmImpls = [
  ...ourVariants.map((v) => ({
    name: v,
    ours: true,
    make: (n) => ({
      run: () => gws.gemm(v, n, n, n, false),
      result: () => (gws.gemm(v, n, n, n, false), gws.c.slice(0, n * n)),
    }),
  })),
  { name: 'tfjs-wasm (XNNPACK)', make: (n) => tfjsGemm(tf, n, gws.a.slice(0, n * n), gws.b.slice(0, n * n)) },
  { name: 'onnxruntime-web', make: (n) => ortGemm(ort, n, gws.a.slice(0, n * n), gws.b.slice(0, n * n)) },
];
// The same 5×8 blocking written in WAT with f32x4.relaxed_madd (fused multiply-add), which clang 14
// cannot emit (TOOLCHAIN.md §9): what a relaxed-SIMD build would reach. Only when the engine runs it.
const RELAXED = 'relaxed-SIMD WAT 5×8 (FMA)';
const relaxedBytes = relaxedSimdSupported() ? buildRelaxedGemm().relaxed.bytes : null;
if (relaxedBytes) {
  gemmImpls.push({
    name: RELAXED,
    async make(n) {
      const op = (await instantiateGemm(relaxedBytes)).prepare(n, n, n);
      (op.a.set(gws.a.subarray(0, n * n)), op.b.set(gws.b.subarray(0, n * n)));
      return op;
    },
  });
}

log(`GEMM: ${gemmImpls.length} implementations × n = ${gemmSizes.join(', ')}, ${gemmRounds} rounds`);
const gemm = {}; // gemm[n][impl] = {times: [ms per round], check}
for (const n of gemmSizes) {
  gemm[n] = {};
  const expected = gemmImpls[0].make(n).result();
  for (const impl of gemmImpls) {
    const op = await impl.make(n);
    const diff = relDiff(await op.result(), expected);
    if (!(diff < 1e-4)) throw new Error(`GEMM n=${n}: ${impl.name} differs from ${ourDefault} by ${diff}`);
    gemm[n][impl.name] = { op, times: [], check: diff };
    await timeCall(op, 20); // warm-up
  }
}
for (let r = 0; r < gemmRounds; r++) for (const n of gemmSizes) await timeRound(gemm[n], r);
for (const n of gemmSizes) for (const e of Object.values(gemm[n])) e.op.dispose?.();
gws.delete();
log('GEMM done');

// --- attention ------------------------------------------------------------------------------
const d = 64;
const attentionSizes = quick ? [128, 512, 1024] : [128, 512, 1024, 2048, 8192];
const roundsFor = (n) => (quick ? 2 : n <= 512 ? 7 : n <= 1024 ? 5 : n <= 2048 ? 5 : 3);
const tracedMax = 2048; // n = 8192 would keep four 8192² float matrices: 1 GiB of trace
const aws = ourWorkspace(engine, 2 * Math.max(...attentionSizes) * d, 21);
const flops = (n, causal) => (4 * n * n * d) / (causal ? 2 : 1); // QKᵀ and PV; causal: the visible half
const attentionImpls = [
  {
    name: 'fused',
    ours: true,
    make: (n, c) => ({
      run: () => aws.attentionFused(n, d, c),
      result: () => (aws.attentionFused(n, d, c), aws.c.slice(0, n * d)),
    }),
  },
  {
    name: 'traced',
    ours: true,
    maxN: tracedMax,
    make: (n, c) => ({
      run: () => aws.attentionTraced(n, d, c),
      result: () => (aws.attentionTraced(n, d, c), aws.c.slice(0, n * d)),
    }),
  },
  {
    name: 'tfjs matMul(q, k, false, true)',
    short: 'tfjs-transposeB',
    make: (n, c) => tfjsAttention(tf, n, d, c, ...qkv(n), 'transposeB'),
  },
  {
    name: 'tfjs matMul(q, transpose(k))',
    short: 'tfjs-transpose',
    make: (n, c) => tfjsAttention(tf, n, d, c, ...qkv(n), 'transpose'),
  },
  { name: 'onnxruntime-web', short: 'ort', make: (n, c) => ortAttention(ort, n, d, c, ...qkv(n)) },
];
function qkv(n) {
  const nd = n * d;
  return [aws.a.slice(0, nd), aws.b.slice(0, nd), aws.b.slice(nd, 2 * nd)];
}

const attention = {}; // attention[`${n} ${causal}`][impl] = {times, check, error, note}
log(`attention: d = ${d}, n = ${attentionSizes.join(', ')}, causal and not`);
for (const n of attentionSizes) {
  for (const causal of [false, true]) {
    const key = `${n} ${causal}`;
    attention[key] = {};
    const expected = attentionImpls[0].make(n, causal).result();
    for (const impl of attentionImpls) {
      if (impl.maxN && n > impl.maxN) {
        attention[key][impl.name] = { skipped: `n > ${impl.maxN}: the trace would need ${mb(4 * 4 * n * n)} MB` };
        continue;
      }
      let op;
      try {
        op = await impl.make(n, causal);
        const diff = relDiff(await op.result(), expected);
        if (!(diff < 1e-3)) throw new Error(`differs from the fused kernel by ${diff}`);
        const warm = await timeCall(op, 0);
        // A call that alone takes > 6 s at n = 8192 (tfjs's transposeB path) gets one round.
        attention[key][impl.name] = { op, times: [], check: diff, maxRounds: warm > 6000 ? 1 : Infinity };
      } catch (e) {
        attention[key][impl.name] = {
          error: String(e.message ?? e)
            .split('\n')[0]
            .slice(0, 120),
        };
        op?.dispose?.();
        log(`attention n=${n} causal=${causal}: ${impl.name} failed: ${attention[key][impl.name].error}`);
      }
    }
    for (let r = 0; r < roundsFor(n); r++) await timeRound(attention[key], r);
    for (const e of Object.values(attention[key])) (e.op?.dispose?.(), delete e.op);
    log(`attention n=${n} causal=${causal} done`);
  }
}
aws.delete();

// Memory: one fresh process per point (wasm heaps only grow, so a shared process would hide
// every point below its largest). Non-causal only; causal needs the same buffers.
log('memory: one process per point');
const memory = {};
for (const n of attentionSizes) {
  for (const impl of ['fused', 'traced', 'tfjs-transpose', 'ort']) {
    if (impl === 'traced' && n > tracedMax) continue;
    if (attention[`${n} false`][attentionImpls.find((x) => (x.short ?? x.name) === impl).name]?.error) continue;
    try {
      const out = execFileSync(
        process.execPath,
        ['--expose-gc', '--no-liftoff', path.join(root, 'tools/bench/memory.mjs'), impl, String(n), 'false'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
      );
      memory[`${impl} ${n}`] = JSON.parse(out.trim().split('\n').pop());
    } catch (e) {
      memory[`${impl} ${n}`] = { error: String(e.message).split('\n')[0].slice(0, 100) };
    }
  }
}

// --- the tiny models: lesson-sentence forward with the full trace, training steps/s ------------
// In wasm, timed inside the module (ModelBench: std::chrono::steady_clock) to separate the core
// from the building of JS objects, and from JS as the page calls it; natively by bench_model.
const LESSON = PAIR.tired;
const modelRounds = quick ? 2 : 7;
log('tiny models: forward with trace and training, wasm and native');
const modelFiles = (() => {
  const dir = path.join(root, 'web/models/coref-encoder');
  return {
    config: readFileSync(path.join(dir, 'config.json'), 'utf8'),
    weights: new Uint8Array(readFileSync(path.join(dir, 'model.safetensors'))),
    vocab: readFileSync(path.join(dir, 'vocab.txt'), 'utf8'),
  };
})();
const modelBench = engine.createModelBench(modelFiles);
const lessonModel = engine.loadTrainedModel(modelFiles);
const forward = {
  core: [],
  gelu: [],
  products: [],
  withPacked: [],
  jsAnalyze: [],
  jsAnalyzePacked: [],
};
let productsFlop = 0;
await timeCall({ run: () => lessonModel.analyze(LESSON) }, 50);
await timeCall({ run: () => lessonModel.analyzePacked(LESSON) }, 50);
for (let r = 0; r < modelRounds; r++) {
  const t = modelBench.analyzeTiming(LESSON, quick ? 300 : 1000);
  (forward.core.push(t.coreMicroseconds),
    forward.gelu.push(t.geluMicroseconds),
    forward.products.push(t.matrixProductsMicroseconds),
    forward.withPacked.push(t.withPackedMicroseconds));
  productsFlop = t.matrixProductsFlop;
  forward.jsAnalyze.push(1000 * (await timeCall({ run: () => lessonModel.analyze(LESSON) }, 100)));
  forward.jsAnalyzePacked.push(1000 * (await timeCall({ run: () => lessonModel.analyzePacked(LESSON) }, 100)));
}
// Floating-point work of that forward pass, from the model's shape (the counting only: the
// numbers themselves come from the core): per layer the Q, K, V, O projections (2·n·d·4d), the
// feed-forward (2·n·d·2·ffn) and attention (QKᵀ and PV: 4·n²·d); then the logits of one position.
const forwardFlops = (() => {
  const c = JSON.parse(modelFiles.config);
  const n = engine.tokenize(LESSON).length,
    d = c.d_model,
    ffn = c.d_ff > 0 ? c.d_ff : 4 * d;
  return c.n_layers * (2 * n * d * 4 * d + 2 * n * d * 2 * ffn + 4 * n * n * d) + 2 * d * c.vocab_size;
})();
const trainingSteps = 20,
  trainingBatch = 32;
const training = [];
for (let r = 0; r < (quick ? 1 : 3); r++)
  training.push(modelBench.trainingThroughput({ steps: trainingSteps, batchSize: trainingBatch }).stepsPerSecond);
modelBench.delete();
lessonModel.delete();
let nativeModel = null;
try {
  nativeModel = JSON.parse(
    execFileSync(
      path.join(root, 'build/native/bench_model'),
      [
        '--model',
        path.join(root, 'web/models/coref-encoder'),
        '--rounds',
        quick ? '2' : '5',
        '--steps',
        String(trainingSteps),
        '--batch',
        String(trainingBatch),
      ],
      { encoding: 'utf8' },
    ),
  );
} catch (e) {
  log(`native bench_model not run: ${String(e.message).split('\n')[0]}`);
}

// --- native ---------------------------------------------------------------------------------
let native = null,
  nativeMarchResult = null,
  nativeNote = '';
try {
  buildMarchNative();
  log('native: bench_kernels (baseline x86-64) and bench_kernels -march=native');
  const flag = quick ? ['--quick'] : [];
  native = JSON.parse(execFileSync(nativePlain, flag, { encoding: 'utf8' }));
  nativeMarchResult = JSON.parse(execFileSync(nativeMarch, flag, { encoding: 'utf8' }));
} catch (e) {
  nativeNote = `native benchmark not run: ${String(e.message).split('\n')[0]}`;
  log(nativeNote);
}
clocks.push(clockGHz());
const clock = Math.max(...clocks, native?.clock_ghz_estimate ?? 0, nativeMarchResult?.clock_ghz_estimate ?? 0);
const peak = 12 * clock; // GFLOP/s: see the derivation in the report

// --- report ---------------------------------------------------------------------------------
const gflops = (n, ms) => (2 * n ** 3) / ms / 1e6;
const out = [];
const say = (s = '') => out.push(s);

say('# Benchmarks: fast kernels');
say();
say(
  `Generated by \`npm run bench\` (\`node --no-liftoff --experimental-wasm-relaxed-simd tools/bench/run.mjs${quick ? ' --quick' : ''}\`) on ${machine.date}; ` +
    `total run time ${((performance.now() - started) / 1000).toFixed(0)} s. Do not edit by hand: run it again.`,
);
say();
say(`- Machine: ${machineLine(machine)}.`);
say(
  `- Clock under load, estimated: ${clock.toFixed(2)} GHz (fastest of 7 chains of dependent 64-bit multiplies, 3 cycles each; ` +
    `tools/bench_kernels.cpp --clock).`,
);
say(
  `- Node ${machine.node} (V8 ${machine.v8}), \`--no-liftoff\`${relaxedBytes ? ' `--experimental-wasm-relaxed-simd`' : ''}, one thread everywhere: this project's module (SIMD128, no threads), ` +
    `@tensorflow/tfjs-backend-wasm ${machine.tfjs} (tfjs-backend-wasm-simd.wasm: XNNPACK, SIMD128, no threads), ` +
    `onnxruntime-web ${machine.ort} (wasm EP, numThreads = 1, SIMD build).`,
);
say(
  '- Every runtime gets the same seeded inputs, and its output is checked against ours before timing ' +
    '(GEMM: max relative difference < 1e-4; attention: < 1e-3).',
);
say(
  '- Timing: all implementations run in every round, in a rotating order; a measurement is ≥ 25 ms of back-to-back calls. ' +
    'Tables give medians over rounds; ratios are taken within each round and summarised as median (min–max).',
);
say();
say(
  '**SIMD128 peak.** Without fused multiply-add (the SIMD128 build, and the …__wasmsimd variants of the relaxed build; ' +
    'the Chromium section below has the FMA peak), a multiply–add is two instructions. V8 maps f32x4.mul and f32x4.add ' +
    'to one 128-bit SSE/AVX instruction each, and this core (Golden Cove class) issues at most three 128-bit floating-point ' +
    'operations per cycle (ports 0, 1, 5). So at most 1.5 multiply–add pairs × 4 lanes × 2 flop = **12 flop/cycle**, i.e. ' +
    `12 × ${clock.toFixed(2)} GHz = **${peak.toFixed(1)} GFLOP/s** on one core.`,
);
say();

// GEMM table
say('## GEMM, C = A·B, n×n×n, float32');
say();
say(
  `GFLOP/s (2n³ / median time). "%peak" is against ${peak.toFixed(1)} GFLOP/s. ${ourDefault} is what \`ae::gemm()\` uses in wasm.`,
);
say();
const gemmNames = Object.keys(gemm[gemmSizes[0]]);
say(
  table(
    ['n', ...gemmNames, `%peak (${ourDefault.replace('f32_gemm_ukernel_', '')})`],
    gemmSizes.map((n) => [
      n,
      ...gemmNames.map((name) => fmt(gflops(n, median(gemm[n][name].times)))),
      `${fmt((100 * gflops(n, median(gemm[n][ourDefault].times))) / peak, 0)} % (best round ${fmt((100 * gflops(n, Math.min(...gemm[n][ourDefault].times))) / peak, 0)} %)`,
    ]),
  ),
);
say();
const eigenName = 'f32_gemm__eigen';
say(`Same-round speed-ups of ${ourDefault} (time of the other ÷ time of ours):`);
say();
say(
  table(
    ['n', 'vs XNNPACK (tfjs-wasm)', 'vs onnxruntime-web', 'vs Eigen in wasm'],
    gemmSizes.map((n) => [
      n,
      fmtRatio(ratio(gemm[n]['tfjs-wasm (XNNPACK)'].times, gemm[n][ourDefault].times)),
      fmtRatio(ratio(gemm[n]['onnxruntime-web'].times, gemm[n][ourDefault].times)),
      fmtRatio(ratio(gemm[n][eigenName].times, gemm[n][ourDefault].times)),
    ]),
  ),
);
say();
if (relaxedBytes) {
  say(
    `The same for ${RELAXED} (tools/bench/relaxed-gemm.mjs; what fused multiply-add alone gains is measured in ` +
      '[relaxed-simd.md](relaxed-simd.md)):',
  );
  say();
  say(
    table(
      ['n', `vs ${ourDefault}`, 'vs XNNPACK (tfjs-wasm)', 'vs onnxruntime-web', 'vs Eigen in wasm'],
      gemmSizes.map((n) => [
        n,
        ...[ourDefault, 'tfjs-wasm (XNNPACK)', 'onnxruntime-web', eigenName].map((other) =>
          fmtRatio(ratio(gemm[n][other].times, gemm[n][RELAXED].times)),
        ),
      ]),
    ),
  );
  say();
}

// attention table
say(`## Attention, softmax(QKᵀ/√d)·V, d = ${d}, one head, float32`);
say();
say(
  'Median milliseconds per call (GFLOP/s in brackets, counting 4·n²·d for QKᵀ and P·V, half of it when causal). ' +
    `"traced" is the page's path (keeps scores, weights: four n×n matrices); it is skipped above n = ${tracedMax}, ` +
    'where its trace alone would need 1 GiB (256 MiB per matrix).',
);
say();
const attNames = attentionImpls.map((x) => x.name);
const cell = (e, n, causal) => {
  if (!e) return '–';
  if (e.skipped) return 'skipped';
  if (e.error) return 'failed¹';
  const t = median(e.times.filter(Number.isFinite));
  return `${fmt(t, t < 10 ? 2 : 0)} (${fmt(flops(n, causal) / t / 1e6)})`;
};
say(
  table(
    ['n', 'causal', ...attNames],
    Object.keys(attention).map((key) => {
      const [n, causal] = [Number(key.split(' ')[0]), key.endsWith('true')];
      return [n, causal ? 'yes' : 'no', ...attNames.map((name) => cell(attention[key][name], n, causal))];
    }),
  ),
);
const failures = Object.entries(attention).flatMap(([key, row]) =>
  Object.entries(row)
    .filter(([, e]) => e.error)
    .map(([name, e]) => `n = ${key.split(' ')[0]}${key.endsWith('true') ? ' causal' : ''}, ${name}: ${e.error}`),
);
if (failures.length) {
  say();
  say(`¹ ${failures.join('; ')}`);
}
const oneRound = Object.entries(attention).flatMap(([key, row]) =>
  Object.entries(row)
    .filter(([, e]) => e.maxRounds === 1)
    .map(([name]) => `${name} at n = ${key.split(' ')[0]}${key.endsWith('true') ? ' causal' : ''}`),
);
if (oneRound.length) {
  say();
  say(`Timed in one round only (one call takes > 6 s): ${oneRound.join('; ')}.`);
}
say();
say('Same-round speed-ups of the fused kernel:');
say();
const bestTfjs = (row) => {
  // per round, the faster of the two tfjs compositions
  const a = row['tfjs matMul(q, k, false, true)']?.times ?? [],
    b = row['tfjs matMul(q, transpose(k))']?.times ?? [];
  const ok = (x) => (Number.isFinite(x) ? x : Infinity);
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => Math.min(ok(a[i]), ok(b[i]))).map((x) =>
    Number.isFinite(x) ? x : NaN,
  );
};
say(
  table(
    ['n', 'causal', 'vs onnxruntime-web', 'vs best tfjs composition', 'vs traced'],
    Object.keys(attention).map((key) => {
      const row = attention[key];
      return [
        key.split(' ')[0],
        key.endsWith('true') ? 'yes' : 'no',
        fmtRatio(ratio(row['onnxruntime-web']?.times ?? [], row.fused.times)),
        fmtRatio(ratio(bestTfjs(row), row.fused.times)),
        fmtRatio(ratio(row.traced?.times ?? [], row.fused.times)),
      ];
    }),
  ),
);
say();
say(
  'Extra memory of one call (non-causal), measured in a fresh Node process per point: growth of resident memory across the call ' +
    "(after a GC before and after; a wasm heap keeps every page it touched, so this is the call's peak). For this project also the " +
    'growth of the malloc arena (sbrk). MiB.',
);
say();
say(
  table(
    [
      'n',
      'fused: RSS (sbrk)',
      'traced: RSS (sbrk)',
      'tfjs transpose: RSS',
      'onnxruntime-web: RSS',
      'one n×n float matrix',
    ],
    attentionSizes.map((n) => {
      const m = (impl) => {
        const e = memory[`${impl} ${n}`];
        if (!e) return impl === 'traced' && n > tracedMax ? 'skipped' : '–';
        if (e.error) return 'failed';
        const rss = mb(Math.max(0, e.rssGrowth)); // a GC can leave RSS slightly below its start: 0
        return e.brkGrowth == null ? rss : `${rss} (${mb(e.brkGrowth)})`;
      };
      return [n, m('fused'), m('traced'), m('tfjs-transpose'), m('ort'), mb(4 * n * n)];
    }),
  ),
);
say();
say(
  `The fused kernel's own heap scratch, as its code allocates it (\`ae::attention_fused_scratch_bytes\`): ` +
    `${(engine.fusedAttentionScratchBytes(8192, d, false) / 1024).toFixed(0)} KiB at any n without a mask, ` +
    `${(engine.fusedAttentionScratchBytes(8192, d, true) / 1024).toFixed(0)} KiB at n = 8192 with one (one int per key for the check ` +
    'that no query is fully masked). A zero RSS/sbrk growth means it fitted into memory the heap already had.',
);
say();

// native vs wasm
say('## Native vs wasm, same sources');
say();
if (!native) {
  say(nativeNote);
} else {
  say(
    '`build/native/bench_kernels` (CMake Release, x86-64 baseline: SSE2) and the same sources compiled with `-march=native` ' +
      '(AVX-512 here: Eigen uses 512-bit FMA; our kernel stays 4-wide but gets VEX encoding). GFLOP/s, medians of 7 rounds inside ' +
      'each native run; wasm figures from the tables above.',
  );
  say();
  const nat = (res, variant, n) => res.gemm.find((g) => g.variant === variant && g.n === n)?.gflops;
  const wasmName = (v) => v.replace('__sse', '__wasmsimd');
  const variants = native.gemm.filter((g) => g.n === 64).map((g) => g.variant);
  say(
    table(
      ['kernel', 'n', 'wasm', 'native', 'native -march=native'],
      variants.flatMap((v) =>
        gemmSizes.map((n) => [
          v.replace('sse', 'sse / wasmsimd'),
          n,
          fmt(gemm[n][wasmName(v)] ? gflops(n, median(gemm[n][wasmName(v)].times)) : null),
          fmt(nat(native, v, n)),
          fmt(nat(nativeMarchResult, v, n)),
        ]),
      ),
    ),
  );
  say();
  const natAtt = (res, kernel, n, causal) =>
    res.attention.find((a) => a.kernel === kernel && a.n === n && a.causal === causal);
  say(
    table(
      ['attention', 'n', 'causal', 'wasm ms', 'native ms', 'native -march=native ms'],
      native.attention.map((a) => {
        const e = attention[`${a.n} ${a.causal}`]?.[a.kernel];
        const wasmMs = e?.times ? median(e.times.filter(Number.isFinite)) : null;
        return [
          a.kernel,
          a.n,
          a.causal ? 'yes' : 'no',
          fmt(wasmMs, 2),
          fmt(a.ms, 2),
          fmt(natAtt(nativeMarchResult, a.kernel, a.n, a.causal)?.ms, 2),
        ];
      }),
    ),
  );
}
say();

// tiny models
say('## The tiny models: lesson sentence and training');
say();
say(
  `The coreference encoder (3 layers × 4 heads, d_model = 32) on the lesson sentence (${engine.tokenize(LESSON).length} tokens): the forward pass with the full trace the ` +
    'page shows (q, k, v and the four attention steps of every head, every layer output) and the prediction. µs per call, medians of ' +
    `${modelRounds} rounds. "In wasm" is timed inside the module with std::chrono::steady_clock (\`ModelBench.analyzeTiming\`, bindings/bench.cpp), ` +
    '"from JS" is the call the page makes, native is `build/native/bench_model` (the same core function, bench/model_latency.h).',
);
say();
const fwd = Object.fromEntries(Object.entries(forward).map(([k, v]) => [k, median(v)]));
say(
  table(
    ['what', 'µs per call'],
    [
      ['core: forward + trace + prediction, in wasm', fmt(fwd.core, 0)],
      [
        'core + the packed trace (one Float32Array + a named header, bindings/packed.h), in wasm',
        fmt(fwd.withPacked, 0),
      ],
      ['`TrainedModel.analyze(text)` from JS', fmt(fwd.jsAnalyze, 0)],
      ['`TrainedModel.analyzePacked(text)` from JS, unpacked into views', fmt(fwd.jsAnalyzePacked, 0)],
      ['core, native (x86-64 baseline build)', fmt(nativeModel?.forward_us, 0)],
      ['of the core: GELU alone, in wasm / native', `${fmt(fwd.gelu, 0)} / ${fmt(nativeModel?.gelu_us, 0)}`],
      [
        'a floor: the matrix products alone, back to back on ready buffers (`matrix_products_per_forward`), in wasm / native',
        `${fmt(fwd.products, 0)} / ${fmt(nativeModel?.matrix_products_us, 0)}`,
      ],
    ],
  ),
);
const productsRate = productsFlop / (fwd.products * 1e3); // GFLOP/s
const gemmPeakShare = (100 * gflops(maxN, median(gemm[maxN][ourDefault].times))) / peak;
say();
say(
  `The floor's ${fmt(productsFlop / 1e6, 2)} MFLOP run at ${fmt(productsRate, 1)} GFLOP/s in wasm ` +
    `(${fmt((100 * productsRate) / peak, 0)} % of peak; the same kernel reaches ${fmt(gemmPeakShare, 0)} % on square n = ${maxN}): ` +
    `with ${engine.tokenize(LESSON).length} rows and widths of 8 to 128, packing and edge tiles outweigh the arithmetic.`,
);
say();
say(`The packed trace costs ${fmt(fwd.withPacked - fwd.core, 0)} µs on top of the core's ${fmt(fwd.core, 0)} µs.`);
say();
const trainingWasm = median(training);
say(
  `Training, the coreference recipe's trainer (bench/training_throughput.h: batch ${trainingBatch}, dropout 0.1, AdamW with warm-up; ` +
    `${trainingSteps} steps on a fresh model, timed inside the core): **${fmt(trainingWasm, 1)} steps/s in wasm**, ` +
    `${fmt(nativeModel?.training_steps_per_second, 1)} steps/s native` +
    `${nativeModel ? ` (wasm at ${fmt((100 * trainingWasm) / nativeModel.training_steps_per_second, 0)} % of native)` : ''}.`,
);
say();

// targets
say('## Targets (issue 5)');
say();
// Each ratio target is checked at its worst point; what reaching it there would take is given
// in GFLOP/s and as a share of the SIMD128 peak, which is the measurement that says whether it
// can be reached at all.
function worstPoint(points, target) {
  // points: [{label, ratio, otherGflops}]
  const w = points.reduce((a, b) => ((b.ratio ?? 0) < (a.ratio ?? 0) ? b : a));
  const need = target * w.otherGflops;
  return {
    ok: points.every((p) => (p.ratio ?? 0) >= target),
    text: `lowest median ratio ${fmt(w.ratio, 2)}× (${w.label})`,
    why:
      `there the other runs at ${fmt(w.otherGflops)} GFLOP/s (${fmt((100 * w.otherGflops) / peak, 0)} % of peak), so ${target}× ` +
      `needs ${fmt(need)} GFLOP/s = ${fmt((100 * need) / peak, 0)} % of peak`,
  };
}
const gemmPoints = (name, ours = ourDefault) =>
  gemmSizes.map((n) => ({
    label: `n = ${n}`,
    ratio: ratio(gemm[n][name].times, gemm[n][ours].times)?.median,
    otherGflops: gflops(n, median(gemm[n][name].times)),
  }));
const attPoints = (timesOf) =>
  Object.keys(attention)
    .filter((k) => Number(k.split(' ')[0]) >= 512)
    .map((key) => {
      const [n, causal] = [Number(key.split(' ')[0]), key.endsWith('true')];
      const other = timesOf(attention[key]).filter(Number.isFinite);
      return {
        label: `n = ${n}${causal ? ' causal' : ''}`,
        ratio: ratio(timesOf(attention[key]), attention[key].fused.times)?.median,
        otherGflops: other.length ? flops(n, causal) / median(other) / 1e6 : 0,
      };
    });
const peakFrac = [256, 512].map((n) => gflops(n, median(gemm[n][ourDefault].times)) / peak);
const peakFracBest = [256, 512].map((n) => gflops(n, Math.min(...gemm[n][ourDefault].times)) / peak);
const fused8192 = memory['fused 8192'];
const mark = (ok) => (ok ? 'met' : '**not met**');
const targets = [];
const ratioTarget = (name, points, target, relaxedPoints = null) => {
  const w = worstPoint(points, target);
  const r = relaxedPoints && worstPoint(relaxedPoints, target);
  const withFma = r ? `; the relaxed-SIMD (FMA) WAT kernel: ${r.text}${r.ok ? ', meeting it' : ''}` : '';
  targets.push([name, w.text + withFma, mark(w.ok), w.ok ? '' : w.why]);
};
const relaxedGemmPoints = (name) => (relaxedBytes ? gemmPoints(name, RELAXED) : null);
ratioTarget(
  'GEMM ≥ 1.5× XNNPACK, n = 64–512',
  gemmPoints('tfjs-wasm (XNNPACK)'),
  1.5,
  relaxedGemmPoints('tfjs-wasm (XNNPACK)'),
);
ratioTarget(
  'GEMM ≥ 1.5× onnxruntime-web, n = 64–512',
  gemmPoints('onnxruntime-web'),
  1.5,
  relaxedGemmPoints('onnxruntime-web'),
);
targets.push([
  'GEMM ≥ 75 % of SIMD128 peak, n = 256–512',
  `medians ${peakFrac.map((f) => `${fmt(100 * f, 0)} %`).join(', ')}; best rounds ${peakFracBest.map((f) => `${fmt(100 * f, 0)} %`).join(', ')}`,
  mark(Math.min(...peakFrac) >= 0.75),
  '',
]);
ratioTarget('GEMM ≥ 2× Eigen in wasm', gemmPoints(eigenName), 2, relaxedGemmPoints(eigenName));
ratioTarget(
  'fused attention ≥ 1.3× onnxruntime-web, n ≥ 512',
  attPoints((row) => row['onnxruntime-web']?.times ?? []),
  1.3,
);
ratioTarget('fused attention ≥ 2× best tfjs composition, n ≥ 512', attPoints(bestTfjs), 2);
if (attentionSizes.includes(8192)) {
  const ok = fused8192 && !fused8192.error && fused8192.rssGrowth <= 4e6;
  targets.push([
    'fused attention extra memory ≤ 4 MB at n = 8192',
    fused8192 && !fused8192.error
      ? `RSS +${mb(Math.max(0, fused8192.rssGrowth))} MiB, sbrk +${mb(fused8192.brkGrowth)} MiB`
      : 'not measured',
    mark(ok),
    '',
  ]);
}
targets.push([
  'lesson-sentence forward with full trace ≤ 50 µs in wasm',
  `core ${fmt(fwd.core, 0)} µs; from JS ${fmt(fwd.jsAnalyze, 0)} µs ` + `(packed ${fmt(fwd.jsAnalyzePacked, 0)} µs)`,
  mark(fwd.core <= 50 && fwd.jsAnalyzePacked <= 50),
  fwd.core > 50
    ? `the core takes ${fmt(fwd.core / 50, 1)}× the budget (native: ${fmt(nativeModel?.forward_us, 0)} µs). ` +
      `Its matrix products alone, with nothing else, take ${fmt(fwd.products, 0)} µs (${fmt(productsRate, 1)} GFLOP/s on ${engine.tokenize(LESSON).length}-row matrices) ` +
      `and its GELU ${fmt(fwd.gelu, 0)} µs: ${fmt(fwd.products + fwd.gelu, 0)} µs ` +
      (fwd.products + fwd.gelu > 50
        ? 'before LayerNorm, softmax, the trace copies, tokenising and the prediction. '
        : `, leaving ${fmt(50 - fwd.products - fwd.gelu, 0)} µs for LayerNorm, softmax, the trace copies, tokenising and the prediction. `) +
      `The whole ${fmt(forwardFlops / 1e6, 2)} MFLOP in 50 µs would be ${fmt(forwardFlops / 50e3, 1)} GFLOP/s (${fmt((100 * forwardFlops) / 50e3 / peak, 0)} % of peak) with nothing else running`
    : '',
]);
say(table(['target', 'measured', 'status', 'what the unmet ones would need'], targets));
say();
say(
  "Relaxed SIMD (fused multiply-add): the project's module is not built with it — clang 14 emits only the prototype opcodes, which " +
    'V8 rejects (TOOLCHAIN.md §9), and Node 20 runs relaxed SIMD only behind a flag. ' +
    (relaxedBytes
      ? `The GEMM micro-kernel written by hand in WAT (tools/bench/relaxed-gemm.mjs, assembled by wabt) shows what it would gain: ` +
        `${fmtRatio(ratio(gemm[maxN][ourDefault].times, gemm[maxN][RELAXED].times))} the speed of ${ourDefault} at n = ${maxN} in this run ` +
        '([relaxed-simd.md](relaxed-simd.md) compares it with the identical kernel using mul + add, and checks that V8 emits FMA).'
      : 'This run had no relaxed SIMD (start Node with --experimental-wasm-relaxed-simd), so the WAT kernel of tools/bench/relaxed-gemm.mjs was left out.'),
);
say();

const text = out.join('\n');
console.log(text);
mkdirSync(path.dirname(outFile), { recursive: true });
// The Chromium, page, training and GPT-2 sections (tools/bench/browser.mjs, page.mjs,
// train-speed.mjs, gpt2.mjs) are carried over as they are.
const old = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const kept = [
  browserSection(old),
  pageSection(old),
  section(old, TRAIN_START, TRAIN_END),
  section(old, THREADS_START, THREADS_END),
  section(old, PAGE_RUN_START, PAGE_RUN_END),
  section(old, GPT2_START, GPT2_END),
].filter(Boolean);
writeFileSync(outFile, text + '\n' + kept.map((part) => `\n${part}\n`).join(''));
log(`wrote ${path.relative(root, outFile)}`);
process.exit(0); // ONNX Runtime keeps handles open
