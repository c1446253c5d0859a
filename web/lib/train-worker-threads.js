// "Train it yourself" on several cores: the classic-script twin of ./train-worker.mjs, which
// components/train.mjs starts where the page is cross-origin isolated (SharedArrayBuffer). Its
// module is the trainer compiled with pthreads, ../dist/attention-full-mt.js (CMakeLists.txt,
// attention_full_mt): Emscripten 3.1.6 starts pthreads only from a module linked as a classic
// script, which a module worker cannot load (docs/benchmarks.md). So this worker is classic: it
// loads that module with importScripts and the message loop (./train-runner.mjs) with import().
// The session's threads share each step's examples and sum the gradients in example order: the
// same bits as the single-thread module of the same instruction set (SIMD128).
'use strict';

// The module prestarts 3 pthread workers (AE_WASM_THREAD_POOL), so a session runs on at most 4.
// The page says how many (components/train.mjs: one core fewer than there are); else all but one.
const MAX_THREADS = 4;
const pending = []; // messages that arrive while the runner is imported
self.onmessage = (event) => pending.push(event);

const glue = new URL('../dist/attention-full-mt.js', self.location.href).href;
const threads = Math.max(1, Math.min(MAX_THREADS, (self.navigator.hardwareConcurrency || 1) - 1));

// A failure to load the module says 'unavailable': the page then starts ./train-worker.mjs instead.
function unavailable(error) {
  const failed = new Error(`the threaded trainer could not load: ${error?.message ?? error}`);
  failed.code = 'unavailable';
  return failed;
}

async function openTrainer() {
  try {
    self.importScripts(glue); // defines createAttentionModule (MODULARIZE)
    const [module, { TrainingSession }] = await Promise.all([
      // the pthread workers load the glue again, by this URL, and find the .wasm and their own
      // script beside it (not beside this worker, where the glue would look)
      self.createAttentionModule({
        mainScriptUrlOrBlob: glue,
        locateFile: (file) => new URL(file, glue).href,
      }),
      import('./training-session.mjs'),
    ]);
    // settings.threads, when given, wins (benchmarks compare 1 and 2 threads in this module)
    return { threads, createSession: (settings) => new TrainingSession(module, { threads, ...settings }) };
  } catch (error) {
    throw unavailable(error);
  }
}

import('./train-runner.mjs').then(
  ({ serveTraining }) => serveTraining(openTrainer, pending),
  (error) => self.postMessage({ type: 'error', message: unavailable(error).message, code: 'unavailable' }),
);
