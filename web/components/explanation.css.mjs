// The stylesheet of <ae-explanation>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
.ae-ex h3 { margin: 1.25rem 0 0.25rem; font-size: 1.05rem; }
.ae-ex-controls { display: grid; gap: 0.25rem; margin-top: 0.75rem; }
.ae-ex-controls label { font-weight: 600; }
.ae-ex-controls .chip { justify-self: start; }
.ae-ex-status { margin: 0.5rem 0 0; color: var(--muted); }
.ae-ex-answer { margin: 0.5rem 0 0; font-size: 1.15rem; font-weight: 700; }
.ae-ex-table { width: 100%; max-width: 40rem; margin-top: 0.5rem; border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
.ae-ex-table th, .ae-ex-table td { padding: 0.2rem 0.35rem; border-bottom: 1px solid var(--border); text-align: left; vertical-align: middle; }
.ae-ex-table thead th { color: var(--muted); font-size: 0.8rem; font-weight: 600; }
.ae-ex-table tbody th { font-weight: 400; white-space: nowrap; }
.ae-ex-table th.ae-ex-it { font-weight: 700; }
.ae-ex-table tr.ae-ex-top-attention th { color: var(--accent); font-weight: 700; }
.ae-ex-table tr.ae-ex-top-effect th { color: var(--marker-text); font-weight: 700; }
.ae-ex-table td { white-space: normal; }
.ae-ex-bar { display: inline-block; width: clamp(2rem, 9vw, 8rem); height: 0.6rem; margin-right: 0.35rem; vertical-align: middle; background: var(--bg); border: 1px solid var(--border); border-radius: 3px; overflow: hidden; }
.ae-ex-fill { display: block; height: 100%; }
.ae-ex-bar.attention .ae-ex-fill { background: var(--accent); }
.ae-ex-bar.effect.down .ae-ex-fill { background: var(--marker); }
.ae-ex-bar.effect.up .ae-ex-fill { background: var(--text); }
.ae-ex-num { display: inline-block; min-width: 3.4em; }
.ae-ex-pair { white-space: nowrap; }
.ae-ex-flip { margin-left: 0.25rem; color: var(--marker-text); font-weight: 700; }
.ae-ex-summary { margin: 0.5rem 0 0; }
.ae-ex-heads { display: grid; gap: 0.4rem; margin-top: 0.5rem; }
.ae-ex-layer { display: flex; flex-wrap: wrap; align-items: center; gap: 0.35rem; }
.ae-ex-layer-label { flex: 0 0 4rem; color: var(--muted); font-size: 0.8rem; font-weight: 700; }
.ae-ex-head {
  display: grid; justify-items: center; min-width: 4.6rem; padding: 0.25rem 0.4rem;
  font: inherit; font-size: 0.75rem; font-variant-numeric: tabular-nums; color: var(--text);
  background: var(--surface); border: 1px solid var(--border-strong); border-radius: 8px; cursor: pointer;
}
.ae-ex-head:hover { border-color: var(--accent); }
.ae-ex-head-name { font-weight: 700; }
.ae-ex-head-attention { color: var(--accent); }
.ae-ex-head-effect { color: var(--marker-text); }
.ae-ex-head.coref { border-width: 2px; padding: calc(0.25rem - 1px) calc(0.4rem - 1px); }
.ae-ex-head[aria-pressed="true"] { background: var(--bg); border-style: dashed; }
.ae-ex-head[aria-pressed="true"] .ae-ex-head-name { text-decoration: line-through; }
.ae-ex-head.strongest { box-shadow: inset 0 3px 0 var(--accent); }
.ae-ex-head.largest { box-shadow: inset 0 -3px 0 var(--marker); }
.ae-ex-head.strongest.largest { box-shadow: inset 0 3px 0 var(--accent), inset 0 -3px 0 var(--marker); }
.ae-ex-ablation { margin: 0.5rem 0 0; min-height: 1.5em; font-weight: 600; }
.ae-ex-caption { margin: 1rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--marker); background: var(--bg); }
@media (max-width: 30rem) { .ae-ex-layer-label { flex-basis: 100%; } .ae-ex-head { min-width: 4rem; } }
`;
