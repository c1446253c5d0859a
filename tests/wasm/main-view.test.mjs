// web/lib/main-view.mjs, the code the page's main view and <attention-explorer> share, on the
// shipped models: the model order, each model's pair and swap, which sentence a model opens
// with when the view switches, the run and the answer's wording.
import assert from 'node:assert/strict';
import test from 'node:test';

import { loadNodeEngine, loadShippedModels, shippedModel } from './helpers.mjs';
import { DECODER_PROMPT, LESSON } from '../../web/lib/lesson.mjs';
import { SentenceMemory, answerParts, orderModels, runView, sentencePair, swapFor } from '../../web/lib/main-view.mjs';

const engine = await loadNodeEngine();
const models = loadShippedModels(engine, ['coref-encoder', 'coref-encoder-zh', 'coref-decoder']);
test.after(() => Object.values(models).forEach((m) => m.delete()));

test('the menu order: the lesson first, unknown models after, in their own order', () => {
  const names = ['word-order-rope', 'mine', 'coref-decoder', 'coref-encoder', 'other'].map((name) => ({ name }));
  assert.deepEqual(
    orderModels(names).map((m) => m.name),
    ['coref-encoder', 'coref-decoder', 'word-order-rope', 'mine', 'other'],
  );
});

test("each model's pair and swap: its own lesson (累 ↔ 宽 in Chinese), else its task's sentence", () => {
  assert.deepEqual(sentencePair(models['coref-encoder'].config), [LESSON.tired, LESSON.wide]);
  assert.deepEqual(sentencePair(models['coref-decoder'].config), [DECODER_PROMPT.tired, DECODER_PROMPT.wide]);
  assert.deepEqual(sentencePair(null), [LESSON.tired, LESSON.wide]); // the random model
  const [tired, wide] = sentencePair(models['coref-encoder-zh'].config);
  const swap = swapFor(models['coref-encoder-zh'].config);
  assert.deepEqual([swap.first, swap.second], ['累', '宽']);
  assert.equal(swap.swap(tired), wide);
  assert.equal(swapFor(null).swap(LESSON.wide), LESSON.tired);
  assert.equal(swapFor(null).test('no adjective here'), false);
});

test('a typed sentence travels to a model that reads it, gives way to one that does not, and comes back', () => {
  const memory = new SentenceMemory();
  const typed = "The cat didn't cross the road because it was too tired.";
  assert.deepEqual(memory.open('coref-encoder', models['coref-encoder'], LESSON.tired), {
    text: LESSON.tired,
    setAside: false,
  });
  memory.leave('coref-encoder', typed);
  // The Chinese model does not read English: its own pair, and a note that the sentence waits.
  const zh = memory.open('coref-encoder-zh', models['coref-encoder-zh'], typed);
  assert.deepEqual(zh, { text: sentencePair(models['coref-encoder-zh'].config)[0], setAside: true });
  memory.leave('coref-encoder-zh', zh.text);
  // Back to the English model: the page's Chinese sentence gives way to what it showed last.
  assert.deepEqual(memory.open('coref-encoder', models['coref-encoder'], zh.text), { text: typed, setAside: false });
  // A page default is replaced by the next model's own; `keep` (a link's sentence) stays.
  assert.equal(memory.open('coref-decoder', models['coref-decoder'], LESSON.wide).text, DECODER_PROMPT.tired);
  assert.equal(memory.open('coref-decoder', models['coref-decoder'], typed, true).text, typed);
});

test('the run and its answer, worded for the task and the language', () => {
  const model = models['coref-encoder'];
  const run = runView(model, LESSON.tired, { causal: false, scale: true });
  assert.equal(run.prediction.top.length, 4); // the answer and three alternatives
  assert.equal(run.prediction.token, model.analyze(LESSON.tired, { topK: 4 }).prediction.token);
  const percent = (p) => `${(100 * p).toFixed(1)} %`;
  const [before, probability, after] = answerParts(run.prediction, model.config, 'en', percent);
  assert.equal(
    `${before}${probability}${after}`,
    `“it” → ${run.prediction.token} (${percent(run.prediction.probability)})`,
  );
  const decoder = runView(models['coref-decoder'], DECODER_PROMPT.wide, { causal: true, scale: true });
  assert.match(answerParts(decoder.prediction, models['coref-decoder'].config, 'en', percent)[0], /^Next word: /);
});

test('a decoder prompt that does not end in "=" gets the hint to end it with "<pronoun> ="', async () => {
  const { needsAskingPrompt } = await import('../../web/lib/main-view.mjs');
  const engine = await loadNodeEngine();
  const decoder = engine.loadTrainedModel(shippedModel('coref-decoder'));
  const encoder = engine.loadTrainedModel(shippedModel('coref-encoder'));
  const sentence = LESSON.tired;
  const plain = decoder.analyze(sentence);
  assert.equal(needsAskingPrompt(plain.tokens, decoder.config), true);
  const asked = decoder.analyze(`${sentence} it =`);
  assert.equal(needsAskingPrompt(asked.tokens, decoder.config), false);
  assert.equal(needsAskingPrompt(encoder.analyze(sentence).tokens, encoder.config), false);
  decoder.delete();
  encoder.delete();
});
