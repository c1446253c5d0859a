// The trainer's JS object (engine.mjs, Engine.createTrainingSession; full module only).
import { args, boolean, deleted, finite, integer, options, refuse, seed, text } from './contract.mjs';
import { guarded } from './guarded.mjs';

// A training run of "Train it yourself" (bindings/training.cpp, train/session.h), stepped by
// the caller — the page's worker (train-worker.mjs) — a chunk at a time:
//   step(n) → {step, ran, loss, accuracy, learningRate, finished} (means over the n steps; null
//     when no step ran: step(0), or after the last step);
//   validationAccuracy() → share of the validation sample right;
//   snapshot() → {step, head: {layer, head, referent, other}, lesson: [{text, tokens, query,
//     referent, other, rows}]}: the lesson pair's query row (it, "=" or [CLS]) in every head,
//     rows a Float32Array nLayers × nHeads × tokens; head is the head rule's choice (−1 for word order);
//   exportFiles({dtype: 'f16' | 'f32', name}) → {config, weights: Uint8Array, vocab, metrics},
//     the documented model format, loadable with loadTrainedModel.
export class TrainingSession {
  #module;
  #handle;

  constructor(module, settings) {
    this.#module = module;
    const checked = options('createTrainingSession', settings, TRAINING_SETTINGS, 'settings');
    this.#handle = guarded(module, 'createTrainingSession', () => new module.TrainingSession(checked));
    this.settings = guarded(module, 'settings', () => this.#handle.settings());
  }

  #live(call) {
    if (!this.#handle) throw deleted(call, 'training session');
    return this.#handle;
  }

  step(count = 1) {
    const handle = this.#live('step');
    const [n] = args('step', [count], { count: integer(0, TRAINING_STEPS_MAX) });
    return guarded(this.#module, 'step', () => handle.step(n));
  }

  validationAccuracy() {
    const handle = this.#live('validationAccuracy');
    return guarded(this.#module, 'validationAccuracy', () => handle.validationAccuracy());
  }

  snapshot() {
    const handle = this.#live('snapshot');
    return guarded(this.#module, 'snapshot', () => handle.snapshot());
  }

  exportFiles(exportOptions = {}) {
    const handle = this.#live('exportFiles');
    const o = options('exportFiles', exportOptions, { dtype: oneOf(['f16', 'f32']), name: text(200) });
    return guarded(this.#module, 'exportFiles', () =>
      handle.exportFiles((o.dtype ?? 'f16') === 'f16', o.name ?? 'trained-here'),
    );
  }

  delete() {
    this.#handle?.delete();
    this.#handle = null;
  }
}

// One of the given strings.
function oneOf(values) {
  return (call, option, v) =>
    values.includes(v) ? v : refuse(call, option, values.map((x) => `'${x}'`).join(', '), v);
}

// Bounds of train/session.h (SessionBounds); the core checks them again with its own message.
const TRAINING_STEPS_MAX = 20_000;
const TRAINING_SETTINGS = {
  task: oneOf(['coref-encoder', 'coref-decoder', 'word-order']),
  positional: oneOf(['none', 'sinusoidal', 'learned', 'rope']),
  seed,
  steps: integer(1, TRAINING_STEPS_MAX),
  heads: integer(1, 8),
  layers: integer(1, 4),
  batch: integer(1, 128), // coreference: even, 2–128 (whole minimal pairs); the core says so (bad-config)
  learningRate: finite(1e-5, 0.05),
  perExample: boolean(), // benchmarks: the per-example loop batched rows replaced (the same bits)
  threads: integer(1, 16), // the threaded module's (train-worker-threads.js); the same bits for any number
};
