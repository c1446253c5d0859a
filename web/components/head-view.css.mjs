// The stylesheet of <ae-head-view> (and of <ae-flip-view>, the head views of <ae-flip-pair>):
// adopted in the panel's shadow root after ../lib/panel-styles.mjs's shared rules.
export default `
:host { margin-top: 0.75rem; }
.ae-hv-caption { margin: 0 0 0.25rem; font-weight: 600; }
.ae-hv-board {
  display: grid; grid-template-columns: minmax(0, max-content) minmax(3rem, 14rem) minmax(0, max-content);
  grid-template-rows: repeat(var(--ae-hv-n, 1), 2rem); justify-content: center;
}
.ae-hv-col { display: contents; }
.ae-hv-queries .ae-hv-token { grid-column: 1; justify-self: end; }
.ae-hv-keys .ae-hv-token { grid-column: 3; justify-self: start; }
.ae-hv-lines { grid-column: 2; grid-row: 1 / -1; width: 100%; height: 100%; }
.ae-hv-lines line { stroke: var(--accent); stroke-linecap: round; }
.ae-hv-lines line.strongest { stroke: var(--marker); }
.ae-hv-token {
  align-self: center; max-width: 9rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
  padding: 0.05rem 0.45rem; font: inherit; font-size: 0.95rem; line-height: 1.6; color: var(--text);
  background: none; border: 1px solid transparent; border-radius: 6px;
}
button.ae-hv-token { min-width: 1.5rem; cursor: pointer; } /* a one-letter word (".", "=") is still a 24 px target */
button.ae-hv-token:hover { border-color: var(--border-strong); }
button.ae-hv-token[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); font-weight: 700; }
span.ae-hv-token.strongest { color: var(--marker-text); font-weight: 700; }
.ae-hv-readout { margin: 0.5rem 0 0; min-height: 1.5em; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
/* light or dark as the host's color-scheme */
:host {
  --ae-hv-c0: light-dark(#1f5fbf, #6fb1ff); --ae-hv-c1: light-dark(#c44d00, #ff9b4a);
  --ae-hv-c2: light-dark(#0a7f57, #4fd1a1); --ae-hv-c3: light-dark(#9b3fa0, #e39ae8);
  --ae-hv-c4: light-dark(#8a6a00, #f2c94c); --ae-hv-c5: light-dark(#00778a, #4dd0e1);
  --ae-hv-c6: light-dark(#c2185b, #ff7fab); --ae-hv-c7: light-dark(#4f5d00, #c5d86d);
}
.ae-hv-lines line.ae-hv-h0, .ae-hv-swatch.ae-hv-h0 { stroke: var(--ae-hv-c0); background: var(--ae-hv-c0); }
.ae-hv-lines line.ae-hv-h1, .ae-hv-swatch.ae-hv-h1 { stroke: var(--ae-hv-c1); background: var(--ae-hv-c1); }
.ae-hv-lines line.ae-hv-h2, .ae-hv-swatch.ae-hv-h2 { stroke: var(--ae-hv-c2); background: var(--ae-hv-c2); }
.ae-hv-lines line.ae-hv-h3, .ae-hv-swatch.ae-hv-h3 { stroke: var(--ae-hv-c3); background: var(--ae-hv-c3); }
.ae-hv-lines line.ae-hv-h4, .ae-hv-swatch.ae-hv-h4 { stroke: var(--ae-hv-c4); background: var(--ae-hv-c4); }
.ae-hv-lines line.ae-hv-h5, .ae-hv-swatch.ae-hv-h5 { stroke: var(--ae-hv-c5); background: var(--ae-hv-c5); }
.ae-hv-lines line.ae-hv-h6, .ae-hv-swatch.ae-hv-h6 { stroke: var(--ae-hv-c6); background: var(--ae-hv-c6); }
.ae-hv-lines line.ae-hv-h7, .ae-hv-swatch.ae-hv-h7 { stroke: var(--ae-hv-c7); background: var(--ae-hv-c7); }
.ae-hv-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; margin-bottom: 0.5rem; }
.ae-hv-bar .chip { margin-top: 0; }
.ae-hv-toggle[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); font-weight: 700; }
.ae-hv-legend { display: flex; flex-wrap: wrap; gap: 0.25rem; }
.ae-hv-legend-item {
  display: inline-flex; align-items: center; gap: 0.3rem; min-height: 2rem; padding: 0.1rem 0.5rem;
  font: inherit; font-size: 0.8rem; color: var(--text); background: var(--surface);
  border: 1px solid var(--border); border-radius: 999px; cursor: pointer;
}
.ae-hv-legend-item:hover { border-color: var(--accent); }
.ae-hv-swatch { display: inline-block; width: 1.1rem; height: 0.3rem; border-radius: 2px; }
`;
