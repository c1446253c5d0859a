// `node tools/readme-figures.mjs`: re-measures the figures README.md's page section quotes
// about the shipped coreference models, through the same engine calls the panels make
// (web/lib/engine.mjs on the built module in web/dist; run `npm run build` first). Prints one
// block per panel; heads come from config.json (coreference_head, decider_head), never typed
// here, so the script still measures the right head after a model is retrained.
// Layers and heads are printed 1-based, as on the page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../web/lib/engine.mjs';
import { DECODER_PROMPT, DECODER_SENTENCE, LESSON } from '../web/lib/lesson.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { tired: TIRED, wide: WIDE } = LESSON;
// The decoder's prompts: the panels' defaults (causal-mask.mjs, kv-cache.mjs).
const { tired: DECODER_TIRED, wide: DECODER_WIDE } = DECODER_PROMPT;
const KV_PROMPT = DECODER_SENTENCE.tired;
const CROSS_B = 'The street was too wide so it was hard to cross.'; // cross-attention.mjs DEFAULT_B
const TIMING_BATCHES = 15;

const engine = await loadEngine({ wasmBinary: readFileSync(path.join(root, 'web/dist/attention.wasm')) }, 'simd128');

function load(name) {
  const dir = path.join(root, 'web/models', name);
  const model = engine.loadTrainedModel({
    config: readFileSync(path.join(dir, 'config.json'), 'utf8'),
    weights: new Uint8Array(readFileSync(path.join(dir, 'model.safetensors'))),
    vocab: readFileSync(path.join(dir, 'vocab.txt'), 'utf8'),
  });
  return { model, json: model.config.metadata };
}

// Percent with enough digits that a probability near 1 does not print as 100.00 %.
const pct = (p, digits = 2) => `${(100 * p).toFixed(p > 0.9999 && p < 1 ? 4 : digits)} %`;
const weight = (w) => (w < 0.001 ? w.toExponential(1) : w.toFixed(3));
const at = ({ layer, head }) => `layer ${layer + 1}, head ${head + 1}`;
const rowOf = (r, { layer, head }, i) =>
  r.layers[layer].selfAttention.heads[head].weights.subarray(i * r.n, (i + 1) * r.n);
const probabilityOf = (r, word) => r.prediction.top.find((t) => t.token === word)?.probability ?? 0;
const answer = (r) => `${r.prediction.token} (${pct(r.prediction.probability)})`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Panel 5: the factor ×0.25 on the coreference head's scores (scaling.mjs #drawModel).
function scaling({ model, json }) {
  const head = json.coreference_head;
  console.log(`\n[5] scaling ×0.25 on coref-encoder, ${at(head)}, row of "it"`);
  for (const text of [TIRED, WIDE]) {
    const normal = model.analyze(text, {});
    const low = model.analyze(text, { scoreMultiplier: 0.25 });
    const it = normal.prediction.position;
    const h = (r) => engine.rowEntropy(rowOf(r, head, it)).toFixed(2);
    console.log(
      `  ${text.match(/too (\w+)/)[1]}: entropy ${h(normal)} → ${h(low)} nats; answer ${answer(normal)} → ${answer(low)}`,
    );
  }
}

// Panel 7: the norm of "it" through each layer's stages (layer.mjs reads stageNorms).
function layerNorms({ model }) {
  const r = model.analyzePacked(TIRED, {});
  const it = r.prediction.position;
  console.log('\n[7] |x| of "it" per stage (coref-encoder, tired)');
  r.layers.forEach((layer, l) => {
    const parts = Object.entries(layer.stageNorms).map(
      ([stage, norms]) => `${stage} ${norms.length ? norms[it].toFixed(1) : '–'}`,
    );
    console.log(`  layer ${l + 1}: ${parts.join(', ')}`);
  });
}

