// Types of `attention-explorer/context` (web/lib/context.mjs): the one engine and model cache the
// elements share (the same functions the main entry exports, and the menus' local models).
import type { ModelFiles, TrainedModel, TranslationModel } from '../index.js';

export { addLocalModel, getEngine, getModelIndex, getTrainedModel, setModelsBase } from '../index.js';

/** Models the page carries instead of fetching ({name: files}); getModelIndex lists them. */
export declare function setBundledModels(files: Record<string, ModelFiles>): void;

/** The encoder–decoder pair models/<name>/ (full module), once per name and models/ directory (`base`: the page's by default). */
export declare function getTranslationModel(name?: string, base?: string | URL | null): Promise<TranslationModel>;

/** The models added with addLocalModel so far. */
export declare function getLocalModels(): Array<{ name: string; label: string }>;

/** A model that is not fetched (one opened from disk) served under `name`; null: none (asking fails). */
export declare function shareModel(name: string, model: TrainedModel | null): void;

/** Calls `listener` for each model added with addLocalModel; returns the function that stops it. */
export declare function onLocalModel(listener: (model: { name: string; label: string }) => void): () => void;
