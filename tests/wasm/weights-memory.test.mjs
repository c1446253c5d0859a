// A weights file that holds more than its config.json describes is refused before any of its
// values is decoded: a 64 MiB extra tensor grows wasm memory by about the copy of the file, not
// by the file and its decoded floats too (before the fix, a 400 MB extra tensor grew it to 794 MiB).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadNodeEngine, shippedModel } from './helpers.mjs';
import { joinSafetensors, splitSafetensors } from './safetensors-edit.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';

const EXTRA_BYTES = 64 * 1024 * 1024;

test('an extra 64 MiB tensor is refused before its values are decoded', async () => {
  const engine = await loadNodeEngine(); // a module of its own: its memory is this test's
  const files = shippedModel('coref-encoder');
  const parts = splitSafetensors(files.weights);
  parts.tensors['extra.weight'] = { dtype: 'F32', shape: [EXTRA_BYTES / 4], data: new Uint8Array(EXTRA_BYTES) };
  const weights = joinSafetensors(parts);
  engine.loadTrainedModel(files).delete(); // the model's own allocations, before measuring
  const before = engine.memoryStats().heapBytes;
  assert.throws(
    () => engine.loadTrainedModel({ ...files, weights }),
    (e) => e.code === 'bad-model' && /parameters, but the file holds/.test(e.message),
  );
  const grown = engine.memoryStats().heapBytes - before;
  // The file's copy into wasm memory (64 MiB) and Emscripten's growth step (at most 20 %); the
  // decoded floats would add another 64 MiB.
  assert.ok(grown < 1.5 * EXTRA_BYTES, `wasm memory grew by ${(grown / 2 ** 20).toFixed(0)} MiB`);
  // The module still works.
  const model = engine.loadTrainedModel(files);
  assert.equal(model.analyze(LESSON.tired).prediction.token, 'animal');
  model.delete();
});
