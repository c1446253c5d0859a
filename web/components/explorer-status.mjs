// <attention-explorer>'s status line, load bar and error box (./attention-explorer.mjs): what
// loads and what failed, kept as string keys with their parameters, so that a change of
// language words them again.
import { LoadProgress } from '../lib/load-progress.mjs';

let errorWords = null; // error-text.mjs's errorText, fetched on the first error (not in the first view)

export class StatusLine {
  status = null; // {key, params} of the status line while something loads
  error = null; // {key, params, cause}: the error shown
  #ui;
  #t;
  #lang;
  #progress = null;

  // ui: the element's {status, 'load-progress', error}; t(key, params) and lang() its words.
  constructor(ui, { t, lang }) {
    this.#ui = ui;
    this.#t = t;
    this.#lang = lang;
  }

  // The status line says the string `key` (null: nothing); the load bar goes once nothing loads.
  set(key, params) {
    this.status = key && { key, params };
    if (!key?.startsWith('loading')) this.#progress?.done();
    this.#ui.status.hidden = !key;
    if (key) this.#ui.status.textContent = this.#t(key, params);
  }

  progress() {
    this.#progress ??= new LoadProgress(this.#ui['load-progress']);
    return this.#progress;
  }

  // `cause`, the error thrown, is worded in the element's language by its code (error-text.mjs).
  fail(key, params, cause) {
    this.error = { key, params, cause };
    this.showError();
  }

  clear() {
    this.error = null;
    this.#ui.error.textContent = this.#ui.error.title = '';
  }

  // The status and the error in the element's language.
  translate() {
    if (this.status) this.set(this.status.key, this.status.params);
    if (this.error) this.showError();
  }

  // The error-text module is fetched on the first error only, so that it is not part of the
  // first view's transfer; offline, the raw words.
  showError() {
    const { key, params, cause } = this.error;
    if (cause && !errorWords) {
      import('../lib/error-text.mjs')
        .then(
          (m) => m.errorText,
          () => (error) => error.message,
        )
        .then((words) => {
          errorWords = words;
          if (this.error) this.showError();
        });
    }
    const message = cause ? (errorWords?.(cause, this.#lang()) ?? '') : params.message;
    this.#ui.error.textContent = this.#t(key, { ...params, message });
    this.#ui.error.title = cause?.message ?? ''; // the core's own words, for whoever debugs
  }
}
