// The two element builders every panel uses (no innerHTML: the CSP allows no inline markup).
//   el('p', 'howto', parent, {role: 'status'}, 'text')  an HTML element, appended to parent, with optional text
//   svgNode('rect', {x: 0, width: 4}, parent, 'text')   an SVG element, with optional text
//   field(parent, 'select', id, {}, 'field inline')     a control and its <label> in a <div class=field>
//   dataTable(parent, 'cls', {id, scroll})              {table, caption, head, body} of a table
//   weightBar('cls', w, parent)                         a bar as wide as the weight w of its cell
//   rowKey(key, from, last) / focusRow(rows, j)         a list of rows that is one tab stop

const SVG = 'http://www.w3.org/2000/svg';

export function el(tag, className, parent, attrs = {}, text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  parent?.append(node);
  return node;
}

export function svgNode(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  parent?.append(node);
  return node;
}

// A labelled control: {label, node}, the <label for=id> and the control (select, textarea,
// input) with that id, together in a <div> of class `className` appended to parent.
export function field(parent, tag, id, attrs = {}, className = 'field') {
  const box = el('div', className, parent);
  return { label: el('label', '', box, { for: id }), node: el(tag, '', box, { id, ...attrs }) };
}

// A <table class=className> in parent: {table, caption, head (the header row), body}. With
// `scroll` (the class of a <div> around it), the table may scroll sideways on a phone: the <div>
// is focusable, so the keyboard can scroll it (axe: scrollable-region-focusable), and named by
// the caption, whose id is `id`. caption: false for none, or the caption's class.
export function dataTable(parent, className, { id, scroll, caption = '' } = {}) {
  const wrap = scroll ? el('div', scroll, parent, { tabindex: '0', role: 'region', 'aria-labelledby': id }) : parent;
  const table = el('table', className, wrap);
  return {
    table,
    caption: caption === false ? null : el('caption', caption, table, id ? { id } : {}),
    head: el('tr', '', el('thead', '', table)),
    body: el('tbody', '', table),
  };
}

// A <span class=className> w (0…1, clamped) of its cell's width: the CSS variable --w, set
// through the CSSOM (CSP-safe; no inline style attribute).
export function weightBar(className, w, parent = null) {
  const bar = el('span', className, parent);
  bar.style.setProperty('--w', String(Math.max(0, Math.min(1, w))));
  return bar;
}

// The row a key moves to in a list that is one tab stop (the layer's stages, the Q·K·V rows, the
// head view's words): Up/Down by one, Home/End to the ends, held within 0…last; null for another key.
export function rowKey(key, from, last) {
  const to = { ArrowUp: from - 1, ArrowDown: from + 1, Home: 0, End: last }[key];
  return to === undefined ? null : Math.min(last, Math.max(0, to));
}

// Row j takes the list's one tab stop and the focus.
export function focusRow(rows, j) {
  rows.forEach((r, k) => (r.tabIndex = k === j ? 0 : -1));
  rows[j].focus();
}
