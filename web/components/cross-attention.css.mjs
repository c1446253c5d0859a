// The stylesheet of <ae-cross-attention>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
.ae-pos-controls, .ae-cm-controls, .ae-ca-controls { display: flex; flex-wrap: wrap; align-items: end; gap: 0.5rem 1rem; margin-top: 0.75rem; }
.ae-pos-controls .chip, .ae-cm-controls .chip, .ae-ca-controls .chip { margin-top: 0; }
.ae-pos-summary, .ae-pos-verdict, .ae-cm-verdict, .ae-ca-note { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); }
.ae-pos-view, .ae-cm-view, .ae-ca-view { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin-top: 0.5rem; }
.ae-cm-sentence, .ae-ca-sentence { width: 100%; min-height: 3rem; padding: 0.4rem 0.5rem; border: 1px solid var(--border-strong); border-radius: 6px; }
.ae-cm-controls .field, .ae-ca-controls .field { flex: 1 1 18rem; }
/* Its two matrices share the causal-mask panel's column (a track that keeps the panel's width). */
.ae-cm-compare { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0; }
.ae-cm-compare > div { min-width: 0; }
`;
