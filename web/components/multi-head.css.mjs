// The stylesheet of <ae-multi-head>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
h3 { margin: 1.25rem 0 0.25rem; font-size: 1.05rem; }
/* light or dark as the host's color-scheme */
:host {
  --ae-mh-0: light-dark(#1d5fa8, #7db4ff); --ae-mh-1: light-dark(#c2410c, #ff9c66);
  --ae-mh-2: light-dark(#2b7a3d, #6fd08a); --ae-mh-3: light-dark(#7e3a9c, #d19cf0);
  --ae-mh-4: light-dark(#b8245a, #ff8cb5); --ae-mh-5: light-dark(#0b6f80, #5fd3e6);
  --ae-mh-6: light-dark(#5b7a0d, #b5d95a); --ae-mh-7: light-dark(#8a5a00, #f2c14e);
}
.ae-mh-c0 { --c: var(--ae-mh-0); } .ae-mh-c1 { --c: var(--ae-mh-1); } .ae-mh-c2 { --c: var(--ae-mh-2); } .ae-mh-c3 { --c: var(--ae-mh-3); }
.ae-mh-c4 { --c: var(--ae-mh-4); } .ae-mh-c5 { --c: var(--ae-mh-5); } .ae-mh-c6 { --c: var(--ae-mh-6); } .ae-mh-c7 { --c: var(--ae-mh-7); }
.ae-mh-f0 { fill: var(--ae-mh-0); } .ae-mh-f1 { fill: var(--ae-mh-1); } .ae-mh-f2 { fill: var(--ae-mh-2); } .ae-mh-f3 { fill: var(--ae-mh-3); }
.ae-mh-f4 { fill: var(--ae-mh-4); } .ae-mh-f5 { fill: var(--ae-mh-5); } .ae-mh-f6 { fill: var(--ae-mh-6); } .ae-mh-f7 { fill: var(--ae-mh-7); }
.ae-mh-splitstrip { overflow-x: auto; margin-top: 0.25rem; }
.ae-mh-splitsvg { display: block; max-width: 100%; height: auto; }
.ae-mh-tick { stroke: var(--surface); stroke-width: 1; }
.ae-mh-ranges { display: flex; flex-wrap: wrap; gap: 0.25rem 0.9rem; margin: 0.35rem 0 0; padding: 0; list-style: none; font-size: 0.8rem; }
.ae-mh-ranges li { color: var(--c); font-weight: 700; }
.ae-mh-pickers { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }
.ae-mh-scroll { overflow-x: auto; margin-top: 0.5rem; }
.ae-mh-table { border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
.ae-mh-table caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
.ae-mh-table th, .ae-mh-table td { padding: 0.2rem 0.4rem; border-bottom: 1px solid var(--border); text-align: left; white-space: nowrap; }
.ae-mh-table thead th { font-size: 0.8rem; font-weight: 700; color: var(--c, var(--muted)); }
.ae-mh-table tbody th { font-weight: 400; }
.ae-mh-table td.strongest { font-weight: 700; }
.ae-mh-table td.strongest .ae-mh-bar { outline: 2px solid var(--c); outline-offset: 1px; }
.ae-mh-bar { display: inline-block; width: clamp(1.8rem, 7vw, 4rem); height: 0.6rem; margin-right: 0.3rem; vertical-align: middle; border: 1px solid var(--border); border-radius: 3px; background: linear-gradient(to right, var(--c, var(--accent)) calc(var(--w, 0) * 100%), transparent 0); }
.ae-mh-paramtable tr.current th, .ae-mh-paramtable tr.current td { font-weight: 700; background: var(--answer-bg); }
.ae-mh-flow { display: grid; justify-items: start; gap: 0.3rem; margin-top: 0.5rem; }
.ae-mh-heads { display: flex; flex-wrap: wrap; gap: 0.4rem 0.75rem; }
.ae-mh-vec { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0.35rem; padding: 0.2rem 0.35rem; border: 2px solid var(--c, var(--border-strong)); border-radius: 6px; }
.ae-mh-vec:hover { background: var(--answer-bg); }
.ae-mh-vecname { font-size: 0.8rem; font-weight: 700; }
.ae-mh-arrow { color: var(--muted); font-size: 0.85rem; }
.ae-mh-values { min-height: 1.5em; margin-top: 0.35rem; font-family: ui-monospace, monospace; font-size: 0.8rem; overflow-wrap: anywhere; }
.ae-mh-calc { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; }
.ae-mh-calc input { width: 8rem; }
.ae-mh-calcresult { margin: 0.5rem 0 0; font-weight: 700; min-height: 1.5em; }
@media (max-width: 30rem) {
  .ae-qkv-table th, .ae-qkv-table td, .ae-sc-table th, .ae-sc-table td, .ae-mh-table th, .ae-mh-table td { padding: 0.15rem 0.2rem; }
  .ae-qkv-bar { display: none; }
  .ae-sc-rowbar { width: 1.6rem; }
  .ae-mh-bar { width: 0.9rem; }
}
`;
