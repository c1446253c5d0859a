// web/lib/default-token.mjs: the word the lesson panels start on — the lesson's pronoun in the
// model's own tokens (it, 它, a BPE token with its leading space), else the last word.
import assert from 'node:assert/strict';
import test from 'node:test';

import { loadNodeEngine, loadShippedModels } from './helpers.mjs';
import { selectedToken } from '../../web/lib/default-token.mjs';
import { runView } from '../../web/lib/main-view.mjs';

test('a selected word in range wins; out of range or none falls back', () => {
  assert.equal(selectedToken(['a', 'it', 'b'], 2), 2);
  assert.equal(selectedToken(['a', 'it', 'b'], 7), 1);
  assert.equal(selectedToken(['a', 'b', 'c'], null), 2);
  assert.equal(selectedToken(['The', 'Ġanimal', 'Ġit', 'Ġwas'], null), 2);
  assert.equal(selectedToken(['It', 'was', 'it'], null), 0);
});

test('each shipped lesson model starts on its own pronoun: it, 它', async () => {
  const engine = await loadNodeEngine();
  const models = loadShippedModels(engine, ['coref-encoder', 'coref-encoder-zh']);
  try {
    for (const [name, pronoun] of [
      ['coref-encoder', 'it'],
      ['coref-encoder-zh', '它'],
    ]) {
      const [sentence] = models[name].config.metadata.lesson;
      const { tokens } = runView(models[name], sentence, { causal: false, scale: true });
      assert.equal(tokens[selectedToken(tokens, null)], pronoun, `${name}: ${tokens.join(' ')}`);
    }
  } finally {
    Object.values(models).forEach((m) => m.delete());
  }
});
