// Types of `attention-explorer/multi-head` (web/components/multi-head.mjs): defines <ae-multi-head>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type MultiHead = HTMLElementTagNameMap['ae-multi-head'];
export declare const MultiHead: { prototype: MultiHead; new (): MultiHead };
