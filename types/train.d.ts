// Types of `attention-explorer/train` (web/components/train.mjs): defines <ae-train>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type Train = HTMLElementTagNameMap['ae-train'];
export declare const Train: { prototype: Train; new (): Train };
