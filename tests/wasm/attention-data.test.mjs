// Your own attention (web/lib/attention-data.mjs, docs/own-attention.md) in Node: the one data
// shape in its forms (nested, flat with shape, one flat matrix, cross-attention), the errors that
// name the wrong field, and the JSON file format — the fixture read back as the elements read it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  AttentionDataError,
  fromAttentionJson,
  loadAttentionJson,
  matrixOf,
  normalizeAttention,
  resultOf,
} from '../../web/lib/attention-data.mjs';
import { root } from './helpers.mjs';

const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/own-attention.json'), 'utf8'));

test('nested [layers][heads][q][k] and flat-with-shape give the same matrices', () => {
  const nested = {
    tokens: ['a', 'b'],
    weights: [
      [
        [
          [1, 0],
          [0.25, 0.75],
        ],
        [
          [0.5, 0.5],
          [0, 1],
        ],
      ],
    ],
  };
  const flat = {
    tokens: ['a', 'b'],
    weights: new Float32Array([1, 0, 0.25, 0.75, 0.5, 0.5, 0, 1]),
    shape: [1, 2, 2, 2],
  };
  const [x, y] = [normalizeAttention(nested), normalizeAttention(flat)];
  assert.deepEqual([x.layers, x.heads, x.q, x.k, x.cross], [1, 2, 2, 2, false]);
  assert.deepEqual([...x.weights], [...y.weights]);
  assert.deepEqual([...matrixOf(x, 0, 1)], [0.5, 0.5, 0, 1]);
  assert.equal(matrixOf(y, 0, 1).buffer, flat.weights.buffer, 'a Float32Array is viewed, not copied');
  // one flat q×k matrix without shape (what the main view passes its heatmap)
  assert.deepEqual(
    [...matrixOf(normalizeAttention({ tokens: ['a', 'b'], weights: [1, 0, 0.5, 0.5] }))],
    [1, 0, 0.5, 0.5],
  );
});

test('cross-attention: query tokens are rows, key tokens columns', () => {
  const n = normalizeAttention({ queryTokens: ['x'], keyTokens: ['a', 'b', 'c'], weights: [[[[0.2, 0.3, 0.5]]]] });
  assert.deepEqual([n.cross, n.q, n.k], [true, 1, 3]);
  const run = resultOf(n);
  assert.deepEqual([run.tokens, run.keyTokens, run.n], [['x'], ['a', 'b', 'c'], 1]);
  assert.deepEqual(
    [...run.layers[0].selfAttention.heads[0].weights].map((w) => Math.round(w * 10) / 10),
    [0.2, 0.3, 0.5],
  );
});

test('bad data: an AttentionDataError that names the field and what it should be', () => {
  const bad = [
    [null, /attention data must be an object/],
    [{ weights: [] }, /needs tokens \(self-attention\) or queryTokens and keyTokens/],
    [{ tokens: ['a', 2], weights: [] }, /tokens\[1\] must be a string/],
    [{ tokens: ['a', 'b'] }, /needs weights/],
    [
      { tokens: ['a', 'b'], weights: [[[[1, 0]]]] },
      /weights\[0\]\[0\] has 1 queries, expected 2 \(the number of query tokens\)/,
    ],
    [{ tokens: ['a', 'b'], weights: [[[[1, 0], [1]]]] }, /weights\[0\]\[0\]\[1\] has 1 keys, expected 2/],
    [{ tokens: ['a'], weights: [[[[1]]], [[[1]], [[1]]]] }, /weights\[1\] has 2 heads, expected 1/],
    [{ tokens: ['a'], weights: [[[['1']]]] }, /weights\[0\]\[0\]\[0\]\[0\] must be a number/],
    [
      {
        tokens: ['a', 'b'],
        weights: [
          [
            [
              [1, 0],
              [0.5, NaN],
            ],
          ],
        ],
      },
      /weights\[0\]\[0\]\[1\]\[1\] is NaN: attention weights must be numbers from 0 to 1/,
    ],
    [{ tokens: ['a'], weights: [[[[-0.5]]]] }, /weights\[0\]\[0\]\[0\]\[0\] is -0.5/],
    [{ tokens: ['a', 'b'], weights: [1, 0, 1] }, /weights holds 3 values: a flat array needs shape/],
    [{ tokens: ['a', 'b'], weights: new Float32Array(4), shape: [1, 1, 2] }, /shape must be four positive integers/],
    [
      { tokens: ['a', 'b'], weights: new Float32Array(4), shape: [1, 1, 3, 2] },
      /shape says 3 queries × 2 keys, but there are 2 × 2 tokens/,
    ],
    [
      { tokens: ['a', 'b'], weights: new Float32Array(4), shape: [2, 1, 2, 2] },
      /weights holds 4 values; shape \[2,1,2,2\] needs 8/,
    ],
    [{ tokens: ['a'], weights: [[[[1]]]], labels: { heads: ['h1', 'h2'] } }, /labels.heads must be 1 strings/],
  ];
  for (const [data, message] of bad) {
    assert.throws(
      () => normalizeAttention(data),
      (e) => e instanceof AttentionDataError && message.test(e.message),
      String(message),
    );
  }
});

test('the file format: format and version are checked; the fixture is 2 layers × 4 heads', async () => {
  const data = await loadAttentionJson(fixture);
  const n = normalizeAttention(data);
  assert.deepEqual([n.layers, n.heads, n.q, n.k], [2, 4, fixture.tokens.length, fixture.tokens.length]);
  // softmax rows, rounded to 4 decimals: each sums to 1 within the rounding
  for (let r = 0; r < n.weights.length / n.k; r++) {
    const sum = n.weights.subarray(r * n.k, r * n.k + n.k).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-3, `row ${r} sums to ${sum}`);
  }
  assert.throws(
    () => fromAttentionJson({ ...fixture, format: 'bertviz' }),
    /not an attention file: "format" must be "attention-explorer\/attention"/,
  );
  assert.throws(() => fromAttentionJson({ ...fixture, version: 2 }), /attention file version 2 is not supported/);
  await assert.rejects(
    loadAttentionJson({ ...fixture, tokens: fixture.tokens.slice(1) }),
    /has 13 queries, expected 12/,
  );
});
