// Timing the core from JS (Engine.createKernelWorkspace and createModelBench, engine-core.mjs):
// the benchmarks' objects and the n² cost panel's, never the first view's. Importing this module
// lets an engine make them (./engine.mjs and components/cost.mjs do).
import { EngineError, args, boolean, deleted, integer, modelFiles, options, seed, text } from './contract.mjs';
import { guarded } from './guarded.mjs';
import { provideTiming } from './engine-core.mjs';

// Operand buffers in wasm memory for timing the fast kernels from JS (bindings/kernels.cpp):
// write the operands through a, b, c once, then time gemm()/attentionFused()/attentionTraced()
// with performance.now(); the calls copy nothing across the boundary and return nothing.
//   gemm(variant, M, N, K, transposeB): A = a (M×K), B = b (K×N, or N×K), C = c (M×N)
//   attentionFused/attentionTraced(n, d, causal, window): Q = a (n×d), K = b[0, n·d),
//     V = b[n·d, 2n·d), output → c (n×d)
// a, b and c are Float32Array views of wasm memory, taken again whenever memory growth has
// detached them — so read them after a call, never keep one across calls.
export class KernelWorkspace {
  #module;
  #handle;
  #views = {};

  constructor(module, capacity) {
    this.#module = module;
    const [c] = args('createKernelWorkspace', [capacity], { capacity: integer() });
    this.#handle = guarded(module, 'createKernelWorkspace', () => new module.KernelWorkspace(c));
    this.capacity = this.#handle.capacity();
  }

  #view(name) {
    if (!this.#handle) throw deleted(name, 'workspace');
    const v = this.#views[name];
    if (v && v.buffer.byteLength > 0) return v; // growth detaches the old buffer (length 0)
    return (this.#views[name] = this.#handle[name]());
  }

  get a() {
    return this.#view('a');
  }
  get b() {
    return this.#view('b');
  }
  get c() {
    return this.#view('c');
  }

  // Fills a, b and c with seeded N(0, 1) values (the same on every build).
  fillRandom(seedValue = 1) {
    this.#call('fillRandom', [seedValue], { seed });
  }
  // Allocates the packing buffer for gemm calls up to M×N×K ahead of timing.
  reserveGemm(m, n, k) {
    this.#call('reserveGemm', [m, n, k], { m: integer(0), n: integer(0), k: integer(0) });
  }
  gemm(variant, m, n, k, transposeB = false) {
    this.#call('gemm', [variant, m, n, k, transposeB], {
      variant: text(256),
      m: integer(0),
      n: integer(0),
      k: integer(0),
      transposeB: boolean(),
    });
  }
  attentionFused(n, d, causal = false, window = 0) {
    this.#call('attentionFused', [n, d, causal, window], KERNEL_ATTENTION);
  }
  attentionTraced(n, d, causal = false, window = 0) {
    this.#call('attentionTraced', [n, d, causal, window], KERNEL_ATTENTION);
  }

  // Checks the arguments, then calls the method of the same name.
  #call(name, values, readers) {
    if (!this.#handle) throw deleted(name, 'workspace');
    const checked = args(name, values, readers);
    guarded(this.#module, name, () => this.#handle[name](...checked));
  }

  // Frees the buffers; the object is unusable afterwards.
  delete() {
    this.#handle?.delete();
    this.#handle = null;
    this.#views = {};
  }
}

// A separate copy of a trained model for timing inside wasm (bindings/bench.cpp); benchmarks
// only, in the engine of the benchmarks' module (see loadEngine).
//   analyzeTiming(text, reps) → {coreMicroseconds, geluMicroseconds, withPackedMicroseconds, reps}
//   trainingThroughput({steps, batchSize, examples, seed}) → {stepsPerSecond, seconds, steps, …}
export class ModelBench {
  #module;
  #handle;

  constructor(module, { config, weights, vocab }) {
    this.#module = module;
    const files = modelFiles('createModelBench', { config, weights, vocab });
    if (!module.ModelBench)
      throw new EngineError(
        "createModelBench: the page's module has no benchmarks; load the engine with " +
          "loadEngine(options, 'bench') (dist/attention_bench.mjs)",
        'bad-input',
        { call: 'createModelBench' },
      );
    this.#handle = guarded(
      module,
      'createModelBench',
      () => new module.ModelBench(files.config, files.weights, files.vocab),
    );
  }

  analyzeTiming(sentence, reps = 1000) {
    if (!this.#handle) throw deleted('analyzeTiming', 'bench');
    const checked = args('analyzeTiming', [sentence, reps], { text: text(), reps: integer() });
    return guarded(this.#module, 'analyzeTiming', () => this.#handle.analyzeTiming(...checked));
  }

  trainingThroughput(throughput = {}) {
    if (!this.#handle) throw deleted('trainingThroughput', 'bench');
    const o = {
      steps: 20,
      batchSize: 32,
      examples: 256,
      seed: 1,
      ...options('trainingThroughput', throughput, THROUGHPUT_OPTIONS),
    };
    return guarded(this.#module, 'trainingThroughput', () =>
      this.#handle.trainingThroughput(o.steps, o.batchSize, o.examples, o.seed),
    );
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

const KERNEL_ATTENTION = { n: integer(), d: integer(), causal: boolean(), window: integer() };

const THROUGHPUT_OPTIONS = {
  steps: integer(1, 100_000),
  batchSize: integer(1, 4096),
  examples: integer(2, 1_000_000),
  seed,
};

// The engine makes these (createKernelWorkspace, createModelBench) once this module is loaded.
provideTiming({ KernelWorkspace, ModelBench });
