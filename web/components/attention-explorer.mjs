// <attention-explorer>: the page's main view as one element for other sites — a trained model,
// a sentence (with the tired ↔ wide swap), the causal mask, ÷√d, layer and head, the heatmap
// and the model's answer. Runs the model itself (getTrainedModel, ../lib/context.mjs; the run,
// each model's sentence, the swap and the answer's wording are the page's, ../lib/main-view.mjs)
// and keeps the run in its own store, which lesson panels placed inside it share:
//   <attention-explorer model="coref-encoder" layer="3" head="4">
//     <ae-head-view></ae-head-view>          (shown below the heatmap, following this view)
//   </attention-explorer>
// Attributes (and properties): model, sentence, layer and head (1-based, as on the page; by
// default the model's coreference head), causal and no-scale (booleans; properties `causal`,
// `scale`), lang ('en' | 'zh'; by default the nearest lang="" around it), models-base (URL of
// the models/ directory; by default the package's web/models/ — it applies to every element of
// the page, as setModelsBase does). The model menu lists models/index.json's models and those
// added with addLocalModel (context.mjs). Event `change` (detail: view()) whenever what it shows
// changes. Shadow DOM with one constructable stylesheet: the host's CSS does not reach inside
// and its own does not leak out; theme with --ae-* custom properties and ::part() (README of
// docs/embedding.md lists them); light or dark follows the host's color-scheme.
import { format, messages } from '../i18n.mjs';
import { getLocalModels, getModelIndex, getTrainedModel, onLocalModel, setModelsBase } from '../lib/context.mjs';
import { coreferenceHead } from '../lib/coreference-head.mjs';
import { errorText } from '../lib/error-text.mjs';
import { PALETTE } from '../lib/panel-styles.mjs';
import * as mainView from '../lib/main-view.mjs'; // what the page's main view runs too
import { percent } from '../lib/panel-strings.mjs';
import { createStore, initialView } from '../lib/store.mjs';
import './attention-heatmap.mjs';

