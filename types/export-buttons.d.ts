// Types of `attention-explorer/export-buttons` (web/components/export-buttons.mjs): defines <ae-export-buttons>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type ExportButtons = HTMLElementTagNameMap['ae-export-buttons'];
export declare const ExportButtons: { prototype: ExportButtons; new (): ExportButtons };
