// Types of `attention-explorer/elements` (elements.mjs): the custom elements it defines, in
// HTMLElementTagNameMap so that document.querySelector('ae-head-view') is typed.
import type { Prediction, RandomModel, Store, TrainedModel } from './index.js';

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

/** The ::part() names of <attention-explorer>'s shadow root (`panel`: both cards, controls and result). */
export type ExplorerPart =
  | 'root' | 'panel' | 'controls' | 'result' | 'select' | 'sentence' | 'button' | 'checkbox' | 'status' | 'error'
  | 'answer' | 'heatmap';

/** The --ae-* custom properties the elements read (all optional; the defaults follow light or dark). */
export type ThemeProperty =
  | '--ae-font' | '--ae-radius' | '--ae-bg' | '--ae-surface' | '--ae-text' | '--ae-muted' | '--ae-border'
  | '--ae-border-strong' | '--ae-accent' | '--ae-marker' | '--ae-marker-text' | '--ae-error-bg' | '--ae-error-text'
  | '--ae-answer-bg' | '--ae-heat-0' | '--ae-heat-1' | '--ae-heat-2';

/** What <attention-explorer> shows; the detail of its `change` event. Layer and head are 1-based. */
export interface ExplorerView {
  model: string;
  sentence: string;
  layer: number;
  head: number;
  causal: boolean;
  scale: boolean;
  lang: 'en' | 'zh';
  /** after an error: no tokens, no prediction */
  status: 'loading' | 'ready' | 'error';
  tokens: string[];
  prediction: Prediction | null;
}

/**
 * Shipped model names (web/models/index.json); 'untrained' (random weights), 'own' (opened from
 * disk); another name needs a models-base that has it, or addLocalModel.
 */
export type ModelName =
  | 'coref-encoder' | 'coref-encoder-zh' | 'coref-decoder' | 'word-order-none' | 'word-order-sinusoidal'
  | 'word-order-learned' | 'word-order-rope' | 'untrained' | 'own'
  | (string & {});

/**
 * <attention-explorer>: the main view, of the demo page too (model, sentence, layer/head, causal,
 * ÷√d, heatmap, answer). Attributes: model, sentence, layer, head, causal, no-scale, lang,
 * models-base, untrained, open-files, heads, layers, positional, seed. Slots: default (under the
 * heatmap) and `aside` (under the controls).
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
  /** the untrained model's recipe, as in the page's link */
  heads: string | null;
  layers: string | null;
  positional: string | null;
  seed: string | null;
  /** shared with the lesson panels placed inside; set it to share another (e.g. the page's) */
  store: Store;
  /** the model on view, or null while one loads (owned by the element) */
  readonly shownModel: TrainedModel | RandomModel | null;
  /** the heatmap it draws */
  readonly heatmap: HTMLElement | null;
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
