// The stylesheet of <ae-head-grid>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
:host { margin-top: 0.75rem; }
.ae-hg-grid { display: grid; gap: 0.5rem; }
.ae-hg-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
.ae-hg-layer { flex: 0 0 3.2rem; color: var(--muted); font-size: 0.8rem; font-weight: 700; }
.ae-hg-thumb {
  display: grid; justify-items: center; gap: 0.15rem; width: 4.5rem; padding: 0.25rem;
  font: inherit; font-size: 0.75rem; color: var(--text); background: var(--surface);
  border: 1px solid var(--border-strong); border-radius: 8px; cursor: pointer;
}
.ae-hg-thumb canvas { display: block; width: 100%; aspect-ratio: 1; image-rendering: pixelated; border-radius: 3px; }
.ae-hg-thumb:hover { border-color: var(--accent); }
.ae-hg-thumb[aria-pressed="true"] { border: 2px solid var(--marker); padding: calc(0.25rem - 1px); font-weight: 700; }
.ae-hg-badge { font-size: 0.65rem; line-height: 1.1; text-align: center; color: var(--marker-text); font-weight: 700; }
@media (max-width: 30rem) { .ae-hg-thumb { width: 3.6rem; } .ae-hg-layer { flex-basis: 100%; } }
`;
