// The n² cost panel's (./cost.mjs) measuring: one kernel call of the wasm core timed in runs
// spread over frames (so the page stays responsive), with the core's byte count and the wasm
// heap's growth during the call.
import { msPerCall, spread } from '../lib/stats.mjs';

const RUN_MS = 10; // one timed run: back-to-back calls for at least this long
const RUNS = 7; // per point; the median and the range are shown
const SLOW_CALL_MS = 150; // a call this slow is timed once (no more runs)

export const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

// {median, min, max, runs} of ms per call: RUNS runs of ≥ RUN_MS, one per frame so the page
// stays responsive; a call slower than SLOW_CALL_MS is timed once; stopped() ends it early.
export async function timeCall(call, stopped) {
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    if (r > 0) await nextFrame();
    times.push(msPerCall(call, RUN_MS));
    if (times[0] > SLOW_CALL_MS || stopped()) break;
  }
  return spread(times);
}

// One call of `kernel` (fused, window, traced) at n for a head of width d on the workspace ws.
export function kernelCall(ws, kernel, n, d, window) {
  if (kernel === 'traced') return () => ws.attentionTraced(n, d, false, 0);
  return () => ws.attentionFused(n, d, false, kernel === 'window' ? window : 0);
}

// Core byte counts of one call: what each kernel allocates besides Q, K, V and the output.
export function kernelBytes(engine, kernel, n, d) {
  if (kernel === 'traced') return engine.tracedAttentionBytes(n, d);
  return engine.fusedAttentionScratchBytes(n, d, kernel === 'window');
}

// One point: {kernel, n, bytes, capped: true} where the traced kernel would need more than
// `limit` bytes, else {kernel, n, bytes, heap, ms, min, max, runs, overhead}: overhead when the
// call's fixed cost (`fixed` ms, its time at n = 1) is at least `share` of its median.
export async function measurePoint(engine, ws, { kernel, n, d, window, limit, share, fixed }, stopped) {
  const bytes = kernelBytes(engine, kernel, n, d);
  if (kernel === 'traced' && bytes > limit) return { kernel, n, bytes, capped: true };
  const brk0 = engine.memoryStats().brk;
  const { median: ms, min, max, runs } = await timeCall(kernelCall(ws, kernel, n, d, window), stopped);
  const heap = engine.memoryStats().brk - brk0;
  return { kernel, n, bytes, heap, ms, min, max, runs, overhead: fixed >= share * ms };
}
