// The path: the lesson's ideas in order, one step each. Per step:
//   id       its name in the link (?step=<id>) and in the saved progress
//   section  the panel's <section> id (panel-list.mjs) the step points at, scrolls to and highlights
// The words of each step are in web/strings/path.mjs under the same id.
export const PATH_STEPS = [
  { id: 'sentence', section: 'result' },
  { id: 'qkv', section: 'qkv' },
  { id: 'four-steps', section: 'qkv' },
  { id: 'scaling', section: 'scaling' },
  { id: 'multi-head', section: 'multihead' },
  { id: 'positions', section: 'positions' },
  { id: 'causal-mask', section: 'causal-mask' },
  { id: 'kv-cache', section: 'kv-cache' },
  { id: 'cost', section: 'cost' },
  { id: 'cross-attention', section: 'cross' },
  { id: 'explanation', section: 'explanation' },
  { id: 'train', section: 'train' },
];

// The step named `id`, or null: a link with an unknown step opens no step.
export const pathStep = (id) => PATH_STEPS.find((s) => s.id === id) ?? null;
