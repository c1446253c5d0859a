// Types of `attention-explorer/elements` (elements.mjs): the custom elements it defines, in
// HTMLElementTagNameMap so that document.querySelector('ae-head-view') is typed.
import type { Prediction, Store } from './index.js';

/** A lesson panel: follows the page's store, or its own (`element.store = createStore({...})`). */
export interface PanelElement extends HTMLElement {
  store: Store;
}

/**
 * The ::part() names of a lesson panel's open shadow root (`ae-layer::part(title)`): root (the
 * panel), title (its heading) and intro (the paragraph under it); themed further by the same
 * --ae-* custom properties as <attention-explorer>.
 */
export type PanelPart = 'root' | 'title' | 'intro';

/** The ::part() names of <attention-explorer>'s shadow root. */
export type ExplorerPart =
  | 'root' | 'controls' | 'select' | 'sentence' | 'button' | 'checkbox' | 'status' | 'error' | 'answer' | 'heatmap';

/** The --ae-* custom properties the elements read (all optional; the defaults follow light or dark). */
export type ThemeProperty =
  | '--ae-font' | '--ae-radius' | '--ae-bg' | '--ae-surface' | '--ae-text' | '--ae-muted' | '--ae-border'
  | '--ae-border-strong' | '--ae-accent' | '--ae-marker' | '--ae-marker-text' | '--ae-error-bg' | '--ae-error-text'
  | '--ae-answer-bg' | '--ae-heat-0' | '--ae-heat-2';

/** What <attention-explorer> shows; the detail of its `change` event. Layer and head are 1-based. */
export interface ExplorerView {
  model: string;
  sentence: string;
  layer: number;
  head: number;
  causal: boolean;
  scale: boolean;
  lang: 'en' | 'zh';
  tokens: string[];
  prediction: Prediction | null;
}

/** Shipped model names (web/models/index.json); another name needs a models-base that has it. */
export type ModelName =
  | 'coref-encoder' | 'coref-decoder' | 'word-order-none' | 'word-order-sinusoidal' | 'word-order-learned' | 'word-order-rope'
  | (string & {});

/**
 * <attention-explorer>: the page's main view (model, sentence, layer/head, causal, ÷√d, heatmap,
 * answer). Attributes: model, sentence, layer, head, causal, no-scale, lang, models-base.
 */
export interface AttentionExplorerElement extends HTMLElement {
  model: ModelName;
  sentence: string;
  /** 1-based; null until a model is loaded and no attribute says */
  layer: number | null;
  head: number | null;
  causal: boolean;
  /** ÷√d */
  scale: boolean;
  lang: 'en' | 'zh';
  modelsBase: string | null;
  /** shared with the lesson panels placed inside */
  readonly store: Store;
  view(): ExplorerView;
  addEventListener<K extends keyof AttentionExplorerEventMap>(type: K,
    listener: (this: AttentionExplorerElement, ev: AttentionExplorerEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

export interface AttentionExplorerEventMap extends HTMLElementEventMap {
  /** whenever what the element shows changes (a run, another head, an error) */
  change: CustomEvent<ExplorerView>;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-explorer': AttentionExplorerElement;
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
