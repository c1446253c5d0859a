// The lesson panels below the opening view, and the extras of the opening panels (export
// buttons, the tired|wide pair, the All heads grid — below the fold, it draws the stored run
// when it arrives). app.mjs imports this module once the first attention is drawn, so that
// first view needs only the heatmap and head view: a smaller initial transfer and an earlier
// first render (see docs/benchmarks.md, "page").
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
import './components/train.mjs';
import './lib/guidance.mjs'; // <ae-predict-switch>, the page-wide Predict-then-reveal switch
import './components/lesson-path.mjs'; // <ae-lesson-path>, the path through the panels (after them: it reads them)
