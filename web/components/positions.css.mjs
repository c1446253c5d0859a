// The stylesheet of <ae-positions>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
.ae-pos-controls, .ae-cm-controls, .ae-ca-controls { display: flex; flex-wrap: wrap; align-items: end; gap: 0.5rem 1rem; margin-top: 0.75rem; }
.ae-pos-controls .chip, .ae-cm-controls .chip, .ae-ca-controls .chip { margin-top: 0; }
.ae-pos-controls input[type="text"] { width: 9rem; padding: 0.3rem 0.5rem; border: 1px solid var(--border-strong); border-radius: 6px; font-size: 1.1rem; }
.ae-pos-table { margin-top: 0.75rem; border-collapse: collapse; font-size: 0.9rem; }
.ae-pos-table caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
.ae-pos-table th, .ae-pos-table td { padding: 0.3rem 0.6rem; border-bottom: 1px solid var(--border); text-align: left; }
.ae-pos-mark { font-size: 0.8rem; white-space: nowrap; }
.ae-pos-true { color: var(--accent); }
.ae-pos-false { color: var(--error-text); font-weight: 600; }
.ae-pos-unknown { color: var(--muted); }
.ae-pos-summary, .ae-pos-verdict, .ae-cm-verdict, .ae-ca-note { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); }
.ae-pos-summary:empty, .ae-pos-verdict:empty, .ae-cm-verdict:empty, .ae-pos-note:empty { display: none; }
.ae-pos-note { color: var(--muted); font-size: 0.85rem; }
.ae-pos-view, .ae-cm-view, .ae-ca-view { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin-top: 0.5rem; }
.ae-pos-compare { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); gap: 0 1rem; }
.ae-pos-figure { margin: 0.5rem 0 0; }
.ae-pos-figure figcaption { font-size: 0.85rem; color: var(--muted); }
.ae-pos-sin { display: block; width: min(100%, 34rem); height: auto; }
.ae-pos-rope { display: block; width: min(100%, 18rem); height: auto; }
.ae-pos-plus { fill: #c0392b; }
.ae-pos-minus { fill: #2f6fd0; }
.ae-pos-axis { font-size: 9px; fill: var(--muted); }
.ae-pos-circle { fill: none; stroke: var(--border-strong); }
.ae-pos-axisline { stroke: var(--border); }
.ae-pos-arrow { stroke: var(--accent); stroke-width: 2; stroke-linecap: round; }
`;
