// The page's log-scale chart parts (the n² cost panel's time and memory charts): ticks at
// powers of a base, and log–log axes in an SVG. Layout only; the values are the caller's.
import { svgNode } from './dom.mjs';

// Ticks (powers of `base`) that enclose every value: decades for times, ×32 steps for bytes
// (1 KiB, 32 KiB, 1 MiB, …).
export function logTicks(values, base) {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  const lo = Math.floor(Math.log(Math.min(...positive)) / Math.log(base));
  let hi = Math.ceil(Math.log(Math.max(...positive)) / Math.log(base));
  if (hi === lo) hi++;
  return Array.from({ length: hi - lo + 1 }, (_, i) => base ** (lo + i));
}

// Clears svg and draws log–log axes in a width × height box less `pad`: x over 2^minExp …
// 2^maxExp (a grid line at each power of two, labels at every other one and the last), y from
// the first to the last tick (at most about six labelled). Returns {g, x(n), y(v)}: the group
// to draw the data in and the two scales.
export function logLogAxes(svg, { width, height, pad, minExp, maxExp, ticks, formatY, xTitle, locale, className }) {
  svg.replaceChildren();
  const x0 = pad.left,
    x1 = width - pad.right,
    y0 = height - pad.bottom,
    y1 = pad.top;
  const [lo, hi] = [Math.log(ticks[0]), Math.log(ticks[ticks.length - 1])];
  const x = (n) => x0 + ((Math.log2(n) - minExp) / (maxExp - minExp)) * (x1 - x0);
  const y = (v) => y0 - ((Math.log(v) - lo) / (hi - lo)) * (y0 - y1);
  const grid = svgNode('g', { class: className, 'aria-hidden': 'true' }, svg);
  const step = Math.max(1, Math.ceil((ticks.length - 1) / 6));
  ticks.forEach((v, i) => {
    if (i % step) return;
    svgNode('line', { x1: x0, x2: x1, y1: y(v), y2: y(v), class: 'grid' }, grid);
    svgNode('text', { x: x0 - 6, y: y(v) + 4, 'text-anchor': 'end' }, grid).textContent = formatY(v);
  });
  for (let e = minExp; e <= maxExp; e++) {
    svgNode('line', { x1: x(2 ** e), x2: x(2 ** e), y1: y0, y2: y1, class: 'grid' }, grid);
    if ((e % 2 === 0 && e < maxExp - 1) || e === maxExp)
      // 64, 256, 1024, 8192: room for the digits at 375 px
      svgNode('text', { x: x(2 ** e), y: y0 + 17, 'text-anchor': e === maxExp ? 'end' : 'middle' }, grid).textContent =
        (2 ** e).toLocaleString(locale);
  }
  svgNode('rect', { x: x0, y: y1, width: x1 - x0, height: y0 - y1, class: 'frame' }, grid);
  svgNode('text', { x: (x0 + x1) / 2, y: height - 6, 'text-anchor': 'middle', class: 'title' }, grid).textContent =
    xTitle;
  const g = svgNode('g', {}, svg);
  return { g, x, y };
}
