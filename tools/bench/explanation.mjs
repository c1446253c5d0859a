// `node tools/bench/explanation.mjs [--rounds N]`: the explanation panel's work for one
// sentence (the intact run, a knock-out per token, an ablation per head), timed in Node on
// the built module (web/dist) the way the panel did it before and does it now:
//   before  analyze(topK = vocabulary size) for every run: the full trace and V prediction objects
//   after   analyzePacked(topK 1) for the intact run, probabilities() for the others
// Rounds alternate the two ways; prints the median ms per sentence of each and their same-round
// ratio. Checks first that both ways give the same probabilities.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { loadEngine } from '../../web/lib/engine.mjs';
import { LESSON } from '../../web/lib/lesson.mjs';
import { fmt, fmtRatio, median, ratio } from './stats.mjs';
import { root } from './runtimes.mjs';

const args = process.argv.slice(2);
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 7;

const engine = await loadEngine({ wasmBinary: readFileSync(path.join(root, 'web/dist/attention.wasm')) });
const dir = path.join(root, 'web/models/coref-encoder');
const model = engine.loadTrainedModel({
  config: readFileSync(path.join(dir, 'config.json'), 'utf8'),
  weights: new Uint8Array(readFileSync(path.join(dir, 'model.safetensors'))),
  vocab: readFileSync(path.join(dir, 'vocab.txt'), 'utf8'),
});
const { vocabSize, nLayers, nHeads } = model.config;

// The option sets of one sentence's reruns: each token knocked out, each head ablated.
function reruns(n) {
  const heads = Array.from({ length: nLayers * nHeads }, (_, i) => ({
    ablate: [[Math.floor(i / nHeads), i % nHeads]],
  }));
  return [...Array.from({ length: n }, (_, p) => ({ knockout: [p] })), ...heads];
}

function before(text) {
  const base = model.analyze(text, { topK: vocabSize });
  const word = base.prediction.token;
  return reruns(base.n).map(
    (o) => model.analyze(text, { ...o, topK: vocabSize }).prediction.top.find((t) => t.token === word).probability,
  );
}

function after(text) {
  const base = model.analyzePacked(text, { topK: 1 });
  const id = model.wordId(base.prediction.token);
  return reruns(base.n).map((o) => {
    const r = model.probabilities(text, o);
    model.wordId(r.best); // the panel reads the new answer's probability too
    return r.probabilities[id];
  });
}

const same = JSON.stringify(before(LESSON.tired)) === JSON.stringify(after(LESSON.tired));
if (!same) throw new Error('before and after disagree on the probabilities');
const n = model.analyze(LESSON.tired).n;
const times = { before: [], after: [] };
for (let r = 0; r < rounds; r++) {
  for (const way of r % 2 ? ['after', 'before'] : ['before', 'after']) {
    const run = way === 'before' ? before : after;
    const t0 = performance.now();
    for (const text of [LESSON.tired, LESSON.wide]) run(text);
    times[way].push((performance.now() - t0) / 2);
  }
}
console.log(
  `explanation panel, one sentence (${n} tokens: 1 + ${n} knock-outs + ${nLayers * nHeads} ablations = ${1 + n + nLayers * nHeads} runs), median of ${rounds} rounds:`,
);
console.log(`  before (analyze, topK ${vocabSize}):            ${fmt(median(times.before), 1)} ms`);
console.log(`  after  (analyzePacked + probabilities):  ${fmt(median(times.after), 1)} ms`);
console.log(`  before / after, same round:              ${fmtRatio(ratio(times.before, times.after))}`);
console.log('  probabilities identical: yes');
model.delete();
