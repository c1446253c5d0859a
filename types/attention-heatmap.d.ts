// Types of `attention-explorer/attention-heatmap` (web/components/attention-heatmap.mjs): defines <ae-attention-heatmap>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type AttentionHeatmap = HTMLElementTagNameMap['ae-attention-heatmap'];
export declare const AttentionHeatmap: { prototype: AttentionHeatmap; new (): AttentionHeatmap };
