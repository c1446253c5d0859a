// The peers' operations as the benchmarks time them, with no Node import: run.mjs (Node) and
// browser-page.mjs (Chromium) share them. Each returns {run, result, dispose} (async: true when
// run returns a promise), as stats.mjs's timeCall expects.

// --- TensorFlow.js, wasm backend (XNNPACK) -----------------------------------------------
export function tfjsGemm(tf, n, a, b) {
  const ta = tf.tensor2d(a, [n, n]),
    tb = tf.tensor2d(b, [n, n]);
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
      (ta.dispose(), tb.dispose());
    },
  };
}

// variant 'transposeB': matMul(q, k, false, true); 'transpose': matMul(q, transpose(k)).
// The scale multiplies Q (n·d products) rather than the n×n scores; the causal mask is an
// n×n tensor of 0 and −∞ made once, outside the timed calls.
export function tfjsAttention(tf, n, d, causal, q, k, v, variant) {
  const tq = tf.tensor2d(q, [n, d]),
    tk = tf.tensor2d(k, [n, d]),
    tv = tf.tensor2d(v, [n, d]);
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

// --- ONNX Runtime Web: one session on a graph (onnx-graph.mjs makes the bytes), output Y ---------
export async function ortSession(ort, bytes, feeds) {
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
