// The three wasm runtimes of the benchmark, loaded in Node from local files only, each in
// single-threaded SIMD mode, behind one small interface:
//   prepareGemm(n, A, B)                → {run, result, dispose}   C = A·B, n×n
//   prepareAttention(n, d, causal, Q, K, V, variant) → {run, result, dispose}
// run() does one call (possibly async: ONNX Runtime's run is a Promise); result() returns the
// output as a Float32Array, to check that every runtime computes the same thing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { attentionModel, matmulModel } from './onnx-graph.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// --- this project: web/dist/attention_bench.{mjs,wasm} (the page's module plus ModelBench) ----
export async function loadOurs() {
  const { loadEngine } = await import('../../web/lib/engine.mjs');
  const { default: createBenchModule } = await import('../../web/dist/attention_bench.mjs');
  const wasmBinary = readFileSync(path.join(root, 'web/dist/attention_bench.wasm'));
  return loadEngine({ wasmBinary }, createBenchModule);
}

// A workspace holding A, B (GEMM) or Q, K, V (attention) for the largest size, seeded.
export function ourWorkspace(engine, capacity, seed = 1) {
  const ws = engine.createKernelWorkspace(capacity);
  ws.fillRandom(seed);
  return ws;
}

// --- TensorFlow.js, wasm backend (XNNPACK) -----------------------------------------------
export async function loadTfjs() {
  const tf = await import('@tensorflow/tfjs-core');
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  // Without SharedArrayBuffer threads in play tfjs picks tfjs-backend-wasm-simd.wasm: XNNPACK
  // with SIMD128 on one thread. setWasmPaths with a directory path works offline in Node.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  setWasmPaths(path.join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + path.sep);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const threads = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  if (!simd || threads) throw new Error(`tfjs: expected SIMD without threads, got simd=${simd} threads=${threads}`);
  return tf;
}

export function tfjsGemm(tf, n, a, b) {
  const ta = tf.tensor2d(a, [n, n]), tb = tf.tensor2d(b, [n, n]);
  return {
    run() {
      tf.matMul(ta, tb).dispose();
    },
    result() {
      const c = tf.matMul(ta, tb);
      const out = c.dataSync().slice();
      c.dispose();
      return out;
    },
    dispose() {
      ta.dispose(), tb.dispose();
    },
  };
}

// variant 'transposeB': matMul(q, k, false, true); 'transpose': matMul(q, transpose(k)).
// The scale multiplies Q (n·d products) rather than the n×n scores; the causal mask is an
// n×n tensor of 0 and −∞ made once, outside the timed calls.
export function tfjsAttention(tf, n, d, causal, q, k, v, variant) {
  const tq = tf.tensor2d(q, [n, d]), tk = tf.tensor2d(k, [n, d]), tv = tf.tensor2d(v, [n, d]);
  const scale = tf.scalar(1 / Math.sqrt(d));
  let mask = null;
  if (causal) {
    const m = new Float32Array(n * n);
    for (let i = 0; i < n; i++) m.fill(-Infinity, i * n + i + 1, (i + 1) * n);
    mask = tf.tensor2d(m, [n, n]);
  }
  const forward = () =>
    tf.tidy(() => {
      const qs = tf.mul(tq, scale);
      const s = variant === 'transposeB' ? tf.matMul(qs, tk, false, true) : tf.matMul(qs, tf.transpose(tk));
      return tf.matMul(tf.softmax(mask ? tf.add(s, mask) : s), tv);
    });
  return {
    run() {
      forward().dispose();
    },
    result() {
      const y = forward();
      const out = y.dataSync().slice();
      y.dispose();
      return out;
    },
    dispose() {
      for (const t of [tq, tk, tv, scale, mask]) t?.dispose();
    },
  };
}

// --- ONNX Runtime Web, wasm execution provider ---------------------------------------------
export async function loadOrt() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;  // one thread; the shipped wasm is the SIMD build
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = path.join(root, 'node_modules/onnxruntime-web/dist') + path.sep;
  ort.env.logLevel = 'error';
  return ort;
}

async function ortSession(ort, bytes, feeds) {
  const session = await ort.InferenceSession.create(bytes, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  return {
    async: true,
    run: () => session.run(feeds),
    async result() {
      const out = await session.run(feeds);
      return Float32Array.from(out.Y.data);
    },
    dispose: () => session.release(),
  };
}

export function ortGemm(ort, n, a, b) {
  return ortSession(ort, matmulModel(n, n, n), {
    A: new ort.Tensor('float32', a, [n, n]),
    B: new ort.Tensor('float32', b, [n, n]),
  });
}

export function ortAttention(ort, n, d, causal, q, k, v) {
  return ortSession(ort, attentionModel(n, d, { causal }), {
    Q: new ort.Tensor('float32', q, [n, d]),
    K: new ort.Tensor('float32', k, [n, d]),
    V: new ort.Tensor('float32', v, [n, d]),
  });
}
