// The machine a benchmark ran on, described the same way by every benchmark script.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function describeMachine() {
  const lscpu = (() => {
    try {
      return execFileSync('lscpu', { encoding: 'utf8' });
    } catch {
      return '';
    }
  })();
  const field = (name) => (lscpu.match(new RegExp(`^${name}:\\s*(.+)$`, 'm')) ?? [])[1]?.trim();
  const cpuinfoMHz = Number((readFileSync('/proc/cpuinfo', 'utf8').match(/cpu MHz\s*:\s*([\d.]+)/) ?? [])[1]);
  return {
    model: field('Model name') ?? os.cpus()[0]?.model,
    cpus: field('CPU\\(s\\)') ?? String(os.cpus().length),
    coresPerSocket: field('Core\\(s\\) per socket'),
    threadsPerCore: field('Thread\\(s\\) per core'),
    hypervisor: field('Hypervisor vendor'),
    nominalMHz: cpuinfoMHz,
    memoryGiB: (os.totalmem() / 2 ** 30).toFixed(0),
    node: process.version,
    v8: process.versions.v8,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    load: loadNow(),
  };
}

export const loadNow = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

export const machineLine = (m) =>
  `${m.model}, ${m.cpus} CPUs (${m.coresPerSocket} cores × ${m.threadsPerCore} thread)` +
  `${m.hypervisor ? `, ${m.hypervisor} guest` : ''}, ${m.memoryGiB} GiB; nominal ${m.nominalMHz} MHz (/proc/cpuinfo); ` +
  `load average at start ${m.load}, at the end ${loadNow()} (the machine is shared: a load above 2 means other ` +
  'work competed for the 2 cores, and the figures are slower than on a quiet machine)';

// docs/benchmarks.md is written by three scripts: run.mjs owns the file, page.mjs and browser.mjs
// one section each between their markers, which run.mjs carries over when it rewrites the rest.
export const PAGE_START = '<!-- page benchmark: written by tools/bench/page.mjs -->';
export const PAGE_END = '<!-- end of page benchmark -->';

// tools/bench/gpt2.mjs owns another section, carried over the same way.
export const GPT2_START = '<!-- GPT-2 benchmark: written by tools/bench/gpt2.mjs -->';
export const GPT2_END = '<!-- end of GPT-2 benchmark -->';

// Likewise the training section of train-speed.mjs (`npm run bench:train`).
export const TRAIN_START = '<!-- training benchmark: written by tools/bench/train-speed.mjs -->';
export const TRAIN_END = '<!-- end of training benchmark -->';
// …its threads table, and the default in-page run of train-page.mjs (`npm run bench:train-page`).
export const THREADS_START = '<!-- training threads benchmark: written by tools/bench/train-speed.mjs -->';
export const THREADS_END = '<!-- end of training threads benchmark -->';
export const PAGE_RUN_START = '<!-- in-page training run: written by tools/bench/train-page.mjs -->';
export const PAGE_RUN_END = '<!-- end of in-page training run -->';

// `markdown` with its section from `start` to `end` replaced by `text`, or `text` added after the
// section ending with `after` (else at the end) where it has none.
export function putSection(markdown, start, end, text, after = null) {
  const old = section(markdown, start, end);
  if (old) return markdown.replace(old, () => text);
  if (after && markdown.includes(after)) return markdown.replace(after, () => `${after}\n\n${text}`);
  return `${markdown.trimEnd()}\n\n${text}\n`;
}

// The text from `start` to `end` (markers included), or null.
export function section(markdown, start, end) {
  const i = markdown.indexOf(start),
    j = markdown.indexOf(end);
  return i >= 0 && j > i ? markdown.slice(i, j + end.length) : null;
}

export const BROWSER_START = '<!-- Chromium benchmark: written by tools/bench/browser.mjs -->';
export const BROWSER_END = '<!-- end of Chromium benchmark -->';

export function browserSection(markdown) {
  const i = markdown.indexOf(BROWSER_START),
    j = markdown.indexOf(BROWSER_END);
  return i >= 0 && j > i ? markdown.slice(i, j + BROWSER_END.length) : null;
}
export const pageSection = (markdown) => section(markdown, PAGE_START, PAGE_END);
