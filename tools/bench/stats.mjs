// Timing and statistics helpers for run.mjs.

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

// Milliseconds per call, timing enough back-to-back calls to last ≥ minMs.
export async function timeCall(impl, minMs) {
  let reps = 0;
  const t0 = performance.now();
  let elapsed = 0;
  do {
    if (impl.async) await impl.run();
    else impl.run();
    reps++;
    elapsed = performance.now() - t0;
  } while (elapsed < minMs);
  return elapsed / reps;
}

// Same-round ratios a[i] / b[i] over the rounds both were measured in, as
// {median, min, max, rounds}; null when they never ran in the same round.
export function ratio(a, b) {
  const rs = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] > 0 && b[i] > 0) rs.push(a[i] / b[i]);
  if (rs.length === 0) return null;
  return { median: median(rs), min: Math.min(...rs), max: Math.max(...rs), rounds: rs.length };
}

export const fmt = (x, digits = 1) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(digits));
export const fmtRatio = (r) => (r ? `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})` : '–');
export const mb = (bytes) => (bytes == null ? '–' : (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1));

// Markdown table from a header row and data rows.
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
