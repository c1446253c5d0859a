// web/lib/coreference-head.mjs coreferenceRow, which the main view's focus strip draws: the row
// of the model's coreference head at the word its answer is read from, wherever the pronoun is,
// as a view of the run's trace (never recomputed); null where there is no such row.
import assert from 'node:assert/strict';
import test from 'node:test';

import { loadNodeEngine, loadShippedModels } from './helpers.mjs';
import { coreferenceRow } from '../../web/lib/coreference-head.mjs';
import { DECODER_PROMPT, DECODER_SENTENCE, LESSON } from '../../web/lib/lesson.mjs';
import { runView } from '../../web/lib/main-view.mjs';

const engine = await loadNodeEngine();
const models = loadShippedModels(engine, ['coref-encoder', 'coref-encoder-zh', 'coref-decoder']);
test.after(() => Object.values(models).forEach((m) => m.delete()));
const run = (name, text) => runView(models[name], text, { causal: models[name].config.causal, scale: true });

// The head's row at `row`, copied from the run as the heatmap reads it.
function traceRow(result, { layer, head }, row) {
  const n = result.tokens.length;
  return Array.from(result.layers[layer].selfAttention.heads[head].weights.subarray(row * n, (row + 1) * n));
}

test('the encoder: the row at the last pronoun, wherever it is, its top word the answer on the lesson pair', () => {
  const named = models['coref-encoder'].config.metadata.coreference_head;
  for (const [text, top] of [
    [LESSON.tired, 'animal'],
    [LESSON.wide, 'street'],
    ['Because it was too tired, the animal did not cross the street.', null],
    ['The dog saw it and the cat did not chase it because it was too slow.', null],
  ]) {
    const result = run('coref-encoder', text);
    const focus = coreferenceRow(result, models['coref-encoder'].config);
    assert.equal(focus.row, result.tokens.lastIndexOf('it'), text);
    assert.equal(focus.token, 'it');
    assert.deepEqual([focus.layer, focus.head], [named.layer, named.head]);
    assert.deepEqual(Array.from(focus.weights), traceRow(result, named, focus.row));
    assert.equal(focus.weights[focus.top], Math.max(...focus.weights));
    if (top) assert.equal(result.tokens[focus.top], top);
    if (top) assert.equal(result.prediction.token, top);
  }
});

test('the Chinese model reads its own pronoun 它', () => {
  const config = models['coref-encoder-zh'].config;
  const [tired, wide] = config.metadata.lesson;
  for (const text of [tired, wide]) {
    const result = run('coref-encoder-zh', text);
    const focus = coreferenceRow(result, config);
    assert.equal(focus.token, '它');
    assert.equal(result.tokens[focus.top], result.prediction.token);
  }
});

test('the decoder: the row at "=" when the prompt asks for the referent, else none; no head, no row', () => {
  const config = models['coref-decoder'].config;
  const asked = run('coref-decoder', DECODER_PROMPT.wide);
  const focus = coreferenceRow(asked, config);
  assert.equal(focus.token, '=');
  assert.equal(focus.row, asked.tokens.length - 1);
  assert.equal(coreferenceRow(run('coref-decoder', DECODER_SENTENCE.tired), config), null);
  const encoded = run('coref-encoder', LESSON.tired);
  assert.equal(coreferenceRow(encoded, null), null); // the random model has no config.json
  assert.equal(coreferenceRow(encoded, { ...models['coref-encoder'].config, metadata: {} }), null);
  assert.equal(coreferenceRow({ ...encoded, prediction: null }, models['coref-encoder'].config), null);
});
