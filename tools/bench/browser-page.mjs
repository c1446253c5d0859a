// The Chromium benchmark, inside the page: this project's two builds (relaxed SIMD with fused
// multiply-add, SIMD128 with mul + add), XNNPACK (tfjs-backend-wasm) and ONNX Runtime Web, all
// single-threaded wasm in this one page, timed in the same interleaved rounds (stats.mjs). The
// driver, tools/bench/browser.mjs, calls window.runBench and turns the times into tables.
import * as ort from '/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs';

import { loadEngine } from '/web/lib/engine.mjs';
import { ortSession, tfjsAttention, tfjsGemm } from './ops.mjs';
import { relDiff, timeCall, timeRound } from './stats.mjs';

const pause = () => new Promise((r) => setTimeout(r, 0));
// V8 starts wasm in its baseline tier and tiers hot functions up: each implementation runs for
// WARM_MS before timing, so the optimised code is what gets measured.
const WARM_MS = 300;

async function loadPeers() {
  const tf = globalThis.tf;
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false); // one thread: tfjs-backend-wasm-simd.wasm
  tf.wasm.setWasmPaths('/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
  await tf.ready();
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  ort.env.logLevel = 'error';
  return { tf, simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT') };
}

// Our op on a KernelWorkspace: run() and result() (the output, copied).
const ours = (run, ws, size) => ({ run, result: () => (run(), ws.c.slice(0, size)) });

// entries: {name: {op}}; checks each op's output against `reference`'s, warms it, times rounds.
async function measure(entries, referenceName, rounds, tolerance) {
  const expected = await entries[referenceName].op.result();
  for (const [name, e] of Object.entries(entries)) {
    e.times = [];
    e.check = relDiff(await e.op.result(), expected);
    if (!(e.check < tolerance)) throw new Error(`${name} differs from ${referenceName} by ${e.check}`);
    await timeCall(e.op, WARM_MS);
  }
  for (let r = 0; r < rounds; r++) {
    await timeRound(entries, r);
    await pause();
  }
  const out = Object.fromEntries(
    Object.entries(entries).map(([name, e]) => [name, { times: e.times, check: e.check }]),
  );
  for (const e of Object.values(entries)) e.op.dispose?.();
  return out;
}

window.runBench = async ({
  gemmSizes,
  gemmRounds,
  attentionSizes,
  attentionRounds,
  d,
  ortModels,
  lesson,
  lessonModel,
}) => {
  // The benchmarks' modules: each build's page module plus ModelBench (the lesson forward below).
  const relaxed = await loadEngine({}, 'bench-relaxed');
  const simd128 = await loadEngine({}, 'bench');
  const { tf, simd } = await loadPeers();
  const result = {
    features: { relaxed: relaxed.features, simd128: simd128.features, tfjsSimd: simd, crossOriginIsolated },
    gemm: {},
    attention: {},
    forward: {},
  };
  // The default (fused 6×8), the fused 5×8, and the mul + add 5×8, SIMD128's default.
  const fused = relaxed.features.gemm,
    fused5 = fused.replace(/\d+x8/, '5x8');
  const plain = simd128.features.gemm;

  // GEMM, C = A·B, n×n×n: the same A and B (seeded, identical in both builds) for everyone.
  const maxN = Math.max(...gemmSizes);
  const [wr, ws] = [relaxed, simd128].map((e) => {
    const w = e.createKernelWorkspace(maxN * maxN);
    w.fillRandom(11);
    w.reserveGemm(maxN, maxN, maxN);
    return w;
  });
  for (const n of gemmSizes) {
    const a = ws.a.slice(0, n * n),
      b = ws.b.slice(0, n * n);
    const gemm = (w, name) => ours(() => w.gemm(name, n, n, n, false), w, n * n);
    result.gemm[n] = await measure(
      {
        [`${fused} (relaxed build)`]: { op: gemm(wr, fused) },
        [`${fused5} (relaxed build)`]: { op: gemm(wr, fused5) },
        [`${plain} (relaxed build)`]: { op: gemm(wr, plain) },
        [`${plain} (SIMD128 build)`]: { op: gemm(ws, plain) },
        'tfjs-wasm (XNNPACK)': { op: tfjsGemm(tf, n, a, b) },
        'onnxruntime-web': {
          op: await ortSession(ort, new Uint8Array(ortModels.gemm[n]), {
            A: new ort.Tensor('float32', a, [n, n]),
            B: new ort.Tensor('float32', b, [n, n]),
          }),
        },
      },
      `${plain} (SIMD128 build)`,
      gemmRounds,
      1e-4,
    );
  }
  (wr.delete(), ws.delete());

  // Attention, d = 64, non-causal, scale 1/√d: Q = a, K and V = b (as bindings/kernels.cpp).
  const maxA = Math.max(...attentionSizes);
  const [ar, as] = [relaxed, simd128].map((e) => {
    const w = e.createKernelWorkspace(2 * maxA * d);
    w.fillRandom(21);
    return w;
  });
  for (const n of attentionSizes) {
    const nd = n * d,
      q = as.a.slice(0, nd),
      k = as.b.slice(0, nd),
      v = as.b.slice(nd, 2 * nd);
    const att = (w) => ours(() => w.attentionFused(n, d, false, 0), w, nd);
    result.attention[n] = await measure(
      {
        'fused (relaxed build)': { op: att(ar) },
        'fused (SIMD128 build)': { op: att(as) },
        'tfjs matMul(q, k, false, true)': { op: tfjsAttention(tf, n, d, false, q, k, v, 'transposeB') },
        'tfjs matMul(q, transpose(k))': { op: tfjsAttention(tf, n, d, false, q, k, v, 'transpose') },
        'onnxruntime-web': {
          op: await ortSession(ort, new Uint8Array(ortModels.attention[n]), {
            Q: new ort.Tensor('float32', q, [n, d]),
            K: new ort.Tensor('float32', k, [n, d]),
            V: new ort.Tensor('float32', v, [n, d]),
          }),
        },
      },
      'fused (SIMD128 build)',
      attentionRounds,
      1e-4,
    );
  }
  (ar.delete(), as.delete());

  // The lesson sentence with the full trace, timed inside wasm (ModelBench.analyzeTiming).
  const files = {
    config: await (await fetch(`${lessonModel}config.json`)).text(),
    weights: new Uint8Array(await (await fetch(`${lessonModel}model.safetensors`)).arrayBuffer()),
    vocab: await (await fetch(`${lessonModel}vocab.txt`)).text(),
  };
  const benches = { relaxed: relaxed.createModelBench(files), simd128: simd128.createModelBench(files) };
  for (const b of Object.values(benches)) b.analyzeTiming(lesson, 1000); // warm-up (tier-up)
  for (const name of Object.keys(benches)) result.forward[name] = { core: [], gelu: [] };
  for (let r = 0; r < attentionRounds + 2; r++) {
    for (const name of r % 2 ? ['simd128', 'relaxed'] : ['relaxed', 'simd128']) {
      const t = benches[name].analyzeTiming(lesson, 1000);
      (result.forward[name].core.push(t.coreMicroseconds), result.forward[name].gelu.push(t.geluMicroseconds));
    }
    await pause();
  }
  for (const b of Object.values(benches)) b.delete();
  return result;
};
document.getElementById('status').textContent = 'ready';
