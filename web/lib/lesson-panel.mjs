// Base class of the lesson panels (web/components): what each of them used to write again.
//   static strings          the panel's {en, zh} (web/strings/<panel>.mjs); t(key, params) reads them
//                           in the page's language, locale() names it for Intl
//   build()                 builds the panel's DOM, once, on its first connection (before the
//                           first storeChanged(true)); a panel declares its controls there and
//                           draws in storeChanged()
//   newId(prefix)           element ids unique on the page (`${prefix}-0`, `${prefix}-1`, …)
//   setState(s) / state     loading | error | ready (and a panel's own steps) mirrored in one
//                           data-* attribute for tests and styles: data-state, or data-status
//                           where static stateAttribute = 'status'
import { StoreElement } from './store-element.mjs';
import { locale, text } from './panel-strings.mjs';

const handedOut = new Map(); // id prefix → ids given so far

export class LessonPanel extends StoreElement {
  static strings = null;
  static stateAttribute = 'state';

  #built = false;

  connectedCallback() {
    if (!this.#built) {
      this.#built = true;
      this.build();
    }
    super.connectedCallback();
  }

  build() {}

  t(key, params) {
    return text(this.constructor.strings, this.store.get().lang, key, params);
  }

  locale() {
    return locale(this.store.get().lang);
  }

  newId(prefix) {
    const n = handedOut.get(prefix) ?? 0;
    handedOut.set(prefix, n + 1);
    return `${prefix}-${n}`;
  }

  get state() {
    return this.dataset[this.constructor.stateAttribute];
  }

  setState(state) {
    this.dataset[this.constructor.stateAttribute] = state;
  }
}
