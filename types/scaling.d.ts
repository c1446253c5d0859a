// Types of `attention-explorer/scaling` (web/components/scaling.mjs): defines <ae-scaling>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type Scaling = HTMLElementTagNameMap['ae-scaling'];
export declare const Scaling: { prototype: Scaling; new (): Scaling };
