// <ae-export-buttons target="heatmap" view="heatmap" [json]>: small SVG / PNG buttons that
// download the drawing of the element with id `target` (see ../lib/export.mjs: svgOf), and
// with `json` a button that downloads the current run's attention weights (docs/export.md).
// `view` names the drawing in labels and file names: heatmap, headView, headGrid, flipPair.
// Reads the shared store: result (buttons are disabled until there is one), model, layer,
// head, lang. Every button is an ordinary <button>: reachable with Tab, pressed with Enter.
import { define } from '../lib/define.mjs';
import { StoreElement } from '../lib/store-element.mjs';
import { text } from '../lib/panel-strings.mjs';
import { attentionJson, downloadJson, downloadPng, downloadSvg, fileName, svgOf } from '../lib/export.mjs';
import strings from '../strings/export.mjs';
import css from './export-buttons.css.mjs';

export class ExportButtons extends StoreElement {
  static styles = [css];
  static watched = ['result', 'lang'];

  #parts = null;

  connectedCallback() {
    if (!this.#parts) this.#build();
    super.connectedCallback();
  }

  #build() {
    const group = document.createElement('div');
    group.className = 'ae-export';
    group.setAttribute('role', 'group');
    const button = (kind) => {
      const b = document.createElement('button');
      Object.assign(b, { type: 'button', className: 'ae-export-btn' });
      b.dataset.export = kind;
      b.addEventListener('click', () => this.#export(kind));
      return b;
    };
    const svg = button('svg');
    const png = button('png');
    const json = this.hasAttribute('json') ? button('json') : null;
    const error = document.createElement('span');
    error.className = 'ae-export-error';
    error.setAttribute('role', 'alert');
    group.append(...[svg, png, json, error].filter(Boolean));
    this.mount(group);
    this.#parts = { group, svg, png, json, error };
  }

  #t(key, params) {
    return text(strings, this.store.get().lang, key, params);
  }

  get #view() {
    const view = this.getAttribute('view') ?? 'heatmap';
    return strings.en.views[view] ? view : 'heatmap';
  }

  storeChanged() {
    const { group, svg, png, json } = this.#parts;
    const view = this.#t(`views.${this.#view}`);
    group.setAttribute('aria-label', this.#t('group', { view }));
    svg.textContent = this.#t('svg');
    png.textContent = this.#t('png');
    svg.setAttribute('aria-label', this.#t('svgLabel', { view }));
    png.setAttribute('aria-label', this.#t('pngLabel', { view }));
    if (json) {
      json.textContent = this.#t('json');
      json.setAttribute('aria-label', this.#t('jsonLabel'));
    }
    const ready = Boolean(this.store.get().result);
    for (const b of [svg, png, json]) if (b) b.disabled = !ready;
  }

  #name(kind) {
    const { model, layer, head } = this.store.get();
    if (kind === 'json') return fileName('attention', model);
    const view = this.#view;
    const perHead = view === 'heatmap' || view === 'headView' || view === 'flipPair';
    return fileName(
      'attention',
      model,
      view.replace(/[A-Z]/g, (c) => `-${c}`),
      perHead ? `l${layer + 1}h${head + 1}` : '',
    );
  }

  async #export(kind) {
    const { error } = this.#parts;
    error.textContent = '';
    try {
      if (kind === 'json') return downloadJson(attentionJson(this.store.get()), this.#name(kind));
      const id = this.getAttribute('target');
      // the target is in this element's tree, or the page's (a panel's own buttons sit in its shadow root)
      const target = this.getRootNode().getElementById?.(id) ?? document.getElementById(id);
      if (!target) throw new Error(`no element #${this.getAttribute('target')}`);
      const svg = svgOf(target);
      if (kind === 'svg') downloadSvg(svg, this.#name(kind));
      else await downloadPng(svg, this.#name(kind));
    } catch (e) {
      error.textContent = this.#t('failed', { message: e.message });
    }
  }
}

define('ae-export-buttons', ExportButtons);
