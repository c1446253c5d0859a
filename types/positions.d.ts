// Types of `attention-explorer/positions` (web/components/positions.mjs): defines <ae-positions>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type Positions = HTMLElementTagNameMap['ae-positions'];
export declare const Positions: { prototype: Positions; new (): Positions };
