// The stylesheet of <ae-qkv-steps>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
h3 { margin: 1.25rem 0 0.25rem; font-size: 1.05rem; }
.ae-qkv-waiting, .ae-sc-status, .ae-mh-waiting { color: var(--muted); }
.ae-qkv-top { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; }
.ae-qkv-where { margin: 0; color: var(--muted); font-size: 0.875rem; }
.ae-qkv-columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 0.75rem 1.25rem; margin-top: 0.5rem; }
.ae-qkv-steps { margin: 0; padding: 0; list-style: none; display: grid; gap: 0.25rem; }
.ae-qkv-analogy { padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); font-size: 0.875rem; }
.ae-qkv-analogy p { margin: 0 0 0.25rem; }
.ae-qkv-analogy-title { font-weight: 700; }
.ae-qkv-analogy-note { color: var(--muted); font-style: italic; }
.ae-qkv-q, .ae-qkv-out { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-top: 0.75rem; font-weight: 600; }
.ae-qkv-values { display: block; margin-top: 0.2rem; font-size: 0.8rem; overflow-wrap: anywhere; color: var(--muted); }
.ae-qkv-scroll { overflow-x: auto; margin-top: 0.5rem; }
.ae-qkv-table { border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
.ae-qkv-table caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
.ae-qkv-table th, .ae-qkv-table td { padding: 0.2rem 0.4rem; border-bottom: 1px solid var(--border); text-align: right; white-space: nowrap; }
.ae-qkv-table thead th { color: var(--muted); font-size: 0.8rem; font-weight: 600; }
.ae-qkv-table th.ae-qkv-word, .ae-qkv-table th.ae-qkv-colKey { text-align: left; font-weight: 400; }
.ae-qkv-table tbody tr { cursor: default; }
.ae-qkv-table tbody tr:hover, .ae-qkv-table tbody tr.active { background: var(--answer-bg); }
.ae-qkv-table tbody tr:focus-visible { outline: 3px solid var(--accent); outline-offset: -3px; }
.ae-qkv-bar { display: inline-block; width: 3rem; height: 0.6rem; margin-right: 0.35rem; vertical-align: middle; border: 1px solid var(--border); border-radius: 3px; background: linear-gradient(to right, var(--accent) calc(var(--w, 0) * 100%), transparent 0); }
.ae-qkv-masked { color: var(--muted); font-size: 0.8rem; }
.ae-qkv-rowvalues { white-space: pre-wrap; min-height: 2.6em; }
.ae-qkv-hint { margin: 0.35rem 0 0; color: var(--muted); font-size: 0.8rem; }
.ae-qkv-readout { margin: 0.25rem 0 0; min-height: 1.5em; font-weight: 600; font-variant-numeric: tabular-nums; }
@media (max-width: 40rem) { .ae-qkv-columns { grid-template-columns: minmax(0, 1fr); } }
@media (max-width: 30rem) {
  .ae-qkv-table th, .ae-qkv-table td, .ae-sc-table th, .ae-sc-table td, .ae-mh-table th, .ae-mh-table td { padding: 0.15rem 0.2rem; }
  .ae-qkv-bar { display: none; }
  .ae-sc-rowbar { width: 1.6rem; }
  .ae-mh-bar { width: 0.9rem; }
}
.ae-qkv-formula { margin: 0.5rem 0 0; font-size: 0.9rem; }
.ae-qkv-formula code { font-weight: 600; }
.ae-qkv-zero { margin-top: 0.5rem; padding: 0.4rem 0.75rem; border-left: 4px solid var(--border-strong); }
.ae-qkv-zero-text { margin: 0 0 0.25rem; font-size: 0.9rem; }
.ae-qkv-zero-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-top: 0.35rem; font-weight: 600; }
.ae-qkv-zero-values { display: block; margin-top: 0.2rem; font-size: 0.8rem; overflow-wrap: anywhere; color: var(--muted); }
.ae-qkv-zero-row .ae-qkv-stripbox { max-width: 100%; overflow-x: auto; line-height: 0; }
`;
