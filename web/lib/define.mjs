// What lets every module of the package be imported where there is no DOM (Node, a site's
// server-side rendering) and be loaded twice on one page:
//   ElementBase  HTMLElement where there is one, else an empty class (the elements' base)
//   define(name, cls)  customElements.define, only where a registry exists and the name is free
// No module of the package touches the DOM when it is imported; elements build their shadow
// roots when created.
export const ElementBase = globalThis.HTMLElement ?? class {};

// A second copy of the package (two bundles, or a CDN copy next to an installed one) finds the
// names taken: it keeps the first copy's elements instead of throwing NotSupportedError.
export function define(name, cls) {
  if (globalThis.customElements && !customElements.get(name)) customElements.define(name, cls);
}
