// Types of `attention-explorer/elements` (elements.mjs): the custom elements it defines, in
// HTMLElementTagNameMap so that document.querySelector('ae-head-view') is typed.
import type { EngineErrorCode, ModelConfig, Prediction, RandomModel, Store, TrainedModel } from './index.js';

/** A lesson panel: follows the page's store, or its own (`element.store = createStore({...})`). */
export interface PanelElement extends HTMLElement {
  store: Store;
  /**
   * The `models-base` attribute: the models/ directory this panel loads from, read when it loads
   * (null: that of the element whose store it follows, else the page's). A base that is no URL
   * is this panel's load error.
   */
  modelsBase: string | null;
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

/** What <attention-explorer> shows; the detail of its `ae-change` event. Layer and head are 1-based. */
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
  /** back to the view its markup set (the defaults for what it did not set): "Back to defaults" */
  reset(): void;
}

/**
 * Your own attention (docs/own-attention.md): what `.data` of <ae-attention-heatmap>, <ae-head-view>,
 * <ae-head-grid> and <ae-attention-pattern> takes. Give `tokens` (self-attention) or `queryTokens`
 * and `keyTokens` (cross-attention); `weights` as nested [layers][heads][queries][keys] arrays, or
 * flat row-major (a Float32Array or number[]) with `shape`. Each weight 0…1.
 */
export type AttentionData = (
  | { tokens: readonly string[]; queryTokens?: never; keyTokens?: never }
  | { tokens?: never; queryTokens: readonly string[]; keyTokens: readonly string[] }
) & {
  weights: readonly (readonly (readonly (readonly number[])[])[])[] | Float32Array | readonly number[];
  /** [layers, heads, queries, keys]: required for flat weights (a flat q×k array alone is one matrix) */
  shape?: readonly [number, number, number, number];
  /** names shown instead of "Layer 1", "Head 1" */
  labels?: { layers?: readonly string[]; heads?: readonly string[] };
  caption?: string;
};

/** The file format of docs/own-attention.md: AttentionData with its format and version. */
export type AttentionFile = AttentionData & {
  format: 'attention-explorer/attention';
  version: 1;
  /** free text: which model, which input */
  model?: string;
};

/**
 * An element that draws your own attention. `src` (attribute and property) loads an AttentionFile;
 * data it cannot draw is shown in the element (role alert, data-state="error") and sent as
 * `ae-error` with key 'dataError'.
 */
export interface AttentionDataElement extends HTMLElement {
  data: AttentionData | null;
}

/** <ae-attention-heatmap>: one matrix; `layer` and `head` (1-based, attributes too) choose which. */
export interface AttentionHeatmapElement extends AttentionDataElement {
  layer: number;
  head: number;
  /** marks one cell (0-based), or none */
  highlight: { row: number; col: number } | null;
}

/** A heatmap cell, the detail of `ae-token-hover` and `ae-token-select`: row = query, col = key (0-based). */
export interface TokenCell {
  row: number;
  col: number;
  /** the query's token (the row's label) */
  query: string;
  /** the key's token (the column's label) */
  key: string;
  /** its attention weight, 0…1 */
  weight: number;
}

/** The detail of `ae-model-load`: the model now on view. */
export interface ModelLoadDetail {
  model: ModelName;
  config: ModelConfig;
}

/** The detail of `ae-error`: the error the element now shows (in its own words, in its language). */
export interface ExplorerErrorDetail {
  /** which message the element shows: 'modelError', 'runError', 'loadError', 'baseError', 'dataError' (own attention), … */
  key: string;
  /** the engine's code when the engine refused (EngineError), else null */
  code: EngineErrorCode | null;
  /** the cause's message (English) */
  message: string;
}

/**
 * The elements' events: CustomEvents that bubble out of shadow roots (listen on the element, a
 * parent or the document). <attention-explorer> sends all five; <ae-attention-heatmap> the two
 * token events and `ae-error` (bad data); <ae-head-view>, <ae-head-grid> and <ae-attention-pattern>
 * `ae-error` (bad data).
 */
export interface AttentionExplorerEventMap {
  /** whenever what <attention-explorer> shows changes (a run, another head, an error) */
  'ae-change': CustomEvent<ExplorerView>;
  /** a model is on view (loaded, or the untrained model built from its recipe) */
  'ae-model-load': CustomEvent<ModelLoadDetail>;
  /** the element shows an error (it keeps working: the next good run clears it) */
  'ae-error': CustomEvent<ExplorerErrorDetail>;
  /** the pointer is over a heatmap cell; detail null when it leaves the grid */
  'ae-token-hover': CustomEvent<TokenCell | null>;
  /** a heatmap cell is clicked, tapped or reached with the arrow keys */
  'ae-token-select': CustomEvent<TokenCell>;
}

declare global {
  interface HTMLElementEventMap extends AttentionExplorerEventMap {}
  interface DocumentEventMap extends AttentionExplorerEventMap {}
  interface HTMLElementTagNameMap {
    'attention-explorer': AttentionExplorerElement;
    'ae-attention-heatmap': AttentionHeatmapElement;
    'ae-head-view': PanelElement & AttentionDataElement & { overlay: boolean };
    'ae-flip-pair': PanelElement;
    'ae-flip-view': PanelElement;
    'ae-head-grid': PanelElement & AttentionDataElement;
    /** your own attention as coloured tokens (attention-explorer/attention-pattern) */
    'ae-attention-pattern': PanelElement & AttentionDataElement;
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
    /** "Encoder–decoder: translation" (attention-explorer/translation): fetches the pair and the full module when used */
    'ae-translation': PanelElement;
    /** "Train it yourself" (attention-explorer/train; not in /elements): trains in a worker on the full module */
    'ae-train': PanelElement;
  }
}
