// The heatmap's colour ramp (<ae-attention-heatmap>, ../components/attention-heatmap.mjs): weights
// in [0, 1] → a fill and the ink that contrasts with it, interpolated between the ramp's stops.
export const DEFAULT_STOPS = ['#ffffff', '#4a90c8', '#0b2a5b']; // style.css sets --ae-heat-0..2

const clamp = (v, max) => Math.min(max, Math.max(0, v));

// --- colour ramp, interpolated in OKLab so equal steps in weight look like equal steps ---

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const mix = (m, v) => m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);
// Matrices from Björn Ottosson's OKLab definition.
const RGB_LMS = [
  [0.4122214708, 0.5363325363, 0.0514459929],
  [0.2119034982, 0.6806995451, 0.1073969566],
  [0.0883024619, 0.2817188376, 0.6299787005],
];
const LMS_LAB = [
  [0.2104542553, 0.793617785, -0.0040720468],
  [1.9779984951, -2.428592205, 0.4505937099],
  [0.0259040371, 0.7827717662, -0.808675766],
];
const LAB_LMS = [
  [1, 0.3963377774, 0.2158037573],
  [1, -0.1055613458, -0.0638541728],
  [1, -0.0894841775, -1.291485548],
];
const LMS_RGB = [
  [4.0767416621, -3.3077115913, 0.2309699292],
  [-1.2684380046, 2.6097574011, -0.3413193965],
  [-0.0041960863, -0.7034186147, 1.707614701],
];

function hexToOklab(hex) {
  const rgb = [1, 3, 5].map((i) => toLinear(parseInt(hex.slice(i, i + 2), 16) / 255));
  return mix(LMS_LAB, mix(RGB_LMS, rgb).map(Math.cbrt));
}

const oklabToLinear = (lab) =>
  mix(
    LMS_RGB,
    mix(LAB_LMS, lab).map((c) => c ** 3),
  ).map((c) => clamp(c, 1));
const toHex = (rgb) =>
  '#' +
  rgb
    .map((c) =>
      Math.round(toGamma(c) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

// 256 precomputed {fill, ink} over [0, 1]; ink is whichever of white/black text contrasts more.
function buildRamp(hexes) {
  const stops = hexes.map((h, i) => hexToOklab(/^#[0-9a-f]{6}$/i.test(h) ? h : DEFAULT_STOPS[i]));
  return Array.from({ length: 256 }, (_, i) => {
    const t = (i / 255) * (stops.length - 1);
    const k = Math.min(Math.floor(t), stops.length - 2);
    const rgb = oklabToLinear(stops[k].map((v, c) => v + (stops[k + 1][c] - v) * (t - k)));
    const luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    return { fill: toHex(rgb), ink: luminance < 0.18 ? '#ffffff' : '#111111' }; // 0.18: equal contrast
  });
}

// The ramp of each set of stops, built once: every heatmap of a page (the main view's, each
// panel's) asks for the same colours (the first view's heatmaps spent 37 ms building theirs).
const ramps = new Map();
export function rampOf(hexes) {
  const key = hexes.join(' ');
  if (!ramps.has(key)) ramps.set(key, buildRamp(hexes));
  return ramps.get(key);
}

export const rampIndex = (value) => Math.round(clamp(value, 1) * 255) || 0;
