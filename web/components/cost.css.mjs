// The stylesheet of <ae-cost>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
.ae-cost-controls { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.75rem 1.5rem; }
.ae-cost-controls .field { min-width: min(100%, 16rem); }
.ae-cost-range { display: flex; align-items: center; gap: 0.6rem; }
.ae-cost-range input { flex: 1 1 auto; min-width: 8rem; accent-color: var(--accent); }
.ae-cost-length { min-width: 7.5em; font-variant-numeric: tabular-nums; }
.ae-cost-buttons { display: flex; gap: 0.5rem; }
.ae-cost-buttons .chip { margin-top: 0; }
.ae-cost-buttons .chip:disabled { opacity: 0.55; cursor: default; }
.ae-cost-progress { display: block; width: 100%; height: 0.4rem; margin-top: 0.75rem; accent-color: var(--accent); }
.ae-cost-status { min-height: 1.5em; margin: 0.4rem 0 0; color: var(--muted); }
.ae-cost-legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.5rem 0 0; padding: 0; list-style: none; font-size: 0.85rem; }
.ae-cost-legend li { display: inline-flex; align-items: center; gap: 0.35rem; }
.ae-cost-swatch { width: 28px; height: 10px; }
.ae-cost-charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); gap: 0.75rem; margin-top: 0.5rem; }
.ae-cost-figure { margin: 0; }
.ae-cost-figure figcaption { font-size: 0.85rem; font-weight: 600; }
.ae-cost-chart { display: block; width: 100%; height: auto; }
.ae-cost-axes text { font-size: 13px; fill: var(--muted); }
.ae-cost-axes text.title { font-size: 14px; fill: var(--text); }
.ae-cost-axes .grid { stroke: var(--border); stroke-width: 1; }
.ae-cost-axes .frame { fill: none; stroke: var(--border-strong); }
.ae-cost-line { fill: none; stroke-width: 2; }
.ae-cost-line.k-fused { stroke: var(--accent); }
.ae-cost-line.k-traced { stroke: var(--marker); }
.ae-cost-line.k-window { stroke: var(--text); stroke-dasharray: 6 3; }
.ae-cost-line.k-reference { stroke: var(--muted); stroke-width: 1.5; stroke-dasharray: 2 3; }
.ae-cost-line.would-need { stroke-dasharray: 4 4; opacity: 0.8; }
.ae-cost-point { stroke: var(--surface); stroke-width: 1; }
.ae-cost-point.k-fused { fill: var(--accent); }
.ae-cost-point.k-traced { fill: var(--marker); }
.ae-cost-point.k-window { fill: var(--text); }
.ae-cost-point.would-need { fill: var(--surface); stroke: var(--marker); stroke-width: 1.5; }
.ae-cost-cap { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--marker); background: var(--bg); }
.ae-cost-table-wrap { margin-top: 0.75rem; overflow-x: auto; }
.ae-cost-table { border-collapse: collapse; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
.ae-cost-table th, .ae-cost-table td { padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--border); text-align: right; white-space: nowrap; }
.ae-cost-table caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
.ae-cost-heap { color: var(--muted); }
.ae-cost-note { margin: 0.5rem 0 0; font-size: 0.85rem; color: var(--muted); }
.ae-cost-caption { margin: 1rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); }
`;
