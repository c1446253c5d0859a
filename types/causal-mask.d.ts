// Types of `attention-explorer/causal-mask` (web/components/causal-mask.mjs): defines <ae-causal-mask>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type CausalMask = HTMLElementTagNameMap['ae-causal-mask'];
export declare const CausalMask: { prototype: CausalMask; new (): CausalMask };
