// The stylesheet of <ae-train>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
.ae-tr-controls { display: flex; flex-wrap: wrap; align-items: end; gap: 0.5rem 1rem; margin-top: 0.75rem; }
.ae-tr-controls input[type="number"] { width: 7rem; }
.ae-tr-buttons { display: flex; gap: 0.5rem; }
.ae-tr-buttons .chip { margin-top: 0; }
.ae-tr-status { min-height: 1.5em; font-variant-numeric: tabular-nums; }
.ae-tr-timeline input { width: 12rem; max-width: 100%; }
.ae-tr-rows { display: flex; flex-direction: column; align-items: flex-start; gap: 0.75rem; overflow-x: auto; max-width: 100%; }
.ae-tr-table { border-collapse: collapse; font-size: 0.75rem; }
.ae-tr-table caption { text-align: left; font-size: 0.85rem; padding-bottom: 0.25rem; }
.ae-tr-table th { font-weight: 500; padding: 0 0.25rem; white-space: nowrap; }
.ae-tr-table thead th { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; }
.ae-tr-table th.ae-tr-query { color: var(--marker-text); font-weight: 700; }
.ae-tr-table td { width: 1.4rem; height: 1.1rem; border: 1px solid var(--border);
  background: color-mix(in srgb, var(--heat-2) calc(var(--w, 0) * 100%), var(--surface)); }
.ae-tr-note { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); }
.ae-tr-svg { width: 100%; max-width: 32rem; height: auto; }
.ae-tr-svg polyline { fill: none; stroke-width: 2; }
.ae-tr-axis { stroke: var(--border-strong); }
.ae-tr-tick { font-size: 10px; fill: var(--muted); }
.ae-tr-referent { stroke: var(--accent); color: var(--accent); }
.ae-tr-other { stroke: var(--marker); color: var(--marker-text); }
.ae-tr-run-0 { stroke: var(--accent); color: var(--accent); }
.ae-tr-run-1 { stroke: var(--marker); color: var(--marker-text); }
.ae-tr-run-2 { stroke: var(--muted); color: var(--muted); }
.ae-tr-run-3 { stroke: var(--text); color: var(--text); }
.ae-tr-legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.25rem 0 0; padding: 0; list-style: none; font-size: 0.85rem; }
.ae-tr-legend li::before { content: "— "; font-weight: 700; }
.ae-tr-downloads { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.ae-tr-downloads .chip { display: inline-flex; align-items: center; margin-top: 0; }
.ae-tr-drop { margin-top: 0.5rem; padding: 0.75rem; border: 2px dashed var(--border-strong); border-radius: 6px; display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.ae-tr-drop label { flex-basis: 100%; }
.ae-tr-drop input { min-width: 0; max-width: 100%; min-height: 2.25rem; }
`;
