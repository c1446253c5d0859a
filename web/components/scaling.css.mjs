// The stylesheet of <ae-scaling>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
h3 { margin: 1.25rem 0 0.25rem; font-size: 1.05rem; }
.ae-sc-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.25rem; margin-top: 0.5rem; }
.ae-sc-field { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
.ae-sc-field label { font-weight: 600; }
.ae-sc-field input[type="range"] { width: min(14rem, 60vw); accent-color: var(--accent); }
.ae-sc-dvalue { min-width: 4.5em; font-variant-numeric: tabular-nums; font-weight: 700; }
.ae-sc-reseed { display: flex; align-items: center; gap: 0.4rem; }
.ae-sc-seed { color: var(--muted); font-size: 0.8rem; }
.ae-sc-stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 12rem), 1fr)); gap: 0.5rem; margin: 0.75rem 0 0; }
.ae-sc-stat { padding: 0.4rem 0.6rem; border: 1px solid var(--border); border-radius: 8px; }
.ae-sc-stat dt { color: var(--muted); font-size: 0.8rem; }
.ae-sc-stat dd { margin: 0; display: grid; }
.ae-sc-value { font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.ae-sc-note { color: var(--muted); font-size: 0.8rem; }
.ae-sc-verdict { margin: 0.5rem 0 0; padding: 0.35rem 0.6rem; border-left: 4px solid var(--accent); background: var(--bg); }
.ae-sc-verdict.collapsed { border-left-color: var(--marker); color: var(--marker-text); font-weight: 700; }
.ae-sc-bars, .ae-sc-chart { display: block; width: 100%; max-width: 26rem; height: auto; margin-top: 0.5rem; }
.ae-sc-bar rect { fill: var(--accent); }
.ae-sc-bar.strongest rect { fill: var(--marker); }
.ae-sc-axis, .ae-sc-grid { stroke: var(--border-strong); stroke-width: 1; }
.ae-sc-grid { stroke-dasharray: 2 3; }
.ae-sc-barvalue, .ae-sc-barlabel, .ae-sc-tick, .ae-sc-legend { fill: var(--text); font-size: 10px; font-variant-numeric: tabular-nums; }
.ae-sc-barlabel, .ae-sc-tick { fill: var(--muted); }
.ae-sc-chart-title { margin: 0.75rem 0 0; font-weight: 600; }
.ae-sc-line { fill: none; stroke-width: 2; }
.ae-sc-line.scaled, .ae-sc-dot.scaled { stroke: var(--accent); fill: var(--accent); }
.ae-sc-line.raw, .ae-sc-dot.raw { stroke: var(--marker); fill: var(--marker); }
.ae-sc-line { fill: none !important; }
.ae-sc-legend.scaled { fill: var(--accent); } .ae-sc-legend.raw { fill: var(--marker-text); }
.ae-sc-now { stroke: var(--text); stroke-width: 1; stroke-dasharray: 4 3; }
.ae-sc-factor { margin: 0.5rem 0 0; color: var(--muted); font-variant-numeric: tabular-nums; }
.ae-sc-answers { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr)); gap: 0.5rem; margin: 0.5rem 0 0; }
.ae-sc-answer { padding: 0.4rem 0.6rem; border: 1px solid var(--border); border-radius: 8px; }
.ae-sc-answer dt { color: var(--muted); font-size: 0.8rem; }
.ae-sc-answer dd { margin: 0; font-size: 1.1rem; font-weight: 700; }
.ae-sc-answer dd.changed { color: var(--marker-text); }
.ae-sc-scroll { overflow-x: auto; margin-top: 0.5rem; }
.ae-sc-table { border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
.ae-sc-table caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
.ae-sc-table th, .ae-sc-table td { padding: 0.2rem 0.4rem; border-bottom: 1px solid var(--border); text-align: left; white-space: nowrap; }
.ae-sc-table thead th { color: var(--muted); font-size: 0.8rem; font-weight: 600; }
.ae-sc-table tbody th { font-weight: 400; }
.ae-sc-table tfoot th, .ae-sc-table tfoot td { font-weight: 700; }
.ae-sc-rowbar { display: inline-block; width: clamp(2.5rem, 12vw, 7rem); height: 0.6rem; margin-right: 0.35rem; vertical-align: middle; border: 1px solid var(--border); border-radius: 3px; background: linear-gradient(to right, var(--accent) calc(var(--w, 0) * 100%), transparent 0); }
.ae-sc-table td.now .ae-sc-rowbar { background: linear-gradient(to right, var(--marker) calc(var(--w, 0) * 100%), transparent 0); }
@media (max-width: 30rem) {
  .ae-qkv-table th, .ae-qkv-table td, .ae-sc-table th, .ae-sc-table td, .ae-mh-table th, .ae-mh-table td { padding: 0.15rem 0.2rem; }
  .ae-qkv-bar { display: none; }
  .ae-sc-rowbar { width: 1.6rem; }
  .ae-mh-bar { width: 0.9rem; }
}
`;
