// <ae-cost>: panel 11, "the n² cost". Times the wasm attention kernels live in the page, for
// one head of width d = 64 at n = 64, 128, … up to the chosen length (≤ 8192):
//   fused   KernelWorkspace.attentionFused: tiled, online softmax, never holds n×n
//   traced  KernelWorkspace.attentionTraced: the page's path, keeps four n×n matrices; not run
//           where its trace would exceed `tracedLimit` bytes (shown with what it would need)
//   window  attentionFused with a sliding window of width w: the cheap local alternative
// and plots time and memory against n on log axes, with an n² reference through one measured
// point. Memory figures are the core's byte counts (engine.fusedAttentionScratchBytes,
// engine.tracedAttentionBytes), plus the measured growth of the wasm heap during the call.
// Nothing is measured before the reader presses Measure; the points run one kernel at a time
// with a frame between them, so the page stays responsive, and Cancel stops after the current one.
// Each point is timed in RUNS runs and shown as "median (min–max, runs)"; the ratio per doubling
// of n is the ratio of medians. A call's fixed cost (JS checks, the boundary, setup) is measured
// at n = 1 per kernel; points where it is at least `overheadShare` of the median are marked as
// mostly overhead, so their ratios are not read as n².
// Every shown number is mirrored in data-* attributes (plot points and table cells) for tests.
//   element.tracedLimit = bytes   (default 80 MiB)
//   element.overheadShare = share (default 0.2)
// Reads the shared store: lang, and model: while a model opened from disk is the page's model,
// the head is as wide as one of its heads (its config's headDim), and the panel says so.
import { define } from '../lib/define.mjs';
import { getEngine, getTrainedModel } from '../lib/context.mjs';
import { OWN_MODEL, showsOwnModel } from '../lib/panel-model.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import strings from '../strings/cost.mjs';
import { el, svgNode } from '../lib/dom.mjs';
import { msPerCall, spread } from '../lib/stats.mjs';
import { logLogAxes, logTicks } from '../lib/chart.mjs';
import css from './cost.css.mjs';

const D = 64;
const MIN_EXP = 6; // n = 64
const MAX_EXP = 13; // n = 8192
const DEFAULT_EXP = 11; // n = 2048
const WINDOWS = [16, 64, 256];
const DEFAULT_WINDOW = 64;
const TRACED_LIMIT = 80 * 2 ** 20; // n = 2048 (64.5 MiB) runs, n = 4096 (257 MiB) does not
const KERNELS = ['fused', 'window', 'traced'];
const RUN_MS = 10; // one timed run: back-to-back calls for at least this long
const RUNS = 7; // per point; the median and the range are shown
const SLOW_CALL_MS = 150; // a call this slow is timed once (no more runs)
const OVERHEAD_SHARE = 0.2; // a point whose fixed cost per call is this share of its time is marked

const SVG = 'http://www.w3.org/2000/svg';
const W = 440,
  H = 280;
const PAD = { left: 64, right: 12, top: 12, bottom: 46 };

const msDigits = (ms) => (ms < 0.1 ? 3 : ms < 10 ? 2 : ms < 100 ? 1 : 0);
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const sizesUpTo = (exp) => Array.from({ length: exp - MIN_EXP + 1 }, (_, i) => 2 ** (MIN_EXP + i));

export class Cost extends LessonPanel {
  static styles = [css];
  static watched = ['lang', 'model'];
  static strings = strings;
  static stateAttribute = 'status';

  tracedLimit = TRACED_LIMIT;
  overheadShare = OVERHEAD_SHARE;

  #parts = null;
  #engine = null;
  #d = D; // the head width timed: D, or the opened model's head width
  #running = false;
  #cancel = false;
  #points = []; // measured: {kernel, n, ms, min, max, runs, bytes, heap} or {kernel, n, bytes, capped: true}
  #overhead = {}; // ms per call at n = 1, per kernel: the fixed cost of a call
  #status = { key: 'idle' };
  #run = null; // {maxN, window, limit} of the measurement shown

