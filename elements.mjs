// `import 'attention-explorer/elements'` defines every custom element of the package:
// <attention-explorer> and the page's panels (each also importable alone,
// `attention-explorer/attention-explorer`, `attention-explorer/head-view`, …).
import './web/components/attention-explorer.mjs';
import './web/components/attention-heatmap.mjs';
import './web/components/head-view.mjs';
import './web/components/flip-pair.mjs';
import './web/components/head-grid.mjs';
import './web/components/export-buttons.mjs';
import './web/components/qkv-steps.mjs';
import './web/components/scaling.mjs';
import './web/components/multi-head.mjs';
import './web/components/layer.mjs';
import './web/components/positions.mjs';
import './web/components/causal-mask.mjs';
import './web/components/kv-cache.mjs';
import './web/components/cost.mjs';
import './web/components/explanation.mjs';
import './web/components/cross-attention.mjs';
import './web/components/translation.mjs';
import './web/components/number-matrix.mjs';
import './web/components/attention-pattern.mjs';
