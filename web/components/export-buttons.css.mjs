// The stylesheet of <ae-export-buttons>: adopted in the panel's shadow root after
// ../lib/panel-styles.mjs's shared rules.
export default `
:host { margin-top: 0.5rem; }
.ae-export { display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-end; gap: 0.35rem; }
.ae-export-btn {
  min-height: 2rem; padding: 0.1rem 0.6rem; font: inherit; font-size: 0.75rem; color: var(--muted);
  background: var(--surface); border: 1px solid var(--border); border-radius: 6px; cursor: pointer;
}
.ae-export-btn:hover:not(:disabled) { border-color: var(--accent); color: var(--accent); }
.ae-export-btn:disabled { cursor: default; }
.ae-export-error { color: var(--error-text); font-size: 0.8rem; }
.ae-export-error:empty { display: none; }
`;
