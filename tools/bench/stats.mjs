// Timing and statistics helpers for run.mjs; median, msPerCall and spread are the page's (web/lib/stats.mjs).
import { median, msPerCall, spread } from '../../web/lib/stats.mjs';

export { median, msPerCall, spread };

// Milliseconds per call, timing enough back-to-back calls to last ≥ minMs.
export async function timeCall(impl, minMs) {
  if (!impl.async) return msPerCall(impl.run, minMs);
  let reps = 0;
  const t0 = performance.now();
  let elapsed;
  do {
    await impl.run();
    reps++;
    elapsed = performance.now() - t0;
  } while (elapsed < minMs);
  return elapsed / reps;
}

// One round over the implementations in `entries` ({name: {op, times, maxRounds?}}), in an order
// rotated by the round number r, so that a busy moment of the machine does not always hit the
// same one. Each gets its ms per call (timeCall, ≥ 25 ms) appended to `times`; NaN once past its
// maxRounds (very slow points are timed fewer times). Entries without an op (failed) are skipped.
export async function timeRound(entries, r) {
  const names = Object.keys(entries).filter((name) => entries[name].op);
  for (let i = 0; i < names.length; i++) {
    const entry = entries[names[(i + r) % names.length]];
    entry.times.push(r < (entry.maxRounds ?? Infinity) ? await timeCall(entry.op, 25) : NaN);
  }
}

// Largest |x − y| over all entries, relative to the largest |y|: how outputs are checked before timing.
export function relDiff(x, y) {
  let worst = 0,
    scale = 0;
  for (let i = 0; i < y.length; i++)
    ((worst = Math.max(worst, Math.abs(x[i] - y[i]))), (scale = Math.max(scale, Math.abs(y[i]))));
  return x.length === y.length ? worst / scale : Infinity;
}

// Same-round ratios a[i] / b[i] over the rounds both were measured in, as
// {median, min, max, rounds}; null when they never ran in the same round.
export function ratio(a, b) {
  const rs = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] > 0 && b[i] > 0) rs.push(a[i] / b[i]);
  if (rs.length === 0) return null;
  const { runs, ...s } = spread(rs);
  return { ...s, rounds: runs };
}

export const fmt = (x, digits = 1) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(digits));
// "16.4 (14.6–17.2)": the median of xs and its least and most; "–" for none.
export const fmtRange = (xs) =>
  xs.length === 0 ? '–' : `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
export const fmtRatio = (r) => (r ? `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})` : '–');
export const mb = (bytes) => (bytes == null ? '–' : (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1));

// Markdown table from a header row and data rows.
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

// The command line of run.mjs and browser.mjs: --quick, --out FILE (default `defaultOut`), and
// a log to stderr that prefixes the seconds since `started`.
export function benchCommandLine(defaultOut, args = process.argv.slice(2)) {
  const started = performance.now();
  return {
    quick: args.includes('--quick'),
    outFile: args.includes('--out') ? args[args.indexOf('--out') + 1] : defaultOut,
    started,
    log: (...m) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s]`, ...m),
  };
}
