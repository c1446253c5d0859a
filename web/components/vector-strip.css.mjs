// The stylesheet of the vector strips (svg.ae-strip, ./qkv-steps.mjs), shared by <ae-qkv-steps>,
// <ae-multi-head> and <ae-layer>: adopted in their shadow roots after ../lib/panel-styles.mjs's.
export default `
svg.ae-strip { display: inline-block; vertical-align: middle; overflow: visible; }
svg.ae-strip .ae-strip-frame { fill: var(--surface); stroke: var(--border-strong); stroke-width: 1; }
svg.ae-strip rect.pos { fill: var(--accent); }
svg.ae-strip rect.neg { fill: var(--marker); }
svg.ae-strip .ae-strip-sep { stroke: var(--text); stroke-width: 2; }
`;
