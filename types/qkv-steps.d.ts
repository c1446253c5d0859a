// Types of `attention-explorer/qkv-steps` (web/components/qkv-steps.mjs): defines <ae-qkv-steps>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type QkvSteps = HTMLElementTagNameMap['ae-qkv-steps'];
export declare const QkvSteps: { prototype: QkvSteps; new (): QkvSteps };
