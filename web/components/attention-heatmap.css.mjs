// The stylesheet of <ae-attention-heatmap>. The heatmap draws into its own light DOM (the main
// view's panels style and test it there), so this sheet is adopted by the document or the shadow
// root the element is placed in (once per root, see adoptInto below): the heatmap is styled
// on its own, on a page with no other element of the package. Every colour is an --ae-*
// property with a light-dark() default, so the grid follows the host's color-scheme; the cells'
// ramp (--ae-hm-heat-0..2) is resolved from these rules by the element (attention-heatmap.mjs).
export default `
ae-attention-heatmap {
  --ae-hm-text: var(--ae-text, light-dark(#1a1d23, #e7e9ec));
  --ae-hm-muted: var(--ae-muted, light-dark(#525a67, #a6aebb));
  --ae-hm-border: var(--ae-border, light-dark(#dde1e7, #2b323c));
  --ae-hm-border-strong: var(--ae-border-strong, light-dark(#8d96a3, #5d6775));
  --ae-hm-accent: var(--ae-accent, light-dark(#1d5fa8, #7db4ff));
  --ae-hm-marker: var(--ae-marker, light-dark(#d9480f, #ffb020));
  --ae-hm-error-bg: var(--ae-error-bg, light-dark(#fdeceb, #3a1719));
  --ae-hm-error-text: var(--ae-error-text, light-dark(#8b1a1a, #ffb8b8));
  --ae-hm-heat-0: var(--ae-heat-0, var(--ae-surface, light-dark(#ffffff, #171b21)));
  --ae-hm-heat-1: var(--ae-heat-1, light-dark(#4a90c8, #2f6ea8));
  --ae-hm-heat-2: var(--ae-heat-2, light-dark(#0b2a5b, #d6ecff));
  display: block;
  color: var(--ae-hm-text);
}
ae-attention-heatmap[hidden] { display: none; }
.ae-hm-caption { margin: 0 0 0.25rem; font-weight: 600; }
.ae-hm-plot { overflow-x: auto; border-radius: 8px; transition: opacity 0.15s; }
.ae-hm-plot svg { display: block; width: 100%; height: auto; margin-inline: auto; }
.ae-hm text.label { fill: var(--ae-hm-text); font-size: 13px; }
.ae-hm text.axis { fill: var(--ae-hm-muted); font-size: 12px; font-style: italic; }
.ae-hm text.label.on { fill: var(--ae-hm-accent); font-weight: 700; }
.ae-hm text.label.unknown { fill: var(--ae-hm-error-text); font-style: italic; text-decoration: underline dotted; }
.ae-hm .values text { font-size: 12px; font-variant-numeric: tabular-nums; pointer-events: none; }
.ae-hm .values text.zero { fill: var(--ae-hm-muted); }
.ae-hm rect.cell { cursor: crosshair; }
.ae-hm rect.frame { fill: none; stroke: var(--ae-hm-border-strong); pointer-events: none; }
.ae-hm rect.marker { display: none; fill: none; stroke: var(--ae-hm-marker); stroke-width: 3; pointer-events: none; }
.ae-hm rect.marker.on { display: inline; }
/* The cell another panel points at (<ae-qkv-steps>: a key's row marks its cell). */
.ae-hm rect.highlight { display: none; fill: none; stroke: var(--ae-hm-marker); stroke-width: 3; stroke-dasharray: 5 3; pointer-events: none; }
.ae-hm rect.highlight.on { display: inline; }
.ae-hm-foot { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem; margin-top: 0.5rem; font-size: 0.875rem; }
.ae-hm-legend { display: inline-flex; align-items: center; gap: 0.4rem; color: var(--ae-hm-muted); }
.ae-hm-legend-title { font-weight: 600; }
.ae-hm-bar { width: 8rem; height: 0.75rem; border: 1px solid var(--ae-hm-border); border-radius: 3px; }
.ae-hm-readout { margin: 0; min-height: 1.5em; font-variant-numeric: tabular-nums; }
.ae-hm-picker { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; margin: 0 0 0.5rem; font-size: 0.875rem; }
.ae-hm-picker[hidden] { display: none; }
.ae-hm-picker select { font: inherit; color: inherit; background: transparent; border: 1px solid var(--ae-hm-border-strong); border-radius: 6px; padding: 0.15rem 0.4rem; }
.ae-hm-error { margin: 0.5rem 0 0; padding: 0.6rem 0.9rem; background: var(--ae-hm-error-bg); color: var(--ae-hm-error-text); border-left: 4px solid; border-radius: 6px; overflow-wrap: anywhere; }
.ae-hm-error:empty { margin: 0; padding: 0; border: 0; }
.ae-hm-probe { display: none; }
@media (prefers-reduced-motion: reduce) { .ae-hm-plot { transition: none; } }
`;
