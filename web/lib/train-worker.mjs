// "Train it yourself" in a module worker, on the single-thread full module (engine.mjs,
// Engine.full(): the trainer is in the full module only): everywhere the page is not cross-origin
// isolated, and where ./train-worker-threads.js could not start. Messages: ./train-runner.mjs.
import { chooseModule, loadEngine } from './engine.mjs';
import { serveTraining } from './train-runner.mjs';

serveTraining(async () => {
  const engine = await loadEngine({}, chooseModule('full'));
  return { threads: 1, createSession: (settings) => engine.createTrainingSession(settings) };
});
