// One memory measurement in a fresh process, so that no earlier call's heap growth hides
// this one's (wasm memory never shrinks). Started by run.mjs as
//   node --expose-gc --no-liftoff tools/bench/memory.mjs IMPL N CAUSAL
// IMPL: fused | traced | tfjs-transposeB | tfjs-transpose | ort. Prints one JSON line:
//   rssGrowth   resident memory after the call minus before it (after a GC each time): the
//               wasm heap keeps every page it touched, so this is the call's peak extra memory
//   brkGrowth   (this project only) growth of the malloc arena's end, sbrk(0), in bytes
import { loadOrt, loadOurs, loadTfjs, ortAttention, ourWorkspace, tfjsAttention } from './runtimes.mjs';

const [impl, nText, causalText] = process.argv.slice(2);
const n = Number(nText),
  d = 64,
  causal = causalText === 'true';
const gc = globalThis.gc ?? (() => {});

// Inputs are the same seeded values for every runtime: made by our workspace, then copied.
const engine = await loadOurs();
const ws = ourWorkspace(engine, 2 * n * d);
const q = ws.a.slice(0, n * d),
  k = ws.b.slice(0, n * d),
  v = ws.b.slice(n * d, 2 * n * d);

let call;
if (impl === 'fused' || impl === 'traced') {
  const kernel = impl === 'fused' ? 'attentionFused' : 'attentionTraced';
  const small = ourWorkspace(engine, 2 * 16 * d);
  small[kernel](16, d, causal); // first call of the code path, outside the measurement
  small.delete();
  call = () => ws[kernel](n, d, causal);
} else if (impl.startsWith('tfjs')) {
  const tf = await loadTfjs();
  const warm = tfjsAttention(
    tf,
    16,
    d,
    causal,
    q.slice(0, 16 * d),
    k.slice(0, 16 * d),
    v.slice(0, 16 * d),
    impl === 'tfjs-transposeB' ? 'transposeB' : 'transpose',
  );
  (warm.run(), warm.dispose());
  const op = tfjsAttention(tf, n, d, causal, q, k, v, impl === 'tfjs-transposeB' ? 'transposeB' : 'transpose');
  call = () => op.run();
} else if (impl === 'ort') {
  const ort = await loadOrt();
  const warm = await ortAttention(ort, 16, d, causal, q.slice(0, 16 * d), k.slice(0, 16 * d), v.slice(0, 16 * d));
  await warm.run();
  const op = await ortAttention(ort, n, d, causal, q, k, v);
  call = () => op.run();
} else {
  throw new Error(`unknown implementation ${impl}`);
}

gc();
await new Promise((r) => setTimeout(r, 50)); // let background compilation threads settle
const rss0 = process.memoryUsage().rss,
  brk0 = engine.memoryStats().brk;
await call();
gc();
const rss1 = process.memoryUsage().rss,
  brk1 = engine.memoryStats().brk;
console.log(
  JSON.stringify({
    impl,
    n,
    causal,
    rssGrowth: rss1 - rss0,
    brkGrowth: impl === 'fused' || impl === 'traced' ? brk1 - brk0 : null,
  }),
);
