// The package's main entry (`import … from 'attention-explorer'`): the engine over the wasm
// module (web/lib/engine.mjs) and the one shared engine and model cache the elements use
// (web/lib/context.mjs). Types: index.d.ts.
import { getEngine } from './web/lib/context.mjs';

export * from './web/lib/engine.mjs';
export { TrainingSession } from './web/lib/training-session.mjs'; // loaded by the page with the full module only
export { addLocalModel, getEngine, getTrainedModel, getModelIndex, setModelsBase } from './web/lib/context.mjs';
export { createStore } from './web/lib/store.mjs';

// A trained model from its three files, on the shared engine (the one the elements use).
export async function loadTrainedModel(files) {
  return (await getEngine()).loadTrainedModel(files);
}

// A trained model fetched from a directory URL ('…/coref-encoder/'), on the shared engine.
export async function fetchTrainedModel(baseUrl, fetchImpl = fetch, options = {}) {
  return (await getEngine()).fetchTrainedModel(baseUrl, fetchImpl, options);
}
