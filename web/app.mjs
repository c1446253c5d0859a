// The Attention Explorer page, built from the elements other sites embed: its main view is
// <attention-explorer id="result"> (web/components/attention-explorer.mjs), the "Who attends to
// whom" and "All heads" panels sit inside it, the lesson panels below. This module gives the
// element the page's shared store (./lib/store.mjs: the panels follow it by default, so they
// all share one run) and adds what only the page has: the language button, the banner and the
// model facts (read from the element's `view()` and `shownModel`), the link to the view (URL
// state and history), the table of contents' place in the link, and the lesson panels, fetched
// after the first attention is drawn.
import { getEngine, getModelIndex } from './lib/context.mjs';
import { format, messages, pickLanguage } from './i18n.mjs';
import { store } from './lib/store.mjs';
import { readUrlState, urlFor } from './lib/url-state.mjs';
import { MAIN_CONTROLS, controlsOf, historyControls, paramOf } from './lib/main-controls.mjs';
import { streamingControls } from './lib/panel-controls.mjs';
import './components/attention-explorer.mjs';
import { OWN_MODEL, UNTRAINED, taskOf } from './lib/main-view.mjs';
import { pronounOf } from './lib/model-lesson.mjs';
import { ownModelText } from './lib/panel-model.mjs';
import { locale as localeOf } from './lib/panel-strings.mjs';
// The head view, the lesson panels and the All heads grid come from ./panels.mjs, imported after
// the first draw (loadLessonPanels).

const $ = (id) => document.getElementById(id);
const explorer = $('result'); // the main view
const ui = Object.fromEntries(
  [
    'page-status',
    'lang',
    'banner-title',
    'banner-text',
    'fact-params-row',
    'fact-params',
    'fact-dmodel',
    'fact-headdim',
    'fact-heads',
    'fact-layers',
    'fact-positional',
    'fact-task',
    'fact-size-row',
    'fact-size',
    'fact-tokens',
    'fact-splits-row',
    'fact-splits',
    'fact-simd',
    'fact-arithmetic',
  ].map((id) => [id, $(id)]),
);

let engine = null; // for the facts: SIMD, and which build runs
let index = []; // models/index.json's entries
let drawn = false; // the main view has shown its first run (or failed to)

// localStorage may be blocked (privacy settings); the page then just doesn't remember.
function storage(key, value) {
  try {
    return value === undefined ? localStorage.getItem(key) : localStorage.setItem(key, value);
  } catch {
    return null;
  }
}

const lang = () => store.get().lang;
const t = (key, params) => format(messages[lang()][key], params);
const locale = () => localeOf(lang());
// A share measured over a split (not a probability, so 100 % and 0 % can be exact).
const formatRate = (x) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(x);

// --- banner and facts, from what the main view shows ---

function showBanner() {
  const { model } = explorer.view();
  const shown = explorer.shownModel;
  const say = (title, text) => {
    ui['banner-title'].textContent = title;
    ui['banner-text'].textContent = text;
  };
  // Before the first model is shown: say that it loads, never describe a model not shown.
  if (!drawn) return say(t('loading'), '');
  if (model === UNTRAINED)
    return say(t('bannerTitle'), t('banner', { seed: shown?.config.seed ?? Number(MAIN_CONTROLS.seed.default) }));
  const config = shown?.config;
  if (!config) return; // loading or failed: the banner still describes the model shown
  if (model === OWN_MODEL) return say(ownModelText(lang(), 'title'), ownModelText(lang(), 'local'));
  // The recipe's seed study when the trainer names one (npm run train trains only the seed that
  // ships); else the seeds this file's run trained, when there were several.
  const { seeds_passing: passing, seeds_trained: trained, seed_study: study } = config.metadata;
  const parts = [format(messages[lang()].bannerTrained[taskOf(config)] ?? '', { pronoun: pronounOf(config) })];
  if (study) parts.push(t('bannerSeeds', study));
  else if (passing !== undefined && trained > 1) parts.push(t('bannerSeeds', { passing, trained }));
  if (config.positional === 'none') parts.push(t('bannerNoPositions'));
  say(t('bannerTrainedTitle'), parts.join(' '));
}

