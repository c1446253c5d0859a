// <attention-explorer>'s own rules, adopted after the panels' shared ones (../lib/panel-styles.mjs
// SHARED: the palette, the font, fields, check boxes, the status and error boxes). Two cards —
// the controls and the attention weights — side by side once the element is wide enough (a
// container query, so an embed in a narrow column stacks them), the `aside` slot under the
// controls and the default slot under the weights; the answer, the vocabulary help, "Open a
// model…", and the heatmap's SVG (<ae-attention-heatmap> draws into its own light DOM, which is
// this shadow root).
export default `
:host { container: explorer / inline-size; }
.ae-panel.root { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; align-items: start; }
.card {
  min-width: 0; padding: 1rem 1.25rem 1.25rem; background: var(--surface);
  border: 1px solid var(--border); border-radius: var(--ae-radius, 12px);
}
.slot-box { display: grid; gap: 1rem; min-width: 0; }
.slot-box.aside { order: 1; } /* stacked: under the weights and what the default slot holds */
@container explorer (min-width: 54rem) {
  .ae-panel.root { grid-template: "controls result" auto / minmax(16rem, 21rem) minmax(0, 1fr); }
  .ae-panel.root.has-aside { grid-template-areas: "controls result" "aside result"; grid-template-rows: auto 1fr; }
  .ae-panel.root.has-below { grid-template-areas: "controls result" "controls below"; grid-template-rows: auto 1fr; }
  .ae-panel.root.has-aside.has-below {
    grid-template-areas: "controls result" "aside result" "aside below"; grid-template-rows: auto auto 1fr;
  }
  .controls { grid-area: controls; }
  .result { grid-area: result; }
  .slot-box.aside { grid-area: aside; }
  .slot-box.below { grid-area: below; }
}

.controls > .field + .field, .controls > .own-model + .field { margin-top: 1rem; }
.grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); align-items: end; gap: 0.75rem; }
/* Under the answer and the focus strip: which head the heatmap shows and how it is computed. */
.result-head { display: flex; flex-wrap: wrap; align-items: flex-end; justify-content: space-between; gap: 0.5rem 1.5rem; margin-top: 1rem; }
.result-head .switches { flex-basis: 100%; display: flex; flex-wrap: wrap; gap: 0 1.5rem; margin: 0; }
.result-head .switches .check { margin-top: 0.25rem; }
.view { display: flex; gap: 0.75rem; }
.view select { width: auto; min-width: 7rem; }

.prediction {
  display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 1.25rem; margin-top: 0.75rem;
  padding: 0.6rem 0.9rem; background: var(--answer-bg); border-left: 4px solid var(--accent); border-radius: 6px;
}
.answer { margin: 0; font-size: 1.25rem; font-weight: 700; }
.answer .probability { font-size: 0.85em; font-weight: 400; white-space: nowrap; }
.alternatives { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4rem; color: var(--muted); font-size: 0.875rem; }
.alternatives ol { display: flex; flex-wrap: wrap; gap: 0.35rem; margin: 0; padding: 0; list-style: none; }
.alternatives li { padding: 0 0.5rem; border: 1px solid var(--border-strong); border-radius: 999px; color: var(--text); font-variant-numeric: tabular-nums; }
.unknown-note { margin: 0.5rem 0 0; font-size: 0.875rem; }
/* The answer is not a word of the sentence: the note sits on its own line under the answer. */
.answer-note { flex-basis: 100%; margin: 0; font-size: 0.875rem; }
.suggestions { margin: 0.35rem 0 0; padding: 0; list-style: none; font-size: 0.875rem; }
.suggestions li { margin-top: 0.25rem; }
.suggestions .chip, .vocab-list .chip { min-height: 1.75rem; margin: 0 0.2rem; padding: 0.1rem 0.6rem; }

/* "Words this model knows": a disclosure under the sentence, its list scrolls inside itself. */
.vocab { margin-top: 0.5rem; font-size: 0.875rem; }
.vocab summary { cursor: pointer; min-height: 1.5rem; color: var(--accent); }
.vocab-body { display: grid; gap: 0.35rem; margin-top: 0.4rem; }
.vocab-body input { max-width: 16rem; padding: 0.2rem 0.4rem; border: 1px solid var(--border-strong); border-radius: 4px; }
.vocab-hint { margin: 0; color: var(--muted); }
.vocab-list { display: flex; flex-wrap: wrap; gap: 0.3rem; max-height: 12rem; overflow-y: auto; margin: 0; padding: 0.2rem; list-style: none; }
.vocab-list .chip { margin: 0; }

/* "Open a model…": the four files of a checkpoint, read locally. */
.own-model { display: grid; gap: 0.4rem; margin-top: 0.5rem; font-size: 0.875rem; }
.own-model p { margin: 0; }
.own-local { font-weight: 600; }
.own-panels { color: var(--muted); }
.own-drop { padding: 0.8rem; border: 2px dashed var(--border-strong); border-radius: 6px; text-align: center; color: var(--muted); }
.own-drop.over { border-color: var(--accent); color: var(--accent); }
.own-model progress { width: 100%; }

/* <ae-attention-heatmap> */
ae-attention-heatmap { display: block; margin-top: 0.75rem; }
.ae-hm-caption { margin: 0 0 0.25rem; font-weight: 600; }
.ae-hm-plot { overflow-x: auto; border-radius: 8px; transition: opacity 0.15s; }
.stale .ae-hm-plot { opacity: 0.3; } /* out of date while another model loads */
/* After an error, only the message: no heatmap of another sentence (issue 11). */
.result.failed ae-attention-heatmap, .result.failed ae-export-buttons { display: none; }
.ae-hm-plot svg { display: block; width: 100%; height: auto; margin-inline: auto; }
.ae-hm text.label { fill: var(--text); font-size: 13px; }
.ae-hm text.axis { fill: var(--muted); font-size: 12px; font-style: italic; }
.ae-hm text.label.on { fill: var(--accent); font-weight: 700; }
.ae-hm text.label.unknown { fill: var(--error-text); font-style: italic; text-decoration: underline dotted; }
.ae-hm .values text { font-size: 12px; font-variant-numeric: tabular-nums; pointer-events: none; }
.ae-hm .values text.zero { fill: var(--muted); }
.ae-hm rect.cell { cursor: crosshair; }
.ae-hm rect.frame { fill: none; stroke: var(--border-strong); pointer-events: none; }
.ae-hm rect.marker { display: none; fill: none; stroke: var(--marker); stroke-width: 3; pointer-events: none; }
.ae-hm rect.marker.on { display: inline; }
/* The cell another panel points at (<ae-qkv-steps>: a key's row marks its cell). */
.ae-hm rect.highlight { display: none; fill: none; stroke: var(--marker); stroke-width: 3; stroke-dasharray: 5 3; pointer-events: none; }
.ae-hm rect.highlight.on { display: inline; }
.ae-hm-foot { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem; margin-top: 0.5rem; font-size: 0.875rem; }
.ae-hm-legend { display: inline-flex; align-items: center; gap: 0.4rem; color: var(--muted); }
.ae-hm-legend-title { font-weight: 600; }
.ae-hm-bar { width: 8rem; height: 0.75rem; border: 1px solid var(--border); border-radius: 3px; }
.ae-hm-readout { margin: 0; min-height: 1.5em; font-variant-numeric: tabular-nums; }
@media (prefers-reduced-motion: reduce) { .ae-hm-plot { transition: none; } }
.load-progress { display: block; width: 100%; height: 0.75rem; margin-block: 0.25rem 0.5rem; accent-color: var(--accent); }
.load-progress[hidden] { display: none; }
/* While the first model loads, the swap button and the word list keep their room (they show
   once the model is in), so that the controls under them do not jump. */
/* and the status with its bar holds about the room the answer takes when it comes. */
:host([data-status="loading"]) .load-progress:not([hidden]) { margin-bottom: 8rem; }
@container explorer (max-width: 30rem) {
  /* a phone: the answer's box with the focus strip under it is taller (its words wrap) */
  :host([data-status="loading"]) .load-progress:not([hidden]) { margin-bottom: 18.5rem; }
  :host([data-status="loading"]:lang(zh)) .load-progress:not([hidden]) { margin-bottom: 12.5rem; }
}
:host([data-status="loading"]) #swap[hidden], :host([data-status="loading"]) #vocab[hidden] { display: block !important; visibility: hidden; }

/* The focus strip (../lib/focus-strip.mjs): what the pronoun looks at in the coreference head,
   one weight per word, the word it weighs most outlined, the pronoun dashed. */
.focus { flex-basis: 100%; min-width: 0; } /* in the answer's box, under the answer */
.focus-title, .focus-note { margin: 0; font-size: 0.875rem; }
.focus-note { margin-top: 0.3rem; }
.focus-words { display: flex; flex-wrap: wrap; gap: 0.25rem; margin: 0.3rem 0 0; padding: 0; list-style: none; }
.focus-words li {
  position: relative; display: grid; justify-items: center; min-width: 1.75rem; padding: 0.1rem 0.3rem 0.15rem;
  border: 1px solid var(--border); border-radius: 6px; background: var(--surface); line-height: 1.15;
}
.focus-words .w { font-size: 0.9rem; }
.focus-words .bar { width: 100%; height: 4px; margin-block: 2px 1px; border-radius: 2px; background: var(--border); overflow: hidden; }
.focus-words .bar > span { display: block; height: 100%; background: var(--accent); }
.focus-words .v { color: var(--muted); font-size: 0.7rem; font-variant-numeric: tabular-nums; }
.focus-words li.top { border: 2px solid var(--accent); font-weight: 700; }
.focus-words li.query { border: 2px dashed var(--marker); }

/* Narrow (a phone): the sentence, the swap, the answer and what "it" looks at fit one screen —
   the model's label beside its menu, the sentence box as tall as its text (2 to 6 lines). */
@container explorer (max-width: 30rem) {
  .card { padding: 0.75rem 0.9rem 1rem; }
  .field:has(> #model) { display: flex; align-items: center; gap: 0.75rem; }
  .field:has(> #model) label { flex: none; margin: 0; }
  #sentence { field-sizing: content; min-height: calc(2.8em + 0.8rem + 2px); max-height: calc(8.4em + 0.8rem + 2px); }
  .prediction { padding-inline: 0.6rem; }
  .focus-words { gap: 0.2rem; }
  .focus-words li { min-width: 1.5rem; padding-inline: 0.2rem; }
}
`;
