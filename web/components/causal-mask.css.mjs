// The stylesheet of <ae-causal-mask>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
.ae-pos-controls, .ae-cm-controls, .ae-ca-controls { display: flex; flex-wrap: wrap; align-items: end; gap: 0.5rem 1rem; margin-top: 0.75rem; }
.ae-pos-controls .chip, .ae-cm-controls .chip, .ae-ca-controls .chip { margin-top: 0; }
.ae-pos-summary, .ae-pos-verdict, .ae-cm-verdict, .ae-ca-note { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); }
.ae-pos-summary:empty, .ae-pos-verdict:empty, .ae-cm-verdict:empty, .ae-pos-note:empty { display: none; }
.ae-pos-view, .ae-cm-view, .ae-ca-view { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin-top: 0.5rem; }
.ae-cm-sentence, .ae-ca-sentence { width: 100%; min-height: 3rem; padding: 0.4rem 0.5rem; border: 1px solid var(--border-strong); border-radius: 6px; }
.ae-cm-controls .field, .ae-ca-controls .field { flex: 1 1 18rem; }
.ae-cm-check { display: flex; align-items: center; gap: 0.4rem; }
.ae-cm-answer { margin: 0.5rem 0 0; font-weight: 600; }
/* minmax(0, 1fr), not 1fr: a 1fr track grows to its widest matrix and pushed the page to ~814 px at 375 px;
   now the track keeps the panel's width, and a matrix too wide for it is drawn compact (number-matrix.mjs). */
.ae-cm-compare { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0; }
.ae-cm-compare > div { min-width: 0; }
.ae-cm-window { min-width: 0; }
.ae-cm-window .field { min-width: 0; max-width: 100%; }
.ae-cm-window select { max-width: 100%; }
.ae-cm-range label { flex-basis: 100%; margin-bottom: 0; }
.ae-cm-range { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.6rem; }
.ae-cm-range input[type="range"] { width: min(100%, 14rem); accent-color: var(--accent); }
.ae-cm-window-value { font-variant-numeric: tabular-nums; }
`;
