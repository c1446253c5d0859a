// The lesson panels' styles: each panel renders into an open shadow root (StoreElement.mount)
// that adopts constructable stylesheets — SHARED below (the palette and the rules every panel
// uses, once) and the panel's own (`static styles`: CSS strings in web/components/<panel>.css.mjs,
// beside the component). Plain CSSStyleSheet + replaceSync, no CSS module imports: Chromium, Firefox
// and Safari. The host's CSS does not reach inside (.ae-panel resets what is inherited) and the
// panels' CSS does not leak out.
// Theme from outside, as <attention-explorer>: the --ae-* custom properties below and the parts
// root (the panel), title (its heading) and intro (the paragraph under it). The defaults are
// the page's palette (style.css); light-dark() follows the color-scheme the host inherits.

const FONT =
  '1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans CJK SC", ' +
  '"Noto Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif';

// The palette as custom properties, each themable by its --ae-* name; <attention-explorer> uses it too.
export const PALETTE = `
  --bg: var(--ae-bg, light-dark(#f5f6f8, #0f1216));
  --surface: var(--ae-surface, light-dark(#ffffff, #171b21));
  --text: var(--ae-text, light-dark(#1a1d23, #e7e9ec));
  --muted: var(--ae-muted, light-dark(#525a67, #a6aebb));
  --border: var(--ae-border, light-dark(#dde1e7, #2b323c));
  --border-strong: var(--ae-border-strong, light-dark(#8d96a3, #5d6775));
  --accent: var(--ae-accent, light-dark(#1d5fa8, #7db4ff));
  --marker: var(--ae-marker, light-dark(#d9480f, #ffb020));
  --marker-text: var(--ae-marker-text, light-dark(#a3360a, #ffb020));
  --error-bg: var(--ae-error-bg, light-dark(#fdeceb, #3a1719));
  --error-text: var(--ae-error-text, light-dark(#8b1a1a, #ffb8b8));
  --answer-bg: var(--ae-answer-bg, light-dark(#eaf2fb, #15243a));
`;

export const SHARED = `
:host {
  display: block;
${PALETTE}  --heat-0: var(--ae-heat-0, var(--surface));
  --heat-2: var(--ae-heat-2, light-dark(#0b2a5b, #d6ecff));
}
:host([hidden]) { display: none; }
.ae-panel { all: initial; display: block; color-scheme: inherit; font: var(--ae-font, ${FONT}); color: var(--text); }
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
h2 { margin: 0; font-size: 1.15rem; }
.howto { margin: 0.25rem 0 0; color: var(--muted); }
.chip, input, select, textarea { font: inherit; color: var(--text); background: var(--surface); }
.chip { min-height: 2.25rem; margin-top: 0.5rem; padding: 0.2rem 0.9rem; border: 1px solid var(--border-strong); border-radius: 999px; font-size: 0.875rem; cursor: pointer; }
.chip:hover { border-color: var(--accent); color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.field label { display: block; margin-bottom: 0.25rem; font-size: 0.875rem; font-weight: 600; }
textarea, input[type="number"], select { width: 100%; min-height: 2.5rem; padding: 0.4rem 0.6rem; border: 1px solid var(--border-strong); border-radius: 8px; }
textarea { display: block; resize: vertical; line-height: 1.4; }
fieldset { min-width: 0; margin: 1.25rem 0 0; padding: 0; border: 0; }
legend { margin-bottom: 0.5rem; padding: 0; color: var(--muted); font-size: 0.8rem; font-weight: 700; letter-spacing: 0.06em; text-transform: uppercase; }
.check { display: flex; align-items: flex-start; gap: 0.55rem; margin-top: 0.5rem; }
.check input { margin: 0; accent-color: var(--accent); }
/* Every control at least 24 × 24 px (WCAG 2.2 target size); the browsers' own boxes are 13–16 px. */
input[type="checkbox"], input[type="radio"] { flex-shrink: 0; width: 1.5rem; height: 1.5rem; }
input[type="range"] { min-height: 1.5rem; }
.status { margin: 1rem 0; font-weight: 600; }
.error { margin-top: 0.75rem; padding: 0.6rem 0.9rem; background: var(--error-bg); color: var(--error-text); border-left: 4px solid; border-radius: 6px; overflow-wrap: anywhere; }
.error:empty { margin: 0; padding: 0; border: 0; } /* not display:none: the live region must stay */
.unknown-word { color: var(--error-text); font-style: italic; text-decoration: underline dotted; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
/* the lesson panels' guidance (lesson-panel.mjs, guidance.mjs): Show me, Reset, Predict then reveal */
.ae-guide { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0 0 0.75rem; }
.ae-guide .chip { margin-top: 0; }
.ae-guide-ask { flex-basis: 100%; padding: 0.5rem 0.75rem; border-left: 3px solid var(--accent); background: var(--surface); }
.ae-guide-question { margin: 0 0 0.4rem; font-weight: 600; }
.ae-guide-choices { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.ae-guide-verdict { flex-basis: 100%; margin: 0; font-weight: 600; }
.ae-guide-verdict:empty { display: none; }
`;

const sheets = new Map(); // CSS text → its one CSSStyleSheet, shared by every instance

export function styleSheet(css) {
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  return sheet;
}

// Puts `nodes` in the host's open shadow root, inside <div class="ae-panel" part="root">, with
// the shared sheet and `styles` (CSS strings) adopted. Returns the wrapper.
export function mountShadow(host, styles, nodes) {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.adoptedStyleSheets = [SHARED, ...styles].map(styleSheet);
  const root = document.createElement('div');
  root.className = 'ae-panel';
  root.setAttribute('part', 'root');
  root.append(...nodes);
  shadow.replaceChildren(root);
  return root;
}

// The host's accessible name, from a heading in its shadow root (which an aria-labelledby on the
// host cannot reference): aria-label, kept equal to the heading's text as the language changes.
export function labelHostBy(host, heading) {
  const copy = () => host.setAttribute('aria-label', heading.textContent);
  new MutationObserver(copy).observe(heading, { childList: true, characterData: true, subtree: true });
  copy();
}
