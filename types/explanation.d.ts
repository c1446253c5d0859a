// Types of `attention-explorer/explanation` (web/components/explanation.mjs): defines <ae-explanation>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type Explanation = HTMLElementTagNameMap['ae-explanation'];
export declare const Explanation: { prototype: Explanation; new (): Explanation };
