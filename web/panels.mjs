// The lesson panels below the opening view, and the opening panels under the heatmap (the head
// view, its export buttons, the tired|wide pair, the All heads grid — each draws the stored run
// when it arrives). app.mjs imports this module once the first attention is drawn, so that the
// first view needs only the heatmap: a smaller initial transfer and an earlier first render
// (docs/benchmarks.md, "page"). The head view sits below the heatmap, so drawing it later moves
// nothing on screen above it (CLS, tests/e2e/loading-progress.spec.mjs).
import './components/head-view.mjs';
import './components/head-grid.mjs';
import './components/flip-pair.mjs';
import './components/export-buttons.mjs';
import './components/qkv-steps.mjs';
import './components/scaling.mjs';
import './components/multi-head.mjs';
import './components/layer.mjs';
import './components/positions.mjs';
import './components/causal-mask.mjs';
import './components/kv-cache.mjs';
import './components/cost.mjs';
import './components/explanation.mjs';
import './components/cross-attention.mjs';
import './components/translation.mjs';
import './components/train.mjs';
import './lib/guidance.mjs'; // <ae-predict-switch>, the page-wide Predict-then-reveal switch
import './components/lesson-path.mjs'; // <ae-lesson-path>, the path through the panels (after them: it reads them)
