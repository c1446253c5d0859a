// Attention Explorer page: reads the controls, runs an untrained RandomModel in wasm and shows
// one head's attention weights. The model config, run options, sentence, layer and head are
// mirrored as data-* attributes on #app, so tests can recompute exactly what is shown.
import { loadEngine } from './lib/engine.mjs';
import { format, messages, pickLanguage } from './i18n.mjs';
import './components/attention-heatmap.mjs';

const D_MODEL = 32; // 1, 2, 4 and 8 heads all divide it
const SEED_MAX = 0xffffffff; // the binding casts the seed to uint64: keep it a small whole number
const TYPING_DELAY_MS = 40;

const $ = (id) => document.getElementById(id);
const ui = Object.fromEntries(
  ['app', 'result', 'status', 'error', 'heatmap', 'sentence', 'heads', 'layers', 'positional', 'seed',
    'causal', 'scale', 'layer', 'head', 'lang', 'banner-text', 'fact-params', 'fact-dmodel', 'fact-headdim',
    'fact-tokens', 'fact-simd'].map((id) => [id, $(id)]),
);

const state = {
  lang: pickLanguage(storage('ae-lang'), navigator.language),
  engine: null,
  model: null,
  configKey: '', // JSON of the config the current model was built from
  result: null, // last successful run
  error: null, // {key, params}, kept so it can be re-translated
};

// localStorage may be blocked (privacy settings); the page then just doesn't remember.
function storage(key, value) {
  try {
    return value === undefined ? localStorage.getItem(key) : localStorage.setItem(key, value);
  } catch {
    return null;
  }
}

const t = (key, params) => format(messages[state.lang][key], params);

// --- controls → model → run ---

function readSeed() {
  const text = ui.seed.value.trim();
  return /^\d{1,10}$/.test(text) && Number(text) <= SEED_MAX ? Number(text) : null;
}

const readConfig = (seed) => ({
  dModel: D_MODEL,
  nHeads: Number(ui.heads.value),
  nLayers: Number(ui.layers.value),
  positional: ui.positional.value,
  causal: false, // the mask is a run option, so toggling it keeps the same weights
  seed,
});

// Builds a model only when the config changed, freeing the old one's wasm memory.
function ensureModel(config) {
  const key = JSON.stringify(config);
  if (key === state.configKey) return;
  state.model?.delete();
  Object.assign(state, { model: null, configKey: '', result: null });
  state.model = state.engine.createRandomModel(config);
  state.configKey = ui.app.dataset.config = key;
  fillRanges();
}

// Options 1..count for the layer and head selectors, keeping a selection that still exists.
function fillRanges() {
  const { nLayers, nHeads } = state.model.config;
  for (const [select, count, key] of [[ui.layer, nLayers, 'layerN'], [ui.head, nHeads, 'headN']]) {
    const previous = Number(select.value) || 0;
    select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(t(key, { i: i + 1 }), i)));
    select.value = previous < count ? previous : 0;
  }
}

function run() {
  if (!state.engine) return; // the first run happens once the engine has loaded
  const seed = readSeed();
  if (seed === null) return showError('seedError', { max: SEED_MAX });
  const text = ui.sentence.value;
  const options = { causal: ui.causal.checked, scale: ui.scale.checked };
  try {
    ensureModel(readConfig(seed));
    state.result = state.model.run(text, options);
  } catch (error) {
    return showError('runError', { message: error.message });
  }
  Object.assign(ui.app.dataset, { run: JSON.stringify(options), text, status: 'ready' });
  clearError();
  showView();
  showFacts();
}

let timer = 0;
function runSoon() {
  clearTimeout(timer);
  timer = setTimeout(run, TYPING_DELAY_MS); // coalesce keystrokes
}

function runNow() {
  clearTimeout(timer);
  run();
}

// --- output ---

// Cheap: shows another head of the last run; the heatmap only recolours when tokens are unchanged.
function showView() {
  if (!state.result) return;
  const layer = Number(ui.layer.value) || 0;
  const head = Number(ui.head.value) || 0;
  ui.heatmap.data = {
    tokens: state.result.tokens,
    weights: state.result.layers[layer].selfAttention.heads[head].weights,
    caption: t('caption', { layer: layer + 1, head: head + 1 }),
  };
  Object.assign(ui.app.dataset, { layer, head });
}

function showFacts() {
  const config = state.model?.config;
  if (!config) return;
  ui['fact-params'].textContent = state.model.parameterCount.toLocaleString(state.lang === 'zh' ? 'zh-CN' : 'en');
  ui['fact-dmodel'].textContent = config.dModel;
  ui['fact-headdim'].textContent = config.headDim;
  ui['fact-tokens'].textContent = state.result ? t('factTokensValue', { n: state.result.n, max: config.maxLen }) : '–';
  ui['fact-simd'].textContent = t(state.engine.simd ? 'on' : 'off');
  ui['banner-text'].textContent = t('banner', { seed: config.seed });
}

function showError(key, params) {
  state.error = { key, params };
  ui.error.textContent = t(key, params);
  ui.app.dataset.status = 'error';
  ui.result.classList.add('stale'); // keep the last heatmap, marked as out of date
}

function clearError() {
  state.error = null;
  ui.error.textContent = '';
  ui.result.classList.remove('stale');
}

// --- language ---

function applyLanguage(lang) {
  state.lang = lang;
  const dict = messages[lang];
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = dict.title;
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = dict[node.dataset.i18n];
  ui.lang.textContent = dict.switchTo;
  ui.lang.lang = dict.switchToLang;
  ui.heatmap.strings = dict.heatmap;
  if (state.model) fillRanges();
  if (state.error) ui.error.textContent = t(state.error.key, state.error.params);
  showView();
  showFacts();
}

function toggleLanguage() {
  const next = state.lang === 'zh' ? 'en' : 'zh';
  storage('ae-lang', next);
  applyLanguage(next);
}

// --- start ---

async function start() {
  applyLanguage(state.lang);
  // With a single-line field (the seed), Enter would submit the form and reload the page.
  $('controls').addEventListener('submit', (e) => e.preventDefault());
  ui.sentence.addEventListener('input', runSoon);
  ui.seed.addEventListener('input', runSoon);
  for (const control of [ui.heads, ui.layers, ui.positional, ui.causal, ui.scale])
    control.addEventListener('change', runNow);
  ui.layer.addEventListener('change', showView);
  ui.head.addEventListener('change', showView);
  ui.lang.addEventListener('click', toggleLanguage);
  try {
    state.engine = await loadEngine();
  } catch (error) {
    return showError('loadError', { message: error.message });
  } finally {
    ui.status.hidden = true;
  }
  run();
}

start();
