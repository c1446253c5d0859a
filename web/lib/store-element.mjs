// Base class of the panels that follow a store (./store.mjs): the `store` property (the
// page's shared store unless an embedding page sets its own), a subscription while the
// element is connected, and a call to storeChanged() when a key it watches changes.
// A panel that sets `static redrawWhenVisible = true` is not redrawn while it is off screen:
// it notes that it is out of date and catches up when it scrolls near the window, so one
// interaction redraws only what the reader can see.
// mount(...nodes) renders the panel into its open shadow root with the shared stylesheet and
// the panel's `static styles` (./panel-styles.mjs).
import { ElementBase } from './define.mjs';
import { store as sharedStore } from './store.mjs';
import { mountShadow } from './panel-styles.mjs';

const NEAR_WINDOW = '200px 0px'; // redraw a little before the panel scrolls into view

export class StoreElement extends ElementBase {
  // The state keys whose change redraws the panel; each subclass lists its own.
  static watched = [];
  static redrawWhenVisible = false;
  // The panel's own CSS (strings), adopted after the shared rules by mount().
  static styles = [];

  #store = sharedStore;
  #unsubscribe = null;
  #observer = null;
  #visible = true; // until the observer has said otherwise
  #stale = null; // null, or the `full` flag of the redraws skipped while off screen
  #nearObservers = new Set(); // of loadWhenNear()

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
    this.#observer?.disconnect();
    this.#observer = null;
    for (const observer of this.#nearObservers) observer.disconnect();
    this.#nearObservers.clear();
  }

  // Calls `load` once, when `target` (the panel, or a part of it) first comes within `margin` of
  // the window: a panel fetches its models then, not at page start. Interacting earlier may
  // load them sooner; `load` must therefore be safe to call again.
  loadWhenNear(load, target = this, margin = '300px 0px') {
    if (!('IntersectionObserver' in globalThis)) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        this.#nearObservers.delete(observer);
        load();
      },
      { rootMargin: margin },
    );
    observer.observe(target);
    this.#nearObservers.add(observer);
  }

  // Replaces the panel's shadow content with `nodes`; returns their wrapper (part="root").
  mount(...nodes) {
    return mountShadow(this, this.constructor.styles, nodes);
  }

  // Redraw; the argument `full` is true on connecting and on a language change (labels must be rebuilt).
  storeChanged() {}

  #connect() {
    this.#unsubscribe?.();
    const { watched, redrawWhenVisible } = this.constructor;
    this.#unsubscribe = this.#store.subscribe((_, changed) => {
      if (watched.some((key) => changed.has(key))) this.#changed(changed.has('lang'));
    });
    if (redrawWhenVisible && !this.#observer && 'IntersectionObserver' in globalThis) {
      this.#observer = new IntersectionObserver(
        (entries) => {
          this.#visible = entries[entries.length - 1].isIntersecting;
          if (this.#visible && this.#stale !== null) this.#changed(this.#stale);
        },
        { rootMargin: NEAR_WINDOW },
      );
      this.#observer.observe(this);
    }
    this.#stale = null;
    this.storeChanged(true);
  }

  #changed(full) {
    if (!this.#visible && !full) {
      // a language change relabels at once: it is rare, and read by screen readers
      this.#stale = Boolean(this.#stale);
      return;
    }
    this.#stale = null;
    this.storeChanged(full);
  }
}
