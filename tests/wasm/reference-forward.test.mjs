// docs/model-format.md describes what the code does: the plain JS forward pass written from it
// (reference-forward.mjs) agrees with the wasm module on every model in web/models/index.json —
// the tokens, every head's attention weights, and the probability of every vocabulary word at the
// row the task reads. Tolerance: 1e-5 absolute on both (weights and probabilities lie in [0, 1]);
// the reference computes in double precision, the module in float32. The test prints the largest
// differences per model; on the models shipped on 2026-12-01 they were 5.5e-7 (attention) and
// 6.4e-7 (probabilities), so 1e-5 leaves a margin of 15× for retrained, larger models.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';

import { loadNodeEngine, modelFiles, root } from './helpers.mjs';
import { loadReferenceModel, referenceForward, splitWords } from './reference-forward.mjs';
import { DECODER_PROMPT, LESSON } from '../../web/lib/lesson.mjs';

const TOLERANCE = 1e-5;
const modelsDir = path.join(root, 'web/models');
const index = JSON.parse(readFileSync(path.join(modelsDir, 'index.json'), 'utf8'));

// Per task, a few sentences; unknown words, a clause-first sentence and a second "it" included.
const SENTENCES = {
  coreference: [
    LESSON.tired,
    LESSON.wide,
    'Because it was too big, the trophy did not fit in the suitcase.',
    "It's late: the zebra didn't cross the bridge because it was too tired.",
  ],
  'word-order': ['猫追狗', '狗追猫', '今天鸟在看鱼', '猫，狗！'],
  'next-word': [DECODER_PROMPT.tired, DECODER_PROMPT.wide, 'the zebra overtook the car because it was so fast . it ='],
};

// The Chinese coreference encoder: the lesson pair, the clause first, an unknown character (斑)
// and a second 它.
const SENTENCES_ZH = [
  '那只动物没有穿过马路，因为它太累了。',
  '那只动物没有穿过马路，因为它太宽了。',
  '因为它太大了，奖杯放不进箱子。',
  '它很小：那只斑马没有穿过桥，因为它太累了。',
];

// The tokenizer rules of the doc, on the cases it names.
const TOKENIZER_CASES = [
  "It's five o'clock, isn't it?",
  "You shouldn't've; rock'n'roll!",
  "'quoted' dogs' toys",
  '“Smart” ‘quotes’ and "plain" ones…',
  'Café, NAÏVE «hello» — wait...',
  'GPT2 has 1.5B\tparams\u00a0ok',
  '猫追狗。AI很强！ネコ',
  'The animal didn\u2019t cross it.',
];

// Largest |a − b| over two equal-length arrays, with where it happened.
function maxAbsDiff(a, b) {
  assert.equal(a.length, b.length, 'lengths differ');
  let worst = { diff: 0, index: -1 };
  for (let i = 0; i < a.length; i++) {
    const diff = Math.abs(a[i] - b[i]);
    if (!(diff <= worst.diff)) worst = { diff, index: i, a: a[i], b: b[i] };
  }
  return worst;
}

let engine;
before(async () => {
  engine = await loadNodeEngine();
});

test('the JS tokenizer written from the doc splits as the core does', () => {
  for (const text of TOKENIZER_CASES) assert.deepEqual(splitWords(text), engine.tokenize(text), text);
});

describe('the wasm module agrees with the reference forward pass of docs/model-format.md', () => {
  assert.ok(index.models.length > 0, 'web/models/index.json lists no model');
  for (const { name } of index.models) {
    test(name, () => {
      const reference = loadReferenceModel(path.join(modelsDir, name));
      const model = engine.loadTrainedModel(modelFiles(path.join(modelsDir, name)));
      const vocabSize = reference.config.vocab_size;
      const worst = { attention: 0, probability: 0 };
      try {
        const sentences = reference.config.language === 'zh' ? SENTENCES_ZH : SENTENCES[reference.config.task];
        assert.ok(sentences, `no test sentences for task ${reference.config.task}`);
        for (const text of sentences) {
          const expected = referenceForward(reference, text);
          const actual = model.analyze(text, { topK: vocabSize });
          assert.deepEqual(splitWords(text), engine.tokenize(text), `${name}: split of "${text}"`);
          assert.deepEqual(actual.tokens, expected.tokens, `${name}: tokens of "${text}"`);
          assert.equal(actual.prediction.position, expected.position, `${name}: row read for "${text}"`);
          actual.layers.forEach((layer, l) =>
            layer.selfAttention.heads.forEach((head, h) => {
              const d = maxAbsDiff(head.weights, expected.attention[l][h].data);
              worst.attention = Math.max(worst.attention, d.diff);
              assert.ok(
                d.diff <= TOLERANCE,
                `${name} "${text}" layer ${l} head ${h}: weight [${d.index}] ` +
                  `wasm ${d.a} vs reference ${d.b} (|Δ| ${d.diff})`,
              );
            }),
          );
          // Every word's probability: the module's top-V list, by token, against the reference's ids.
          assert.equal(actual.prediction.top.length, vocabSize, 'topK = V lists the whole vocabulary');
          const byToken = new Map(actual.prediction.top.map((t) => [t.token, t.probability]));
          const wasm = reference.tokens.map((t) => byToken.get(t));
          const d = maxAbsDiff(wasm, expected.probabilities);
          worst.probability = Math.max(worst.probability, d.diff);
          assert.ok(
            d.diff <= TOLERANCE,
            `${name} "${text}": probability of "${reference.tokens[d.index]}" ` +
              `wasm ${d.a} vs reference ${d.b} (|Δ| ${d.diff})`,
          );
        }
        // Inputs over max_len are refused by both, not truncated.
        const tooLong = Array(reference.config.max_len + 1)
          .fill(reference.config.task === 'word-order' ? '猫' : 'it')
          .join(' ');
        assert.throws(() => model.analyze(tooLong), /at most/);
        assert.throws(() => referenceForward(reference, tooLong), /max_len/);
      } finally {
        model.delete();
      }
      console.log(
        `${name}: max |Δ| attention ${worst.attention.toExponential(2)}, ` +
          `probability ${worst.probability.toExponential(2)}`,
      );
    });
  }
});
