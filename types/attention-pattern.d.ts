// Types of `attention-explorer/attention-pattern` (web/components/attention-pattern.mjs): defines <ae-attention-pattern>,
// typed in ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type AttentionPattern = HTMLElementTagNameMap['ae-attention-pattern'];
export declare const AttentionPattern: { prototype: AttentionPattern; new (): AttentionPattern };
