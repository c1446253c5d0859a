// The lesson's run for panels placed on a page without <attention-explorer>: a panel that draws
// the main view's run (Q·K·V, the layer, multi-head, the head view, …) would otherwise wait for a
// run nobody makes. The first such panel to wait loads the lesson model of the host's language
// (its closest lang="…": 'zh…' → coref-encoder-zh, else coref-encoder) from its models-base, runs
// the model's lesson sentence as the main view would (runView) and puts it in the page's shared
// store, at the model's coreference head — so every panel of the page shows the same run.
// Nothing happens for a store of the author's own (createStore) or once an explorer is on the page.
import { coreferenceHead } from './coreference-head.mjs';
import { LESSON_MODELS } from './lesson.mjs';
import { runView, sentencePair } from './main-view.mjs';
import { store as sharedStore } from './store.mjs';

const runs = new Map(); // store → Promise of its lesson run

const explorerOnPage = () => Boolean(document.querySelector('attention-explorer'));
const hostLanguage = (panel) => (/^zh/i.test(panel.closest('[lang]')?.lang ?? '') ? 'zh' : 'en');

// Resolves when the run is in the store, or at once when none is due; rejects with the load's
// error (the panels that waited say so). A failed run is forgotten: the next wait tries again.
export function runLessonIfAlone(panel) {
  const store = panel.store;
  if (store !== sharedStore || store.get().result || explorerOnPage()) return Promise.resolve(false);
  if (!runs.has(store)) {
    const lang = hostLanguage(panel);
    const name = LESSON_MODELS[lang];
    const run = panel.trainedModel(name).then((model) => {
      if (store.get().result || explorerOnPage()) return false; // a run came meanwhile
      const sentence = sentencePair(model.config)[0];
      const options = { causal: false, scale: true };
      const result = runView(model, sentence, options);
      const { layer, head } = coreferenceHead(model.config, { layer: 0, head: 0 });
      store.set({ lang, model: name, sentence, ...options, result, config: model.config, layer, head, token: null });
      return true;
    });
    run.catch(() => runs.delete(store));
    runs.set(store, run);
  }
  return runs.get(store);
}
