// What the "Train it yourself" workers run: a TrainingSession in chunks of steps, in the worker's
// own copy of the wasm module, so the page's main thread only draws. Two workers serve it
// (components/train.mjs starts one): ./train-worker.mjs, a module worker on the single-thread full
// module, and ./train-worker-threads.js, a classic worker on the threaded one where the page is
// cross-origin isolated. Both train the same bits; the second on several cores.
//
// Messages in:  {type: 'start', settings, snapshots}  (snapshots: how many to take over the run)
//               {type: 'pause'} | {type: 'resume'} | {type: 'stop'}
// Messages out: {type: 'started', settings, threads}  (threads: how many the session may run on)
//               {type: 'progress', step, steps, loss, accuracy, validationAccuracy, stepsPerSecond,
//                secondsLeft (null for the first 2 % of steps: time-left.mjs), paused}
//                                                             at least every PROGRESS_MS while running
//               {type: 'snapshot', snapshot, validationAccuracy}  step 0, every steps/snapshots, the end
//               {type: 'done', stopped, files, metrics}       files: exportFiles() (F16), weights transferred
//               {type: 'error', message, code}
import { TimeLeft } from './time-left.mjs';

const CHUNK_MS = 100; // a chunk of steps lasts about this long, then messages are read
const PROGRESS_MS = 250; // the bound on the time between two progress reports

let openTrainer = null; // () → Promise<{threads, createSession(settings)}>, the worker's (serveTraining)
let trainerPromise = null;
let run = null; // {session, paused, stopped, …}

const post = (message, transfer = []) => self.postMessage(message, transfer);
const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

// Answers this worker's messages with runs of the trainer that open() loads: a promise of
// {threads, createSession(settings) → TrainingSession}. pending: messages that came before (a
// classic worker queues them while it imports this module).
export function serveTraining(open, pending = []) {
  openTrainer = open;
  self.onmessage = ({ data }) => received(data);
  for (const { data } of pending) received(data);
}

function received(data) {
  if (data.type === 'start' && run)
    post({ type: 'error', message: 'a training run is already going', code: 'bad-input' });
  else if (data.type === 'start') start(data).catch(fail);
  else if (!run) return;
  else if (data.type === 'pause') run.paused = true;
  else if (data.type === 'resume') run.paused = false;
  else if (data.type === 'stop') run.stopped = true;
}

function fail(error) {
  post({ type: 'error', message: String(error?.message ?? error), code: error?.code ?? 'internal' });
  run?.session?.delete();
  run = null;
}

async function start({ settings, snapshots = 40 }) {
  run = { session: null, paused: false, stopped: false }; // at once: a second start is refused while the module loads
  if (!trainerPromise) {
    trainerPromise = openTrainer();
    trainerPromise.catch(() => {
      trainerPromise = null;
    }); // a failed load is retried by the next start
  }
  const trainer = await trainerPromise;
  const session = (run.session = trainer.createSession(settings));
  const total = session.settings.steps;
  post({ type: 'started', settings: session.settings, threads: settings.threads ?? trainer.threads });
  const every = Math.max(1, Math.ceil(total / snapshots));
  let nextSnapshot = 0;
  let validation = takeSnapshot(session);
  nextSnapshot += every;

  const timeLeft = new TimeLeft(total); // from the wall-time pace, snapshots included
  let chunk = 1; // steps per chunk, adapted to last about CHUNK_MS
  let trainingMs = 0; // time spent in step(): the steps/s figure
  let last = { step: 0, loss: NaN, accuracy: NaN, finished: false };
  let lastProgress = 0;
  const report = (force) => {
    const now = performance.now();
    if (!force && now - lastProgress < PROGRESS_MS / 2) return;
    lastProgress = now;
    const done = last.step;
    const stepsPerSecond = trainingMs > 0 ? (1000 * done) / trainingMs : 0;
    post({
      type: 'progress',
      step: done,
      steps: total,
      loss: last.loss,
      accuracy: last.accuracy,
      validationAccuracy: validation,
      stepsPerSecond,
      secondsLeft: timeLeft.seconds(done, now),
      paused: run.paused,
    });
  };

  while (!run.stopped) {
    if (run.paused) {
      timeLeft.pause(performance.now());
      report(true);
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_MS / 2));
      await yieldToMessages();
      continue;
    }
    timeLeft.resume(performance.now());
    const count = Math.max(1, Math.min(chunk, nextSnapshot - last.step, total - last.step));
    const t0 = performance.now();
    last = session.step(count);
    const ms = performance.now() - t0;
    trainingMs += ms;
    chunk = Math.max(1, Math.round(count * (CHUNK_MS / Math.max(ms, 1))));
    if (last.step >= nextSnapshot || last.finished) {
      validation = takeSnapshot(session);
      nextSnapshot = Math.min(total, last.step + every);
    }
    report(last.finished);
    if (last.finished) break;
    await yieldToMessages();
  }
  const stopped = run.stopped && !last.finished;
  if (stopped) validation = takeSnapshot(session);
  report(true);
  const files = session.exportFiles({ dtype: 'f16', name: 'trained-here' });
  session.delete();
  run = null;
  post({ type: 'done', stopped, files, validationAccuracy: validation }, [files.weights.buffer]);
}

// Posts the lesson pair's rows in every head and the validation accuracy; returns the accuracy.
function takeSnapshot(session) {
  const snapshot = session.snapshot();
  const validationAccuracy = session.validationAccuracy();
  post(
    { type: 'snapshot', snapshot, validationAccuracy },
    snapshot.lesson.map((l) => l.rows.buffer),
  );
  return validationAccuracy;
}
