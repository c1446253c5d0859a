// The KV cache panel's pictures (./kv-cache.mjs): bar(), a share as a bar; drawCacheGrid(), after
// one generated step, a row per cached position of the shown layer and head: the word, its
// position, its k and v as colour cells, and the weight the newest word gives it, as a bar and a
// number. Reused rows and the rows this
// step added are told apart by class (and data-state) for the styles and the tests.
// No model math: keys, values and weights are the generation's own numbers, only laid out.
import { svgNode as svg } from '../lib/dom.mjs';

// A horizontal bar of `fraction` of its box, drawn in SVG (no inline styles under the CSP).
export function bar(fraction, className, label) {
  const s = svg('svg', {
    viewBox: '0 0 100 10',
    preserveAspectRatio: 'none',
    class: `ae-kv-bar ${className}`,
    role: 'img',
    'aria-label': label,
  });
  svg('rect', { class: 'track', width: 100, height: 10 }, s);
  svg('rect', { class: 'fill', width: (100 * Math.max(0, Math.min(1, fraction))).toFixed(2), height: 10 }, s);
  return s;
}

const GRID = { label: 80, pos: 22, cell: 10, gap: 10, bar: 80, value: 40, row: 16, head: 18 };

// Draws into the <svg> `grid`. generation: {tokens, keys, values} of the generation (keys and
// values [layer][head], row-major rows × dh); step: {position, rowsReused, rowsNew, attention};
// t(key, params): the panel's strings; lang: the page's language.
export function drawCacheGrid(grid, { generation: g, step, layer, head, dh, lang, t }) {
  const rows = step.position + 1;
  const x = columnsOf(dh);
  const width = x.value + GRID.value;
  const height = GRID.head + rows * GRID.row + 2;
  grid.setAttribute('viewBox', `0 0 ${width} ${height}`);
  grid.setAttribute('width', width);
  grid.setAttribute('height', height);
  grid.setAttribute('aria-label', t('cacheLabel', { rows, fresh: step.rowsNew }));
  grid.setAttribute('lang', lang === 'zh' ? 'zh-Hans' : 'en');
  drawHeader(grid, x, t);
  const keys = g.keys[layer][head];
  const values = g.values[layer][head];
  const cells = { keys, values, dh, maxK: maxAbs(keys, rows * dh), maxV: maxAbs(values, rows * dh) };
  const weights = step.attention[layer].subarray(head * rows, (head + 1) * rows);
  for (let j = 0; j < rows; j++) {
    const isNew = j >= step.rowsReused;
    const row = svg(
      'g',
      {
        class: `ae-kv-row ${isNew ? 'new' : 'reused'}`,
        'data-position': j,
        'data-state': isNew ? 'new' : 'reused',
        'data-token': g.tokens[j],
        'data-weight': String(weights[j]),
      },
      grid,
    );
    const state = t(isNew ? 'fresh' : 'reused');
    svg('title', {}, row, t('rowLabel', { p: j + 1, token: g.tokens[j], state, w: weights[j].toFixed(3) }));
    drawRow(row, { j, y: GRID.head + j * GRID.row, x, width, token: g.tokens[j], weight: weights[j], cells });
  }
}

// The x of each column for heads of width dh.
function columnsOf(dh) {
  const stripW = dh * GRID.cell;
  const x = { pos: GRID.label, k: GRID.label + GRID.pos, v: GRID.label + GRID.pos + stripW + GRID.gap };
  x.bar = x.v + stripW + GRID.gap;
  x.value = x.bar + GRID.bar + 4;
  return x;
}

function drawHeader(grid, x, t) {
  const header = svg('g', { class: 'ae-kv-head', 'aria-hidden': 'true' }, grid);
  for (const [key, at, anchor] of [
    ['colToken', GRID.label - 4, 'end'],
    ['colK', x.k, 'start'],
    ['colV', x.v, 'start'],
    ['colAttention', x.bar, 'start'],
  ])
    svg('text', { x: at, y: GRID.head - 6, 'text-anchor': anchor }, header, t(key));
}

// The largest |x| among the first `count` numbers of m.
function maxAbs(m, count) {
  let max = 0;
  for (let i = 0; i < count; i++) max = Math.max(max, Math.abs(m[i]));
  return max;
}

// One cached position j at height y: word, position, k and v cells, the weight's bar and number.
function drawRow(row, { j, y, x, width, token, weight, cells }) {
  const baseline = y + GRID.row - 4;
  svg('rect', { class: 'band', x: 0, y, width, height: GRID.row }, row);
  svg('text', { class: 'token', x: GRID.label - 4, y: baseline, 'text-anchor': 'end' }, row, token);
  svg('text', { class: 'pos', x: x.pos + GRID.pos - 4, y: baseline, 'text-anchor': 'end' }, row, j + 1);
  const { keys, values, dh, maxK, maxV } = cells;
  for (const [data, left, max] of [
    [keys, x.k, maxK],
    [values, x.v, maxV],
  ])
    for (let c = 0; c < dh; c++) {
      const v = data[j * dh + c];
      svg(
        'rect',
        {
          class: v >= 0 ? 'pos-cell' : 'neg-cell',
          x: left + c * GRID.cell + 0.5,
          y: y + 2,
          width: GRID.cell - 1,
          height: GRID.row - 4,
          'fill-opacity': max > 0 ? Math.min(1, Math.abs(v) / max).toFixed(3) : '0',
        },
        row,
      );
    }
  const track = { x: x.bar, y: y + 3, height: GRID.row - 6 };
  svg('rect', { class: 'bar-track', ...track, width: GRID.bar }, row);
  svg('rect', { class: 'bar', ...track, width: (GRID.bar * weight).toFixed(2) }, row);
  svg('text', { class: 'value', x: x.value, y: baseline }, row, weight.toFixed(3));
}
