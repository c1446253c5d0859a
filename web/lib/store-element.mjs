// Base class of the panels that follow a store (./store.mjs): the `store` property (the
// page's shared store unless an embedding page sets its own), a subscription while the
// element is connected, and a call to storeChanged() when a key it watches changes.
import { store as sharedStore } from './store.mjs';

export class StoreElement extends HTMLElement {
  // The state keys whose change redraws the panel; each subclass lists its own.
  static watched = [];

  #store = sharedStore;
  #unsubscribe = null;

  get store() {
    return this.#store;
  }

  set store(value) {
    this.#store = value;
    if (this.isConnected) this.#connect();
  }

  connectedCallback() {
    this.#connect();
  }

  disconnectedCallback() {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  // Redraw; the argument `full` is true on connecting and on a language change (labels must be rebuilt).
  storeChanged() {}

  #connect() {
    this.#unsubscribe?.();
    const { watched } = this.constructor;
    this.#unsubscribe = this.#store.subscribe((_, changed) => {
      if (watched.some((key) => changed.has(key))) this.storeChanged(changed.has('lang'));
    });
    this.storeChanged(true);
  }
}
