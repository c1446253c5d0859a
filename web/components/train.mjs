// <ae-train>: panel 15, "Train it yourself". The core's TrainingSession runs in a Web Worker
// (../lib/train-runner.mjs: on several cores where the page is cross-origin isolated); this element
// only sends start / pause / resume / stop and draws what comes back: progress, the lesson pair's
// query row in every head (snapshots, with a timeline to scrub once training is over), the head
// rule's referent / other weights over the steps, and every run's validation accuracy (word order
// with and without positions side by side). The trained model joins the page's model menu
// (context.mjs addLocalModel), can be downloaded in the documented format and loaded back from
// disk. No model math here: every number drawn is one the worker's session gave. Reads the shared
// store: lang. Its settings are declared controls (LessonPanel), linked as train.<name>; a task's
// recipe gives the defaults of the others, and choosing a task brings them back to its recipe.
import { define } from '../lib/define.mjs';
import { addLocalModel, getEngine } from '../lib/context.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import { trustedScriptURL } from '../lib/trusted.mjs';
import { percent } from '../lib/panel-strings.mjs';
import strings from '../strings/train.mjs';
import { el, svgNode } from '../lib/dom.mjs';
import { modelDownloads, readModelFiles } from '../lib/model-files.mjs';
import css from './train.css.mjs';

const TASKS = ['coref-encoder', 'coref-decoder', 'word-order'];
const POSITIONALS = ['none', 'sinusoidal', 'learned', 'rope'];
// The recipes' settings per task (train/session.cpp resolves the same when a field is unset).
const DEFAULTS = {
  'coref-encoder': { steps: 2000, heads: 4, layers: 3, learningRate: 0.004, positional: 'rope' },
  'coref-decoder': { steps: 2000, heads: 4, layers: 3, learningRate: 0.004, positional: 'rope' },
  'word-order': { steps: 600, heads: 2, layers: 2, learningRate: 0.003, positional: 'rope' },
};
const CHART = { width: 480, height: 140, pad: 28 };
const SETTINGS = ['task', 'positional', 'seed', 'steps', 'learningRate', 'heads', 'layers'];

// A setting: its label is its name in the strings; `name` for the page's tests; the task's
// recipe gives its default unless the spec says otherwise.
const recipe = (name) => (p) => String(DEFAULTS[p.value('task')][name]);
const setting = (name, spec) => ({
  label: name,
  default: recipe(name),
  group: 'ae-tr-controls',
  ...spec,
  attrs: { name, ...spec.attrs },
});
const numberSetting = (name, attrs, sample) =>
  setting(name, { kind: 'text', attrs: { type: 'number', ...attrs }, sample });
const choices = (values, label) =>
  values.map((v) => ({ value: String(v), ...(label ? { label: label(v) } : { text: String(v) }) }));
const button = (action, label, press) => ({
  kind: 'button',
  label,
  group: 'ae-tr-buttons',
  attrs: { 'data-action': action },
  press,
});

let trainedCount = 0;
let loadedCount = 0;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// The package's own file layout, not a bundle: this module is still web/components/train.mjs
// (a bundler renames it into a chunk, and webpack makes import.meta.url a file: URL).
const here = import.meta.url; // not inline: bundlers would treat new URL(…, here) as an asset
const unbundled = /\/components\/train\.mjs$/.test(here) && !here.startsWith('file:');

// The training worker. As the package lays it out, its URL goes through the package's Trusted
// Types policy (trusted.mjs). In a bundle, the literal new Worker(new URL(…, import.meta.url))
// is what Vite and webpack recognise: they bundle the worker with its imports (copied as a bare
// asset, its `./engine.mjs` import would not load); a bundled page that enforces Trusted Types
// needs a default policy for it (docs/embedding.md).
function createTrainWorker(threaded) {
  if (threaded) return new Worker(trustedScriptURL(new URL('../lib/train-worker-threads.js', here)));
  if (unbundled) return new Worker(trustedScriptURL(new URL('../lib/train-worker.mjs', here)), { type: 'module' });
  return new Worker(new URL('../lib/train-worker.mjs', import.meta.url), { type: 'module' });
}

