// Timing statistics shared by the panels that measure in the page (the n² cost, the KV cache)
// and the benchmarks (tools/bench), so that a figure means the same wherever it is printed.

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

// Milliseconds per call of `run`, over back-to-back calls lasting at least minMs (one call
// is often shorter than the timer's resolution).
export function msPerCall(run, minMs) {
  let reps = 0,
    elapsed;
  const t0 = performance.now();
  do {
    run();
    reps++;
    elapsed = performance.now() - t0;
  } while (elapsed < minMs);
  return elapsed / reps;
}

// {median, min, max, runs} of repeated timings: what a panel shows as "median (min–max, runs)",
// and the shape of tools/bench's same-round ratios.
export function spread(xs) {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.length };
}
