// The stylesheet of <ae-flip-pair>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
:host { margin-top: 0.75rem; }
.ae-fp-panes { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr)); gap: 1rem; }
.ae-fp-pane { min-width: 0; padding: 0.5rem; border: 1px solid var(--border); border-radius: 8px; }
.ae-fp-title { margin: 0; font-weight: 700; }
.ae-fp-answer { margin: 0; color: var(--muted); font-size: 0.875rem; }
.ae-fp-toggle[aria-expanded="true"] { border-color: var(--accent); color: var(--accent); font-weight: 700; }
`;

// <ae-flip-view>, a head view in a pane: no margin of its own, a narrower board.
export const FLIP_VIEW = `
:host { margin-top: 0; }
.ae-hv-board { grid-template-columns: minmax(0, max-content) minmax(2rem, 8rem) minmax(0, max-content); }
`;
