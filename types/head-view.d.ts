// Types of `attention-explorer/head-view` (web/components/head-view.mjs): defines <ae-head-view>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type HeadView = HTMLElementTagNameMap['ae-head-view'];
export declare const HeadView: { prototype: HeadView; new (): HeadView };