function showFacts() {
  const shown = explorer.shownModel;
  const config = shown?.config;
  if (!config || !engine) return;
  const view = explorer.view();
  const count = shown.parameterCount; // RandomModel only, for now
  ui['fact-params-row'].hidden = count === undefined;
  ui['fact-params'].textContent = count?.toLocaleString(locale()) ?? '–';
  ui['fact-dmodel'].textContent = config.dModel;
  ui['fact-headdim'].textContent = config.headDim;
  ui['fact-heads'].textContent = config.nHeads;
  ui['fact-layers'].textContent = config.nLayers;
  const positional = `pos${config.positional[0].toUpperCase()}${config.positional.slice(1)}`; // posNone, …
  ui['fact-positional'].textContent = messages[lang()][positional] ?? config.positional;
  const task = taskOf(config);
  ui['fact-task'].textContent = messages[lang()].tasks[task] ?? task;
  ui['fact-size-row'].hidden = view.model === UNTRAINED;
  const bytes = index.find((m) => m.name === view.model)?.bytes;
  ui['fact-size'].textContent = bytes
    ? `${(bytes / 1024).toLocaleString(locale(), { maximumFractionDigits: 0 })} KB`
    : '–';
  // After an error, no token count of the previous sentence.
  ui['fact-tokens'].textContent =
    view.status === 'ready' ? t('factTokensValue', { n: view.tokens.length, max: config.maxLen }) : '–';
  ui['fact-simd'].textContent = t(engine.simd ? 'on' : 'off');
  // Which of the two builds runs (web/lib/engine.mjs picks it at load time).
  ui['fact-arithmetic'].textContent = t(engine.features.fma ? 'arithmeticFused' : 'arithmeticSeparate');
  showSplitFacts(config);
}

// A trained coreference model's held-out checks (config.json "splits", written by the trainer):
// answer accuracy and how often the coreference head follows the referent in both sentences.
function showSplitFacts(config) {
  const splits = config.metadata?.splits;
  ui['fact-splits-row'].hidden = !splits;
  if (!splits) return;
  const names = messages[lang()].splitNames;
  // In the order of splitNames (validation first), then any split the page has no name for.
  const order = [
    ...Object.keys(names).filter((name) => name in splits),
    ...Object.keys(splits).filter((name) => !(name in names)),
  ];
  const item = (name) => {
    const { accuracy, flip_rate: flip } = splits[name];
    const text = t('factSplitValue', {
      name: names[name] ?? name,
      accuracy: formatRate(accuracy),
      flip: formatRate(flip),
    });
    return Object.assign(document.createElement('li'), { textContent: text });
  };
  ui['fact-splits'].replaceChildren(...order.map(item));
}

// Every run, head and error of the main view.
function viewChanged() {
  drawn = true;
  showBanner();
  showFacts();
  loadLessonPanels();
}

// --- language ---

const lookup = (dict, path) => path.split('.').reduce((node, key) => node?.[key], dict); // 'toc.qkv'

// The page's language, like every shared setting, lives in the store; <html lang> says it too,
// and the main view (which follows the nearest lang="") and the panels follow.
function applyLanguage(language) {
  store.set({ lang: language });
  const dict = messages[language];
  document.documentElement.lang = language === 'zh' ? 'zh-Hans' : 'en';
  document.title = dict.title;
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = lookup(dict, node.dataset.i18n);
  ui.lang.textContent = dict.switchTo;
  ui.lang.lang = dict.switchToLang;
  showFacts();
  showBanner();
}

function toggleLanguage() {
  const next = lang() === 'zh' ? 'en' : 'zh';
  storage('ae-lang', next);
  applyLanguage(next);
}

// --- the link ---

