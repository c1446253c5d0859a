// A lesson panel's own controls (the ÷√d panel's d, the causal panel's mask switch, …) kept in
// the shared store under `controls` ({'<panel>.<name>': string}) and so in the link
// (?scaling.d=256): a teacher's link opens every panel as it was set.
//   const d = Number(readControl(this.store, 'scaling', 'd') ?? 64);   // on connect
//   writeControl(this.store, 'scaling', 'd', d);                       // on change
// Values are strings; the panel validates what it reads (a link may carry anything) and
// writes null to drop a control that is back at its default.
import { readUrlState } from './url-state.mjs';

// Panels connect before the page reads its link, so the first read seeds the store from the URL.
function controls(store) {
  let current = store.get().controls;
  if (!current) {
    current = globalThis.location ? readUrlState(globalThis.location.search).controls : {};
    store.set({ controls: current });
  }
  return current;
}

export function readControl(store, panel, name) {
  return controls(store)[`${panel}.${name}`];
}

export function writeControl(store, panel, name, value) {
  const key = `${panel}.${name}`;
  const next = { ...controls(store) };
  if (value === null || value === undefined) delete next[key];
  else next[key] = String(value);
  if (next[key] !== controls(store)[key]) store.set({ controls: next });
}
