// The layer stages of a trace (layers[l].stages / stageNorms, bindings/js_values.cpp and
// packed.cpp): the same numbers in analyze(), analyzePacked() and RandomModel.run(), the
// stages compose (float32 sums are exact to re-add: Math.fround of a double sum is the float
// sum), each layer's input is the previous output, and the norms are the vectors' lengths.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadNodeEngine, shippedModel } from './helpers.mjs';
import { LESSON as PAIR } from '../../web/lib/lesson.mjs';

const LESSON = PAIR.tired;
const KEYS = ['input', 'norm1', 'attention', 'residual1', 'norm2', 'ffnHidden', 'ffn', 'residual2', 'output'];
let engine;

before(async () => {
  engine = await loadNodeEngine();
});

const sum = (a, b) => Float32Array.from(a, (x, i) => Math.fround(x + b[i]));

function checkStages(r, norm) {
  const d = r.embeddings.length / r.n;
  r.layers.forEach((layer, l) => {
    const s = layer.stages;
    assert.deepEqual(Object.keys(s), KEYS);
    assert.deepEqual(Object.keys(layer.stageNorms), KEYS);
    assert.deepEqual(s.input, l === 0 ? r.embeddings : r.layers[l - 1].output, `layer ${l} input`);
    assert.deepEqual(s.attention, layer.selfAttention.output);
    assert.deepEqual(s.output, layer.output);
    assert.equal(s.ffnHidden.length, 4 * d * r.n);
    assert.deepEqual(s.residual1, sum(s.input, s.attention), `layer ${l}: residual1 = input + attention`);
    if (norm === 'pre') {
      assert.deepEqual(s.output, sum(s.residual1, s.ffn), `layer ${l}: output = residual1 + ffn`);
      assert.deepEqual(s.residual2, s.output);
    } else {
      assert.deepEqual(s.residual2, sum(s.norm1, s.ffn), `layer ${l}: residual2 = norm1 + ffn`);
      assert.deepEqual(s.norm2, s.output);
    }
    for (const key of KEYS) {
      const width = s[key].length / r.n;
      const norms = layer.stageNorms[key];
      assert.equal(norms.length, r.n);
      for (let i = 0; i < r.n; i++) {
        const length = Math.hypot(...s[key].subarray(i * width, (i + 1) * width));
        assert.ok(
          Math.abs(norms[i] - length) <= 1e-5 * length + 1e-6,
          `layer ${l} ${key} word ${i}: ${norms[i]} vs ${length}`,
        );
      }
    }
  });
}

test('analyze and analyzePacked carry the same layer stages, which compose', () => {
  const model = engine.loadTrainedModel(shippedModel('coref-encoder'));
  try {
    const a = model.analyze(LESSON);
    const p = model.analyzePacked(LESSON);
    checkStages(a, model.config.norm);
    checkStages(p, model.config.norm);
    a.layers.forEach((layer, l) => {
      for (const key of KEYS) {
        assert.deepEqual(p.layers[l].stages[key], layer.stages[key], `layer ${l} ${key}`);
        assert.deepEqual(p.layers[l].stageNorms[key], layer.stageNorms[key], `layer ${l} norm of ${key}`);
      }
    });
  } finally {
    model.delete();
  }
});

test('a post-LN random model: residual2 = norm1 + ffn and norm2 is the output', () => {
  for (const norm of ['pre', 'post']) {
    const model = engine.createRandomModel({ dModel: 16, nHeads: 2, nLayers: 2, norm, seed: 4 });
    try {
      checkStages(model.run('a cat sat on the mat'), norm);
    } finally {
      model.delete();
    }
  }
});