  connectedCallback() {
    super.connectedCallback();
    // The memory plot needs no timing, only the core's byte counts: draw it when the panel
    // first comes near the viewport (the engine is loaded by then, or loads now).
    if (!this.#engine) this.loadWhenNear(() => this.#ensureEngine().catch(() => {}), this, '200px 0px');
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#cancel = true;
  }

  // --- structure ---

  build() {
    const { id, root, title, intro } = this.frame('ae-cost');
    const controls = el('div', 'ae-cost-controls', root);
    const lengthField = el('div', 'field', controls);
    const lengthLabel = el('label', '', lengthField, { for: `${id}-length` });
    const lengthRow = el('div', 'ae-cost-range', lengthField);
    const length = el('input', '', lengthRow, {
      id: `${id}-length`,
      type: 'range',
      min: MIN_EXP,
      max: MAX_EXP,
      step: 1,
      value: DEFAULT_EXP,
    });
    const lengthOut = el('output', 'ae-cost-length', lengthRow, { for: `${id}-length` });
    const windowField = el('div', 'field', controls);
    const windowLabel = el('label', '', windowField, { for: `${id}-window` });
    const windowSelect = el('select', '', windowField, { id: `${id}-window` });
    for (const w of WINDOWS) windowSelect.append(new Option(String(w), String(w), false, w === DEFAULT_WINDOW));
    const buttons = el('div', 'ae-cost-buttons', controls);
    const measure = el('button', 'chip ae-cost-measure', buttons, { type: 'button' });
    const cancel = el('button', 'chip ae-cost-cancel', buttons, { type: 'button', disabled: '' });
    const progress = el('progress', 'ae-cost-progress', root, { max: 1, value: 0, 'aria-hidden': 'true' });
    const modelLine = el('p', 'ae-cost-model', root);
    const status = el('p', 'ae-cost-status', root, { role: 'status' });
    const error = el('div', 'error ae-cost-error', root, { role: 'alert' });
    const legend = el('ul', 'ae-cost-legend', root);
    const charts = el('div', 'ae-cost-charts', root);
    const timeFigure = el('figure', 'ae-cost-figure', charts);
    const timeCaption = el('figcaption', '', timeFigure);
    const timeSvg = svgNode(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'ae-cost-chart', 'data-chart': 'time' },
      timeFigure,
    );
    const memoryFigure = el('figure', 'ae-cost-figure', charts);
    const memoryCaption = el('figcaption', '', memoryFigure);
    const memorySvg = svgNode(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'ae-cost-chart', 'data-chart': 'memory' },
      memoryFigure,
    );
    const cap = el('p', 'ae-cost-cap', root, { hidden: '' });
    const overheadNote = el('p', 'ae-cost-overhead-note', root, { hidden: '' });
    const tableWrap = el('div', 'ae-cost-table-wrap', root, {
      tabindex: '0',
      role: 'region',
      'aria-labelledby': `${id}-table-caption`,
    });
    const table = el('table', 'ae-cost-table', tableWrap);
    const tableCaption = el('caption', '', table, { id: `${id}-table-caption` });
    const headRow = el('tr', '', el('thead', '', table));
    const body = el('tbody', '', table);
    const memoryNote = el('p', 'ae-cost-note', root);
    const caption = el('p', 'ae-cost-caption', root);