// Panel 9, first part: the decoder with the mask on and off (causal-mask.mjs).
function causalMask({ model, json }) {
  const coref = json.coreference_head,
    decider = json.decider_head;
  console.log(
    `\n[9] causal mask on coref-decoder (coreference head ${at(coref)}, decider head ${decider ? at(decider) : 'none'})`,
  );
  const on = [DECODER_TIRED, DECODER_WIDE].map((s) => model.analyze(s, {}));
  const it = on[0].tokens.indexOf('it'); // the first "it", in the sentence
  let identical = 0,
    total = 0;
  on[0].layers.forEach((layer, l) =>
    layer.selfAttention.heads.forEach((_, h) => {
      total++;
      const a = rowOf(on[0], { layer: l, head: h }, it),
        b = rowOf(on[1], { layer: l, head: h }, it);
      if (a.every((x, j) => Object.is(x, b[j]))) identical++;
    }),
  );
  console.log(`  mask on: row of "it" (position ${it}) bit-identical in ${identical} of ${total} heads`);
  const eq = on[0].n - 1;
  for (const [name, head] of [
    ['decider', decider],
    ['coreference', coref],
  ]) {
    if (!head) continue;
    const [a, b] = on.map((r) => rowOf(r, head, eq));
    const adjective = on[0].tokens.indexOf('tired');
    const nouns = ['animal', 'street'].map((w) => on[0].tokens.indexOf(w));
    console.log(
      `  ${name} head ${at(head)}, row "=": on the adjective ${a[adjective].toFixed(3)} (tired) / ${b[adjective].toFixed(3)} (wide);` +
        ` on animal ${a[nouns[0]].toFixed(3)} / ${b[nouns[0]].toFixed(3)}, on street ${a[nouns[1]].toFixed(3)} / ${b[nouns[1]].toFixed(3)}`,
    );
  }
  const adjective = on[0].tokens.indexOf('tired');
  const byHead = on[0].layers
    .flatMap((layer, l) =>
      layer.selfAttention.heads.map((_, h) => {
        const [a, b] = on.map((r) => rowOf(r, { layer: l, head: h }, eq)[adjective]);
        return { name: `${l + 1}.${h + 1}`, a, b };
      }),
    )
    .sort((x, y) => Math.min(y.a, y.b) - Math.min(x.a, x.b));
  console.log(
    `  row "=" on the adjective per head (layer.head tired/wide), best first: ${byHead.map((x) => `${x.name} ${x.a.toFixed(2)}/${x.b.toFixed(2)}`).join(', ')}`,
  );
  console.log(`  mask on: tired → ${answer(on[0])}, wide → ${answer(on[1])}`);
  const off = [DECODER_TIRED, DECODER_WIDE].map((s) => model.analyze(s, { causal: false }));
  console.log(`  mask off: tired → ${answer(off[0])}, wide → ${answer(off[1])}`);
}

// Panel 9, second part: a sliding window on the encoder (causal-mask.mjs #drawWindow).
function slidingWindow({ model, json }) {
  const head = json.coreference_head;
  for (const text of [TIRED, WIDE]) {
    const full = model.analyze(text, {});
    const it = full.prediction.position;
    const referent = full.tokens.findIndex((t, j) => t === full.prediction.token && j !== it);
    console.log(
      `\n[9] sliding window, coref-encoder, ${text.match(/too (\w+)/)[1]}: "it" at ${it}, ${full.prediction.token} at ${referent}` +
        ` (distance ${it - referent}), n = ${full.n}, full: ${answer(full)}`,
    );
    for (let w = 1; w <= full.n; w++) {
      const r = model.analyze(text, { window: w });
      console.log(
        `  w = ${String(w).padStart(2)}: ${answer(r)}, weight on referent ${rowOf(r, head, it)[referent].toFixed(3)}`,
      );
    }
  }
}

