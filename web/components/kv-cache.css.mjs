// The stylesheet of <ae-kv-cache>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
.ae-kv-controls { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.5rem 1rem; margin-top: 0.75rem; }
.ae-kv-controls .ae-kv-prompt { flex: 1 1 100%; }
.ae-kv-controls input[type="text"] { width: 100%; min-height: 2.5rem; padding: 0.4rem 0.6rem; border: 1px solid var(--border-strong); border-radius: 8px; }
.ae-kv-controls select { width: auto; min-width: 7rem; }
.ae-kv-controls .chip { margin-top: 0; }
.ae-kv-buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.75rem; }
.ae-kv-buttons .chip { margin-top: 0; min-width: 5.5rem; }
.chip:disabled { opacity: 0.55; cursor: default; }
.chip[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); }
.ae-kv-status { min-height: 1.5em; margin: 0.6rem 0 0; font-weight: 600; }
.ae-kv-unknown { margin: 0.25rem 0 0; color: var(--error-text); }
.ae-kv-text { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; background: var(--bg); border-radius: 8px; overflow-wrap: anywhere; }
.ae-kv-text-label { color: var(--muted); font-size: 0.875rem; }
.ae-kv-new-word { padding: 0 0.2em; border-radius: 4px; background: var(--answer-bg); color: var(--text); font-weight: 700; outline: 2px solid var(--marker); }
.ae-kv-cache { margin: 1rem 0 0; }
.ae-kv-cache figcaption, h3 { font-size: 1rem; font-weight: 600; margin: 0; }
.ae-kv-note { margin: 0.25rem 0 0; font-size: 0.875rem; color: var(--muted); }
.ae-kv-legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.4rem 0; padding: 0; list-style: none; font-size: 0.85rem; }
.ae-kv-legend li::before { content: ""; display: inline-block; width: 1.1em; height: 0.8em; margin-right: 0.35em; vertical-align: -0.05em; border: 1px solid var(--border-strong); }
.ae-kv-legend li.reused::before { background: var(--bg); }
.ae-kv-legend li.new::before { background: var(--answer-bg); border: 2px solid var(--marker); }
.ae-kv-grid { display: block; width: 100%; max-width: 36rem; height: auto; }
/* Before the first step the grid is hidden; without this its display: block kept a 10×10 viewBox
   scaled to the panel's width, an empty square of ~450 px (issue 11). */
.ae-kv-grid[hidden] { display: none; }
.ae-kv-grid text { font-size: 10px; fill: var(--text); }
.ae-kv-grid .ae-kv-head text { fill: var(--muted); font-weight: 600; }
.ae-kv-grid text.pos, .ae-kv-grid text.value { fill: var(--muted); font-variant-numeric: tabular-nums; }
.ae-kv-grid .reused .band { fill: var(--bg); }
.ae-kv-grid .new .band { fill: var(--answer-bg); stroke: var(--marker); stroke-width: 1.5; }
.ae-kv-grid .new text.token { font-weight: 700; }
.ae-kv-grid .pos-cell { fill: var(--accent); }
.ae-kv-grid .neg-cell { fill: var(--marker); }
.ae-kv-grid .bar-track { fill: none; stroke: var(--border); }
.ae-kv-grid .bar { fill: var(--accent); }
.ae-kv-rows { margin: 0.25rem 0 0; font-size: 0.875rem; }
.ae-kv-work, .ae-kv-time, .ae-kv-causal { margin-top: 1rem; }
.ae-kv-table-wrap { overflow-x: auto; margin-top: 0.5rem; }
.ae-kv-table { width: 100%; border-collapse: collapse; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
.ae-kv-table th, .ae-kv-table td { padding: 0.25rem 0.4rem; border-bottom: 1px solid var(--border); text-align: left; vertical-align: top; }
.ae-kv-table tbody tr.current { background: var(--bg); }
.ae-kv-table td .ops { display: block; }
.ae-kv-table tfoot th, .ae-kv-table tfoot td { font-weight: 700; border-bottom: 0; }
.ae-kv-bar { display: block; width: 100%; min-width: 4rem; height: 0.6rem; }
.ae-kv-bar .track { fill: var(--bg); }
.ae-kv-bar.with .fill { fill: var(--accent); }
.ae-kv-bar.without .fill { fill: var(--marker); }
.ae-kv-saving { margin: 0.4rem 0 0; font-weight: 600; }
.ae-kv-time .chip { margin-top: 0.4rem; }
.ae-kv-time-result { margin: 0.4rem 0 0; }
.ae-kv-time-row { display: grid; grid-template-columns: 7rem minmax(4rem, 1fr) 6.5rem; align-items: center; gap: 0.5rem; margin-top: 0.3rem; font-size: 0.875rem; }
.ae-kv-time-row .ms { text-align: right; font-variant-numeric: tabular-nums; }
.ae-kv-causal { padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); }
.ae-kv-causal p { margin: 0.25rem 0 0; }
.ae-kv-table .ae-kv-rowcount { font-weight: 400; font-size: 0.8rem; color: var(--muted); }
.ae-kv-table td { width: 40%; }
`;
