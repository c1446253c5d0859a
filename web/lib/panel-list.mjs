// The lesson's panels in page order: the one list their numbers come from (README's "The page",
// the table of contents, each component's header comment; tests/wasm/panels.test.mjs holds them
// to it). Per panel, its names:
//   section  id of its <section> in index.html (the main view's: of <attention-explorer>, which
//            holds the next two): the #anchor and the link's panel=
//   tag      its custom element
//   file     web/components/<file>.mjs, which defines the tag
//   link     prefix of its own controls in the link (<link>.<name>, panel-controls.mjs), or null
//   strings  web/strings/<strings>.mjs, or null for a view worded by i18n.mjs
// Sections and link prefixes are in links people have shared, so they keep their older,
// shorter names (multihead, kvcache, causal, cross) where those differ from the tag.
export const PANELS = [
  { section: 'result', tag: 'attention-explorer', file: 'attention-explorer', link: null, strings: null },
  { section: 'lines', tag: 'ae-head-view', file: 'head-view', link: 'view', strings: null },
  { section: 'overview', tag: 'ae-head-grid', file: 'head-grid', link: null, strings: null },
  { section: 'qkv', tag: 'ae-qkv-steps', file: 'qkv-steps', link: null, strings: 'qkv-steps' },
  { section: 'scaling', tag: 'ae-scaling', file: 'scaling', link: 'scaling', strings: 'scaling' },
  { section: 'multihead', tag: 'ae-multi-head', file: 'multi-head', link: 'multihead', strings: 'multi-head' },
  { section: 'transformer-layer', tag: 'ae-layer', file: 'layer', link: null, strings: 'layer' },
  { section: 'positions', tag: 'ae-positions', file: 'positions', link: 'positions', strings: 'positions' },
  { section: 'causal-mask', tag: 'ae-causal-mask', file: 'causal-mask', link: 'causal', strings: 'causal-mask' },
  { section: 'kv-cache', tag: 'ae-kv-cache', file: 'kv-cache', link: 'kvcache', strings: 'kv-cache' },
  { section: 'cost', tag: 'ae-cost', file: 'cost', link: 'cost', strings: 'cost' },
  { section: 'explanation', tag: 'ae-explanation', file: 'explanation', link: 'explanation', strings: 'explanation' },
  { section: 'cross', tag: 'ae-cross-attention', file: 'cross-attention', link: 'cross', strings: 'cross-attention' },
  { section: 'train', tag: 'ae-train', file: 'train', link: 'train', strings: 'train' },
];

// The 1-based number of the panel in `section`, 0 for none.
export const panelNumber = (section) => PANELS.findIndex((p) => p.section === section) + 1;
