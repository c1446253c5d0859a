// Types of `attention-explorer/layer` (web/components/layer.mjs): defines <ae-layer>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type LayerPanel = HTMLElementTagNameMap['ae-layer'];
export declare const LayerPanel: { prototype: LayerPanel; new (): LayerPanel };
