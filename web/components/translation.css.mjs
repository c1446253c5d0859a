// The stylesheet of <ae-translation>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules and ./number-matrix.css.mjs.
export default `
.ae-tr-controls, .ae-tr-view { display: flex; flex-wrap: wrap; align-items: end; gap: 0.5rem 1rem; margin-top: 0.75rem; }
.ae-tr-controls .chip { margin-top: 0; }
.ae-tr-controls .field { flex: 1 1 18rem; }
.ae-tr-sentence { width: 100%; min-height: 3rem; padding: 0.4rem 0.5rem; border: 1px solid var(--border-strong); border-radius: 6px; }
.ae-tr-subtitle { margin: 0.75rem 0 0.25rem; font-size: 1rem; }
.ae-tr-output { margin: 0; font-size: 1.35rem; line-height: 2; display: flex; flex-wrap: wrap; gap: 0.15rem; }
.ae-tr-word { padding: 0 0.2rem; border-bottom: 3px solid transparent; }
.ae-tr-later { color: var(--muted); }
.ae-tr-current { border-bottom-color: var(--marker); font-weight: 700; }
.ae-tr-noun { outline: 1px dashed var(--accent); outline-offset: 1px; }
.ae-tr-note { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--bg); }
.ae-tr-lines { max-width: 100%; overflow-x: auto; margin-top: 0.5rem; }
.ae-tr-lines:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.ae-tr-lines svg { display: block; margin: 0 auto; }
.ae-tr-link { stroke: var(--accent); stroke-linecap: round; }
.ae-tr-source, .ae-tr-target { fill: var(--text); font-size: 13px; }
.ae-tr-strongest { fill: var(--marker-text); font-weight: 700; text-decoration: underline; }
.ae-tr-target { font-size: 18px; font-weight: 700; }
.ae-tr-maps { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); gap: 0 1.5rem; }
.ae-tr-maps > div { min-width: 0; }
`;
