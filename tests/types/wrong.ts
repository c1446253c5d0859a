// Deliberately wrong uses: each line marked "error:" must fail to compile with that TS code
// (tests/wasm/types.test.mjs checks the line and the code).
import { createStore, loadEngine } from 'attention-explorer';
import 'attention-explorer/elements';

const engine = await loadEngine();
engine.createRandomModel({ dModel: '64' }); // error: TS2322
engine.createRandomModel({ positional: 'alibi' }); // error: TS2322
engine.createRandomModel({ causl: true }); // error: TS2561
const model = engine.createRandomModel();
model.run('the cat', { causal: 'false' }); // error: TS2322
const heads: number = model.run('the cat').layers[0].selfAttention.heads; // error: TS2322
createStore({ layer: 'x' }); // error: TS2322
const view = document.querySelector('ae-head-view');
if (view) view.overlay = 'yes'; // error: TS2322
const explorer = document.createElement('attention-explorer');
explorer.layer = 'x'; // error: TS2322
explorer.causal = 'true'; // error: TS2322
explorer.addEventListener('ae-change', (e) => e.detail.prediction?.probability.toFixed(2).foo()); // error: TS2339
explorer.addEventListener('change', (e) => e.detail); // error: TS2339
explorer.addEventListener('ae-token-hover', (e) => e.detail.query); // error: TS18047
explorer.addEventListener('ae-token-select', (e) => e.detail.weight.toUpperCase()); // error: TS2339
