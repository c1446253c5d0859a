// The two element builders every panel uses (no innerHTML: the CSP allows no inline markup).
//   el('p', 'howto', parent, {role: 'status'}, 'text')  an HTML element, appended to parent, with optional text
//   svgNode('rect', {x: 0, width: 4}, parent, 'text')   an SVG element, with optional text
//   field(parent, 'select', id, {}, 'field inline')     a control and its <label> in a <div class=field>

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
