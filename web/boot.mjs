// The page's first module: it starts fetching and compiling the wasm engine and reading the model
// index while the rest of the page's modules still load. Module scripts run in document order,
// each once its own imports are in, and this one's are few, so the engine's download overlaps
// the page's instead of following it (app.mjs gets the same engine from lib/context.mjs).
import { getEngine, getModelIndex } from './lib/context.mjs';

getEngine().catch(() => {}); // a failure is reported where the page asks for the engine
getModelIndex().catch(() => {});
