// Bad input from JS becomes an Error with a readable message, and the module keeps working.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadNodeEngine } from './helpers.mjs';

let engine;
before(async () => {
  engine = await loadNodeEngine();
});

const identity2 = { q: [1, 0, 0, 1], k: [1, 0, 0, 1], v: [1, 2, 3, 4], n: 2, m: 2, dk: 2 };

// Each entry: what the caller did wrong, the call, and a pattern the message must match.
const badCalls = [
  ['q shorter than its shape', () => engine.attention({ ...identity2, q: [1, 0, 0] }), /q has 3 values.*2×2 needs 4/],
  ['v shorter than its shape', () => engine.attention({ ...identity2, v: [1, 2], m: 2 }), /v has 2 values/],
  ['NaN in Q', () => engine.attention({ ...identity2, q: [NaN, 0, 0, 1] }), /NaN or infinity/],
  ['empty sequence', () => engine.attention({ ...identity2, q: [], n: 0 }), /empty sequence/],
  ['every key padded', () => engine.attention({ ...identity2, keyPadding: [1, 1] }), /every key is masked for query 0/],
  [
    'padding of the wrong length',
    () => engine.attention({ ...identity2, keyPadding: [1] }),
    /key_padding has 1 flags for 2 keys/,
  ],
  ['missing shapes', () => engine.attention({ q: [1] }), /give the shapes/],
  ['q not an array', () => engine.attention({ ...identity2, q: 5 }), /q must be an array/],
  ['fractional window', () => engine.attention({ ...identity2, window: 1.5 }), /window must be a whole number/],
  ['huge layer count', () => engine.createRandomModel({ nLayers: 1e12 }), /nLayers must be a whole number/],
  [
    'heads not dividing d_model',
    () => engine.createRandomModel({ dModel: 30, nHeads: 4 }),
    /n_heads \(4\) must divide d_model \(30\)/,
  ],
  [
    'unknown positional encoding',
    () => engine.createRandomModel({ positional: 'alibi' }),
    /unknown positional encoding "alibi"/,
  ],
  [
    'RoPE with odd head width',
    () => engine.createRandomModel({ dModel: 6, nHeads: 2, positional: 'rope' }),
    /must be even/,
  ],
  ['negative seed', () => engine.createRandomModel({ seed: -1 }), /seed must be a whole number/],
  ['fractional seed', () => engine.createRandomModel({ seed: 0.5 }), /seed must be a whole number/],
  ['empty sentence', () => engine.createRandomModel({}).run('   '), /sequence is empty/],
  [
    'sentence over max length',
    () => engine.createRandomModel({ maxLen: 4 }).run('one two three four five'),
    /the sequence has 5 tokens; this model reads at most 4/,
  ],
];

for (const [what, call, message] of badCalls) {
  test(`${what}: Error with a message, then the module still works`, () => {
    assert.throws(call, (e) => e instanceof Error && message.test(e.message), `expected ${message}`);
    const ok = engine.attention(identity2);
    assert.equal(ok.weights.length, 4);
    assert.ok(Math.abs(ok.weights[0] + ok.weights[1] - 1) < 1e-6);
  });
}

test('thousands of errors do not exhaust the module', () => {
  for (let i = 0; i < 5000; i++) assert.throws(() => engine.attention({ ...identity2, q: [NaN, 0, 0, 1] }));
  const model = engine.createRandomModel({ seed: 7 });
  assert.equal(model.run('it was too tired').tokens.length, 4);
  model.delete();
});

test('a deleted model says so instead of crashing', () => {
  const model = engine.createRandomModel({});
  model.delete();
  assert.throws(() => model.run('hello'), /deleted/);
});
