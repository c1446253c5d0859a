// Types of `attention-explorer/kv-cache` (web/components/kv-cache.mjs): defines <ae-kv-cache>, typed in
// ../elements.d.ts (HTMLElementTagNameMap, the ae-* events).
import '../elements.js';

export type KvCache = HTMLElementTagNameMap['ae-kv-cache'];
export declare const KvCache: { prototype: KvCache; new (): KvCache };
