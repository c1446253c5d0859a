// What every panel of the page shares: one wasm engine and one copy of each trained model.
// Panels ask for them when they first need them, so a model is fetched only once, when the
// first panel that shows it opens; a failed load is forgotten so the next call retries.
//   const engine = await getEngine();
//   const model = await getTrainedModel('coref-decoder');   // models/<name>/ next to the page
import { refuse } from './contract.mjs';
import { EngineError, fetchModelFiles, loadEngine } from './engine.mjs';

let engine = null; // Promise<Engine>
const models = new Map(); // name → Promise<TrainedModel>
let modelsBase = null; // URL of the models/ directory

// For pages that keep the models elsewhere (an embedding site); call before the first load.
// A value that is no URL is a bad-option EngineError, not the engine failing to load.
export function setModelsBase(url) {
  try {
    modelsBase = new URL(url, globalThis.location?.href);
  } catch {
    refuse('setModelsBase', 'url', 'a URL of the models/ directory', url);
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
const baseOfModels = () => modelsBase ?? new URL('../models/', import.meta.url);

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
export function getTrainedModel(name, onProgress = null) {
  if (onProgress && (!models.has(name) || progressListeners.has(name))) listenersOf(name).add(onProgress);
  if (!models.has(name)) {
    const report = (progress) => listenersOf(name).forEach((listener) => listener(progress));
    const files = bundled?.has(name)
      ? bundled.get(name)
      : fetchModelFiles(new URL(`${name}/`, baseOfModels()), fetch, { onProgress: report });
    const loading = Promise.all([getEngine(), files]).then(([e, loaded]) => e.loadTrainedModel(loaded));
    loading.catch(() => models.delete(name)).finally(() => progressListeners.delete(name));
    models.set(name, loading);
  }
  return models.get(name);
}

// The encoder–decoder pair web/models/<name>/ (Engine.openTranslationModel: on the full module,
// loaded on first use), once per name.
const translationModels = new Map();
export function getTranslationModel(name = 'translate-en-zh') {
  if (!translationModels.has(name)) {
    const loading = getEngine().then((e) => e.openTranslationModel(new URL(`${name}/`, baseOfModels())));
    loading.catch(() => translationModels.delete(name));
    translationModels.set(name, loading);
  }
  return translationModels.get(name);
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
  const shared = model
    ? Promise.resolve(model)
    : Promise.reject(new EngineError(`the model "${name}" was closed`, 'deleted', { call: 'getTrainedModel' }));
  shared.catch(() => {}); // nobody may be waiting for it
  models.set(name, shared);
}

export function onLocalModel(listener) {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

// The entries of models/index.json ([] when there is none: the page still runs random models).
// Read once per models directory (the main view and the page ask for it at the same time);
// a failed read is tried again on the next call.
let indexRead = null; // {url, entries: Promise} of the last read that did not fail
export async function getModelIndex() {
  if (bundled) return [...bundled].map(([name, files]) => indexEntry(name, files));
  const url = new URL('index.json', baseOfModels()).href;
  if (indexRead?.url !== url) {
    const entries = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()).models ?? [];
    });
    indexRead = { url, entries };
    entries.catch(() => {
      if (indexRead?.entries === entries) indexRead = null;
    });
  }
  try {
    return [...(await indexRead.entries)];
  } catch {
    return [];
  }
}

// models/index.json's entry for a bundled model, from its config.json (as training writes it).
function indexEntry(name, { config, weights }) {
  const c = JSON.parse(config);
  return { name, bytes: weights.length, causal: Boolean(c.causal), positional: c.positional, task: c.task };
}
