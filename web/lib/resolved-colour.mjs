// Colours as the browser resolves them, for drawing that CSS does not reach (the heatmap's
// computed ramp, the head grid's canvas): `var(--x)` with a light-dark() default becomes the
// colour of the color-scheme the element is in (the host's), in any CSS colour syntax.
//   resolvedColour(probe, css) → '#rrggbb', or null if css is no colour; probe: an element in
//     the document whose custom properties `css` may name (hidden, e.g. display: none)
//   adoptStyles(node, css): the stylesheet `css` adopted once by the document or shadow root
//     that holds `node` (constructable: no <style> element, allowed by a strict CSP)
import { styleSheet } from './panel-styles.mjs';

let context = null; // a 1×1 canvas: what it paints is the colour in sRGB, whatever the syntax

export function resolvedColour(probe, css) {
  probe.style.color = '';
  probe.style.color = css;
  if (!probe.style.color) return null;
  const computed = getComputedStyle(probe).color;
  const rgb = computed.match(/^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/);
  if (rgb && (rgb[4] === undefined || Number(rgb[4]) === 1))
    return (
      '#' +
      rgb
        .slice(1, 4)
        .map((c) => Number(c).toString(16).padStart(2, '0'))
        .join('')
    );
  context ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.clearRect(0, 0, 1, 1);
  context.fillStyle = '#000';
  context.fillStyle = computed;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
  return '#' + [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('');
}

export function adoptStyles(node, css) {
  const root = node.getRootNode();
  if (!('adoptedStyleSheets' in root)) return; // not yet in a document (adopted on connecting)
  const sheet = styleSheet(css);
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
