// Types of `attention-explorer/elements` (elements.mjs): the custom elements it defines, in
// HTMLElementTagNameMap so that document.querySelector('ae-head-view') is typed.
import type { Store } from './index.js';

/** A lesson panel: follows the page's store, or its own (`element.store = createStore({...})`). */
export interface PanelElement extends HTMLElement {
  store: Store;
}

declare global {
  interface HTMLElementTagNameMap {
    'ae-attention-heatmap': PanelElement;
    'ae-head-view': PanelElement & { overlay: boolean };
    'ae-flip-pair': PanelElement;
    'ae-flip-view': PanelElement;
    'ae-head-grid': PanelElement;
    'ae-export-buttons': HTMLElement;
    'ae-qkv-steps': PanelElement;
    'ae-scaling': PanelElement;
    'ae-multi-head': PanelElement;
    'ae-layer': PanelElement;
    'ae-positions': PanelElement;
    'ae-causal-mask': PanelElement;
    'ae-kv-cache': PanelElement;
    'ae-cost': PanelElement;
    'ae-explanation': PanelElement;
    'ae-cross-attention': PanelElement;
  }
}
