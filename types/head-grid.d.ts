// Types of `attention-explorer/head-grid` (web/components/head-grid.mjs): defines <ae-head-grid>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type HeadGrid = HTMLElementTagNameMap['ae-head-grid'];
export declare const HeadGrid: { prototype: HeadGrid; new (): HeadGrid };