// Panel 10: the KV cache on the lesson prompt (kv-cache.mjs).
function kvCache({ model }) {
  const cached = model.generateSteps(KV_PROMPT, 8, true);
  const full = model.generateSteps(KV_PROMPT, 8, false);
  const words = cached.steps.map((s) => s.token).join(' ');
  const sum = (g) => g.steps.reduce((a, s) => a + s.work.total, 0);
  let worst = 0;
  cached.steps.forEach((s, i) =>
    s.logits.forEach((x, j) => {
      worst = Math.max(worst, Math.abs(x - full.steps[i].logits[j]));
    }),
  );
  console.log(`\n[10] KV cache on "${KV_PROMPT}" (prompt ${cached.promptLength} tokens)`);
  console.log(`  writes "${words}" in ${cached.steps.length} steps`);
  cached.steps.forEach((s, i) =>
    console.log(
      `  step ${i + 1}: ${s.work.total.toLocaleString('en')} multiply-adds with the cache, ${full.steps[i].work.total.toLocaleString('en')} without`,
    ),
  );
  console.log(
    `  all steps: ${sum(cached).toLocaleString('en')} vs ${sum(full).toLocaleString('en')}; logits agree within ${worst.toExponential(1)}`,
  );
  const time = (fn) => {
    let reps = 1;
    while (true) {
      // a batch of at least 20 ms, as the panel times it
      const t0 = performance.now();
      for (let i = 0; i < reps; i++) fn();
      const ms = performance.now() - t0;
      if (ms >= 20) return ms / reps;
      reps *= 2;
    }
  };
  const withCache = [],
    without = [];
  for (let b = 0; b < TIMING_BATCHES; b++) {
    withCache.push(time(() => model.generateCached(KV_PROMPT, 8)));
    without.push(time(() => model.generate(KV_PROMPT, 8)));
  }
  console.log(
    `  whole generation: ${median(withCache).toFixed(2)} ms with the cache, ${median(without).toFixed(2)} ms without` +
      ` (medians of ${TIMING_BATCHES} batches; ranges ${Math.min(...withCache).toFixed(2)}–${Math.max(...withCache).toFixed(2)}` +
      ` / ${Math.min(...without).toFixed(2)}–${Math.max(...without).toFixed(2)})`,
  );
}

// Panel 12: attention weight vs effect (explanation.mjs #measure).
function explanation({ model, json }) {
  const head = json.coreference_head;
  const all = { topK: model.config.vocabSize };
  console.log(`\n[12] attention is not explanation, coref-encoder, coreference head ${at(head)}`);
  for (const text of [TIRED, WIDE]) {
    const base = model.analyze(text, all);
    const { position: it, token: word, probability } = base.prediction;
    const row = rowOf(base, head, it);
    const referent = base.tokens.findIndex((t, i) => t === word && i !== it);
    const ablated = model.analyze(text, { ...all, ablate: [[head.layer, head.head]] });
    const adjective = base.tokens.findIndex((t) => t === 'tired' || t === 'wide');
    const knocked = model.analyze(text, { ...all, knockout: [adjective] });
    console.log(
      `  ${base.tokens[adjective]}: ${word} ${pct(probability)}, head's weight on ${word} ${row[referent].toFixed(3)};` +
        ` head off → ${word} ${pct(probabilityOf(ablated, word))} (answer ${answer(ablated)})`,
    );
    console.log(
      `    weight on "${base.tokens[adjective]}" ${weight(row[adjective])}; knocking it out → ${answer(knocked)}`,
    );
    const singles = [];
    for (let l = 0; l < base.layers.length; l++)
      for (let h = 0; h < base.layers[0].selfAttention.heads.length; h++) {
        const r = model.analyze(text, { ...all, ablate: [[l, h]] });
        singles.push(
          `${l + 1}.${h + 1} ${rowOf(base, { layer: l, head: h }, it)[referent].toFixed(3)}→${pct(probabilityOf(r, word), 1)}`,
        );
      }
    console.log(`    every head (layer.head weight→p(${word}) when off): ${singles.join(', ')}`);
  }
}

// Panel 13: self vs cross-attention (cross-attention.mjs) — the shape of the defaults, and
// the words of each the vocabulary lacks (the panel names them).
function cross({ model }) {
  const [a, b] = [TIRED, CROSS_B].map((text) => model.analyzePacked(text, { topK: 1 }));
  const unknown = (r) => r.unknown.map((i) => r.tokens[i]).join(' ') || 'none';
  console.log(
    `\n[13] cross-attention defaults: ${a.n} × ${b.n} weights; unknown words: A ${unknown(a)}, B ${unknown(b)}`,
  );
}

const encoder = load('coref-encoder');
const decoder = load('coref-decoder');
scaling(encoder);
layerNorms(encoder);
causalMask(decoder);
slidingWindow(encoder);
kvCache(decoder);
explanation(encoder);
cross(encoder);
encoder.model.delete();
decoder.model.delete();
