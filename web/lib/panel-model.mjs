// Which model a causal lesson panel (causal mask, KV cache, knock-out, n² cost) shows: the
// model opened from disk while it is the main view's model (shared under OWN_MODEL by
// <attention-explorer> through context.shareModel), else the panel's own lesson model; and the
// line that says so.
import { text } from './panel-strings.mjs';
import strings from '../strings/own-model-menu.mjs';

// The model menu's name of a model opened from disk (own-model-picker.mjs).
export const OWN_MODEL = 'own';
export const ownModelText = (lang, key, params) => text(strings, lang, key, params);

export const showsOwnModel = (store) => store.get().model === OWN_MODEL;

// The name to ask getTrainedModel() for.
export const panelModelName = (store, lessonModel) => (showsOwnModel(store) ? OWN_MODEL : lessonModel);

// A panel holding `model` (loaded under `name`) must load another one: the page switched to or
// from an opened model, or the opened model was closed (replaced by the next one opened).
export const modelOutdated = (store, lessonModel, name, model) =>
  panelModelName(store, lessonModel) !== name || Boolean(model?.deleted);

// "This panel runs …": the opened model with its shape, or the lesson model by name.
export function modelNote(store, name, model) {
  const lang = store.get().lang ?? 'en';
  if (name !== OWN_MODEL) return ownModelText(lang, 'panelLesson', { name });
  const c = model?.config;
  return ownModelText(lang, 'panelOwn', { layers: c?.nLayers ?? '…', heads: c?.nHeads ?? '…' });
}
