// What every panel of the page shares: one wasm engine and one copy of each trained model.
// Panels ask for them when they first need them, so a model is fetched only once, when the
// first panel that shows it opens; a failed load is forgotten so the next call retries.
//   const engine = await getEngine();
//   const model = await getTrainedModel('coref-decoder');   // models/<name>/ next to the page
//   getTrainedModel(name, onProgress, base), getModelIndex(base): from another models/ directory
//   (an element's models-base attribute) instead of the page's (setModelsBase); each directory's
//   models are cached apart, so one element's bad base leaves the others' loads alone.
import { refuse } from './contract.mjs';
import { EngineError, fetchModelFiles, loadEngine } from './engine-core.mjs'; // not the timing classes: ./engine.mjs

let engine = null; // Promise<Engine>
const models = new Map(); // name → Promise<TrainedModel>
let modelsBase = null; // URL of the models/ directory

// For pages that keep the models elsewhere (an embedding site); call before the first load.
// A value that is no URL is a bad-option EngineError, not the engine failing to load.
export function setModelsBase(url) {
  modelsBase = modelsBaseURL(url, 'setModelsBase');
}

// `url` as the URL of a models/ directory, relative to the page; a bad-option EngineError if it is none.
export function modelsBaseURL(url, call = 'models-base') {
  try {
    return new URL(url, globalThis.location?.href);
  } catch {
    return refuse(call, 'url', 'a URL of the models/ directory', url);
  }
}

// Models a page carries with it instead of fetching (the single-file build, scripts/single.mjs):
// {name: {config, weights, vocab}}; getModelIndex lists them.
let bundled = null;
export function setBundledModels(files) {
  bundled = new Map(Object.entries(files));
}

// By default web/models/ beside this module: the page's models/, and the shipped models of
// the npm package wherever a host serves it.
const baseOfModels = (base = null) => base ?? modelsBase ?? new URL('../models/', import.meta.url);

// The cache key of a model: its name from the page's base (and for a model made in the page,
// wherever it is asked from), else the URL of its directory.
const shared = new Set(); // names of models made in the page (shareModel)
const keyOf = (name, base) => (base && !shared.has(name) ? new URL(`${name}/`, base).href : name);

// onProgress({loaded, total}) follows the .wasm's download (the last report at once, for a
// caller that comes after it began), for every caller while it lasts.
export function getEngine(onProgress = null) {
  if (onProgress && !engineLoaded) {
    engineListeners.add(onProgress);
    if (engineProgress) onProgress(engineProgress);
  }
  if (!engine) {
    const report = (progress) => {
      engineProgress = progress;
      engineListeners.forEach((listener) => listener(progress));
    };
    engine = loadEngine({}, undefined, { onProgress: report });
    engine.then(
      () => {
        engineLoaded = true;
        engineListeners.clear();
      },
      () => {
        engine = null;
      },
    );
  }
  return engine;
}
let engineProgress = null;
let engineLoaded = false;
const engineListeners = new Set();

// onProgress({loaded, total}) follows the weights' download, for every caller while it lasts.
// The files download beside the engine's compile, not after it.
export function getTrainedModel(name, onProgress = null, base = null) {
  base = base ? new URL(base) : null;
  const key = keyOf(name, base);
  if (onProgress && (!models.has(key) || progressListeners.has(key))) listenersOf(key).add(onProgress);
  if (!models.has(key)) {
    const report = (progress) => listenersOf(key).forEach((listener) => listener(progress));
    const files =
      bundled?.has(name) && !base
        ? bundled.get(name)
        : fetchModelFiles(new URL(`${name}/`, baseOfModels(base)), fetch, { onProgress: report });
    const loading = Promise.all([getEngine(), files]).then(([e, loaded]) => e.loadTrainedModel(loaded));
    loading.catch(() => models.delete(key)).finally(() => progressListeners.delete(key));
    models.set(key, loading);
  }
  return models.get(key);
}

// The encoder–decoder pair web/models/<name>/ (Engine.openTranslationModel: on the full module,
// loaded on first use), once per name and models/ directory (`base`, as for getTrainedModel).
const translationModels = new Map();
export function getTranslationModel(name = 'translate-en-zh', base = null) {
  const url = new URL(`${name}/`, baseOfModels(base ? new URL(base) : null));
  const key = base ? url.href : name;
  if (!translationModels.has(key)) {
    const loading = getEngine().then((e) => e.openTranslationModel(url));
    loading.catch(() => translationModels.delete(key));
    translationModels.set(key, loading);
  }
  return translationModels.get(key);
}

const progressListeners = new Map(); // name → Set of onProgress while the model downloads
function listenersOf(name) {
  if (!progressListeners.has(name)) progressListeners.set(name, new Set());
  return progressListeners.get(name);
}

// Models made in the page — trained here, or loaded from disk (<ae-train>) — served by
// getTrainedModel(name) like a fetched one; listeners (the model menus) hear of each.
const localListeners = new Set();
const localModels = []; // {name, label} of each, in the order they came

export function addLocalModel(name, model, label) {
  shareModel(name, model);
  localModels.push({ name, label });
  for (const listener of localListeners) listener({ name, label });
}

// The models added so far ({name, label}), for a menu made after some were.
export const getLocalModels = () => [...localModels];

// A model that is not fetched (one opened from disk) under `name`, so that a panel asking
// getTrainedModel(name) for the shown model gets it instead of a request for models/<name>/;
// null while there is none (the old one was deleted): asking then fails, without a request.
export function shareModel(name, model) {
  shared.add(name);
  const given = model
    ? Promise.resolve(model)
    : Promise.reject(new EngineError(`the model "${name}" was closed`, 'deleted', { call: 'getTrainedModel' }));
  given.catch(() => {}); // nobody may be waiting for it
  models.set(name, given);
}

export function onLocalModel(listener) {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

// The entries of models/index.json ([] when there is none: the page still runs random models).
// Read once per models directory (the main view and the page ask for it at the same time);
// a failed read is tried again on the next call.
const indexReads = new Map(); // index.json URL → Promise of its entries, while not failed
export async function getModelIndex(base = null) {
  if (bundled && !base) return [...bundled].map(([name, files]) => indexEntry(name, files));
  const url = new URL('index.json', baseOfModels(base ? new URL(base) : null)).href;
  if (!indexReads.has(url)) {
    const entries = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()).models ?? [];
    });
    indexReads.set(url, entries);
    entries.catch(() => {
      if (indexReads.get(url) === entries) indexReads.delete(url);
    });
  }
  try {
    return [...(await indexReads.get(url))];
  } catch {
    return [];
  }
}

// models/index.json's entry for a bundled model, from its config.json (as training writes it).
function indexEntry(name, { config, weights }) {
  const c = JSON.parse(config);
  return { name, bytes: weights.length, causal: Boolean(c.causal), positional: c.positional, task: c.task };
}
