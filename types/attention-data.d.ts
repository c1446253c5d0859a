// Types of `attention-explorer/attention-data` (web/lib/attention-data.mjs): your own attention,
// checked and loaded (docs/own-attention.md).
import type { AttentionData, AttentionFile } from '../elements.js';

export type { AttentionData, AttentionFile };
export declare const FORMAT: 'attention-explorer/attention';
export declare const VERSION: 1;
/** Thrown for data that cannot be drawn; the message names the field and what it should be. */
export declare class AttentionDataError extends TypeError {}
/** AttentionData checked and flattened: weights row-major [layer][head][query][key]. */
export interface NormalizedAttention {
  queryTokens: string[];
  keyTokens: string[];
  cross: boolean;
  layers: number;
  heads: number;
  q: number;
  k: number;
  weights: Float32Array;
  labels: { layers: string[] | null; heads: string[] | null };
  caption: string;
}
export declare function normalizeAttention(data: AttentionData): NormalizedAttention;
/** One head's q×k weights (a view into normalized.weights); layer and head 0-based. */
export declare function matrixOf(normalized: NormalizedAttention, layer?: number, head?: number): Float32Array;
/** An attention file's object (parsed JSON) → AttentionData, checking format and version. */
export declare function fromAttentionJson(json: unknown): AttentionData;
/** Fetches an attention file (or checks an object already parsed). */
export declare function loadAttentionJson(source: string | URL | AttentionFile): Promise<AttentionData>;