// The trainer on several cores (../lib/train-worker-threads.js) where the page may share memory
// with its workers (the server sent COOP and COEP: scripts/serve.mjs) and two cores are left once
// one is kept for the page: with every core training, the page's own short tasks waited for one
// and ran 60 ms long (train-pace.alone.spec). The package's own layout only (a bundle has no
// dist/attention-full-mt.js beside it). Once it fails to start, one core for the rest of the page's life.
const MAX_THREADS = 4; // the threaded module's 3 prestarted pthread workers + the worker itself
let threadsUsable = unbundled && globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
const trainingThreads = () => Math.max(1, Math.min(MAX_THREADS, (globalThis.navigator?.hardwareConcurrency ?? 1) - 1));
const useThreads = () => threadsUsable && trainingThreads() > 1;

export class Train extends LessonPanel {
  static styles = [css];
  static watched = ['lang'];
  static strings = strings;
  static link = 'train';
  static controls = {
    task: setting('task', { kind: 'select', options: choices(TASKS, (t) => `tasks.${t}`), default: TASKS[0] }),
    positional: setting('positional', { kind: 'select', options: choices(POSITIONALS, (v) => `positionals.${v}`) }),
    seed: { ...numberSetting('seed', { min: 0, step: 1 }, '2'), default: '1' },
    steps: numberSetting('steps', { min: 1, max: 20000, step: 1 }, '300'),
    learningRate: numberSetting('learningRate', { min: 0.00001, max: 0.05, step: 0.0005 }, '0.002'),
    heads: setting('heads', { kind: 'select', options: choices([1, 2, 4, 8]) }),
    layers: setting('layers', { kind: 'select', options: choices([1, 2, 3, 4]) }),
    start: button('start', 'start', (p) => p.#start()),
    pause: button(
      'pause',
      (p) => (p.#state === 'paused' ? 'resume' : 'pause'),
      (p) => p.#pauseOrResume(),
    ),
    stop: button('stop', 'stop', (p) => p.#send({ type: 'stop' })),
  };

  #parts = null;
  #worker = null;
  #threaded = false; // the worker is the threaded one (train-worker-threads.js)
  #state = 'idle'; // idle | starting | running | paused | done
  #run = null; // {n, settings, snapshots: [], curve: [{step, value}], progress, files, label, stopped}
  #runs = []; // every run of this page: {n, settings, curve}
  #shown = -1; // index of the snapshot drawn; -1: the latest
  #message = null; // {key, params} of the status line
  #loadMessage = null;
  #drawn = null; // which snapshot the rows show (see #renderSnapshot)

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#worker?.terminate();
    this.#worker = null;
  }

  storeChanged() {
    this.#render();
  }

  // Choosing a task (the reader's change of it alone) brings the other settings to its recipe.
  controlsChanged(names) {
    if (names.length !== 1 || names[0] !== 'task') return;
    const recipe = this.defaults();
    delete recipe.task;
    delete recipe.seed;
    this.setValues(recipe);
  }

  build() {
    const p = this.frame('ae-tr', ['status', 'error']);
    const { id, root } = p;
    this.group('ae-tr-controls').append(this.group('ae-tr-buttons'));
    for (const name of ['start', 'pause', 'stop']) p[name] = this.control(name).node;
    p.rowsTitle = el('h3', '', root);
    p.rowsHowTo = el('p', 'howto', root);
    const timelineField = el('div', 'field inline ae-tr-timeline', root);
    this.text('label', '', timelineField, 'timeline', { for: `${id}-timeline` });
    const range = { type: 'range', min: 0, max: 0, value: 0, disabled: '' };
    const timeline = (p.timeline = el('input', '', timelineField, { id: `${id}-timeline`, ...range }));
    p.timelineValue = el('output', '', timelineField, { for: `${id}-timeline` });
    p.rows = el('div', 'ae-tr-rows', root);
    p.headRule = el('p', 'ae-tr-note', root);
    p.weightsTitle = this.text('h3', '', root, 'weightsTitle');
    p.weights = el('div', 'ae-tr-chart ae-tr-weights', root);
    p.accuracyTitle = this.text('h3', '', root, 'accuracyTitle');
    p.accuracy = el('div', 'ae-tr-chart ae-tr-accuracy', root);
    p.resultTitle = this.text('h3', '', root, 'result');
    p.downloads = el('p', 'ae-tr-downloads', root);
    const loadField = (p.loadField = el('div', 'ae-tr-drop', root));
    this.text('label', '', loadField, 'load', { for: `${id}-load` });
    const load = (p.load = el('input', '', loadField, { id: `${id}-load`, type: 'file', multiple: '' }));
    this.text('span', 'howto', loadField, 'drop');
    p.loadStatus = el('p', 'ae-tr-load-status', root, { role: 'status' });
    this.mount(root);
    this.#parts = p;
    timeline.addEventListener('input', () => {
      this.#shown = Number(timeline.value);
      this.#renderSnapshot();
    });
    load.addEventListener('change', () => this.#loadFiles(load.files));
    loadField.addEventListener('dragover', (event) => event.preventDefault());
    loadField.addEventListener('drop', (event) => {
      event.preventDefault();
      this.#loadFiles(event.dataTransfer.files);
    });
  }

  #settings() {
    const v = this.values();
    const number = (key) => Number(v[key]);
    return {
      task: v.task,
      positional: v.positional,
      ...Object.fromEntries(SETTINGS.slice(2).map((k) => [k, number(k)])),
    };
  }

  #send(message) {
    this.#worker?.postMessage(message);
  }

  #start() {
    if (this.#state === 'running' || this.#state === 'paused' || this.#state === 'starting') return;
    this.#worker ??= this.#createWorker();
    const settings = this.#settings();
    this.#run = {
      n: this.#runs.length + 1,
      settings,
      snapshots: [],
      curve: [],
      weights: [],
      progress: null,
      files: null,
    };
    this.#runs.push(this.#run);
    this.#shown = -1;
    this.#state = 'starting';
    this.#message = { key: 'starting' };
    this.#error(null);
    this.#send({ type: 'start', settings: this.#threaded ? { ...settings, threads: trainingThreads() } : settings });
    this.#render();
  }