// The link's settings that are the page's own: the word, the panels' controls, the language
// (`withLanguage`: a shared link opens in the sender's), the panel being read. → the link.
function readLink({ withLanguage = true } = {}) {
  const link = readUrlState(location.search);
  if (link.token !== undefined) store.set({ token: link.token });
  if (!store.get().controls) store.set({ controls: link.controls }); // panels' own, see panel-controls.mjs
  if (withLanguage && link.lang) store.set({ lang: link.lang });
  if (link.panel && $(link.panel)) store.set({ panel: link.panel });
  linkedPanel ??= link.panel && $(link.panel) ? link.panel : '';
  if (link.step) store.set({ step: link.step }); // <ae-lesson-path> opens it
  return link;
}

// The link's view, handed to the main view once the menu is known: its model (an unknown one
// leaves the one open, or the lesson's), then what it shows with it — which the element
// applies when that model is on view.
function showLink(link, { opening = false } = {}) {
  const listed = link.model === UNTRAINED || index.some((m) => m.name === link.model);
  if (listed && (opening || link.model !== explorer.model)) explorer.model = link.model;
  for (const name of controlsOf('recipe')) {
    const value = link.random[paramOf(name)];
    if (value !== undefined) explorer[name] = value;
  }
  if (link.sentence !== undefined) explorer.sentence = link.sentence;
  for (const key of [...controlsOf('switch'), ...controlsOf('index')])
    if (link[key] !== undefined) explorer[key] = typeof link[key] === 'number' ? link[key] + 1 : link[key];
}

// The untrained model's recipe, kept in the URL with the view; null for a trained model.
const recipe = () =>
  store.get().model === UNTRAINED
    ? Object.fromEntries(controlsOf('recipe').map((name) => [paramOf(name), explorer[name]]))
    : null;

const URL_DELAY_MS = 150; // browsers throttle rapid history calls
const STREAM_MS = 1500; // changes to one typed or dragged control this close together are one entry
// A discrete experiment the reader makes (model, layer, head, a switch, a panel's control) gets a
// history entry of its own, so Back undoes it; typing, pointing at a word, scrolling and the
// language only update the entry shown, and so does a panel's control typed in or dragged again
// within STREAM_MS of its last change. Changes the page makes by itself (defaults on load, a
// restored entry) never push.
const HISTORY_KEYS = [...historyControls(), 'controls', 'step']; // the main view's: main-controls.mjs
const LINK_KEYS = [...HISTORY_KEYS, 'result', 'sentence', 'token', 'panel', 'lang'];
const history_ = { timer: 0, keys: new Set(), byReader: false, restoring: false, controls: {}, stream: '', at: 0 };
function writeLinkSoon(changed) {
  for (const key of HISTORY_KEYS) if (changed.has(key)) history_.keys.add(key);
  clearTimeout(history_.timer);
  history_.timer = setTimeout(() => {
    const url = urlFor(store.get(), recipe());
    const streaming = continuesStream();
    const push = history_.keys.size > 0 && history_.byReader && !history_.restoring && !streaming;
    // A write of what the page changed alone (the result, the panel read) leaves the reader's event
    // to the change it started, which a panel may store later (after a typing pause).
    if (history_.keys.size > 0) history_.byReader = false;
    history_.keys.clear();
    if (url === location.search) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(history.state, '', url);
  }, URL_DELAY_MS);
}

// Whether the only discrete change is one more step of the typed or dragged control that
// changed last (panel-controls.mjs lists those); notes the control that changed.
function continuesStream() {
  const controls = store.get().controls ?? {};
  const moved = [...new Set([...Object.keys(controls), ...Object.keys(history_.controls)])].filter(
    (key) => controls[key] !== history_.controls[key],
  );
  history_.controls = controls;
  const stream = moved.length === 1 && streamingControls.has(moved[0]) ? moved[0] : '';
  const continues = stream && stream === history_.stream && performance.now() - history_.at < STREAM_MS;
  [history_.stream, history_.at] = [stream, performance.now()];
  return Boolean(continues) && history_.keys.size === 1 && history_.keys.has('controls');
}

