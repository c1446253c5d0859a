// The two element builders every panel uses (no innerHTML: the CSP allows no inline markup).
//   el('p', 'howto', parent, {role: 'status'}, 'text')  an HTML element, appended to parent, with optional text
//   svgNode('rect', {x: 0, width: 4}, parent, 'text')   an SVG element, with optional text

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
