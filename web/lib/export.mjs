// Export of what the page shows: any drawn view as a standalone SVG or PNG file, and the
// attention data of the current run as JSON (format in docs/export.md). Nothing is computed
// here but layout; the numbers are the engine's, copied.
//   downloadSvg(svg, 'heatmap')          svg: an <svg> ready to stand alone (see standaloneSvg)
//   await downloadPng(svg, 'heatmap')    rasterised at 2× through an <img> and a <canvas>
//   downloadJson(attentionJson(store.get()), 'attention')
//   svgOf(element)                       the standalone SVG of a panel element (see below)
// The page's CSP allows img-src data: and blob:, so the PNG path loads the SVG from a blob:
// URL. Styles are copied as presentation attributes, never as style="…" (style-src 'self').

import { svgNode } from './dom.mjs';
import { resolvedColour } from './resolved-colour.mjs';

export { svgNode }; // the builder of the SVGs below, also used by the panels

const SVG = 'http://www.w3.org/2000/svg';
const PNG_SCALE = 2; // device pixels per SVG unit: sharp on projectors and phones
const JSON_FORMAT = 'attention-explorer/attention-1';

// Computed properties that decide how an SVG element looks; copied onto the export so that
// it needs none of the page's CSS.
const LOOK = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'opacity',
  'display',
  'visibility',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'text-decoration',
];

// A copy of a live <svg> with every element's computed look written as attributes, the
// page's colours resolved (CSS variables, dark mode), a background of the panel colour, and
// width/height set. Hidden parts (display: none) are dropped.
function standaloneSvg(live, { background } = {}) {
  const copy = copyTree(live);
  const box = live.viewBox?.baseVal;
  const width = Number(live.getAttribute('width')) || box?.width || live.getBoundingClientRect().width;
  const height = Number(live.getAttribute('height')) || box?.height || live.getBoundingClientRect().height;
  copy.setAttribute('width', Math.round(width));
  copy.setAttribute('height', Math.round(height));
  if (!copy.getAttribute('viewBox')) copy.setAttribute('viewBox', `0 0 ${Math.round(width)} ${Math.round(height)}`);
  copy.removeAttribute('aria-hidden');
  addBackground(copy, background ?? pageColours(live).surface);
  return copy;
}

function copyTree(node) {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.data);
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const style = getComputedStyle(node);
  if (style.display === 'none' && node.localName !== 'title') return null;
  const copy = document.createElementNS(SVG, node.localName);
  for (const { name, value } of node.attributes) {
    if (name !== 'style' && name !== 'class' && name !== 'tabindex') copy.setAttribute(name, value);
  }
  if (!['title', 'defs', 'linearGradient', 'stop'].includes(node.localName)) {
    for (const property of LOOK) {
      const value = style.getPropertyValue(property);
      if (value && value !== 'auto' && value !== 'normal' && !(property === 'display' && value === 'inline'))
        copy.setAttribute(property, value);
    }
  }
  for (const child of node.childNodes) {
    const c = copyTree(child);
    if (c) copy.append(c);
  }
  return copy;
}

// The page's colours as the element sees them (light or dark), as #rrggbb, with fallbacks for a
// bare page. Read through a hidden probe inside the element: a panel's custom properties hold
// light-dark(…) and var(…) (panel-styles.mjs), which a standalone SVG cannot resolve — copied
// as they are, a dark host's export had no background colour and black text.
export function pageColours(element) {
  const probe = document.createElement('span');
  probe.hidden = true;
  // inside the panel's shadow root, or beside a live <svg> (an HTML probe inside SVG has no style)
  (element.shadowRoot ?? (element instanceof SVGElement ? element.parentNode : element)).append(probe);
  try {
    const colour = (css, fallback) => resolvedColour(probe, css) ?? fallback;
    const surface = colour('var(--surface, #ffffff)', '#ffffff');
    return {
      surface,
      text: colour('var(--text, #1a1d23)', '#1a1d23'),
      muted: colour('var(--muted, #525a67)', '#525a67'),
      border: colour('var(--border-strong, #8d96a3)', '#8d96a3'),
      accent: colour('var(--accent, #1d5fa8)', '#1d5fa8'),
      marker: colour('var(--marker, #d9480f)', '#d9480f'),
      heatLow: colour(`var(--ae-heat-0, ${surface})`, surface),
      heatHigh: colour('var(--ae-heat-2, #0b2a5b)', '#0b2a5b'),
      font: getComputedStyle(element).fontFamily || 'sans-serif',
    };
  } finally {
    probe.remove();
  }
}

function addBackground(svg, colour) {
  const rect = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ x: 0, y: 0, width: '100%', height: '100%', fill: colour }))
    rect.setAttribute(k, v);
  rect.dataset.export = 'background';
  svg.insertBefore(rect, svg.firstChild);
}

// The root of a drawing made for export: a standalone <svg> of width × height in the page's
// font (fontSize px) on its panel colour (colours from pageColours).
export function exportSvgRoot(width, height, colours, fontSize = 14) {
  const svg = svgNode('svg', {
    xmlns: SVG,
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    'font-family': colours.font,
    'font-size': fontSize,
  });
  addBackground(svg, colours.surface);
  return svg;
}

