// The Chinese coreference encoder (coref-encoder-zh): 它 resolved like "it", sentences cut into
// the vocabulary's words, the lesson pair read from its own config.json, and its coreference
// head checked against the figures training wrote (never against typed-in numbers).
import assert from 'node:assert/strict';
import test from 'node:test';

import { loadNodeEngine, shippedModel, shippedConfig } from './helpers.mjs';

const NAME = 'coref-encoder-zh';
const config = shippedConfig(NAME);
const engine = await loadNodeEngine();
const model = engine.loadTrainedModel(shippedModel(NAME));
test.after(() => model.delete());

// The weight the config's coreference head puts from the pronoun's row on token `to`.
function headWeight(run, to) {
  const { layer, head } = config.coreference_head;
  const row = run.prediction.position;
  return run.layers[layer].selfAttention.heads[head].weights[row * run.n + to];
}

test('the config names the pronoun, the language and the lesson pair', () => {
  assert.equal(config.pronoun, '它');
  assert.equal(config.language, 'zh');
  assert.equal(config.coreference_row, '它');
  assert.equal(config.lesson.length, 2);
});

test('the lesson pair flips: 它 is 动物 when tired, 马路 when wide, and the head follows', () => {
  const [tired, wide] = config.lesson.map((text) => model.analyze(text));
  assert.deepEqual(tired.tokens, [
    '那',
    '只',
    '动物',
    '没有',
    '穿过',
    '马路',
    '，',
    '因为',
    '它',
    '太',
    '累',
    '了',
    '。',
  ]);
  assert.equal(tired.prediction.position, tired.tokens.indexOf('它'));
  assert.equal(tired.prediction.token, '动物');
  assert.equal(wide.prediction.token, '马路');
  const animal = tired.tokens.indexOf('动物'),
    street = tired.tokens.indexOf('马路');
  assert.ok(headWeight(tired, animal) > headWeight(tired, street), 'tired: the head looks at 动物');
  assert.ok(headWeight(wide, street) > headWeight(wide, animal), 'wide: the head looks at 马路');
});

test('a learner may type spaces or leave out the final 。; the words stay the same', () => {
  const a = model.analyze('那只动物没有穿过马路，因为它太累了');
  const b = model.analyze('那只 动物 没有 穿过 马路 ， 因为 它 太 累 了');
  assert.deepEqual(a.tokens, b.tokens);
  assert.equal(a.prediction.token, b.prediction.token);
});

test('a sentence without 它 is refused with the no-pronoun code, naming 它; the model keeps working', () => {
  assert.throws(() => model.analyze('那只动物没有穿过马路'), { code: 'no-pronoun', message: /has no "它"/ });
  assert.throws(() => model.analyze("The animal didn't cross the street because it was too tired."), {
    code: 'no-pronoun',
  });
  assert.equal(model.analyze(config.lesson[0]).prediction.token, '动物');
});

test('unknown characters are [UNK] one by one, and the English encoder still reads words as before', () => {
  const run = model.analyze('那只斑马没有穿过马路，因为它太累了。');
  assert.deepEqual(run.tokens.slice(0, 4), ['那', '只', '斑', '马']);
  assert.ok(run.unknown.includes(2), '斑 is not a word of the vocabulary');
  const english = engine.loadTrainedModel(shippedModel('coref-encoder'));
  assert.deepEqual(english.encodeWords('那只动物').tokens, ['那', '只', '动', '物']);
  english.delete();
});
