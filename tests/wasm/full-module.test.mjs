// The page's module and the full one (CMakeLists.txt, web/lib/engine.mjs): the page's module
// leaves out the trainer and the GPT-2 loader, Engine.full() loads the full module of the same
// build on first use (once), and what only the full module has works there — on the page's
// engine, openGpt2Model loads it by itself. A failed load says what to do and is retried.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { MODULE_FILES, chooseModule, loadEngine } from '../../web/lib/engine.mjs';
import { build, fullBuild, loadNodeEngine, modulePath, nodeModuleOptions, root } from './helpers.mjs';

const GPT2 = path.join(root, 'tests/fixtures/gpt2-tiny');
const gpt2Files = () => ({
  config: readFileSync(path.join(GPT2, 'config.json'), 'utf8'),
  weights: new Uint8Array(readFileSync(path.join(GPT2, 'model.safetensors'))),
  vocab: readFileSync(path.join(GPT2, 'vocab.json'), 'utf8'),
  merges: readFileSync(path.join(GPT2, 'merges.txt'), 'utf8'),
});

// The Embind classes a module registers, as its engine sees them: a module's own check.
const classes = (module) => ['TrainedModel', 'TrainingSession', 'Gpt2Model', 'BpeTokenizer'].filter((c) => module[c]);

test("the page's module has no trainer and no GPT-2 loader; the full module has both", async () => {
  const modules = {};
  for (const b of [build, fullBuild]) {
    const { default: create } = await import(path.join(root, 'web/dist', MODULE_FILES[b].glue));
    modules[b] = await create(nodeModuleOptions(b));
  }
  assert.deepEqual(classes(modules[build]), ['TrainedModel']);
  assert.deepEqual(classes(modules[fullBuild]), ['TrainedModel', 'TrainingSession', 'Gpt2Model', 'BpeTokenizer']);
  // What leaving them out saves (figures: npm run size:wasm, docs/wasm-size.md).
  const bytes = (b) => readFileSync(modulePath(b)).length;
  assert.ok(bytes(build) < bytes(fullBuild), `${bytes(build)} B vs ${bytes(fullBuild)} B`);
});

test('full() loads the full module of the same build once, and an engine on it is its own full()', async () => {
  const loads = [];
  const engine = await loadEngine((b) => (loads.push(b), nodeModuleOptions(b)), build);
  assert.deepEqual(loads, [build]);
  assert.equal(engine.features.full, false);
  const [full, again] = await Promise.all([engine.full(), engine.full()]);
  assert.equal(full, again);
  assert.equal(await engine.full(), full);
  assert.deepEqual(loads, [build, fullBuild]);
  assert.equal(full.features.full, true);
  assert.equal(full.features.build, engine.features.build);
  assert.equal(full.features.gemm, engine.features.gemm);
  assert.equal(await full.full(), full);
  // It trains and loads what it trained back into the page's module: the documented model files.
  const session = full.createTrainingSession({ task: 'word-order', seed: 1, steps: 2 });
  session.step(2);
  const files = session.exportFiles();
  session.delete();
  const model = engine.loadTrainedModel(files);
  assert.equal(model.config.nLayers, session.settings.layers);
  model.delete();
});

test('the two modules never share the options object (Emscripten makes it the module)', async () => {
  // A page passes one object (loadEngine({}) → {}) for both builds; each module must get its own copy.
  const shared = {};
  const engine = await loadEngine((b) => Object.assign(shared, nodeModuleOptions(b)), build);
  const full = await engine.full(); // on one object: "Cannot register public name 'RandomModel' twice"
  assert.equal(full.features.full, true);
  assert.deepEqual(engine.tokenize('it was tired'), ['it', 'was', 'tired']);
  assert.equal(shared.RandomModel, undefined);
});

test("openGpt2Model on the page's engine loads the full module by itself", async () => {
  const loads = [];
  const engine = await loadEngine((b) => (loads.push(b), nodeModuleOptions(b)), build);
  // A wrong file is refused before the full module is fetched.
  await assert.rejects(engine.openGpt2Model({ ...gpt2Files(), weights: 'model.safetensors' }), { code: 'bad-option' });
  assert.deepEqual(loads, [build]);
  const model = await engine.openGpt2Model(gpt2Files());
  assert.deepEqual(loads, [build, fullBuild]);
  assert.equal(model.config.architecture, 'gpt2');
  assert.ok(model.analyzePacked('The animal').layers.length > 0);
  model.delete();
});

test('a full module that cannot be loaded is an unavailable error saying why, and the next call retries', async () => {
  // The bytes of the page's module alone (an object of options): the full module cannot be found.
  const bytesOnly = await loadEngine({ wasmBinary: readFileSync(modulePath(build)) }, build);
  await assert.rejects(bytesOnly.full(), {
    code: 'unavailable',
    message: /pass moduleOptions as a function of the build/,
  });
  await assert.rejects(bytesOnly.openGpt2Model(gpt2Files()), { code: 'unavailable' });

  let fail = true;
  const flaky = await loadEngine((b) => {
    // A broken file (printErr: Emscripten's own report of it is not this test's output).
    if (b === fullBuild && fail)
      return { wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 255]), printErr() {} };
    return nodeModuleOptions(b);
  }, build);
  await assert.rejects(
    flaky.full(),
    (e) => e.code === 'unavailable' && e.message.includes(MODULE_FILES[fullBuild].wasm),
  );
  fail = false;
  assert.equal((await flaky.full()).features.full, true);
  // The page's engine kept working throughout.
  assert.deepEqual(flaky.tokenize('it was tired'), ['it', 'was', 'tired']);
});

test('chooseModule names the build of each kind for this Node; an unknown one is refused', async () => {
  const relaxed = build === 'relaxed';
  assert.deepEqual(
    ['page', 'full', 'bench'].map((kind) => chooseModule(kind)),
    relaxed ? ['relaxed', 'full-relaxed', 'bench-relaxed'] : ['simd128', 'full', 'bench'],
  );
  assert.throws(() => chooseModule('trainer'), { code: 'bad-option', message: /kind/ });
  await assert.rejects(loadNodeEngine('fll'), { code: 'bad-option', message: /'full-relaxed', 'full'/ });
});
