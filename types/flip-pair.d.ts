// Types of `attention-explorer/flip-pair` (web/components/flip-pair.mjs): defines <ae-flip-pair>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type FlipPair = HTMLElementTagNameMap['ae-flip-pair'];
export declare const FlipPair: { prototype: FlipPair; new (): FlipPair };
