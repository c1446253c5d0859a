// The vocabulary help the page uses (TrainedModel.vocabularyWords, nearestWords, encodeWords):
// checked against the model's own vocab.txt and its analyze(), never against typed-in figures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';

import { suggestionsFor } from '../../web/lib/vocabulary-help.mjs';
import { loadNodeEngine, shippedModel, root } from './helpers.mjs';

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const dir = path.join(root, 'web/models/coref-encoder');
const engine = await loadNodeEngine();
const model = engine.loadTrainedModel(shippedModel('coref-encoder'));
test.after(() => model.delete());

test('vocabularyWords is vocab.txt without the five special tokens, in id order', () => {
  const lines = readFileSync(path.join(dir, 'vocab.txt'), 'utf8').split('\n').filter(Boolean);
  assert.deepEqual(lines.slice(0, 5), SPECIALS);
  assert.deepEqual(model.vocabularyWords(), lines.slice(5));
});

test('nearestWords: a known word first at distance 0, then by distance, within maxDistance', () => {
  const words = model.vocabularyWords();
  const word = words.find((w) => w.length >= 6); // a long word, so a typo of it is near nothing else
  const near = model.nearestWords(word, 3);
  assert.deepEqual(near[0], { word, distance: 0 });
  assert.equal(near.length, 3);
  assert.ok(near.every((n, i) => i === 0 || n.distance >= near[i - 1].distance));
  const typo = word[1] + word[0] + word.slice(2); // two letters swapped: one edit
  assert.deepEqual(model.nearestWords(typo, 1, 1)[0], { word, distance: 1 });
  assert.ok(model.nearestWords(typo, 5, 0).every((n) => n.distance === 0));
  assert.ok(model.nearestWords('[UNK]', 20).every((n) => !SPECIALS.includes(n.word)));
  assert.throws(() => model.nearestWords('cat', -1), { code: 'bad-option', message: /nearestWords: k must be/ });
});

test('encodeWords agrees with analyze on tokens and unknown words, and works where analyze refuses', () => {
  const text = "The zebra didn't cross the street because it was too tired.";
  const run = model.analyze(text);
  const encoded = model.encodeWords(text);
  assert.deepEqual(encoded.tokens, run.tokens);
  assert.deepEqual(encoded.unknown, run.unknown);
  assert.throws(() => model.analyze('那只动物没有穿过马路'), /has no "it"/);
  const chinese = model.encodeWords('那只动物没有穿过马路');
  assert.deepEqual(chinese.tokens, engine.tokenize('那只动物没有穿过马路'));
  assert.deepEqual(
    chinese.unknown,
    chinese.tokens.map((_, i) => i),
  );
});

test("did you mean never drops or adds a negation: didnt → didn't, not did; cant is not cat", () => {
  const text = 'The animal didnt cross the street because it wasnt tired and cant see ot nt';
  const { tokens, unknown } = model.encodeWords(text);
  const offers = Object.fromEntries(suggestionsFor(model, tokens, unknown, 5).map((o) => [o.word, o.near]));
  assert.equal(offers.didnt[0], "didn't");
  assert.equal(offers.wasnt[0], "wasn't");
  for (const [word, near] of Object.entries(offers)) {
    const negating = ['didnt', 'wasnt', 'cant', 'nt'].includes(word);
    for (const offer of near) {
      const read = model.encodeWords(offer).tokens;
      const negated = read.some((t) => ['not', "n't", 'never', 'no', 'nor'].includes(t));
      assert.equal(negated, negating, `${word} → ${offer}`);
    }
  }
  assert.ok(!(offers.cant ?? []).includes('cat'));
  for (const offer of ["didn't", "wasn't"]) assert.deepEqual(model.encodeWords(offer).unknown, []);
});
