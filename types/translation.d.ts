// Types of `attention-explorer/translation` (web/components/translation.mjs): defines <ae-translation>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type Translation = HTMLElementTagNameMap['ae-translation'];
export declare const Translation: { prototype: Translation; new (): Translation };