// The model overview as one SVG: a small n×n grid per layer × head, drawn as the head grid
// draws its thumbnails (panel colour, then the high end of the ramp at opacity = weight).
function headGridSvg(result, colours, { layerLabel = (l) => `L${l + 1}`, headLabel = (h) => `H${h + 1}` } = {}) {
  const n = result.n;
  const nLayers = result.layers.length;
  const nHeads = result.layers.find(Boolean).selfAttention.heads.length; // an opened model's run may trace one layer
  const cell = Math.max(2, Math.floor(96 / n));
  const size = cell * n;
  const gap = 12,
    left = 40,
    top = 24;
  const width = left + nHeads * (size + gap);
  const height = top + nLayers * (size + gap + 14);
  const svg = exportSvgRoot(width, height, colours, 12);
  for (let l = 0; l < nLayers; l++) {
    const y0 = top + l * (size + gap + 14);
    svgNode(
      'text',
      { x: 4, y: y0 + size / 2, fill: colours.muted, 'dominant-baseline': 'central', 'font-weight': 700 },
      svg,
      layerLabel(l),
    );
    for (let h = 0; h < nHeads; h++) {
      const x0 = left + h * (size + gap);
      if (l === 0)
        svgNode(
          'text',
          { x: x0 + size / 2, y: top - 8, fill: colours.text, 'text-anchor': 'middle' },
          svg,
          headLabel(h),
        );
      const g = svgNode('g', { 'data-layer': l, 'data-head': h }, svg);
      svgNode('rect', { x: x0, y: y0, width: size, height: size, fill: colours.heatLow, stroke: colours.border }, g);
      const weights = result.layers[l]?.selfAttention.heads[h].weights ?? []; // untraced: left empty
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const w = weights[i * n + j];
          if (!(w > 0)) continue;
          svgNode(
            'rect',
            {
              class: 'cell',
              x: x0 + j * cell,
              y: y0 + i * cell,
              width: cell,
              height: cell,
              fill: colours.heatHigh,
              'fill-opacity': Math.min(1, w),
              'data-value': String(w),
            },
            g,
          );
        }
      }
    }
  }
  return svg;
}

// The standalone SVG of a panel element: its own exportSvg() if it has one, the head grid
// rebuilt from its run, or else the first drawn <svg> inside it.
export function svgOf(element) {
  if (typeof element.exportSvg === 'function') return element.exportSvg();
  if (element.localName === 'ae-head-grid') {
    const result = element.store?.get().result;
    if (!result) throw new Error('nothing to export yet');
    return headGridSvg(result, pageColours(element));
  }
  // The drawing is the largest <svg> (the heatmap also holds a small legend bar).
  const live = [...(element.shadowRoot ?? element).querySelectorAll('svg')].sort(
    (a, b) => b.querySelectorAll('*').length - a.querySelectorAll('*').length,
  )[0];
  if (!live) throw new Error('nothing to export yet');
  return standaloneSvg(live);
}

function svgText(svg) {
  if (!svg.getAttribute('xmlns')) svg.setAttribute('xmlns', SVG);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}

export function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export function downloadSvg(svg, name) {
  download(new Blob([svgText(svg)], { type: 'image/svg+xml' }), `${name}.svg`);
}

// Rasterises the SVG: it is loaded as an image from a blob: URL and drawn on a canvas.
async function pngBlob(svg, scale = PNG_SCALE) {
  const width = Number(svg.getAttribute('width'));
  const height = Number(svg.getAttribute('height'));
  const url = URL.createObjectURL(new Blob([svgText(svg)], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.decoding = 'async';
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error('the browser could not draw the SVG'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('the canvas could not be encoded as PNG');
    return blob;
  } finally {
    URL.revokeObjectURL(url);
  }
}

export async function downloadPng(svg, name) {
  download(await pngBlob(svg), `${name}.png`);
}

// The run as plain JSON: weights as nested arrays, layers[l][h][query][key] (docs/export.md).
// Float32 values become the nearest doubles, which print and parse back to the same numbers.
export function attentionJson({ model, sentence, causal, scale, result }) {
  if (!result) throw new Error('nothing to export yet');
  const n = result.n;
  const rows = (w) => Array.from({ length: n }, (_, i) => Array.from(w.subarray(i * n, i * n + n)));
  const out = {
    format: JSON_FORMAT,
    model,
    sentence,
    options: { causal: Boolean(causal), scale: scale !== false },
    tokens: [...result.tokens],
    n,
    nLayers: result.layers.length,
    nHeads: result.layers.find(Boolean)?.selfAttention.heads.length ?? 0,
    // null for a layer the run did not trace (an opened model traces the layer on view)
    layers: result.layers.map((layer) => layer?.selfAttention.heads.map((head) => rows(head.weights)) ?? null),
  };
  if (result.unknown) out.unknown = [...result.unknown];
  if (result.prediction) {
    const { position, token, probability, top } = result.prediction;
    out.prediction = {
      position,
      token,
      probability,
      top: top.map((t) => ({ token: t.token, probability: t.probability })),
    };
  }
  return out;
}

export function downloadJson(data, name) {
  download(new Blob([`${JSON.stringify(data)}\n`], { type: 'application/json' }), `${name}.json`);
}

// A file name from parts: lower case, safe characters only.
export function fileName(...parts) {
  return (
    parts
      .filter((p) => p !== undefined && p !== null && p !== '')
      .map((p) =>
        String(p)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, ''),
      )
      .filter(Boolean)
      .join('-') || 'attention'
  );
}