    this.mount(root);
    this.#parts = {
      title,
      intro,
      lengthLabel,
      length,
      lengthOut,
      windowLabel,
      windowSelect,
      measure,
      cancel,
      progress,
      status,
      modelLine,
      error,
      legend,
      timeCaption,
      timeSvg,
      memoryCaption,
      memorySvg,
      cap,
      overheadNote,
      table,
      tableCaption,
      headRow,
      body,
      memoryNote,
      caption,
    };

    length.addEventListener('input', () => this.#showLength());
    windowSelect.addEventListener('change', () => this.#draw());
    measure.addEventListener('click', () => this.measure());
    cancel.addEventListener('click', () => this.cancel());
    this.setState('idle');
  }

  storeChanged() {
    const p = this.#parts;
    this.#followModel();
    p.title.textContent = this.t('title');
    p.intro.textContent = this.t('intro');
    p.lengthLabel.textContent = this.t('lengthLabel');
    p.windowLabel.textContent = this.t('windowLabel');
    p.measure.textContent = this.t('measure');
    p.cancel.textContent = this.t('cancel');
    p.timeCaption.textContent = this.t('timeTitle');
    p.memoryCaption.textContent = this.t('memoryTitle');
    p.timeSvg.setAttribute('aria-label', this.t('timeLabel'));
    p.memorySvg.setAttribute('aria-label', this.t('memoryLabel'));
    p.tableCaption.textContent = this.t('tableCaption');
    p.memoryNote.textContent = this.t('memoryNote');
    p.caption.textContent = this.t('caption');
    this.#showLength();
    this.#showStatus();
    this.#draw();
  }

  #showLength() {
    const { length, lengthOut } = this.#parts;
    const n = 2 ** Number(length.value);
    const label = this.t('lengthValue', { n: n.toLocaleString(this.locale()) });
    lengthOut.textContent = label;
    length.setAttribute('aria-valuetext', label);
    this.dataset.maxN = n;
  }

  get #window() {
    return Number(this.#parts.windowSelect.value);
  }

  #kernelName(kernel, w = this.#run?.window ?? this.#window) {
    return this.t(`kernels.${kernel}`, { w });
  }

  // --- measuring ---

  async #ensureEngine() {
    if (!this.#engine) {
      this.#engine = await getEngine();
      this.#draw();
    }
    return this.#engine;
  }

  cancel() {
    if (this.#running) this.#cancel = true;
  }

  // Between measurements the head width follows the page's model (the memory plot with it).
  #followModel() {
    this.#headDim()
      .then((d) => {
        if (this.#running) return;
        this.#d = d;
        this.#showModel();
        if (this.#engine) this.#draw();
      })
      .catch(() => {}); // no opened model to read: the lesson's width stays
  }

  #showModel() {
    const own = showsOwnModel(this.store);
    this.#parts.modelLine.textContent = own ? this.t('ownModel', { d: this.#d }) : '';
    this.#parts.modelLine.hidden = !own;
    this.dataset.headDim = String(this.#d);
  }

  // The head width to time: the page's opened model's, else the lesson's D = 64.
  async #headDim() {
    if (!showsOwnModel(this.store)) return D;
    return (await getTrainedModel(OWN_MODEL)).config.headDim;
  }

  // Core byte counts of one call (d = this.#d): what each kernel allocates besides Q, K, V and the output.
  #bytes(kernel, n) {
    const e = this.#engine;
    if (kernel === 'traced') return e.tracedAttentionBytes(n, this.#d);
    return e.fusedAttentionScratchBytes(n, this.#d, kernel === 'window');
  }

  async measure() {
    if (this.#running) return;
    const p = this.#parts;
    this.#running = true;
    this.#cancel = false;
    p.measure.disabled = true;
    p.cancel.disabled = false;
    this.#setError(null);
    this.#setStatus('loading');
    this.setState('running');
    const maxN = 2 ** Number(p.length.value);
    const window = this.#window;
    const sizes = sizesUpTo(Number(p.length.value));
    const total = sizes.length * KERNELS.length;
    let done = 0;
    let workspace = null;
    try {
      const engine = await this.#ensureEngine();
      this.#d = await this.#headDim();
      this.#showModel();
      this.#run = { maxN, window, limit: this.tracedLimit, share: this.overheadShare };
      this.#points = [];
      this.#overhead = {};
      this.#draw();
      workspace = engine.createKernelWorkspace(2 * maxN * this.#d);
      workspace.fillRandom(1);
      // First calls of each code path, outside every measurement.
      workspace.attentionFused(64, this.#d, false, 0);
      workspace.attentionFused(64, this.#d, false, window);
      workspace.attentionTraced(64, this.#d, false, 0);
      await this.#measureOverhead(workspace, window);
      for (const n of sizes) {
        for (const kernel of KERNELS) {
          if (this.#cancel) break;
          this.#setStatus('progress', {
            kernel: this.t(`short.${kernel}`),
            n: n.toLocaleString(this.locale()),
            done: done + 1,
            total,
          });
          p.progress.value = done / total;
          await nextFrame();
          if (this.#cancel || !this.isConnected) break;
          this.#points.push(await this.#measurePoint(engine, workspace, kernel, n, window));
          done++;
          this.#draw();
        }
        if (this.#cancel || !this.isConnected) break;
      }
      p.progress.value = done / total;
      if (done < total) this.#setStatus('cancelled', { done, total });
      else this.#setStatus('done', { count: total, n: maxN.toLocaleString(this.locale()) });
      this.setState(done < total ? 'cancelled' : 'done');
    } catch (e) {
      this.#setError(e.message ?? String(e));
      this.#setStatus(null);
      this.setState('error');
    } finally {
      workspace?.delete();
      this.#running = false;
      p.measure.disabled = false;
      p.cancel.disabled = true;
      this.dataset.measured = this.#points.length;
    }
  }

  // {median, min, max, runs} of ms per call: RUNS runs of ≥ RUN_MS, one per frame so the page
  // stays responsive; a call slower than SLOW_CALL_MS is timed once.
  async #time(call) {
    const times = [];
    for (let r = 0; r < RUNS; r++) {
      if (r > 0) await nextFrame();
      times.push(msPerCall(call, RUN_MS));
      if (times[0] > SLOW_CALL_MS || this.#cancel) break;
    }
    return spread(times);
  }

  #call(ws, kernel, n, window) {
    if (kernel === 'traced') return () => ws.attentionTraced(n, this.#d, false, 0);
    return () => ws.attentionFused(n, this.#d, false, kernel === 'window' ? window : 0);
  }

  // The fixed cost of a call of each kernel: its time at n = 1, where there is nothing to compute.
  async #measureOverhead(ws, window) {
    for (const kernel of KERNELS) this.#overhead[kernel] = (await this.#time(this.#call(ws, kernel, 1, window))).median;
  }

  async #measurePoint(engine, ws, kernel, n, window) {
    const bytes = this.#bytes(kernel, n);
    if (kernel === 'traced' && bytes > this.#run.limit) return { kernel, n, bytes, capped: true };
    const brk0 = engine.memoryStats().brk;
    const { median: ms, min, max, runs } = await this.#time(this.#call(ws, kernel, n, window));
    const heap = engine.memoryStats().brk - brk0;
    const overhead = this.#overhead[kernel] >= this.#run.share * ms;
    return { kernel, n, bytes, heap, ms, min, max, runs, overhead };
  }

  // Median at n over median at n / 2 for the same kernel, or null (first point, or not run).
  #ratio(q) {
    const half = this.#points.find((x) => x.kernel === q.kernel && x.n === q.n / 2 && x.ms > 0);
    return half && q.ms > 0 ? q.ms / half.ms : null;
  }

  // --- output ---

  #setStatus(key, params) {
    this.#status = key && { key, params };
    this.#showStatus();
  }

  #showStatus() {
    const { status } = this.#parts;
    status.textContent = this.#status ? this.t(this.#status.key, this.#status.params) : '';
  }

  #setError(message) {
    this.#parts.error.textContent = message ? this.t('error', { message }) : '';
  }

  #fmtMs(ms, digits = msDigits(ms)) {
    return ms.toLocaleString(this.locale(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }

  #fmtBytes(bytes) {
    const units = ['B', 'KiB', 'MiB', 'GiB'];
    let i = 0,
      x = bytes;
    while (x >= 1024 && i < units.length - 1) ((x /= 1024), i++);
    return `${x.toLocaleString(this.locale(), { maximumFractionDigits: x < 10 && i > 0 ? 1 : 0 })} ${units[i]}`;
  }

  #draw() {
    if (!this.#parts) return;
    this.#drawLegend();
    this.#drawTime();
    this.#drawMemory();
    this.#drawCap();
    this.#drawOverhead();
    this.#drawTable();
  }

  #drawLegend() {
    const items = KERNELS.map((k) => [k, this.#kernelName(k)]).concat([['reference', this.#referenceLabel() ?? 'n²']]);
    this.#parts.legend.replaceChildren(
      ...items.map(([kernel, label]) => {
        const li = document.createElement('li');
        li.dataset.kernel = kernel;
        const swatch = document.createElementNS(SVG, 'svg');
        swatch.setAttribute('viewBox', '0 0 28 10');
        swatch.setAttribute('aria-hidden', 'true');
        swatch.classList.add('ae-cost-swatch');
        svgNode('line', { x1: 1, y1: 5, x2: 27, y2: 5, class: `ae-cost-line k-${kernel}` }, swatch);
        li.append(swatch, label);
        return li;
      }),
    );
  }

  // The n² reference passes through the fused kernel's largest measured point.
  #referencePoint() {
    const fused = this.#points.filter((q) => q.kernel === 'fused' && q.ms > 0);
    return fused.length ? fused[fused.length - 1] : null;
  }

  #referenceLabel() {
    const ref = this.#referencePoint();
    return ref && this.t('reference', { kernel: this.t('short.fused'), n: ref.n.toLocaleString(this.locale()) });
  }

  #drawTime() {
    const svg = this.#parts.timeSvg;
    const measured = this.#points.filter((q) => q.ms > 0);
    const ref = this.#referencePoint();
    const values = measured.map((q) => q.ms);
    if (ref) values.push(ref.ms * (2 ** MIN_EXP / ref.n) ** 2, ref.ms * (2 ** MAX_EXP / ref.n) ** 2);
    const ticks = logTicks(values.length ? values : [0.01, 1000], 10);
    const plot = axes(
      svg,
      ticks,
      (v) => v.toLocaleString(this.locale(), { maximumSignificantDigits: 1 }),
      this.t('axisN'),
      this.locale(),
    );
    if (ref) {
      const path = sizesUpTo(MAX_EXP)
        .map((n, i) => `${i ? 'L' : 'M'}${plot.x(n)},${plot.y(ref.ms * (n / ref.n) ** 2)}`)
        .join('');
      svgNode(
        'path',
        { d: path, class: 'ae-cost-line k-reference', 'data-reference-n': ref.n, 'data-reference-ms': ref.ms },
        plot.g,
      );
    }
    for (const kernel of KERNELS) {
      const pts = measured.filter((q) => q.kernel === kernel);
      if (pts.length > 1)
        svgNode(
          'path',
          {
            d: pts.map((q, i) => `${i ? 'L' : 'M'}${plot.x(q.n)},${plot.y(q.ms)}`).join(''),
            class: `ae-cost-line k-${kernel}`,
          },
          plot.g,
        );
      for (const q of pts) {
        const dot = marker(plot.g, kernel, plot.x(q.n), plot.y(q.ms));
        Object.assign(dot.dataset, { kernel, n: q.n, ms: q.ms, bytes: q.bytes });
        svgNode('title', {}, dot).textContent = `${this.#kernelName(kernel)}, n = ${q.n}: ${this.#fmtSpread(q)}`;
      }
    }
  }

  // Memory is drawn for every n up to 8192 from the core's counts alone (no timing needed);
  // the traced kernel's line is dashed where it would exceed the limit.
  #drawMemory() {
    const svg = this.#parts.memorySvg;
    if (!this.#engine) {
      axes(svg, logTicks([2 ** 15, 2 ** 30], 32), (v) => this.#fmtBytes(v), this.t('axisN'), this.locale());
      return;
    }
    const limit = this.#run?.limit ?? this.tracedLimit;
    const sizes = sizesUpTo(MAX_EXP);
    const series = KERNELS.map((kernel) => ({ kernel, pts: sizes.map((n) => ({ n, bytes: this.#bytes(kernel, n) })) }));
    const ticks = logTicks(
      series.flatMap((s) => s.pts.map((q) => q.bytes)),
      32,
    );
    const plot = axes(svg, ticks, (v) => this.#fmtBytes(v), this.t('axisN'), this.locale());
    for (const { kernel, pts } of series) {
      const over = pts.findIndex((q) => q.bytes > limit); // dashed from the last point it runs at
      const runs = over < 0 ? [pts, []] : [pts.slice(0, over), pts.slice(Math.max(0, over - 1))];
      runs.forEach((run, i) => {
        if (run.length > 1)
          svgNode(
            'path',
            {
              d: run.map((q, j) => `${j ? 'L' : 'M'}${plot.x(q.n)},${plot.y(q.bytes)}`).join(''),
              class: `ae-cost-line k-${kernel}${i ? ' would-need' : ''}`,
            },
            plot.g,
          );
      });
      for (const q of pts) {
        const dot = marker(plot.g, kernel, plot.x(q.n), plot.y(q.bytes), kernel === 'traced' && q.bytes > limit);
        Object.assign(dot.dataset, { kernel, n: q.n, bytes: q.bytes });
        svgNode('title', {}, dot).textContent = `${this.#kernelName(kernel)}, n = ${q.n}: ${this.#fmtBytes(q.bytes)}`;
      }
    }
  }

  #drawCap() {
    const { cap } = this.#parts;
    const capped = this.#points.find((q) => q.capped);
    cap.hidden = !capped;
    if (!capped) return cap.removeAttribute('data-n');
    const ran = this.#points.filter((q) => q.kernel === 'traced' && !q.capped).map((q) => q.n);
    cap.textContent = this.t('tracedCap', {
      n: (ran.length ? Math.max(...ran) : capped.n / 2).toLocaleString(this.locale()),
      next: capped.n.toLocaleString(this.locale()),
      bytes: this.#fmtBytes(capped.bytes),
      limit: this.#fmtBytes(this.#run.limit),
    });
    Object.assign(cap.dataset, { n: capped.n, bytes: capped.bytes, limit: this.#run.limit });
  }

  // Which points are mostly a call's fixed cost, with that cost per kernel (measured at n = 1).
  #drawOverhead() {
    const { overheadNote } = this.#parts;
    const marked = this.#points.filter((q) => q.overhead);
    const measured = KERNELS.filter((k) => this.#overhead[k] > 0);
    overheadNote.hidden = measured.length === 0;
    if (overheadNote.hidden) return;
    const costs = measured.map((k) => `${this.t(`short.${k}`)} ${this.#fmtMs(this.#overhead[k])} ms`);
    const share = `${Math.round(100 * this.#run.share)} %`;
    const list = new Intl.ListFormat(this.locale(), { type: 'conjunction' });
    overheadNote.textContent = marked.length
      ? this.t('overheadMarked', {
          costs: list.format(costs),
          share,
          points: list.format(
            marked.map((q) => `${this.t(`short.${q.kernel}`)} n = ${q.n.toLocaleString(this.locale())}`),
          ),
        })
      : this.t('overheadNone', { costs: list.format(costs), share });
    overheadNote.dataset.marked = marked.length;
    Object.assign(
      overheadNote.dataset,
      Object.fromEntries(measured.map((k) => [`overhead${k[0].toUpperCase()}${k.slice(1)}`, this.#overhead[k]])),
    );
  }

  // The ratio of medians per doubling of n under the time, marked when either point is mostly overhead.
  #appendRatio(cell, q) {
    const ratio = this.#ratio(q);
    if (ratio == null) return;
    const half = this.#points.find((x) => x.kernel === q.kernel && x.n === q.n / 2);
    const x = ratio.toLocaleString(this.locale(), { maximumFractionDigits: 1, minimumFractionDigits: 1 });
    const overhead = q.overhead || half.overhead;
    cell.dataset.ratio = ratio;
    if (overhead) cell.dataset.overhead = '';
    cell.append(' ');
    el(
      'span',
      `ae-cost-ratio${overhead ? ' overhead' : ''}`,
      cell,
      {},
      this.t(overhead ? 'ratioOverhead' : 'ratio', { x }),
    );
  }

  // "0.42 ms (0.40–0.47, 7 runs)" of a measured point; one run has no range.
  #fmtSpread(q) {
    const ms = this.#fmtMs(q.ms);
    if (q.runs < 2) return this.t('timeOneRun', { ms });
    const [min, max] = [q.min, q.max].map((x) => this.#fmtMs(x, msDigits(q.ms))); // in the median's precision
    return this.t('timeSpread', { ms, min, max, runs: q.runs });
  }

  #drawTable() {
    const { headRow, body } = this.#parts;
    const th = (textContent) => Object.assign(document.createElement('th'), { scope: 'col', textContent });
    headRow.replaceChildren(
      th(this.t('colN')),
      ...KERNELS.flatMap((k) => [
        th(this.t('colTime', { kernel: this.t(`short.${k}`) })),
        th(this.t('colMemory', { kernel: this.t(`short.${k}`) })),
      ]),
    );
    const sizes = [...new Set(this.#points.map((q) => q.n))];
    body.replaceChildren(
      ...sizes.map((n) => {
        const tr = document.createElement('tr');
        const rowHead = Object.assign(document.createElement('th'), {
          scope: 'row',
          textContent: n.toLocaleString(this.locale()),
        });
        tr.append(rowHead);
        for (const kernel of KERNELS) {
          const q = this.#points.find((x) => x.n === n && x.kernel === kernel);
          const time = document.createElement('td'),
            memory = document.createElement('td');
          if (q) {
            Object.assign(time.dataset, { kernel, n });
            if (q.ms > 0) Object.assign(time.dataset, { ms: q.ms, min: q.min, max: q.max, runs: q.runs });
            Object.assign(memory.dataset, {
              kernel,
              n,
              bytes: q.bytes,
              ...(q.capped ? { capped: '' } : { heap: q.heap }),
            });
            time.className = 'ae-cost-time';
            memory.className = 'ae-cost-memory';
            if (q.capped) {
              time.textContent = '—';
              memory.textContent = this.t('notRun', { bytes: this.#fmtBytes(q.bytes) });
            } else {
              time.textContent = this.#fmtSpread(q);
              this.#appendRatio(time, q);
              memory.textContent = this.#fmtBytes(q.bytes);
              if (q.heap > 0) {
                const heap = Object.assign(document.createElement('span'), {
                  className: 'ae-cost-heap',
                  textContent: this.t('heapGrowth', { bytes: this.#fmtBytes(q.heap) }),
                });
                memory.append(' ', heap);
              }
            }
          }
          tr.append(time, memory);
        }
        return tr;
      }),
    );
  }
}

// --- drawing helpers ---

// Log–log axes of both charts (web/lib/chart.mjs): x over n = 64…8192.
function axes(svg, ticks, formatY, xTitle, locale) {
  return logLogAxes(svg, {
    width: W,
    height: H,
    pad: PAD,
    minExp: MIN_EXP,
    maxExp: MAX_EXP,
    ticks,
    formatY,
    xTitle,
    locale,
    className: 'ae-cost-axes',
  });
}

// A point: circle (fused), triangle (window), square (traced); hollow where it is not run.
function marker(parent, kernel, cx, cy, hollow = false) {
  const cls = `ae-cost-point k-${kernel}${hollow ? ' would-need' : ''}`;
  if (kernel === 'fused') return svgNode('circle', { cx, cy, r: 4.5, class: cls }, parent);
  if (kernel === 'window')
    return svgNode('path', { d: `M${cx},${cy - 5.5}L${cx + 5},${cy + 4}L${cx - 5},${cy + 4}Z`, class: cls }, parent);
  return svgNode('rect', { x: cx - 4, y: cy - 4, width: 8, height: 8, class: cls }, parent);
}

define('ae-cost', Cost);
