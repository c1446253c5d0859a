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
import { getEngine } from '../lib/context.mjs';
import '../lib/wasm-timing.mjs'; // the engine's createKernelWorkspace (not in the first view)
import { OWN_MODEL, showsOwnModel } from '../lib/panel-model.mjs';
import { LessonPanel } from '../lib/lesson-panel.mjs';
import strings from '../strings/cost.mjs';
import { dataTable, el, svgNode } from '../lib/dom.mjs';
import { logTicks } from '../lib/chart.mjs';
import { MAX_EXP, MIN_EXP, axes, chartSvg, fmtBytes, legendItem, marker, msDigits } from './cost-chart.mjs';
import { kernelBytes, kernelCall, measurePoint, nextFrame, timeCall } from './cost-timing.mjs';
import css from './cost.css.mjs';

const D = 64;
const DEFAULT_EXP = 11; // n = 2048
const WINDOWS = [16, 64, 256];
const DEFAULT_WINDOW = 64;
const TRACED_LIMIT = 80 * 2 ** 20; // n = 2048 (64.5 MiB) runs, n = 4096 (257 MiB) does not
const KERNELS = ['fused', 'window', 'traced'];
const OVERHEAD_SHARE = 0.2; // a point whose fixed cost per call is this share of its time is marked

const sizesUpTo = (exp) => Array.from({ length: exp - MIN_EXP + 1 }, (_, i) => 2 ** (MIN_EXP + i));

export class Cost extends LessonPanel {
  static styles = [css];
  static watched = ['lang', 'model'];
  static strings = strings;
  static stateAttribute = 'status';
  static link = 'cost';
  // The longest sequence is a 2ᵉ exponent on the slider, linked as n = 2ᵉ (cost.n=256).
  static controls = {
    length: {
      kind: 'range',
      label: 'lengthLabel',
      param: 'n',
      min: MIN_EXP,
      max: MAX_EXP,
      step: 1,
      default: DEFAULT_EXP,
      toLink: (exp) => 2 ** exp,
      fromLink: Math.log2,
      group: 'ae-cost-controls',
    },
    window: {
      kind: 'select',
      label: 'windowLabel',
      options: WINDOWS.map((w) => ({ value: String(w), text: String(w) })),
      default: String(DEFAULT_WINDOW),
      group: 'ae-cost-controls',
    },
    measure: {
      kind: 'button',
      label: 'measure',
      className: 'chip ae-cost-measure',
      group: 'ae-cost-buttons',
      press: (p) => p.measure(),
    },
    cancel: {
      kind: 'button',
      label: 'cancel',
      className: 'chip ae-cost-cancel',
      group: 'ae-cost-buttons',
      attrs: { disabled: '' },
      press: (p) => p.cancel(),
    },
  };

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
    const p = this.frame('ae-cost', ['model', 'status', 'error']);
    const { id, root } = p;
    this.group('ae-cost-controls').append(this.group('ae-cost-buttons'));
    const length = (p.length = this.control('length').node);
    const lengthRow = el('div', 'ae-cost-range');
    length.before(lengthRow);
    p.lengthOut = el('output', 'ae-cost-length', null, { for: length.id });
    lengthRow.append(length, p.lengthOut);
    p.measure = this.control('measure').node;
    p.cancel = this.control('cancel').node;
    p.progress = el('progress', 'ae-cost-progress', null, { max: 1, value: 0, 'aria-hidden': 'true' });
    p.modelLine.before(p.progress);
    p.legend = el('ul', 'ae-cost-legend', root);
    const charts = el('div', 'ae-cost-charts', root);
    p.timeSvg = this.#chart(charts, 'time');
    p.memorySvg = this.#chart(charts, 'memory');
    p.cap = el('p', 'ae-cost-cap', root, { hidden: '' });
    p.overheadNote = el('p', 'ae-cost-overhead-note', root, { hidden: '' });
    const tableCaption = `${id}-table-caption`;
    const { caption, head, body } = dataTable(root, 'ae-cost-table', {
      id: tableCaption,
      scroll: 'ae-cost-table-wrap',
    });
    this.labelled(caption, 'tableCaption');
    Object.assign(p, { headRow: head, body });
    this.text('p', 'ae-cost-note', root, 'memoryNote');
    this.text('p', 'ae-cost-caption', root, 'caption');
    this.mount(root);
    this.#parts = p;

    this.setState('idle');
  }

  // A chart's figure in `charts`, its caption the string `${name}Title` and its svg (returned)
  // labelled by `${name}Label`.
  #chart(charts, name) {
    const figure = el('figure', 'ae-cost-figure', charts);
    this.text('figcaption', '', figure, `${name}Title`);
    return this.labelled(chartSvg(name, figure), `${name}Label`, 'aria-label');
  }

  controlsChanged(names) {
    if (names.includes('length')) this.#showLength();
    if (names.includes('window')) this.#draw();
  }

  storeChanged() {
    this.#followModel();
    this.#showLength();
    this.#showStatus();
    this.#draw();
  }

  #showLength() {
    const { length, lengthOut } = this.#parts;
    const n = 2 ** this.value('length');
    const label = this.t('lengthValue', { n: n.toLocaleString(this.locale()) });
    lengthOut.textContent = label;
    length.setAttribute('aria-valuetext', label);
    this.dataset.maxN = n;
  }

  get #window() {
    return Number(this.value('window'));
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
    return (await this.trainedModel(OWN_MODEL)).config.headDim;
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
    const maxN = 2 ** this.value('length');
    const window = this.#window;
    const sizes = sizesUpTo(this.value('length'));
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
          const { limit, share } = this.#run;
          const point = { kernel, n, d: this.#d, window, limit, share, fixed: this.#overhead[kernel] };
          this.#points.push(await measurePoint(engine, workspace, point, () => this.#cancel));
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

  // The fixed cost of a call of each kernel: its time at n = 1, where there is nothing to compute.
  async #measureOverhead(ws, window) {
    const stopped = () => this.#cancel;
    for (const k of KERNELS)
      this.#overhead[k] = (await timeCall(kernelCall(ws, k, 1, this.#d, window), stopped)).median;
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
    return fmtBytes(bytes, this.locale());
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
    this.#parts.legend.replaceChildren(...items.map(([kernel, label]) => legendItem(kernel, label)));
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
    const series = KERNELS.map((kernel) => ({
      kernel,
      pts: sizes.map((n) => ({ n, bytes: kernelBytes(this.#engine, kernel, n, this.#d) })),
    }));
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

define('ae-cost', Cost);
