// What every panel of the page shares: one wasm engine and one copy of each trained model.
// Panels ask for them when they first need them, so a model is fetched only once, when the
// first panel that shows it opens; a failed load is forgotten so the next call retries.
//   const engine = await getEngine();
//   const model = await getTrainedModel('coref-decoder');   // models/<name>/ next to the page
import { loadEngine } from './engine.mjs';

let engine = null; // Promise<Engine>
const models = new Map(); // name → Promise<TrainedModel>
let modelsBase = null; // URL of the models/ directory

// For pages that keep the models elsewhere (an embedding site); call before the first load.
export function setModelsBase(url) {
  modelsBase = new URL(url, globalThis.location?.href);
}

const baseOfModels = () => modelsBase ?? new URL('models/', globalThis.location?.href);

export function getEngine() {
  if (!engine) {
    engine = loadEngine();
    engine.catch(() => { engine = null; });
  }
  return engine;
}

export function getTrainedModel(name) {
  if (!models.has(name)) {
    const loading = getEngine().then((e) => e.fetchTrainedModel(new URL(`${name}/`, baseOfModels())));
    loading.catch(() => models.delete(name));
    models.set(name, loading);
  }
  return models.get(name);
}

// Models made in the page — trained here, or loaded from disk (<ae-train>) — served by
// getTrainedModel(name) like a fetched one; listeners (the model menu) hear of each.
const localListeners = new Set();

export function addLocalModel(name, model, label) {
  models.set(name, Promise.resolve(model));
  for (const listener of localListeners) listener({ name, label });
}

export function onLocalModel(listener) {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

// The entries of models/index.json ([] when there is none: the page still runs random models).
export async function getModelIndex() {
  try {
    const response = await fetch(new URL('index.json', baseOfModels()));
    if (!response.ok) return [];
    return (await response.json()).models ?? [];
  } catch {
    return [];
  }
}
