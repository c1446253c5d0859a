// Types of `attention-explorer/attention-explorer` (web/components/attention-explorer.mjs): defines <attention-explorer>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type AttentionExplorer = HTMLElementTagNameMap['attention-explorer'];
export declare const AttentionExplorer: { prototype: AttentionExplorer; new (): AttentionExplorer };