// Back / Forward: the entry's view is shown again (model, sentence, switches, layer, head, word,
// the panels' controls); the language stays the reader's.
function restoreEntry() {
  history_.restoring = true;
  const link = readLink({ withLanguage: false });
  store.set({ controls: link.controls, step: link.step ?? null });
  showLink(link);
  setTimeout(() => {
    history_.restoring = false;
  }, 2 * URL_DELAY_MS);
}

// --- lesson panels ---

// The panel being read (the section whose top most recently passed the upper third of the
// window) goes into the store, and so into the URL: a link opens where its sender was reading.
function trackPanels() {
  const sections = [...document.querySelectorAll('main > attention-explorer[id], main section[id]')];
  let pending = false;
  const update = () => {
    pending = false;
    const band = innerHeight / 3;
    const passed = sections
      .map((s) => [s.getBoundingClientRect(), s.id])
      .filter(([r]) => r.height > 0 && r.top <= band && r.bottom > 0)
      .sort((a, b) => b[0].top - a[0].top);
    store.set({ panel: scrollY < 50 || !passed.length ? null : passed[0][1] }); // at the top: no panel
  };
  addEventListener(
    'scroll',
    () => {
      if (!pending) requestAnimationFrame(update);
      pending = true;
    },
    { passive: true },
  );
}

// The lesson panels are fetched after the first run has been drawn (or has failed and said
// so), a frame later, so that they never delay the first attention on screen.
let lessonPanels = null;
function loadLessonPanels() {
  lessonPanels ??= new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))
    .then(() => import('./panels.mjs'))
    .then(openLinkedPanel, (error) => {
      const status = ui['page-status'];
      status.hidden = false;
      status.setAttribute('role', 'alert');
      status.textContent = t('loadError', { message: error.message });
    });
  return lessonPanels;
}

// Once the panels are there (the sections above the linked one have their height), the panel the
// page was opened on is shown (a linked step of the path shows its own panel) — unless the reader
// has scrolled elsewhere meanwhile: then the panel in the store is where they read, not a link.
let linkedPanel; // the panel of the link the page opened with ('' for none), from readLink
function openLinkedPanel() {
  const { panel, step } = store.get();
  if (panel && panel === linkedPanel && !step)
    requestAnimationFrame(() => $(panel)?.scrollIntoView({ block: 'start' }));
}

// --- start ---

function start() {
  ui['page-status'].hidden = true; // the modules run: the main view says what loads
  store.set({ lang: pickLanguage(storage('ae-lang'), navigator.language) });
  const link = readLink();
  applyLanguage(lang());
  explorer.store = store; // one run for the main view and every panel
  // The link's model is known to be listed only once the menu is read; the element chooses its
  // first model after that (it waits for the same index), so a listed link model comes first.
  getModelIndex().then((entries) => {
    index = entries;
    showLink(link, { opening: true });
  });
  store.subscribe((_, changed) => LINK_KEYS.some((key) => changed.has(key)) && writeLinkSoon(changed));
  explorer.addEventListener('ae-change', viewChanged);
  ui.lang.addEventListener('click', toggleLanguage);
  // What the reader does (not what the page does by itself) may make a history entry: the page
  // sets the view without events, so an event is the reader's (input is the one of the main
  // view's controls that crosses its shadow root; the element's own events are ae-*).
  for (const type of ['change', 'click', 'input'])
    addEventListener(
      type,
      (event) => {
        if (!(event instanceof CustomEvent)) history_.byReader = true;
      },
      true,
    );
  addEventListener('popstate', restoreEntry);
  trackPanels();
  getEngine().then(
    (e) => {
      engine = e;
      showFacts();
    },
    () => {}, // the main view says that the engine failed to load, and why
  );
}

start();
