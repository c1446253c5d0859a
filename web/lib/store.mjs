// The page's shared selection state, one store for every panel (as in transformer-explainer):
// panels read it, change it with set(), and redraw in subscribe() callbacks. No model math here.
//   model    name of the model shown ('untrained' or a directory of models/)
//   sentence the text that was run
//   layer, head  the focused head (0-based)
//   token    the selected query position, or null for the panel's default
//   causal, scale  the run's switches
//   lang     'en' | 'zh'
//   panel    id of the lesson panel in view (a section of index.html), or null
//   step     id of the path's step open (path-steps.mjs), or null: the path is closed
//   controls the lesson panels' own settings, {'<panel>.<name>': string} (panel-controls.mjs)
//   result   the last successful run (RandomModel.run / TrainedModel.analyze output), or null
//   config   the config of the model that made it (RandomModel / TrainedModel .config), or null
// The URL mirror of this state lives in url-state.mjs.

export function createStore(initial = {}) {
  let state = { ...initial };
  const listeners = new Set();
  return {
    get: () => state,
    // Shallow merge; listeners hear only real changes, with the set of keys that changed.
    set(patch) {
      const changed = new Set(Object.keys(patch).filter((key) => !Object.is(state[key], patch[key])));
      if (!changed.size) return;
      state = { ...state, ...patch };
      for (const listener of [...listeners]) listener(state, changed);
    },
    // Returns the function that unsubscribes.
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

// A view before its first run: the page's store and each <attention-explorer>'s start so.
export const initialView = () => ({
  model: 'untrained',
  sentence: '',
  layer: 0,
  head: 0,
  token: null,
  causal: false,
  scale: true,
  lang: 'en',
  panel: null,
  step: null,
  result: null,
  config: null,
});

// The page's one store; components use it unless given another through their `store` property.
export const store = createStore(initialView());
