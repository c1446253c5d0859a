// The stylesheet of the number matrices (./number-matrix.mjs; cell colour = --ae-nm-t in 0…1, set
// through CSSOM), shared by <ae-positions>, <ae-causal-mask> and <ae-cross-attention>: adopted in
// their shadow roots after ../lib/panel-styles.mjs's.
export default `
.ae-nm { max-width: 100%; overflow-x: auto; margin: 0.5rem 0; }
.ae-nm:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.ae-nm-table { border-collapse: collapse; font-size: 0.78rem; font-variant-numeric: tabular-nums; }
.ae-nm-table caption { text-align: left; font-weight: 600; font-size: 0.85rem; padding-bottom: 0.25rem; }
.ae-nm-table th { padding: 0.15rem 0.3rem; font-weight: 600; white-space: nowrap; }
.ae-nm-table thead th { writing-mode: vertical-rl; text-align: left; max-height: 7rem; vertical-align: bottom; }
.ae-nm-table.ae-nm-short thead th { writing-mode: horizontal-tb; text-align: center; }
.ae-nm-table tbody th { text-align: right; }
.ae-nm-table td {
  min-width: 2.4rem; padding: 0.2rem 0.25rem; border: 1px solid var(--border); text-align: center; color: var(--text);
  /* The ramp stops where --text still reads at 4.5:1 on it (70 % of the accent in light, 45 % in
     dark): light or dark as the host's color-scheme (light-dark), not the system's alone. */
  background: light-dark(
    color-mix(in oklab, var(--accent) calc(var(--ae-nm-t, 0) * 70%), var(--surface)),
    color-mix(in oklab, var(--accent) calc(var(--ae-nm-t, 0) * 45%), var(--surface))
  );
}
.ae-nm-table td.ae-nm-strong { font-weight: 700; }
.ae-nm-table td.ae-nm-masked { background: var(--bg); color: var(--muted); }
.ae-nm-table td.ae-nm-linked { outline: 3px solid var(--marker); outline-offset: -3px; }
.ae-nm-table tr.ae-nm-highlight th { color: var(--marker-text); }
.ae-nm-table tr.ae-nm-highlight td { box-shadow: inset 0 2px 0 var(--marker), inset 0 -2px 0 var(--marker); }
.ae-nm-table th.ae-nm-top { color: var(--marker-text); text-decoration: underline; }
/* Compact: colour-only square cells of --ae-nm-cell (number-matrix.mjs fitToWidth); the numbers
   stay in the cells (font-size 0) for screen readers and come back with the toggle. */
.ae-nm-toggle { display: block; margin: 0 0 0.35rem; }
.ae-nm-compact .ae-nm-table td {
  min-width: 0; width: var(--ae-nm-cell); height: var(--ae-nm-cell); padding: 0; font-size: 0; line-height: 0;
}
.ae-nm-compact .ae-nm-table thead th { padding: 0.15rem 0; font-size: 0.7rem; width: var(--ae-nm-cell); max-width: var(--ae-nm-cell); }
.ae-nm-compact .ae-nm-table tbody th { font-size: 0.72rem; padding: 0 0.2rem; }
`;
