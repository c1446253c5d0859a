// The stylesheet of <ae-attention-pattern>: adopted in its shadow root after
// ../lib/panel-styles.mjs's shared rules (palette, --heat-0/2 light or dark as the host).
export default `
:host { margin-top: 0.75rem; }
.ae-ap-pick { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin-bottom: 0.5rem; }
.ae-ap-pick .field { display: flex; align-items: center; gap: 0.4rem; }
.ae-ap-pick .field label { margin: 0; }
.ae-ap-pick select { width: auto; }
.ae-ap-tokens { display: flex; flex-wrap: wrap; gap: 0.25rem; margin: 0.25rem 0; }
.ae-ap-token {
  --w: 0;
  min-width: 1.5rem; min-height: 1.75rem; padding: 0.1rem 0.4rem; font: inherit; line-height: 1.4;
  color: var(--text); border: 1px solid var(--border); border-radius: 4px;
  background: color-mix(in oklab, var(--heat-2) calc(var(--w) * 100%), var(--heat-0));
}
.ae-ap-token.ink { color: var(--heat-0); }
button.ae-ap-token { cursor: pointer; }
.ae-ap-token[aria-pressed="true"] { outline: 3px solid var(--marker); outline-offset: 1px; font-weight: 700; }
.ae-ap-token.strongest { border-color: var(--marker); }
.ae-ap-label { margin: 0.5rem 0 0; color: var(--muted); font-size: 0.8rem; }
.ae-ap-readout { margin: 0.5rem 0 0; min-height: 1.5em; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
`;
