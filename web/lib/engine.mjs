// The JS face of the wasm core: the package's entry (index.mjs) and the Node tests'. It is
// ./engine-core.mjs — the Engine, loadEngine, the models, the contract's EngineError, … — plus
// the timing classes (./wasm-timing.mjs: KernelWorkspace, ModelBench, which createKernelWorkspace
// and createModelBench make), which the page's first view does without (context.mjs imports
// engine-core.mjs; the n² cost panel imports the timing classes itself).
export * from './engine-core.mjs';
export { KernelWorkspace, ModelBench } from './wasm-timing.mjs';
