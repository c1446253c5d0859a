// Types of `attention-explorer/store` (web/lib/store.mjs): the selection state the lesson panels
// share (StoreState in ../index.d.ts).
import type { Store, StoreState } from '../index.js';

export { createStore } from '../index.js';

/** A view before its first run (model 'untrained', lesson defaults). */
export declare function initialView(): StoreState;

/** The page's one store: every panel follows it unless given another through its `store` property. */
export declare const store: Store;