// The palette maps public --ae-* properties (the host's theme) onto the names the heatmap's
// rules use; light-dark() follows the color-scheme the element inherits from the host.
// The heatmap rules mirror style.css's <ae-attention-heatmap> block.
const CSS = `
:host { display: block; }
:host([hidden]) { display: none; }
.root {
  all: initial; display: block; box-sizing: border-box;
${PALETTE}  --ae-heat-0: var(--surface);
  --ae-heat-1: light-dark(#4a90c8, #3d7fc0);
  --ae-heat-2: light-dark(#0b2a5b, #cfe3ff);
  color-scheme: inherit;
  font: var(--ae-font, 15px/1.5 system-ui, sans-serif);
  color: var(--text); background: var(--surface);
  border: 1px solid var(--border); border-radius: var(--ae-radius, 10px); padding: 1rem;
}
*, *::before, *::after { box-sizing: inherit; }
.controls { display: flex; flex-wrap: wrap; gap: 0.75rem 1.25rem; align-items: end; margin: 0 0 0.75rem; }
.field { display: flex; flex-direction: column; gap: 0.25rem; }
.field.sentence { flex: 1 1 100%; }
label { font-weight: 600; font-size: 0.875rem; }
select, textarea, button {
  font: inherit; color: var(--text); background: var(--surface); min-height: 24px;
  border: 1px solid var(--border-strong); border-radius: 6px; padding: 0.3rem 0.5rem; margin: 0;
}
textarea { width: 100%; resize: vertical; }
button { cursor: pointer; justify-self: start; }
select:focus-visible, textarea:focus-visible, button:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.check { display: flex; align-items: center; gap: 0.4rem; font-size: 0.875rem; }
.check input { width: 1.1rem; height: 1.1rem; min-width: 24px; min-height: 24px; margin: 0; accent-color: var(--accent); }
.status { margin: 0.5rem 0; color: var(--muted); }
.error { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border-radius: 6px; background: var(--error-bg); color: var(--error-text); }
.answer { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border-radius: 6px; background: var(--answer-bg); font-weight: 600; }
.answer .alternatives { font-weight: 400; color: var(--muted); }
[hidden] { display: none !important; }
ae-attention-heatmap { display: block; margin-top: 0.75rem; }
.ae-hm-caption { margin: 0 0 0.25rem; font-weight: 600; }
.ae-hm-plot { overflow-x: auto; border-radius: 8px; }
.ae-hm-plot svg { display: block; width: 100%; height: auto; margin-inline: auto; }
.ae-hm text.label { fill: var(--text); font-size: 13px; }
.ae-hm text.axis { fill: var(--muted); font-size: 12px; font-style: italic; }
.ae-hm text.label.on { fill: var(--accent); font-weight: 700; }
.ae-hm text.label.unknown { fill: var(--error-text); font-style: italic; text-decoration: underline dotted; }
.ae-hm .values text { font-size: 12px; font-variant-numeric: tabular-nums; pointer-events: none; }
.ae-hm .values text.zero { fill: var(--muted); }
.ae-hm rect.cell { cursor: crosshair; }
.ae-hm rect.frame { fill: none; stroke: var(--border-strong); pointer-events: none; }
.ae-hm rect.marker { display: none; fill: none; stroke: var(--marker); stroke-width: 3; pointer-events: none; }
.ae-hm rect.marker.on { display: inline; }
.ae-hm-foot { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem; margin-top: 0.5rem; font-size: 0.875rem; }
.ae-hm-legend { display: inline-flex; align-items: center; gap: 0.4rem; color: var(--muted); }
.ae-hm-legend-title { font-weight: 600; }
.ae-hm-bar { width: 8rem; height: 0.75rem; border: 1px solid var(--border); border-radius: 3px; }
.ae-hm-readout { margin: 0; min-height: 1.5em; font-variant-numeric: tabular-nums; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

let sheet = null; // one CSSStyleSheet for every instance
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  return sheet;
}

let ids = 0;

export class AttentionExplorer extends HTMLElement {
  static observedAttributes = ['model', 'sentence', 'layer', 'head', 'causal', 'no-scale', 'lang', 'models-base'];

  // The run and the selection, shared with the lesson panels placed inside (their `store`).
  store = createStore({ ...initialView(), model: 'coref-encoder', controls: {} });

  #ui = null;
  #model = null; // the TrainedModel shown
  #loading = null; // name of the model being fetched
  #timer = 0;
  #langObserver = null;
  #menu = { shipped: [], local: new Map() }; // the model menu: index.json's names; name → label of local ones
  #offLocalModels = null;
  #sentences = new mainView.SentenceMemory(); // each model's own sentence, as on the page

  // --- properties (attributes are read through them) ---

  get model() {
    return this.getAttribute('model') ?? 'coref-encoder';
  }
  set model(name) {
    this.setAttribute('model', String(name));
  }

  // What the text box holds (the reader may have typed since the attribute was set).
  get sentence() {
    return this.#ui?.sentence.value ?? this.getAttribute('sentence') ?? mainView.sentencePair(null)[0];
  }
  set sentence(text) {
    const value = String(text);
    if (this.#ui && this.getAttribute('sentence') === value) {
      // no attribute change to hear
      this.#ui.sentence.value = value;
      this.#run();
    } else {
      this.setAttribute('sentence', value);
    }
  }

  // 1-based; null until a model says which head it opens on.
  get layer() {
    return this.#model ? this.store.get().layer + 1 : this.#wholeAttribute('layer');
  }
  set layer(n) {
    this.setAttribute('layer', String(n));
  }

  get head() {
    return this.#model ? this.store.get().head + 1 : this.#wholeAttribute('head');
  }
  set head(n) {
    this.setAttribute('head', String(n));
  }

  get causal() {
    return this.store.get().causal;
  }
  set causal(on) {
    this.toggleAttribute('causal', Boolean(on));
  }

  get scale() {
    return this.store.get().scale;
  }
  set scale(on) {
    this.toggleAttribute('no-scale', !on);
  }

  get lang() {
    return this.store.get().lang;
  }
  set lang(value) {
    this.setAttribute('lang', String(value));
  }

  get modelsBase() {
    return this.getAttribute('models-base');
  }
  set modelsBase(url) {
    this.setAttribute('models-base', String(url));
  }

  // What is shown: {model, sentence, layer, head (1-based), causal, scale, lang, tokens, prediction}.
  view() {
    const s = this.store.get();
    return {
      model: s.model,
      sentence: s.sentence,
      layer: s.layer + 1,
      head: s.head + 1,
      causal: s.causal,
      scale: s.scale,
      lang: s.lang,
      tokens: s.result?.tokens ?? [],
      prediction: s.result?.prediction ?? null,
    };
  }

  connectedCallback() {
    if (!this.#ui) this.#build();
    this.#followHostLanguage();
    this.#listModels();
    this.#load();
  }

  disconnectedCallback() {
    this.#langObserver?.disconnect();
    this.#langObserver = null;
    this.#offLocalModels?.();
    this.#offLocalModels = null;
  }

  attributeChangedCallback(name, before, after) {
    if (!this.#ui || before === after) return;
    if (name === 'model' || name === 'models-base') return this.#load();
    if (name === 'lang') return this.#followHostLanguage();
    if (name === 'sentence') this.#ui.sentence.value = after ?? mainView.sentencePair(this.#model?.config)[0];
    if (name === 'layer' || name === 'head') return this.#selectHead();
    this.#run();
  }

  // --- building ---

  #build() {
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [styleSheet()];
    const id = `ae-x${++ids}`;
    const wrapper = document.createElement('div');
    wrapper.className = 'root';
    wrapper.setAttribute('part', 'root');
    wrapper.innerHTML = `
      <div class="controls" part="controls">
        <div class="field"><label for="${id}-model" data-t="model"></label><select id="${id}-model" part="select"></select></div>
        <div class="field"><label for="${id}-layer" data-t="layer"></label><select id="${id}-layer" part="select"></select></div>
        <div class="field"><label for="${id}-head" data-t="head"></label><select id="${id}-head" part="select"></select></div>
        <div class="field sentence"><label for="${id}-sentence" data-t="sentence"></label>
          <textarea id="${id}-sentence" rows="2" part="sentence" autocomplete="off" spellcheck="false"></textarea>
          <button type="button" part="button" data-t="swap" hidden></button></div>
        <label class="check"><input type="checkbox" part="checkbox" name="causal"><span data-t="causal"></span></label>
        <label class="check"><input type="checkbox" part="checkbox" name="scale" checked><span data-t="scale"></span></label>
      </div>
      <p class="status" part="status" role="status"></p>
      <div class="error" part="error" role="alert" hidden></div>
      <p class="answer" part="answer" hidden></p>
      <ae-attention-heatmap part="heatmap"></ae-attention-heatmap>
      <slot></slot>`;
    root.append(wrapper);
    const $ = (selector) => wrapper.querySelector(selector);
    this.#ui = {
      wrapper,
      model: $(`#${id}-model`),
      layer: $(`#${id}-layer`),
      head: $(`#${id}-head`),
      sentence: $('textarea'),
      swap: $('button'),
      causal: $('[name=causal]'),
      scale: $('[name=scale]'),
      status: $('.status'),
      error: $('.error'),
      answer: $('.answer'),
      heatmap: $('ae-attention-heatmap'),
      slot: $('slot'),
    };
    const ui = this.#ui;
    ui.sentence.value = this.getAttribute('sentence') ?? mainView.sentencePair(null)[0];
    this.store.set({ causal: this.hasAttribute('causal'), scale: !this.hasAttribute('no-scale') });
    ui.model.addEventListener('change', () => {
      this.model = ui.model.value;
    });
    ui.sentence.addEventListener('input', () => this.#runSoon());
    ui.swap.addEventListener('click', () => {
      ui.sentence.value = mainView.swapFor(this.#model?.config).swap(ui.sentence.value);
      this.#run();
    });
    ui.causal.addEventListener('change', () => {
      this.causal = ui.causal.checked;
    });
    ui.scale.addEventListener('change', () => {
      this.scale = ui.scale.checked;
    });
    ui.layer.addEventListener('change', () => {
      this.layer = Number(ui.layer.value) + 1;
    });
    ui.head.addEventListener('change', () => {
      this.head = Number(ui.head.value) + 1;
    });
    ui.slot.addEventListener('slotchange', () => this.#shareStore());
  }

  // Lesson panels inside share this element's store (StoreElements have a `store` property);
  // one whose module loads later gets it once its tag is defined.
  #shareStore() {
    const share = (panel) => {
      if ('store' in panel && panel.store !== this.store && this.contains(panel)) panel.store = this.store;
    };
    for (const node of this.#ui.slot.assignedElements({ flatten: true }))
      for (const panel of [node, ...node.querySelectorAll('*')]) {
        if (!panel.localName.startsWith('ae-')) continue;
        if (customElements.get(panel.localName)) share(panel);
        else customElements.whenDefined(panel.localName).then(() => share(panel));
      }
  }

  // lang="" on the element, else the nearest one around it (watched, so the host can switch).
  #followHostLanguage() {
    const from = this.closest('[lang]');
    const lang = /^zh/i.test(from?.getAttribute('lang') ?? '') ? 'zh' : 'en';
    this.#langObserver?.disconnect();
    this.#langObserver = null;
    if (from && from !== this) {
      this.#langObserver = new MutationObserver(() => this.#followHostLanguage());
      this.#langObserver.observe(from, { attributes: true, attributeFilter: ['lang'] });
    }
    if (lang === this.store.get().lang && this.#ui.model.dataset.lang === lang) return;
    this.store.set({ lang });
    this.#ui.model.dataset.lang = lang;
    this.#translate();
    this.#show();
  }

  #t(key, params) {
    return format(messages[this.store.get().lang][key], params);
  }

  #translate() {
    const strings = messages[this.store.get().lang];
    const { first, second } = mainView.swapFor(this.#model?.config); // the swap names its words
    for (const node of this.#ui.wrapper.querySelectorAll('[data-t]'))
      node.textContent = format(strings[node.dataset.t], { a: first, b: second });
    this.#showModels();
    this.#ui.heatmap.strings = strings.heatmap;
    if (this.#model) this.#fillRanges();
  }

  // --- model menu ---

  // models/index.json's models (in the lesson's order), then those trained in the page or opened
  // from disk and added to the shared context (context.mjs addLocalModel), as they come.
  async #listModels() {
    this.#offLocalModels ??= onLocalModel(({ name, label }) => this.#addLocalModel(name, label));
    for (const { name, label } of getLocalModels()) this.#menu.local.set(name, label);
    this.#menu.shipped = mainView.orderModels(await getModelIndex()).map((m) => m.name);
    this.#showModels();
  }

  #addLocalModel(name, label) {
    this.#menu.local.set(name, label);
    this.#showModels();
  }

  // The menu's options, labelled in the element's language; the model shown is always one of them.
  #showModels() {
    const strings = messages[this.store.get().lang];
    const { shipped, local } = this.#menu;
    const names = [...new Set([...shipped, ...local.keys(), this.model])];
    const label = (name) => strings.models?.[name] ?? local.get(name) ?? name;
    this.#ui.model.replaceChildren(...names.map((name) => new Option(label(name), name)));
    this.#ui.model.value = this.model;
  }

  // --- model, run, view ---

  #wholeAttribute(name) {
    const n = Number(this.getAttribute(name));
    return this.hasAttribute(name) && Number.isInteger(n) && n >= 1 ? n : null;
  }

  async #load() {
    const name = this.model;
    if (this.modelsBase) setModelsBase(this.modelsBase);
    this.#showModels();
    if (this.#loading === name || (this.#model && this.store.get().model === name && !this.#loading)) return;
    this.#loading = name;
    this.#status(this.#t('loadingModel', { name: messages[this.store.get().lang].models?.[name] ?? name }));
    try {
      const model = await getTrainedModel(name);
      if (this.model !== name) return;
      const { sentence } = this.#ui;
      if (this.#model) this.#sentences.leave(this.store.get().model, sentence.value);
      this.#model = model;
      this.store.set({ model: name });
      const opening = this.#sentences.open(name, model, sentence.value, this.hasAttribute('sentence')).text;
      if (opening !== sentence.value) sentence.value = opening;
      this.#translate(); // the swap names this model's words; the layer and head menus
      this.#selectHead(false);
      this.#run();
    } catch (error) {
      if (this.model === name) this.#fail(error);
    } finally {
      if (this.#loading === name) this.#loading = null;
    }
  }

  #fillRanges() {
    const { nLayers, nHeads } = this.#model.config;
    for (const [select, count, key] of [
      [this.#ui.layer, nLayers, 'layerN'],
      [this.#ui.head, nHeads, 'headN'],
    ])
      select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(this.#t(key, { i: i + 1 }), i)));
  }

  // The layer and head of the attributes, else the model's coreference head, else the first.
  #selectHead(show = true) {
    if (!this.#model) return;
    const { nLayers, nHeads } = this.#model.config;
    const named = coreferenceHead(this.#model.config, { layer: 0, head: 0 });
    const pick = (name, count, fallback) => {
      const n = this.#wholeAttribute(name);
      return n !== null && n <= count ? n - 1 : fallback;
    };
    const layer = pick('layer', nLayers, named.layer),
      head = pick('head', nHeads, named.head);
    this.#ui.layer.value = layer;
    this.#ui.head.value = head;
    this.store.set({ layer, head });
    if (show) this.#show(true);
  }

  #runSoon() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run(), mainView.TYPING_DELAY_MS);
  }

  #run() {
    clearTimeout(this.#timer);
    const ui = this.#ui;
    ui.swap.hidden = !mainView.swapFor(this.#model?.config).test(ui.sentence.value);
    const options = { causal: this.hasAttribute('causal'), scale: !this.hasAttribute('no-scale') };
    ui.causal.checked = options.causal;
    ui.scale.checked = options.scale;
    if (!this.#model) return;
    const sentence = ui.sentence.value;
    try {
      const result = mainView.runView(this.#model, sentence, options);
      this.store.set({ sentence, ...options, result, token: null });
    } catch (error) {
      this.store.set({ sentence, ...options, result: null });
      return this.#fail(error);
    }
    this.#status(null);
    ui.error.hidden = true;
    this.#show(true);
  }

  #fail(error) {
    this.#status(null);
    this.#ui.error.hidden = false;
    this.#ui.error.textContent = errorText(error, this.store.get().lang);
    this.#ui.error.title = error?.message ?? String(error);
    this.#ui.answer.hidden = true;
    this.#ui.heatmap.hidden = true;
    this.#changed();
  }

  #status(text) {
    this.#ui.status.hidden = !text;
    this.#ui.status.textContent = text ?? '';
  }

  // The heatmap and answer of the stored run; `changed` dispatches the change event.
  #show(changed = false) {
    const { result, layer, head, lang } = this.store.get();
    const ui = this.#ui;
    if (!result) return;
    ui.heatmap.hidden = false;
    ui.heatmap.data = {
      tokens: result.tokens,
      weights: result.layers[layer].selfAttention.heads[head].weights,
      unknown: result.unknown ?? [],
      caption: this.#t('caption', { layer: layer + 1, head: head + 1 }),
    };
    const p = result.prediction;
    ui.answer.hidden = !p;
    if (p) {
      ui.answer.textContent = mainView.answerParts(p, this.#model?.config, lang, (x) => percent(x, lang)).join('');
      const others = document.createElement('span');
      others.className = 'alternatives';
      others.textContent = ` · ${p.top
        .slice(1)
        .map((o) => `${o.token} ${percent(o.probability, lang)}`)
        .join(', ')}`;
      ui.answer.append(others);
    }
    if (changed) this.#changed();
  }

  #changed() {
    this.dispatchEvent(new CustomEvent('change', { detail: this.view(), bubbles: true, composed: true }));
  }
}

customElements.define('attention-explorer', AttentionExplorer);
