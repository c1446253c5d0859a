// The training panel's time-left figure (web/lib/time-left.mjs) on simulated runs with a fake
// clock: slow first steps, snapshots that cost as much as training, a pause.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SHOW_AFTER, TimeLeft } from '../../web/lib/time-left.mjs';

// A run of `total` steps: stepMs(i) per step, snapshotMs every `every` steps, reports every
// 250 ms of wall time as the worker sends them. Returns [{step, now, seconds}] and the end time.
function simulate({ total, stepMs, every, snapshotMs, pauseAt = null, pauseMs = 0 }) {
  const estimator = new TimeLeft(total);
  const reports = [];
  let now = 0;
  let lastReport = -Infinity;
  for (let step = 1; step <= total; step++) {
    now += stepMs(step);
    if (step % every === 0) now += snapshotMs;
    if (step === pauseAt) {
      estimator.pause(now);
      reports.push({ step, now, seconds: estimator.seconds(step, now), paused: true });
      now += pauseMs;
      reports.push({ step, now, seconds: estimator.seconds(step, now), paused: true });
      estimator.resume(now);
    }
    if (now - lastReport >= 250 || step === total) {
      lastReport = now;
      reports.push({ step, now, seconds: estimator.seconds(step, now) });
    }
  }
  return { reports, end: now };
}

// The first report at or after `fraction` of the steps, and the real seconds left then.
function at(run, total, fraction) {
  const report = run.reports.find((r) => r.step >= fraction * total && !r.paused);
  return { ...report, real: (run.end - report.now) / 1000 };
}

const within = (estimate, real, tolerance) => Math.abs(estimate - real) <= tolerance * real;

test('no figure before 2 % of the steps, one from then on', () => {
  const total = 2000;
  const run = simulate({ total, stepMs: () => 50, every: 50, snapshotMs: 100 });
  const early = run.reports.filter((r) => r.step < SHOW_AFTER * total);
  assert.ok(early.length > 3, 'the simulation reports early');
  assert.ok(
    early.every((r) => r.seconds === null),
    'a figure before 2 %',
  );
  const later = run.reports.filter((r) => r.step >= 0.03 * total);
  assert.ok(later.every((r) => Number.isFinite(r.seconds) && r.seconds >= 0));
  assert.equal(run.reports.at(-1).seconds, 0);
});

test('slow first steps do not inflate the figure: within 20 % at 10 %', () => {
  const total = 2000;
  // the first 1 % of steps 20× slower (one step per chunk while the chunk size adapts)
  const run = simulate({ total, stepMs: (i) => (i <= 20 ? 1000 : 50), every: 50, snapshotMs: 100 });
  const { seconds, real } = at(run, total, 0.1);
  assert.ok(within(seconds, real, 0.2), `estimate ${seconds} s, real ${real} s`);
});

test('a pace that quickens after the first 5 % (the optimizing tier arriving) is the one taken: within 20 % at 10 %', () => {
  const total = 2000;
  // Taken from the warm-up mark on, this pace gave 72 ms a step where 50 follow: +44 %.
  const run = simulate({ total, stepMs: (i) => (i <= 100 ? 100 : 50), every: 50, snapshotMs: 100 });
  const { seconds, real } = at(run, total, 0.1);
  assert.ok(within(seconds, real, 0.2), `estimate ${seconds} s, real ${real} s`);
});

test('snapshots are counted: within 20 % at 10 % when they take as long as the steps', () => {
  const total = 2000;
  const run = simulate({ total, stepMs: () => 40, every: 40, snapshotMs: 1600 });
  const { seconds, real } = at(run, total, 0.1);
  assert.ok(within(seconds, real, 0.2), `estimate ${seconds} s, real ${real} s`);
});

test('a pause does not count as time the run takes', () => {
  const total = 1000;
  const plain = simulate({ total, stepMs: () => 50, every: 25, snapshotMs: 200 });
  const paused = simulate({ total, stepMs: () => 50, every: 25, snapshotMs: 200, pauseAt: 60, pauseMs: 60_000 });
  const a = at(plain, total, 0.2);
  const b = at(paused, total, 0.2);
  assert.ok(Math.abs(a.seconds - b.seconds) < 1e-6, `${a.seconds} s without the pause, ${b.seconds} s with it`);
  const during = paused.reports.filter((r) => r.paused);
  assert.equal(during.length, 2);
  assert.ok(Math.abs(during[0].seconds - during[1].seconds) < 1e-6, 'the figure moved while paused');
});

test('a run of one step, and totals that are not a positive integer', () => {
  const one = new TimeLeft(1);
  assert.equal(one.seconds(0, 0), null);
  assert.equal(one.seconds(1, 10), null); // the mark: nothing measured yet
  for (const bad of [0, -5, 2.5, NaN, '100', undefined]) assert.throws(() => new TimeLeft(bad), RangeError);
});
