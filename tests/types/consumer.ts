// A site author's TypeScript against the package's types, through its own name (package.json
// "exports"): must compile (tests/wasm/types.test.mjs).
import {
  EngineError,
  addLocalModel,
  createStore,
  fetchModelFiles,
  loadEngine,
  loadTrainedModel,
  setModelsBase,
  type Analysis,
  type ModelFiles,
} from 'attention-explorer';
import 'attention-explorer/elements';

export async function lessonAnswer(files: ModelFiles): Promise<string | undefined> {
  const engine = await loadEngine();
  const model = engine.loadTrainedModel(files);
  try {
    const a: Analysis = model.analyze("The animal didn't cross the street because it was too tired.", { causal: false, ablate: [[2, 3]] });
    const weights: Float32Array = a.layers[2].selfAttention.heads[3].weights;
    console.log(weights.length, a.unknown.length, engine.simd);
    return a.prediction?.token;
  } catch (e) {
    if (e instanceof EngineError && e.code === 'no-pronoun') return undefined;
    throw e;
  } finally {
    model.delete();
  }
}

setModelsBase(new URL('/models/', 'https://example.org/'));
// The model's files download while the engine compiles.
export async function loadBoth(url: string): Promise<number> {
  const [engine, files] = await Promise.all([
    loadEngine(),
    fetchModelFiles(url, fetch, { onProgress: ({ loaded, total }) => console.log(loaded, total ?? '?') }),
  ]);
  return engine.loadTrainedModel(files).config.vocabSize;
}
export const addMine = (files: ModelFiles) => addLocalModel('mine', loadTrainedModel(files), 'My model');
const store = createStore({ model: 'coref-encoder', layer: 2, head: 3 });
const view = document.querySelector('ae-head-view');
if (view) {
  view.store = store;
  view.overlay = true;
}
store.subscribe((state, changed) => console.log(state.layer, changed.has('head')));

const explorer = document.createElement('attention-explorer');
explorer.model = 'coref-decoder';
explorer.layer = 3;
explorer.head = 4;
explorer.causal = true;
explorer.store = store; // the panels following `store` follow the element
explorer.seed = '7';
explorer.addEventListener('ae-change', (e) => {
  const { layer, head, prediction, status } = e.detail;
  console.log(layer + head, prediction?.token.toUpperCase(), status === 'error');
  console.log(explorer.shownModel?.config.nLayers, explorer.heatmap?.localName);
});
explorer.addEventListener('ae-token-select', (e) => console.log(e.detail.query, e.detail.key, e.detail.weight.toFixed(2)));
explorer.addEventListener('ae-token-hover', (e) => console.log(e.detail?.row ?? -1));
explorer.addEventListener('ae-model-load', (e) => console.log(e.detail.model, e.detail.config.nLayers));
document.addEventListener('ae-error', (e) => console.log(e.detail.key, e.detail.code === 'no-pronoun', e.detail.message));
// A native change from an author's control inside stays an Event (no detail).
explorer.addEventListener('change', (e) => console.log(e.target));
document.body.append(explorer);
