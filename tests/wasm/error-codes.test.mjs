// The typed boundary: for each code the core sets (src/util/error.h), an input that makes the
// core throw it, from JS. The EngineError carries the core's code unchanged (no message is read
// to classify it: web/lib/guarded.mjs, contract.mjs coreError), the field the core named, and
// the page shows the Chinese words chosen by that code (web/lib/error-text.mjs).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { EngineError } from '../../web/lib/contract.mjs';
import { errorText } from '../../web/lib/error-text.mjs';
import { loadNodeEngine, loadNodeFullEngine, shippedConfig, shippedModel } from './helpers.mjs';

const ENCODER = shippedConfig('coref-encoder');

let engine, fullEngine, coref;
before(async () => {
  engine = await loadNodeEngine();
  fullEngine = await loadNodeFullEngine();
  coref = engine.loadTrainedModel(shippedModel('coref-encoder'));
});

const corrupt = (files) => ({ ...shippedModel('coref-encoder'), ...files });

// [code, what triggers it, the call, details the core sets, the page's zh words]
const cases = [
  [
    'bad-input',
    'every key masked',
    () =>
      engine.attention({ q: [1, 0, 0, 1], k: [1, 0, 0, 1], v: [1, 2, 3, 4], n: 2, m: 2, dk: 2, keyPadding: [1, 1] }),
    {},
    '模型无法计算这个输入。',
  ],
  [
    'bad-input',
    'an ablated head the model lacks',
    () => coref.analyze('it was', { ablate: [[ENCODER.n_layers, 0]] }),
    { field: 'ablate' },
    '模型无法计算这个输入。',
  ],
  [
    'too-long',
    'a sentence over max_len',
    () => coref.analyze('it '.repeat(ENCODER.max_len + 1)),
    { field: 'sentence', count: ENCODER.max_len + 1, max: ENCODER.max_len },
    `文本有 ${ENCODER.max_len + 1} 个词元，上限是 ${ENCODER.max_len}，请缩短。`,
  ],
  [
    'too-long',
    "a random model's sequence over max_len",
    () => engine.createRandomModel({ maxLen: 4 }).run('one two three four five'),
    { field: 'sequence' },
    '文本超出了这个模型能读取的长度，请缩短。',
  ],
  [
    'empty-input',
    'an empty sentence',
    () => coref.analyze('  '),
    { field: 'sentence' },
    '文本是空的，请输入一个句子。',
  ],
  [
    'no-pronoun',
    'a sentence without "it"',
    () => coref.analyze('the cat sat'),
    { field: 'it', pronoun: 'it' },
    '句子里没有 “it”。这个模型要找出 “it” 指代什么，所以句子里需要有一个。',
  ],
  [
    'wrong-task',
    'generation by the encoder',
    () => coref.generate('the cat', 2),
    {},
    '这个模型不能续写文本，请选择解码器。',
  ],
  [
    'bad-config',
    'heads not dividing dModel',
    () => engine.createRandomModel({ dModel: 30, nHeads: 4 }),
    { field: 'n_heads' },
    '无法用这些设置构建模型。',
  ],
  [
    'bad-config',
    'a training setting the session refuses',
    () => fullEngine.createTrainingSession({ task: 'coref-encoder', batch: 3 }),
    { field: 'batch' },
    '无法用这些设置构建模型。',
  ],
  [
    'bad-model',
    'config.json that is not JSON',
    () => engine.loadTrainedModel(corrupt({ config: '{' })),
    {},
    '模型文件已损坏或与本页面不匹配，请重新加载页面。',
  ],
  [
    'bad-model',
    'a vocabulary without its special tokens',
    () => engine.loadTrainedModel(corrupt({ vocab: 'a\nb\n' })),
    {},
    '模型文件已损坏或与本页面不匹配，请重新加载页面。',
  ],
  [
    'out-of-memory',
    'three buffers of 2 GiB',
    () => engine.createKernelWorkspace(2 ** 29),
    {},
    '所需内存超出了浏览器给本页面的上限，请缩短文本。',
  ],
];

for (const [code, what, call, details, zh] of cases) {
  test(`${code} (${what}): the core's code arrives unchanged, with the page's zh words`, () => {
    let error;
    assert.throws(call, (e) => (error = e) instanceof EngineError);
    assert.equal(error.code, code, error.message);
    for (const [key, value] of Object.entries(details)) assert.equal(error.details[key], value, key);
    assert.equal(errorText(error, 'zh'), zh);
  });
}

test("too-long in English says the text's token count and the model's limit, also for a prompt", () => {
  const decoder = engine.loadTrainedModel(shippedModel('coref-decoder'));
  const max = decoder.config.maxLen;
  for (const [call, n] of [
    [() => decoder.generate('the animal '.repeat(max)), 2 * max],
    [() => coref.analyze('it was tired '.repeat(max)), 3 * max],
  ]) {
    let error;
    assert.throws(call, (e) => (error = e) instanceof EngineError);
    assert.equal(error.code, 'too-long');
    assert.equal(errorText(error, 'en'), `the text has ${n} tokens; the limit is ${max}. Shorten it.`);
  }
  decoder.delete();
});
