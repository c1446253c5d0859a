// Types of `attention-explorer/cost` (web/components/cost.mjs): defines <ae-cost>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type Cost = HTMLElementTagNameMap['ae-cost'];
export declare const Cost: { prototype: Cost; new (): Cost };
