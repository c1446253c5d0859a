// The training panel's "about N s left": seconds of wall time left in a run, from the run's own
// measured pace. The pace is taken over the later half of the steps done (and never before a mark
// set once WARM_UP of the steps are done), so the first chunks (one step at a time while the chunk
// size adapts, the module's code before the browser's optimizing tier takes over) do not weigh on
// it, and everything the run spends between steps — snapshots and their validation pass,
// messages — is in it. Paused time is left out. No figure before SHOW_AFTER of the steps: an early
// figure was seen three to five times too long.

export const WARM_UP = 0.01; // the fraction of steps before which no measured stretch starts
export const SHOW_AFTER = 0.02; // the fraction of steps before which no figure is shown

export class TimeLeft {
  #total;
  #samples = []; // {step, ms} from the warm-up mark on: where a measured stretch may start
  #pausedSince = null;
  #pausedMs = 0;

  constructor(totalSteps) {
    if (!Number.isInteger(totalSteps) || totalSteps < 1)
      throw new RangeError(`totalSteps ${totalSteps}: not a positive integer`);
    this.#total = totalSteps;
  }

  pause(now) {
    this.#pausedSince ??= now;
  }

  resume(now) {
    if (this.#pausedSince === null) return;
    this.#pausedMs += now - this.#pausedSince;
    this.#pausedSince = null;
  }

  // Seconds left after `step` steps at wall time `now` (ms, any clock), or null while unknown.
  seconds(step, now) {
    const active = now - this.#pausedMs - (this.#pausedSince === null ? 0 : now - this.#pausedSince);
    if (this.#samples.length === 0) {
      if (step >= Math.max(1, Math.ceil(WARM_UP * this.#total))) this.#samples.push({ step, ms: active });
      return null;
    }
    if (step > this.#samples.at(-1).step) this.#samples.push({ step, ms: active });
    // The stretch starts at the last sample at or before half the steps done (the mark at first).
    while (this.#samples.length > 2 && this.#samples[1].step <= step / 2) this.#samples.shift();
    const from = this.#samples[0];
    if (step < SHOW_AFTER * this.#total || step <= from.step) return null;
    const msPerStep = (active - from.ms) / (step - from.step);
    return Math.max(0, ((this.#total - step) * msPerStep) / 1000);
  }
}
