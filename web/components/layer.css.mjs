// The stylesheet of <ae-layer>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
h3 { margin: 1.25rem 0 0.25rem; font-size: 1.05rem; }
.ae-layer-waiting { color: var(--muted); }
.ae-layer-error:empty { display: none; }
.ae-layer-parts { margin: 0.25rem 0 0.75rem; padding-left: 1.25rem; }
.ae-layer-parts li { margin-bottom: 0.25rem; }
.ae-layer-controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
.ae-layer-shape, .ae-layer-placement, .ae-layer-stack { font-size: 0.9rem; }
.ae-layer-placement { padding: 0.4rem 0.75rem; border-left: 4px solid var(--accent); }
.ae-layer-stages { margin: 0; padding: 0; list-style: none; display: grid; gap: 0.2rem; }
.ae-layer-stage { display: grid; grid-template-columns: minmax(0, 13rem) minmax(0, 11rem) auto minmax(0, 1fr); gap: 0.25rem 0.75rem; align-items: center; padding: 0.25rem 0.4rem; border-left: 4px solid var(--border); border-radius: 3px; }
.ae-layer-stage:hover, .ae-layer-stage.active { background: var(--answer-bg, var(--bg)); }
.ae-layer-stage:focus-visible { outline: 3px solid var(--accent); outline-offset: -3px; }
.ae-layer-kind-attn { border-left-color: var(--accent); }
.ae-layer-kind-ffn { border-left-color: var(--marker); }
.ae-layer-kind-norm, .ae-layer-kind-res { border-left-color: var(--border-strong); }
.ae-layer-stage-name { font-weight: 600; font-size: 0.9rem; }
.ae-layer-formula { font-family: ui-monospace, monospace; font-size: 0.8rem; color: var(--muted); overflow-wrap: anywhere; }
.ae-layer-stripbox { min-width: 0; max-width: 100%; overflow-x: auto; line-height: 0; }
.ae-layer-stripbox .ae-strip { max-width: 100%; }
.ae-layer-norm { font-variant-numeric: tabular-nums; font-size: 0.875rem; white-space: nowrap; }
.ae-layer-hint { margin: 0.35rem 0 0; color: var(--muted); font-size: 0.8rem; }
.ae-layer-readout { display: block; min-height: 2.6em; margin-top: 0.25rem; font-size: 0.8rem; overflow-wrap: anywhere; white-space: pre-wrap; }
.ae-layer-parallel { font-size: 0.95rem; }
@media (max-width: 48rem) { .ae-layer-stage { grid-template-columns: minmax(0, 1fr) auto; } .ae-layer-formula { grid-column: 1 / -1; } .ae-layer-stripbox { grid-column: 1 / -1; } }
`;
