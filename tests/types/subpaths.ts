// Every subpath of the package as a site author imports it (package.json "exports"), under strict
// mode: each must have types (no TS7016), and the documented API must be typed
// (tests/wasm/types.test.mjs; docs/embedding.md, docs/own-models.md).
import { loadEngine, type Gpt2Files, type TrainingSnapshot } from 'attention-explorer';
import 'attention-explorer/elements';
import { AttentionExplorer } from 'attention-explorer/attention-explorer';
import { AttentionHeatmap } from 'attention-explorer/attention-heatmap';
import { HeadView } from 'attention-explorer/head-view';
import { FlipPair } from 'attention-explorer/flip-pair';
import { HeadGrid } from 'attention-explorer/head-grid';
import { QkvSteps } from 'attention-explorer/qkv-steps';
import { Scaling } from 'attention-explorer/scaling';
import { MultiHead } from 'attention-explorer/multi-head';
import { LayerPanel } from 'attention-explorer/layer';
import { Positions } from 'attention-explorer/positions';
import { CausalMask } from 'attention-explorer/causal-mask';
import { KvCache } from 'attention-explorer/kv-cache';
import { Cost } from 'attention-explorer/cost';
import { Explanation } from 'attention-explorer/explanation';
import { CrossAttention } from 'attention-explorer/cross-attention';
import { ExportButtons } from 'attention-explorer/export-buttons';
import { Train } from 'attention-explorer/train';
import { drawMatrix } from 'attention-explorer/number-matrix';
import { addLocalModel, getEngine, getLocalModels, onLocalModel, setModelsBase } from 'attention-explorer/context';
import { createStore, initialView, store } from 'attention-explorer/store';

const constructors = [
  AttentionExplorer, AttentionHeatmap, HeadView, FlipPair, HeadGrid, QkvSteps, Scaling, MultiHead, LayerPanel,
  Positions, CausalMask, KvCache, Cost, Explanation, CrossAttention, ExportButtons, Train,
];
console.log(constructors.map((c) => c.prototype instanceof HTMLElement));
const explorer: AttentionExplorer = document.createElement('attention-explorer');
explorer.view().prediction?.top.length;
const train: Train | null = document.querySelector('ae-train');
if (train) train.store = createStore({ ...initialView(), lang: 'zh' });
store.subscribe((state) => state.layer + 1);
drawMatrix(document.body, { rows: ['a'], cols: ['b'], values: [0.5], kind: 'weights' }).rows.length;
setModelsBase('https://example.org/models/');
const off = onLocalModel(({ name, label }) => console.log(name, label, getLocalModels().length));
off();

export async function documented(files: Gpt2Files, text: string): Promise<number> {
  const engine = await getEngine(({ loaded, total }) => console.log(loaded, total ?? '?'));
  const model = engine.loadTrainedModel({ config: '{}', weights: new Uint8Array(), vocab: '' });
  addLocalModel('mine', model, 'Mine');
  const p = model.probabilities(text, { causal: false, knockout: [1], ablate: [[0, 1]] });
  const it: number = p.probabilities[model.wordId(p.best)];

  const full = await (await loadEngine()).full();
  const tokenizer = full.loadBpeTokenizer({ vocab: '{}', merges: '' });
  const ids: number[] = tokenizer.encode(text).ids;
  tokenizer.delete();
  const gpt2 = await engine.openGpt2Model(files, { onProgress: ({ loaded, total }) => loaded / total });
  const next = gpt2.probabilities(text).bestId + gpt2.wordId(' it') + gpt2.logits(text).length;
  gpt2.delete();

  const session = full.createTrainingSession({ task: 'word-order', positional: 'rope', steps: 100, layers: 1 });
  const step = session.step(10);
  const snapshot: TrainingSnapshot = session.snapshot();
  const exported = session.exportFiles({ dtype: 'f32', name: 'mine' });
  full.loadTrainedModel(exported).delete();
  session.delete();
  return it + ids.length + next + (step.loss ?? 0) + snapshot.lesson[0].rows.length + session.settings.trainingExamples;
}
