// A matrix of attention numbers as an HTML table (rows = queries, columns = keys), for the
// panels that need what <ae-attention-heatmap> does not draw: rectangular n×m matrices,
// scores that may be −∞ (masked) and rows on their own. Used by <ae-positions>,
// <ae-causal-mask> and <ae-cross-attention>.
//   drawMatrix(host, {rows, cols, values, kind, caption, highlightRow, rowOffset})
//     rows: query labels (n), cols: key labels (m), values: row-major n×m numbers from the
//     engine; kind 'weights' (colour 0…1) or 'scores' (colour from the smallest to the
//     largest finite value; −∞ drawn as a masked cell).
// Every cell carries data-row, data-col and data-value = String(value) — the engine's number,
// unrounded — so tests compare what is shown with the API. Colour: CSSOM custom property
// --ae-nm-t (allowed by the page's CSP), mixed in style.css. No model math here.
const MINUS = '\u2212';

function formatCell(value, kind) {
  if (value === -Infinity) return `${MINUS}∞`;
  if (kind === 'weights' && value === 0) return '0'; // an exact zero (a masked key)
  const s = value.toFixed(2);
  return s.startsWith('-') ? MINUS + s.slice(1) : s;
}

function colourScale(values, kind) {
  if (kind === 'weights') return (v) => Math.min(1, Math.max(0, v));
  let lo = Infinity,
    hi = -Infinity;
  for (const v of values)
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  const span = hi - lo || 1;
  return (v) => (v - lo) / span;
}

function cell(tag, parent, textContent, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = textContent;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.append(node);
  return node;
}

// Sets one cell's number, label and colour.
function fill(td, v, kind, scale) {
  td.textContent = formatCell(v, kind);
  td.dataset.value = String(v);
  const masked = v === -Infinity;
  td.classList.toggle('ae-nm-masked', masked);
  const t = masked ? 0 : scale(v);
  td.classList.toggle('ae-nm-strong', t > 0.5);
  if (masked) td.style.removeProperty('--ae-nm-t');
  else td.style.setProperty('--ae-nm-t', t.toFixed(3));
}

// The toggle's words, by the language of the panel the matrix is drawn in.
const TOGGLE = {
  en: { show: 'Show the numbers', hide: 'Fit to the screen (colours only)' },
  zh: { show: '显示数字', hide: '适应屏幕（只看颜色）' },
};

function languageOf(host) {
  const owner = host.getRootNode()?.host ?? host;
  const lang = owner.closest?.('[lang]')?.lang ?? document.documentElement.lang ?? 'en';
  return lang.startsWith('zh') ? 'zh' : 'en';
}

// A table wider than its place (a 15-word sentence on a phone) is drawn compact: colour-only
// cells sized to fit, the numbers still in each cell for screen readers, tests and the toggle
// that shows them again (then the table scrolls sideways). Checked again when the place resizes
// (a phone turned, a panel opened).
function fitToWidth(wrap) {
  const table = wrap.querySelector('table');
  const toggle = wrap.querySelector('.ae-nm-toggle');
  if (!table || !wrap.isConnected) return;
  wrap.classList.remove('ae-nm-compact');
  const available = wrap.clientWidth;
  const overflows = available > 0 && table.scrollWidth > available + 1;
  toggle.hidden = !overflows;
  const words = TOGGLE[wrap.dataset.lang];
  toggle.textContent = wrap.dataset.numbers === 'shown' ? words.hide : words.show;
  toggle.setAttribute('aria-pressed', String(wrap.dataset.numbers === 'shown'));
  if (!overflows || wrap.dataset.numbers === 'shown') return;
  const rowHeader = table.querySelector('tbody th')?.getBoundingClientRect().width ?? 0;
  const m = Number(table.dataset.m);
  const cellPx = Math.max(10, Math.floor((available - rowHeader - 4) / m) - 1);
  wrap.style.setProperty('--ae-nm-cell', `${cellPx}px`);
  wrap.classList.add('ae-nm-compact');
}

const resizes =
  typeof ResizeObserver === 'function'
    ? new ResizeObserver((entries) => entries.forEach((e) => fitToWidth(e.target)))
    : null;

// Draws the table into host and returns it. The wrapper scrolls sideways on narrow screens and
// is focusable, so keyboard users can scroll it too; a table too wide for it starts compact. When host already shows a table with the
// same labels and kind, only the numbers, colours and caption change (as in bertviz: render
// once, update cheaply), so switching a head or a mask redraws within a frame.
export function drawMatrix(
  host,
  { rows, cols, values, kind = 'weights', caption = '', highlightRow = -1, rowOffset = 0 },
) {
  const n = rows.length,
    m = cols.length;
  if (values.length !== n * m) throw new TypeError(`drawMatrix: ${values.length} values for ${n}×${m}`);
  const lang = languageOf(host);
  const key = JSON.stringify([rows, cols, kind, highlightRow, rowOffset, lang]);
  const wrapper = host.firstElementChild?.classList.contains('ae-nm') ? host.firstElementChild : null;
  const old = wrapper?.querySelector('table');
  if (old && old.dataset.key === key && Boolean(caption) === Boolean(old.caption)) {
    const scale = colourScale(values, kind);
    wrapper.setAttribute('aria-label', caption);
    if (old.caption) old.caption.textContent = caption;
    old.querySelectorAll('td[data-value]').forEach((td, k) => fill(td, values[k], kind, scale));
    return old;
  }
  const wrap = document.createElement('div');
  wrap.className = 'ae-nm';
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', caption);
  wrap.dataset.lang = lang;
  if (wrapper?.dataset.numbers) wrap.dataset.numbers = wrapper.dataset.numbers; // the reader's choice stays
  const toggle = cell('button', wrap, '', { type: 'button', class: 'chip ae-nm-toggle' });
  toggle.hidden = true;
  toggle.addEventListener('click', () => {
    wrap.dataset.numbers = wrap.dataset.numbers === 'shown' ? 'fitted' : 'shown';
    fitToWidth(wrap);
  });
  const table = cell('table', wrap, '');
  // Short labels (CJK characters) stand upright above their columns; longer ones run vertically.
  const short = cols.every((label) => [...label].length <= 2);
  table.className = `ae-nm-table ae-nm-${kind}${short ? ' ae-nm-short' : ''}`;
  table.dataset.n = n;
  table.dataset.m = m;
  table.dataset.key = key;
  if (caption) cell('caption', table, caption);
  const head = cell('tr', cell('thead', table, ''), '');
  cell('td', head, '', { class: 'ae-nm-corner' });
  cols.forEach((label, j) => cell('th', head, label, { scope: 'col', 'data-col': j }));
  const body = cell('tbody', table, '');
  const scale = colourScale(values, kind);
  for (let i = 0; i < n; i++) {
    const tr = cell('tr', body, '');
    if (i === highlightRow) tr.className = 'ae-nm-highlight';
    cell('th', tr, rows[i], { scope: 'row', 'data-row': i + rowOffset });
    for (let j = 0; j < m; j++) {
      fill(cell('td', tr, '', { 'data-row': i + rowOffset, 'data-col': j }), values[i * m + j], kind, scale);
    }
  }
  if (wrapper) resizes?.unobserve(wrapper);
  host.replaceChildren(wrap);
  resizes?.observe(wrap); // also its first fit, once it is laid out
  fitToWidth(wrap);
  return table;
}
