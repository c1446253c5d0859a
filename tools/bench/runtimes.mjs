// The three wasm runtimes of the benchmark, loaded in Node from local files only, each in
// single-threaded SIMD mode, behind one small interface:
//   prepareGemm(n, A, B)                → {run, result, dispose}   C = A·B, n×n
//   prepareAttention(n, d, causal, Q, K, V, variant) → {run, result, dispose}
// run() does one call (possibly async: ONNX Runtime's run is a Promise); result() returns the
// output as a Float32Array, to check that every runtime computes the same thing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { attentionModel, matmulModel } from './onnx-graph.mjs';
import { ortSession } from './ops.mjs';

export { tfjsAttention, tfjsGemm } from './ops.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// --- this project: web/dist/attention*.{mjs,wasm} through web/lib/engine.mjs ------------------
// build: 'relaxed' (fused multiply-add) or 'simd128', or their benchmark modules 'bench-relaxed'
// and 'bench' (the same plus ModelBench); by default the benchmark module of the build the probe picks.
export async function loadOurs(build) {
  const { MODULE_FILES, chooseModule, loadEngine } = await import('../../web/lib/engine.mjs');
  const chosen =
    build ??
    (chooseModule() === 'relaxed' && existsSync(path.join(root, 'web/dist', MODULE_FILES['bench-relaxed'].wasm))
      ? 'bench-relaxed'
      : 'bench');
  return loadEngine({ wasmBinary: readFileSync(path.join(root, 'web/dist', MODULE_FILES[chosen].wasm)) }, chosen);
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

// --- ONNX Runtime Web, wasm execution provider ---------------------------------------------
export async function loadOrt() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1; // one thread; the shipped wasm is the SIMD build
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = path.join(root, 'node_modules/onnxruntime-web/dist') + path.sep;
  ort.env.logLevel = 'error';
  return ort;
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
