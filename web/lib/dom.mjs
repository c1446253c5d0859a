// The two element builders every panel uses (no innerHTML: the CSP allows no inline markup).
//   el('p', 'howto', parent, {role: 'status'}, 'text')  an HTML element, appended to parent, with optional text
//   svgNode('rect', {x: 0, width: 4}, parent, 'text')   an SVG element, with optional text
//   field(parent, 'select', id, {}, 'field inline')     a control and its <label> in a <div class=field>
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
