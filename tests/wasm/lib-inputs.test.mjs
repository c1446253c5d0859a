// The page's JS helpers on inputs they once mishandled, without the wasm module: every failure an
// EngineError with its code, or a documented value (issue 37's leftovers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError, MAX_WORD_LENGTH, integer, options } from '../../web/lib/contract.mjs';
import { fetchModelFiles } from '../../web/lib/engine.mjs';
import { setModelsBase } from '../../web/lib/context.mjs';
import { insertWord, replaceWord, suggestionsFor } from '../../web/lib/vocabulary-help.mjs';
import { messages } from '../../web/i18n.mjs';

const isCode = (code) => (e) => e instanceof EngineError && e.code === code;

test('an option given as null takes its default, as when it is left out', () => {
  assert.deepEqual(options('call', { task: null, steps: 3 }, { task: integer(), steps: integer() }), { steps: 3 });
});

test("an option's getter that throws is a bad-option EngineError naming the option", () => {
  const hostile = {
    get steps() {
      throw new Error('no');
    },
  };
  assert.throws(
    () => options('call', hostile, { steps: integer() }),
    (e) => isCode('bad-option')(e) && e.details.option === 'steps' && /no/.test(e.message),
  );
});

test('fetchModelFiles: the caller’s own errors and a relative URL in Node are EngineErrors', async () => {
  const ok = async () => ({ ok: true, status: 200, headers: new Headers(), body: null, text: async () => '' });
  // A relative URL with no page to resolve it against.
  await assert.rejects(
    fetchModelFiles('models/coref-encoder/', ok),
    (e) => isCode('bad-option')(e) && e.details.option === 'baseUrl',
  );
  // The caller's fetch throws (or the network fails): the model could not be loaded.
  const cause = new Error('offline');
  await assert.rejects(
    fetchModelFiles('http://example.invalid/m/', async () => {
      throw cause;
    }),
    (e) => isCode('unknown-model')(e) && e.details.cause === cause && /offline/.test(e.message),
  );
  // A body that breaks off while it is read.
  const broken = async () => ({
    ok: true,
    status: 200,
    headers: new Headers(),
    body: null,
    text: async () => {
      throw new TypeError('terminated');
    },
    arrayBuffer: async () => new ArrayBuffer(4),
  });
  await assert.rejects(fetchModelFiles('http://example.invalid/m/', broken), isCode('unknown-model'));
  // The caller's onProgress throws.
  const weights = async () => ({
    ok: true,
    status: 200,
    headers: new Headers(),
    body: null,
    text: async () => '',
    arrayBuffer: async () => new ArrayBuffer(4),
  });
  await assert.rejects(
    fetchModelFiles('http://example.invalid/m/', weights, {
      onProgress: () => {
        throw new Error('listener broke');
      },
    }),
    (e) => isCode('bad-option')(e) && e.details.option === 'onProgress' && /listener broke/.test(e.message),
  );
  await assert.rejects(fetchModelFiles('http://example.invalid/m/', 'fetch'), isCode('bad-option'));
});

test('setModelsBase: a value that is no URL is a bad-option EngineError', () => {
  assert.throws(() => setModelsBase('models/'), isCode('bad-option')); // relative, and Node has no page
  setModelsBase('http://example.invalid/models/');
});

test('model names: "__proto__" or "constructor" has no label in any language', () => {
  for (const lang of Object.keys(messages)) {
    assert.equal(messages[lang].models.__proto__, undefined, lang);
    assert.equal(messages[lang].models.constructor, undefined, lang);
    assert.equal(typeof messages[lang].models['coref-encoder'], 'string', lang);
  }
});

test('vocabulary help: a word too long for nearestWords gets no suggestion instead of an error', () => {
  const asked = [];
  const model = {
    nearestWords(word) {
      asked.push(word);
      if (word.length > MAX_WORD_LENGTH) throw new EngineError('nearestWords: word too long', 'bad-option');
      return [{ word: 'bicycle', distance: 2 }];
    },
  };
  const long = 'x'.repeat(MAX_WORD_LENGTH + 1);
  assert.deepEqual(suggestionsFor(model, ['bycicle', long], [0, 1]), [{ word: 'bycicle', near: ['bicycle'] }]);
  assert.deepEqual(asked, ['bycicle']);
});

test("vocabulary help: an offer is never the typed word's opposite (unable → able, careless → careful)", () => {
  const near = {
    unable: ['able', 'unsable'],
    possible: ['impossible', 'passible'],
    careles: ['careless'],
    careless: ['careful', 'carless'],
  };
  const model = { nearestWords: (word) => near[word].map((w, i) => ({ word: w, distance: i + 1 })) };
  const words = Object.keys(near);
  const offers = suggestionsFor(model, words, [0, 1, 2, 3], 3);
  assert.deepEqual(offers, [
    { word: 'unable', near: ['unsable'] },
    { word: 'possible', near: ['passible'] },
    { word: 'careles', near: ['careless'] },
    { word: 'careless', near: ['carless'] },
  ]);
});

test('vocabulary help: positions out of range are bad-option EngineErrors; an empty replacement removes the word', () => {
  const model = { nearestWords: () => [] };
  assert.throws(() => suggestionsFor(model, ['a'], [3]), isCode('bad-option'));
  assert.throws(() => suggestionsFor(model, ['a'], [-1]), isCode('bad-option'));
  assert.throws(() => insertWord('abc', 2, 9, 'x'), isCode('bad-option'));
  assert.throws(() => insertWord('abc', 2, 1, 'x'), isCode('bad-option'));
  assert.equal(insertWord('abc', 3, 3, 'd').text, 'abc d');
  assert.equal(replaceWord('Bycicle here', 'bycicle', ''), ' here');
  assert.equal(replaceWord('Bycicle here', 'bycicle', 'bicycle'), 'Bicycle here');
});
