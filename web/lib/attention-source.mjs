// Your own attention in the store-based panels (<ae-head-view>, <ae-head-grid>,
// <ae-attention-pattern>): AttentionSource(Panel) adds what the heatmap has itself —
//   element.data = AttentionData (./attention-data.mjs, docs/own-attention.md): the panel gets a
//     store of its own holding that attention as its run (no model, no <attention-explorer>)
//   attribute src="file.json": loads an attention file into data
// Data that cannot be drawn is said in the panel (p.error, role alert, data-state="error"; the
// rest of the panel hidden) and sent as `ae-error` {key: 'dataError', code: null, message}.
import { createStore, initialView } from './store.mjs';
import { attentionReceiver, resultOf } from './attention-data.mjs';
import { messages, format } from '../i18n.mjs';
import { adoptStyles } from './resolved-colour.mjs';

// While the error shows, only the error; with own data, no lesson guidance (it needs a model).
const CSS = `
.ae-panel.ae-data-failed > :not(.ae-data-error) { display: none !important; }
.ae-panel.ae-own-data .ae-guide { display: none !important; }
`;

export const AttentionSource = (Panel) =>
  class extends Panel {
    static observedAttributes = [...(Panel.observedAttributes ?? []), 'src'];

    #given = null;
    #error = ''; // the message shown, '' for none
    #receiver = attentionReceiver({ accept: (data, norm) => this.#accept(data, norm), fail: (e) => this.#fail(e) });

    get data() {
      return this.#given;
    }

    // Whether the panel shows your own attention (data given or a src to load): no model, so no
    // lesson guidance that would look one up.
    get ownData() {
      return Boolean(this.#given) || this.hasAttribute('src');
    }

    set data(value) {
      this.#receiver.set(value);
    }

    // Alone on a page the panel shows the lesson's run (lesson-panel.mjs), unless it has data of its own.
    awaitRun(waiting) {
      if (!this.ownData) super.awaitRun(waiting);
    }

    #accept(value, norm) {
      this.#given = value;
      this.#error = '';
      // no model: nothing of the package's models is fetched for it (model '')
      this.store = createStore({ ...initialView(), model: '', lang: this.#lang(), result: resultOf(norm) });
      this.#showError();
    }

    attributeChangedCallback(name, before, after) {
      super.attributeChangedCallback?.(name, before, after);
      if (name === 'src' && before !== after) this.#receiver.load(after, document.baseURI);
    }

    connectedCallback() {
      super.connectedCallback();
      this.#showError();
    }

    #lang() {
      return (this.closest('[lang]')?.lang ?? 'en').startsWith('zh') ? 'zh' : 'en';
    }

    #fail(error) {
      this.#given = null;
      this.#error = format((messages[this.#lang()] ?? messages.en).heatmap.dataError, { message: error.message });
      this.store = createStore({ ...initialView(), model: '', lang: this.#lang() });
      this.#showError();
      this.dispatchEvent(dataErrorEvent(error.message));
    }

    // The message in the panel's shadow root (once built), everything else hidden while it shows.
    #showError() {
      const panel = this.shadowRoot?.querySelector('.ae-panel');
      if (!panel) return;
      const box = panel.querySelector(':scope > p.ae-data-error') ?? (this.#error ? errorBox(panel) : null);
      adoptStyles(panel, CSS);
      panel.classList.toggle('ae-data-failed', Boolean(this.#error));
      panel.classList.toggle('ae-own-data', Boolean(this.#given || this.#error));
      if (box) box.textContent = this.#error;
      if (this.#error) this.dataset.state = 'error';
      else if (this.dataset.state === 'error') delete this.dataset.state;
    }
  };

// The panel's error paragraph, made when the first error shows.
function errorBox(panel) {
  const box = Object.assign(document.createElement('p'), { className: 'error ae-data-error' });
  box.setAttribute('role', 'alert');
  box.setAttribute('part', 'error');
  panel.append(box);
  return box;
}

// The `ae-error` event of data that cannot be drawn (no core code: the data is the host's).
function dataErrorEvent(message) {
  return new CustomEvent('ae-error', {
    detail: { key: 'dataError', code: null, message },
    bubbles: true,
    composed: true,
  });
}
