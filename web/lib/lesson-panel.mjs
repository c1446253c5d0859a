// Base class of the lesson panels (web/components): what each of them used to write again.
//   static strings          the panel's {en, zh} (web/strings/<panel>.mjs); t(key, params) reads them
//                           in the page's language, locale() names it for Intl
//   build()                 builds the panel's DOM, once, on its first connection (before the
//                           first storeChanged(true)); a panel declares its controls there and
//                           draws in storeChanged()
//   newId(prefix)           element ids unique on the page (`${prefix}-0`, `${prefix}-1`, …)
//   frame(cls)              what every build() starts with: {id, root, title, intro}; build()
//                           ends with this.mount(root) (the panel's shadow root, ./store-element.mjs)
//   setState(s) / state     loading | error | ready (and a panel's own steps) mirrored in one
//                           data-* attribute for tests and styles: data-state, or data-status
//                           where static stateAttribute = 'status'
import { StoreElement } from './store-element.mjs';
import { el } from './dom.mjs';
import { labelHostBy } from './panel-styles.mjs';
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

  // A root <div class=cls> (the panel mounts it at the end of build()), an <h2> title that
  // names the element (labelHostBy), and an intro paragraph under it.
  frame(cls) {
    const id = this.newId(cls);
    const root = el('div', cls);
    const title = el('h2', '', root, { id: `${id}-title`, part: 'title' });
    const intro = el('p', 'howto', root, { part: 'intro' });
    labelHostBy(this, title);
    return { id, root, title, intro };
  }

  get state() {
    return this.dataset[this.constructor.stateAttribute];
  }

  setState(state) {
    this.dataset[this.constructor.stateAttribute] = state;
  }
}