  #createWorker() {
    const threaded = useThreads();
    const worker = createTrainWorker(threaded);
    worker.onmessage = ({ data }) => this.#received(data);
    worker.onerror = (event) => {
      event.preventDefault?.(); // reported here, not as an uncaught error
      this.#failed({ message: event.message ?? 'the worker failed', code: threaded ? 'unavailable' : 'internal' });
    };
    this.#threaded = threaded;
    return worker;
  }

  // The threaded worker could not load its module (a host that does not serve it, a browser that
  // refuses its pthreads): the same run again in the single-thread worker.
  #fallBack(error) {
    console.warn(`Attention Explorer: training on one core: ${error.message}`);
    threadsUsable = false;
    this.#worker.terminate();
    this.#worker = this.#createWorker();
    this.#send({ type: 'start', settings: this.#run.settings });
  }

  #pauseOrResume() {
    if (this.#state === 'running') {
      this.#state = 'paused';
      this.#send({ type: 'pause' });
    } else if (this.#state === 'paused') {
      this.#state = 'running';
      this.#send({ type: 'resume' });
    }
    this.#render();
  }

  #received(data) {
    const run = this.#run;
    if (data.type === 'started') {
      run.settings = data.settings;
      run.threads = data.threads;
      this.dataset.threads = String(data.threads);
      this.#state = 'running';
    } else if (data.type === 'progress') {
      run.progress = data;
      if (this.#state !== 'paused' || data.paused)
        this.#message = data.paused ? { key: 'paused', params: data } : { key: 'progress' };
    } else if (data.type === 'snapshot') {
      run.snapshots.push(data.snapshot);
      run.curve.push({
        step: data.snapshot.step,
        value: data.validationAccuracy,
      });
      if (data.snapshot.head.layer >= 0) run.weights.push({ step: data.snapshot.step, ...data.snapshot.head });
    } else if (data.type === 'done') {
      this.#finish(data);
      return;
    } else if (data.type === 'error') {
      this.#failed(data);
      return;
    }
    this.#render();
  }

  async #finish({ stopped, files }) {
    const run = this.#run;
    run.files = files;
    run.stopped = stopped;
    this.#state = 'done';
    this.#shown = run.snapshots.length - 1;
    const label = this.t('trainedLabel', {
      n: ++trainedCount,
      task: this.t(`tasks.${run.settings.task}`).split(/[:：]/)[0],
    });
    const name = `trained-here-${trainedCount}`;
    // The finished run drawn, the model loaded and the menus told, each in a task of its own: in
    // one, they made a main-thread task of 50–100 ms at the end of every run (train-pace.alone.spec).
    this.#render();
    try {
      const engine = await getEngine();
      await nextTask();
      const model = engine.loadTrainedModel(files);
      await nextTask();
      addLocalModel(name, model, label);
      run.label = label;
      run.name = name;
      const step = run.snapshots.at(-1)?.step ?? 0;
      this.#message = {
        key: stopped ? 'stopped' : 'done',
        params: { step, steps: step, label },
      };
    } catch (error) {
      this.#failed(error);
    }
    this.#render();
  }

  #failed(error) {
    if (this.#threaded && this.#state === 'starting' && error.code === 'unavailable') return this.#fallBack(error);
    this.#state = 'done';
    this.#worker?.terminate(); // a failed run may have left the worker's module broken
    this.#worker = null;
    this.#message = null;
    this.#error(this.t('error', { message: error.message }));
    this.#render();
  }

  #error(message) {
    this.#parts.error.textContent = message ?? '';
    this.#parts.error.hidden = !message;
  }

  async #loadFiles(fileList) {
    this.#loadMessage = null;
    try {
      const files = await readModelFiles(fileList);
      const engine = await getEngine();
      const model = engine.loadTrainedModel(files);
      const label = this.t('loadedLabel', { n: ++loadedCount });
      addLocalModel(`loaded-${loadedCount}`, model, label);
      this.#loadMessage = { key: 'loaded', params: { label }, ok: true };
    } catch (error) {
      this.#loadMessage = {
        key: 'loadError',
        params: { message: error.message },
        ok: false,
      };
    }
    this.#renderLoad();
  }

  // --- drawing ---

  #render() {
    const p = this.#parts;
    const busy = this.#state === 'starting' || this.#state === 'running' || this.#state === 'paused';
    p.start.disabled = busy;
    p.pause.disabled = !(this.#state === 'running' || this.#state === 'paused');
    p.stop.disabled = !busy || this.#state === 'starting';
    p.pause.textContent = this.t(this.#state === 'paused' ? 'resume' : 'pause');
    for (const key of SETTINGS) this.control(key).node.disabled = busy;
    this.setState(this.#state);
    this.#renderStatus();
    this.#renderSnapshot();
    this.#renderCharts();
    this.#renderDownloads();
    this.#renderLoad();
  }

  #renderStatus() {
    const p = this.#parts;
    const lang = this.store.get().lang;
    const progress = this.#run?.progress;
    if (progress) {
      Object.assign(this.dataset, {
        step: progress.step,
        loss: progress.loss,
        validation: progress.validationAccuracy,
      });
      if (progress.secondsLeft === null) delete this.dataset.secondsLeft;
      else this.dataset.secondsLeft = progress.secondsLeft.toFixed(1);
    }
    if (!this.#message) {
      p.status.textContent = '';
      return;
    }
    if (this.#message.key !== 'progress') {
      const params = { ...this.#message.params };
      const validation = this.#run?.curve.at(-1)?.value;
      if (validation !== undefined) params.validation = percent(validation, lang);
      if (progress) params.steps ??= progress.steps;
      if (this.#message.key === 'paused') params.steps = progress?.steps;
      p.status.textContent = this.t(this.#message.key, params);
      return;
    }
    const number = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
    const left =
      progress.secondsLeft === null
        ? this.t('timeUnknown')
        : this.t('timeLeft', { seconds: Math.ceil(progress.secondsLeft) });
    p.status.textContent = this.t('progress', {
      step: progress.step,
      steps: progress.steps,
      loss: number(progress.loss, 3),
      validation: percent(progress.validationAccuracy, lang),
      rate: number(progress.stepsPerSecond, 1),
      cores: this.t(this.#run.threads > 1 ? 'cores' : 'oneCore', { n: this.#run.threads }),
      left,
    });
  }

  // The lesson pair's query row in every head, from the snapshot the timeline points at.
  #renderSnapshot() {
    const p = this.#parts;
    const snapshots = this.#run?.snapshots ?? [];
    p.timeline.max = Math.max(0, snapshots.length - 1);
    p.timeline.disabled = this.#state !== 'done' || snapshots.length < 2;
    const index = this.#shown < 0 ? snapshots.length - 1 : Math.min(this.#shown, snapshots.length - 1);
    p.timeline.value = Math.max(0, index);
    const snapshot = snapshots[index];
    // Progress arrives every few hundred ms; the rows change only with a new snapshot, the
    // timeline or the language.
    const key = `${this.#run?.n}:${index}:${snapshots.length}:${this.store.get().lang}`;
    if (key === this.#drawn) return;
    this.#drawn = key;
    p.rows.replaceChildren();
    p.rowsTitle.hidden = p.rowsHowTo.hidden = !snapshot;
    p.headRule.textContent = '';
    if (!snapshot) {
      p.timelineValue.textContent = '';
      return;
    }
    const lang = this.store.get().lang;
    p.timelineValue.textContent = this.t('timelineValue', {
      step: snapshot.step,
    });
    this.dataset.snapshotStep = snapshot.step;
    p.rowsTitle.textContent = this.t('rowsTitle', {
      query: snapshot.lesson[0].tokens[snapshot.lesson[0].query],
      step: snapshot.step,
    });
    p.rowsHowTo.textContent = this.t(this.#run.settings.task === 'word-order' ? 'rowsHowToOrder' : 'rowsHowTo');
    const { layers, heads } = this.#run.settings;
    snapshot.lesson.forEach((lesson, i) => drawRows(p.rows, lesson, layers, heads, i));
    const h = snapshot.head;
    p.headRule.textContent =
      h.layer < 0
        ? this.t('headRuleNone')
        : this.t('headRule', {
            layer: h.layer + 1,
            head: h.head + 1,
            referent: percent(h.referent, lang),
            other: percent(h.other, lang),
          });
  }

  #renderCharts() {
    const p = this.#parts;
    const weights = this.#run?.weights ?? [];
    p.weights.replaceChildren();
    p.weightsTitle.hidden = weights.length === 0;
    if (weights.length) {
      drawChart(
        p.weights,
        this.#run.settings.steps,
        [
          {
            label: this.t('referent'),
            points: weights.map((w) => ({ step: w.step, value: w.referent })),
            className: 'ae-tr-referent',
          },
          {
            label: this.t('other'),
            points: weights.map((w) => ({ step: w.step, value: w.other })),
            className: 'ae-tr-other',
          },
        ],
        this.t('weightsTitle'),
      );
    }
    p.accuracy.replaceChildren();
    const runs = this.#runs.filter((r) => r.curve.length);
    p.accuracyTitle.hidden = runs.length === 0;
    if (runs.length) {
      const longest = Math.max(...runs.map((r) => r.settings.steps));
      drawChart(
        p.accuracy,
        longest,
        runs.map((r) => ({
          label: this.t('runLabel', {
            n: r.n,
            task: this.t(`tasks.${r.settings.task}`).split(/[:：]/)[0],
            positional: this.t(`positionals.${r.settings.positional}`),
          }),
          points: r.curve,
          className: `ae-tr-run ae-tr-run-${(r.n - 1) % 4}`,
        })),
        this.t('accuracyTitle'),
      );
    }
  }

  #renderDownloads() {
    const p = this.#parts;
    for (const a of p.downloads.querySelectorAll('a')) URL.revokeObjectURL(a.href);
    p.downloads.replaceChildren();
    const files = this.#run?.files;
    p.resultTitle.hidden = false;
    if (!files) return;
    for (const { name, blob } of modelDownloads(files)) {
      const a = el('a', 'chip', p.downloads, {
        href: URL.createObjectURL(blob),
        download: name,
        'data-file': name,
      });
      a.textContent = this.t('download', { name });
    }
  }

  #renderLoad() {
    const p = this.#parts;
    const m = this.#loadMessage;
    p.loadStatus.textContent = m ? this.t(m.key, m.params) : '';
    p.loadStatus.classList.toggle('error', Boolean(m && !m.ok));
  }
}

// One table per lesson sentence: a row per head, a column per token, shaded by the weight.
function drawRows(parent, lesson, nLayers, nHeads, index) {
  const n = lesson.tokens.length;
  const table = el('table', 'ae-tr-table', parent, { 'data-sentence': index });
  el('caption', '', table).textContent = lesson.text;
  const head = el('tr', '', el('thead', '', table));
  el('th', '', head, { scope: 'col' });
  lesson.tokens.forEach((token, j) => {
    const mark = j === lesson.referent ? ' ▲' : j === lesson.other ? ' △' : '';
    el('th', j === lesson.query ? 'ae-tr-query' : '', head, {
      scope: 'col',
    }).textContent = token + mark;
  });
  const body = el('tbody', '', table);
  for (let l = 0; l < nLayers; l++) {
    for (let h = 0; h < nHeads; h++) {
      const tr = el('tr', '', body, { 'data-layer': l, 'data-head': h });
      el('th', '', tr, { scope: 'row' }).textContent = `L${l + 1} H${h + 1}`;
      for (let j = 0; j < n; j++) {
        const w = lesson.rows[(l * nHeads + h) * n + j];
        const td = el('td', '', tr, { 'data-value': w, title: w.toFixed(3) });
        td.style.setProperty('--w', w.toFixed(3)); // the shade: CSSOM, allowed under the page's CSP
      }
    }
  }
}

// Lines of values in [0, 1] over steps 0 … maxStep, with a legend.
function drawChart(parent, maxStep, series, label) {
  const { width, height, pad } = CHART;
  const svg = svgNode(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': label,
      class: 'ae-tr-svg',
    },
    parent,
  );
  const x = (step) => pad + (step / Math.max(1, maxStep)) * (width - 2 * pad);
  const y = (value) => height - pad / 2 - value * (height - pad);
  svgNode('line', { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: 'ae-tr-axis' }, svg);
  svgNode('line', { x1: pad, x2: pad, y1: y(0), y2: y(1), class: 'ae-tr-axis' }, svg);
  svgNode('text', { x: 2, y: y(1) + 4, class: 'ae-tr-tick' }, svg, '1');
  svgNode('text', { x: 2, y: y(0), class: 'ae-tr-tick' }, svg, '0');
  svgNode(
    'text',
    {
      x: width - pad,
      y: height - 2,
      class: 'ae-tr-tick',
      'text-anchor': 'end',
    },
    svg,
    String(maxStep),
  );
  const legend = el('ul', 'ae-tr-legend', parent);
  for (const s of series) {
    svgNode(
      'polyline',
      {
        points: s.points.map((pt) => `${x(pt.step)},${y(pt.value)}`).join(' '),
        class: s.className,
        'data-values': s.points.map((pt) => pt.value).join(','),
      },
      svg,
    );
    el('li', s.className, legend).textContent = s.label;
  }
}

define('ae-train', Train);
