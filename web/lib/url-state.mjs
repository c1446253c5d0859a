// The view as a query string, so a teacher's link opens the same view:
//   ?model=coref-encoder&s=<sentence>&layer=3&head=1&causal=0&scale=1[&tok=9][&panel=qkv][&lang=zh]
// (tok: the query token selected in the head view, 1-based; absent = the panel's default;
// panel: the id of the lesson panel in view; lang: the page's language; step: the step of the
// path open, by its id (path-steps.mjs) — or its 1-based number, which the path turns into the id),
// plus, for the untrained model, its recipe: heads, layers, pos, seed; plus the lesson panels'
// own controls as <panel>.<name>=<value> (e.g. scaling.d=256; see panel-controls.mjs).
// layer and head are 1-based in the URL (as labelled on the page), 0-based in the store.
// Parsing is lenient: a missing or malformed value is left out and the page default stays.
// The main view's parameters are those its controls declare (main-controls.mjs).
import { MAIN_CONTROLS, controlsOf, paramOf } from './main-controls.mjs';

const CONTROL = /^[a-z][a-z0-9-]{0,31}\.[a-zA-Z][\w-]{0,31}$/; // <panel>.<name>
const MAX_CONTROL = 200; // characters of one control's value
const MAX_SENTENCE = 2000; // longer text is no link anyone sends; the engine reports its own limit

// → {model?, sentence?, layer?, head?, token?, causal?, scale?, panel?, lang?, step?, random: {heads?, layers?, pos?, seed?},
//    controls: {'<panel>.<name>': string}}
export function readUrlState(search) {
  const params = new URLSearchParams(search);
  const out = { random: {}, controls: {} };
  for (const [key, value] of params) if (CONTROL.test(key) && value.length <= MAX_CONTROL) out.controls[key] = value;
  const model = params.get('model');
  if (model && /^[\w.-]{1,64}$/.test(model)) out.model = model;
  const panel = params.get('panel');
  if (panel && /^[a-z][a-z0-9-]{0,31}$/.test(panel)) out.panel = panel;
  const step = params.get('step');
  if (step && /^([a-z][a-z-]{0,31}|\d{1,2})$/.test(step)) out.step = step;
  const lang = params.get('lang');
  if (lang === 'en' || lang === 'zh') out.lang = lang;
  const sentence = params.get('s');
  if (sentence !== null && sentence.length <= MAX_SENTENCE) out.sentence = sentence;
  for (const [key, name] of [...controlsOf('index').map((n) => [n, paramOf(n)]), ['token', 'tok']]) {
    const text = params.get(name);
    if (text && /^\d{1,3}$/.test(text) && Number(text) >= 1) out[key] = Number(text) - 1;
  }
  for (const key of controlsOf('switch')) {
    const text = params.get(paramOf(key));
    if (text === '0' || text === '1') out[key] = text === '1';
  }
  for (const name of controlsOf('recipe')) {
    const key = paramOf(name);
    const text = params.get(key);
    if (text && MAIN_CONTROLS[name].pattern.test(text)) out.random[key] = text;
  }
  return out;
}

// state: the store's state; random: the untrained model's recipe or null for a trained model.
export function urlFor(
  { model, sentence, layer, head, token, causal, scale, panel, lang, step, controls = {} },
  random,
) {
  const view = { model, sentence, layer, head, causal, scale };
  const linked = { index: (i) => i + 1, switch: (on) => +on };
  const params = new URLSearchParams();
  for (const [name, { kind }] of Object.entries(MAIN_CONTROLS))
    if (kind !== 'recipe') params.set(paramOf(name), linked[kind]?.(view[name]) ?? view[name]);
  if (Number.isInteger(token)) params.set('tok', token + 1);
  if (panel) params.set('panel', panel);
  if (lang) params.set('lang', lang);
  if (step) params.set('step', step);
  if (random) for (const [key, value] of Object.entries(random)) params.set(key, value);
  for (const [key, value] of Object.entries(controls)) if (CONTROL.test(key)) params.set(key, value);
  return `?${params}`;
}
