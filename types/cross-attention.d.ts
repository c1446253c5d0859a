// Types of `attention-explorer/cross-attention` (web/components/cross-attention.mjs): defines <ae-cross-attention>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type CrossAttention = HTMLElementTagNameMap['ae-cross-attention'];
export declare const CrossAttention: { prototype: CrossAttention; new (): CrossAttention };
