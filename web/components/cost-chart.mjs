// The n² cost panel's (./cost.mjs) drawing pieces that need nothing of the panel: the log–log
// axes, point markers and legend entries of its two charts, byte and millisecond formats.
import { svgNode } from '../lib/dom.mjs';
import { logLogAxes } from '../lib/chart.mjs';

export const MIN_EXP = 6; // n = 64
export const MAX_EXP = 13; // n = 8192
const W = 440,
  H = 280;
const PAD = { left: 64, right: 12, top: 12, bottom: 46 };

export const msDigits = (ms) => (ms < 0.1 ? 3 : ms < 10 ? 2 : ms < 100 ? 1 : 0);

// One chart's <svg> (data-chart: time or memory) in `parent`.
export const chartSvg = (chart, parent) =>
  svgNode('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'ae-cost-chart', 'data-chart': chart }, parent);

// Log–log axes of both charts (web/lib/chart.mjs): x over n = 64…8192.
export function axes(svg, ticks, formatY, xTitle, locale) {
  return logLogAxes(svg, {
    width: W,
    height: H,
    pad: PAD,
    minExp: MIN_EXP,
    maxExp: MAX_EXP,
    ticks,
    formatY,
    xTitle,
    locale,
    className: 'ae-cost-axes',
  });
}

// A point: circle (fused), triangle (window), square (traced); hollow where it is not run.
export function marker(parent, kernel, cx, cy, hollow = false) {
  const cls = `ae-cost-point k-${kernel}${hollow ? ' would-need' : ''}`;
  if (kernel === 'fused') return svgNode('circle', { cx, cy, r: 4.5, class: cls }, parent);
  if (kernel === 'window')
    return svgNode('path', { d: `M${cx},${cy - 5.5}L${cx + 5},${cy + 4}L${cx - 5},${cy + 4}Z`, class: cls }, parent);
  return svgNode('rect', { x: cx - 4, y: cy - 4, width: 8, height: 8, class: cls }, parent);
}

// A legend entry: the kernel's line style, then its name.
export function legendItem(kernel, label) {
  const li = document.createElement('li');
  li.dataset.kernel = kernel;
  const swatch = svgNode('svg', { viewBox: '0 0 28 10', 'aria-hidden': 'true', class: 'ae-cost-swatch' });
  svgNode('line', { x1: 1, y1: 5, x2: 27, y2: 5, class: `ae-cost-line k-${kernel}` }, swatch);
  li.append(swatch, label);
  return li;
}

export function fmtBytes(bytes, locale) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let i = 0,
    x = bytes;
  while (x >= 1024 && i < units.length - 1) ((x /= 1024), i++);
  return `${x.toLocaleString(locale, { maximumFractionDigits: x < 10 && i > 0 ? 1 : 0 })} ${units[i]}`;
}
