// Types of the package's main entry (index.mjs): the engine over the wasm module
// (web/lib/engine.mjs), the shared engine and model cache (web/lib/context.mjs) and the store.
// Checked by tests/wasm/types.test.mjs (tsc on tests/types/). Matrices are row-major
// Float32Arrays owned by JS (README, "Lifetime rule").

/** The `code` of an EngineError (README, "Errors"). */
export type EngineErrorCode =
  | 'bad-option'
  | 'unknown-option'
  | 'too-long'
  | 'empty-input'
  | 'no-pronoun'
  | 'wrong-task'
  | 'bad-config'
  | 'bad-model'
  | 'unknown-model'
  | 'timeout'
  | 'out-of-memory'
  | 'deleted'
  | 'bad-input'
  | 'internal'
  | 'unavailable';

/** What every failed call throws; the module keeps working afterwards. */
export class EngineError extends Error {
  constructor(message: string, code: EngineErrorCode, details?: Record<string, unknown>);
  readonly name: 'EngineError';
  code: EngineErrorCode;
  details: {
    call?: string;
    option?: string;
    expected?: string;
    got?: string;
    url?: string;
    status?: number;
    timeoutMs?: number;
  };
}

export type Positional = 'none' | 'sinusoidal' | 'learned' | 'rope';

export interface RunOptions {
  causal?: boolean;
  /** sliding window: query p sees keys with |p − j| < window; 0 = off */
  window?: number;
  /** divide scores by √d_k */
  scale?: boolean;
  /** extra factor on the scores, in [−1000, 1000] */
  scoreMultiplier?: number;
}

export interface AnalysisOptions extends RunOptions {
  /** positions hidden from every query */
  knockout?: number[];
  /** heads switched off, [layer, head] 0-based */
  ablate?: Array<[number, number]>;
  topK?: number;
}

export interface AttentionArgs extends RunOptions {
  q: ArrayLike<number>;
  k: ArrayLike<number>;
  v: ArrayLike<number>;
  n: number;
  m: number;
  dk: number;
  dv?: number;
  queryOffset?: number;
  keyPadding?: ArrayLike<number | boolean>;
}

/** Every step of one attention call: scores and weights n×m, output n×dv. */
export interface AttentionTrace {
  rawScores: Float32Array;
  scaledScores: Float32Array;
  maskedScores: Float32Array;
  weights: Float32Array;
  output: Float32Array;
}

export interface HeadTrace extends AttentionTrace {
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
}

export interface LayerTrace {
  selfAttention: { heads: HeadTrace[]; concat: Float32Array; output: Float32Array };
  output: Float32Array;
}

export interface Run {
  tokens: string[];
  ids: number[];
  n: number;
  embeddings: Float32Array;
  layers: LayerTrace[];
  output: Float32Array;
  /** the packed trace's reader (not enumerable): every matrix by name, docs/trace-format.md */
  readonly trace: TraceReader;
}

/** A reader of the packed trace: `get('layer.2.head.1.weights')` is a row-major view. */
export interface TraceReader {
  readonly version: number;
  readonly names: string[];
  has(name: string): boolean;
  shape(name: string): [number, number];
  get(name: string): Float32Array;
}

export interface Prediction {
  position: number;
  token: string;
  probability: number;
  top: Array<{ token: string; probability: number }>;
}

export interface Analysis extends Run {
  /** positions that became [UNK] */
  unknown: number[];
  prediction: Prediction | null;
}

export interface ModelConfig {
  dModel: number;
  nHeads: number;
  nLayers: number;
  dFF: number;
  maxLen: number;
  vocabSize: number;
  positional: Positional;
  norm: 'pre' | 'post';
  causal: boolean;
  parameterCount?: number;
  [key: string]: unknown;
}

export interface RandomModelConfig {
  dModel?: number;
  nHeads?: number;
  nLayers?: number;
  dFF?: number;
  maxLen?: number;
  vocabSize?: number;
  positional?: Positional;
  norm?: 'pre' | 'post';
  causal?: boolean;
  seed?: number;
}

/** The three files of a model directory (web/models/<name>/). */
export interface ModelFiles {
  /** config.json's text */
  config: string;
  /** model.safetensors */
  weights: Uint8Array;
  /** vocab.txt's text */
  vocab: string;
}

export class RandomModel {
  readonly config: ModelConfig;
  readonly parameterCount: number;
  run(sentence: string, options?: RunOptions): Run;
  delete(): void;
}

export class TrainedModel {
  readonly config: ModelConfig;
  readonly parameterCount: number;
  analyze(sentence: string, options?: AnalysisOptions): Analysis;
  /** analyze() with every matrix a view into one Float32Array */
  analyzePacked(sentence: string, options?: AnalysisOptions): Analysis;
  generate(prompt: string, maxNewWords?: number): { tokens: string[]; [key: string]: unknown };
  generateSteps(prompt: string, maxNewWords?: number, useCache?: boolean): Record<string, unknown>;
  generateCached(prompt: string, maxNewWords?: number): { tokens: string[]; [key: string]: unknown };
  vocabularyWords(): string[];
  nearestWords(word: string, k?: number, maxDistance?: number): Array<{ word: string; distance: number }>;
  encodeWords(sentence: string): { tokens: string[]; unknown: number[] };
  /** analyze()'s answer bit for bit, without the trace: the next (or masked) word's distribution */
  probabilities(sentence: string, options?: ProbabilityOptions): Probabilities;
  /** the index of `word` in probabilities(), or −1 for a word the vocabulary lacks */
  wordId(word: string): number;
  delete(): void;
}

/** analyze()'s options that change the answer (no topK, no layers). */
export type ProbabilityOptions = Omit<AnalysisOptions, 'topK'>;

/** TrainedModel.probabilities(): the answer over the whole vocabulary. */
export interface Probabilities {
  /** the position answered (the pronoun's, or the last one's next word) */
  position: number;
  /** one per word of the vocabulary, indexed by wordId() */
  probabilities: Float32Array;
  /** the most probable word */
  best: string;
}

/** A token split of GPT-2's byte-level BPE. */
export interface BpeEncoding {
  ids: number[];
  tokens: string[];
}

/** Engine.loadBpeTokenizer(): GPT-2's tokenizer alone. */
export interface BpeTokenizer {
  /** the vocabulary's size */
  readonly size: number;
  encode(text: string): BpeEncoding;
  delete(): void;
}

/** A GPT-2-layout checkpoint's files (docs/own-models.md): texts or Files; weights streamed from a Blob. */
export interface Gpt2Files {
  /** config.json */
  config: string | Blob;
  /** model.safetensors */
  weights: Blob | Uint8Array;
  /** vocab.json */
  vocab: string | Blob;
  /** merges.txt */
  merges: string | Blob;
}

/** analyze()'s options for an opened model; `layers` traces only those layers (the others are null). */
export interface Gpt2AnalysisOptions extends AnalysisOptions {
  layers?: number[];
}

/**
 * A causal language model opened from disk (Engine.openGpt2Model): TrainedModel's interface for
 * what applies, plus the BPE's logits and encode; no word list (nothing is unknown to a byte-level BPE).
 */
export interface Gpt2Model {
  readonly config: ModelConfig & { task: 'next-word'; architecture: 'gpt2'; headDim: number };
  readonly parameterCount: number;
  /** true once delete() ran */
  readonly deleted: boolean;
  analyze(sentence: string, options?: Gpt2AnalysisOptions): Analysis;
  analyzePacked(sentence: string, options?: Gpt2AnalysisOptions): Analysis;
  probabilities(sentence: string, options?: ProbabilityOptions): Probabilities & { bestId: number };
  /** the index into probabilities() of a token as analyze shows it (" it"), or −1 */
  wordId(token: string): number;
  /** every position's next-token logits, n × vocabSize */
  logits(sentence: string): Float32Array;
  encode(sentence: string): BpeEncoding;
  generateSteps(prompt: string, maxNewTokens?: number, useCache?: boolean): Record<string, unknown>;
  generate(prompt: string, maxNewTokens?: number): string[];
  generateCached(prompt: string, maxNewTokens?: number): string[];
  delete(): void;
}

/** Engine.createTrainingSession()'s settings; a missing one takes the task's recipe value. */
export interface TrainingSettings {
  task?: 'coref-encoder' | 'coref-decoder' | 'word-order';
  positional?: Positional;
  seed?: number;
  /** 1 … 20,000 */
  steps?: number;
  /** 1 … 8 */
  heads?: number;
  /** 1 … 4 */
  layers?: number;
  /** 1 … 128 (coreference: even, whole minimal pairs) */
  batch?: number;
  /** 1e-5 … 0.05 */
  learningRate?: number;
  /** For benchmarks: train with the per-example loop that batched rows replaced (the same bits). Default false. */
  perExample?: boolean;
}

/** TrainingSession.step(n): means over the steps that ran (null when none ran: step(0), or after the last). */
export interface TrainingStep {
  step: number;
  ran: number;
  loss: number | null;
  accuracy: number | null;
  learningRate: number | null;
  finished: boolean;
}

/** TrainingSession.snapshot(): the lesson pair's query row in every head. */
export interface TrainingSnapshot {
  step: number;
  /** the head rule's choice (layer and head −1 for word order) and its weights on referent and other */
  head: { layer: number; head: number; referent: number; other: number };
  lesson: Array<{
    text: string;
    tokens: string[];
    query: number;
    referent: number;
    other: number;
    /** nLayers × nHeads × tokens */
    rows: Float32Array;
  }>;
}

/** TrainingSession.exportFiles(): the documented model format, loadable with loadTrainedModel. */
export interface TrainedFiles {
  config: string;
  weights: Uint8Array;
  vocab: string;
  /** metrics.json's text */
  metrics: string;
}

/** The trainer in wasm (Engine.createTrainingSession, full module): what the page's worker runs. */
export class TrainingSession {
  /** the settings resolved (every field set) and the training set's size */
  readonly settings: Required<TrainingSettings> & { trainingExamples: number };
  step(count?: number): TrainingStep;
  /** share of the validation sample right */
  validationAccuracy(): number;
  snapshot(): TrainingSnapshot;
  exportFiles(options?: { dtype?: 'f16' | 'f32'; name?: string }): TrainedFiles;
  delete(): void;
}

/** Operand buffers in wasm memory for timing the kernels (re-read a, b, c after every call). */
export class KernelWorkspace {
  readonly capacity: number;
  readonly a: Float32Array;
  readonly b: Float32Array;
  readonly c: Float32Array;
  fillRandom(seed?: number): void;
  reserveGemm(m: number, n: number, k: number): void;
  gemm(variant: string, m: number, n: number, k: number, transposeB?: boolean): void;
  attentionFused(n: number, d: number, causal?: boolean, window?: number): void;
  attentionTraced(n: number, d: number, causal?: boolean, window?: number): void;
  delete(): void;
}

/** Only from an engine on dist/attention_bench.mjs (the benchmarks' module). */
export class ModelBench {
  analyzeTiming(sentence: string, reps?: number): Record<string, number>;
  trainingThroughput(options?: {
    steps?: number;
    batchSize?: number;
    examples?: number;
    seed?: number;
  }): Record<string, number>;
  delete(): void;
}

/** The builds of the module (web/dist/): the page's, the full one (plus the trainer and the GPT-2 loader) and the benchmarks', each relaxed SIMD or SIMD128. */
export type ModuleBuild = 'relaxed' | 'simd128' | 'full-relaxed' | 'full' | 'bench' | 'bench-relaxed';

/** One decoder step of a translation: the word written and where it looked in the English. */
export interface TranslationStep {
  token: string;
  id: number;
  probability: number;
  /** crossAttention[layer][head][j]: the weight on source word j */
  crossAttention: number[][][];
  /** selfAttention[layer][head][k]: the decoder's causal self-attention over the prefix (k = 0 the start token, k ≥ 1 the words written at steps 0 … k−1) */
  selfAttention: number[][][];
}

export interface Translation {
  /** the English words as the encoder reads them */
  source: string[];
  /** source positions that became [UNK] */
  unknown: number[];
  /** the Chinese words written, without the final [SEP] */
  tokens: string[];
  text: string;
  /** one per word written, the final [SEP] included */
  steps: TranslationStep[];
  head: { layer: number; head: number };
}

/** The files of an encoder–decoder pair directory (web/models/translate-en-zh/). */
export interface TranslationModelFiles {
  pair: string;
  encoder: ModelFiles;
  decoder: ModelFiles;
}

/** A trained encoder–decoder (English → Chinese), on the full module. */
export class TranslationModel {
  /** the cross-attention head chosen on validation */
  readonly head: { layer: number; head: number };
  /** pair.json */
  readonly metadata: Record<string, unknown>;
  translate(text: string): Translation;
  delete(): void;
}

export class Engine {
  /** whether the module was built with SIMD128 */
  readonly simd: boolean;
  /** which build runs: its instruction set, its default GEMM kernel, whether it is the full module */
  readonly features: {
    build: 'relaxed' | 'simd128';
    simd: boolean;
    relaxedSimd: boolean;
    fma: boolean;
    gemm: string;
    full: boolean;
  };
  /** The engine on the full module (the trainer, the GPT-2 loader), loaded on first use; this engine if it is the full one. */
  full(): Promise<Engine>;
  tokenize(sentence: string): string[];
  attention(args: AttentionArgs): AttentionTrace;
  createRandomModel(config?: RandomModelConfig): RandomModel;
  loadTrainedModel(files: ModelFiles): TrainedModel;
  fetchTrainedModel(
    baseUrl: string | URL,
    fetchImpl?: typeof fetch,
    options?: FetchModelOptions,
  ): Promise<TrainedModel>;
  /** Full module only (full()). */
  loadTranslationModel(files: TranslationModelFiles): TranslationModel;
  /**
   * A GPT-2-layout checkpoint from disk (docs/own-models.md); the full module is loaded on first
   * use, once the files passed their checks. onProgress follows the weights file.
   */
  openGpt2Model(
    files: Gpt2Files,
    options?: { onProgress?: (progress: { loaded: number; total: number }) => void },
  ): Promise<Gpt2Model>;
  /** GPT-2's tokenizer alone. Full module only (full()). */
  loadBpeTokenizer(files: { vocab: string; merges: string }): BpeTokenizer;
  /** The trainer. Full module only (full()). */
  createTrainingSession(settings?: TrainingSettings): TrainingSession;
  /** Fetches a pair directory (URL ending in '/') and opens it on the full module. */
  openTranslationModel(
    baseUrl: string | URL,
    fetchImpl?: typeof fetch,
    options?: FetchModelOptions,
  ): Promise<TranslationModel>;
  sinusoidalTable(n: number, d: number): Float32Array;
  ropeRotate(vec: ArrayLike<number>, position: number, base?: number | null): Float32Array;
  wordOrderRoles(sentence: string): { agent: string; verb: string; patient: string } | null;
  gemmKernelNames(): string[];
  memoryStats(): { heapBytes: number; brk: number; allocatedBytes: number; stackPointer: number; emvalHandles: number };
  fusedAttentionScratchBytes(m: number, d: number, masked?: boolean): number;
  scalingDemo(demo: {
    d: number;
    keys: number;
    queries: number;
    seed: number;
    scale: boolean;
  }): Record<string, unknown>;
  rowEntropy(weights: ArrayLike<number>): number;
  headSplit(
    dModel: number,
    headDim: number,
  ): {
    dModel: number;
    headDim: number;
    divides: boolean;
    nHeads: number;
    perHead: number;
    allHeads: number;
    outputProjection: number;
    total: number;
  };
  attentionParameterCount(dModel: number, nHeads: number): number;
  attentionScoreScale(dk: number, options?: { scale?: boolean; scoreMultiplier?: number }): number;
  createKernelWorkspace(capacity: number): KernelWorkspace;
  tracedAttentionBytes(n: number, d: number): number;
  createModelBench(files: ModelFiles): ModelBench;
}

/** Options for Emscripten's module factory; in Node pass {wasmBinary} (per build, to let full() load the full module). */
export interface ModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  [key: string]: unknown;
}

/** Loads a new engine (its own wasm instance) on `build` (default: chooseModule()). */
export function loadEngine(
  moduleOptions?: ModuleOptions | ((build: ModuleBuild) => ModuleOptions),
  build?: ModuleBuild,
): Promise<Engine>;
/** The build to load here for a kind of module: relaxed SIMD where the browser runs it. */
export function chooseModule(kind?: 'page' | 'full' | 'bench'): ModuleBuild;
/** Each build's glue and wasm file under web/dist/. */
export const MODULE_FILES: Record<ModuleBuild, { glue: string; wasm: string }>;
/** The packed answer ({tokens, ids, n, trace: {header, data}, …}) → analyze's shape. */
export function unpackAnalysis(packed: unknown): Analysis;
/** A reader of a packed trace {header, data}; refuses another format version (code internal). */
export function readTrace(packed: { header: string | object; data: Float32Array }): TraceReader;
/** The names of the trace format: traceName.head(2, 1, 'weights') = 'layer.2.head.1.weights'. */
export const traceName: {
  head(layer: number, head: number, matrix: string): string;
  layer(layer: number, matrix: string): string;
  stage(layer: number, stage: string): string;
  stageNorm(layer: number, stage: string): string;
};
export const TRACE_FORMAT: string;
export const TRACE_VERSION: number;

/** Download progress in bytes (total: null when the server sends no length). */
export type ProgressListener = (progress: { loaded: number; total: number | null }) => void;
/** The one engine the elements share (loaded on first call); onProgress follows the .wasm's download. */
export function getEngine(onProgress?: ProgressListener | null): Promise<Engine>;
/**
 * One shared copy of a shipped model, fetched from the models base on first use; onProgress follows
 * its weights. `base`: another models/ directory (an element's models-base), cached apart.
 */
export function getTrainedModel(
  name: string,
  onProgress?: ProgressListener | null,
  base?: string | URL | null,
): Promise<TrainedModel>;
/** models/index.json's entries ([] when there is none), of the page's models base or of `base`. */
export function getModelIndex(base?: string | URL | null): Promise<Array<{ name: string; [key: string]: unknown }>>;
/** Where the elements fetch models from (default: the package's web/models/); call before the first load. */
export function setModelsBase(url: string | URL): void;
/** A model that is not fetched (made or opened in the page) under `name`: every <attention-explorer>'s menu lists it as `label`. */
export function addLocalModel(name: string, model: TrainedModel | Promise<TrainedModel>, label: string): void;
/** A trained model from its files, on the shared engine. */
export function loadTrainedModel(files: ModelFiles): Promise<TrainedModel>;
/** A trained model fetched from a directory URL ending in '/', on the shared engine. */
export function fetchTrainedModel(
  baseUrl: string | URL,
  fetchImpl?: typeof fetch,
  options?: FetchModelOptions,
): Promise<TrainedModel>;
/** The three files of a model directory (a URL ending in '/'), fetched without an engine: a page can
 * download a model while its engine compiles, then hand them to loadTrainedModel. */
export function fetchModelFiles(
  baseUrl: string | URL,
  fetchImpl?: typeof fetch,
  options?: FetchModelOptions,
): Promise<ModelFiles>;
/** timeoutMs: give up after it (default 30 000; EngineError code 'timeout'); onProgress follows the
 * weights' download (total: the Content-Length, or null without one). */
export interface FetchModelOptions {
  timeoutMs?: number;
  onProgress?: (progress: { loaded: number; total: number | null }) => void;
}

/** The state the panels share (web/lib/store.mjs). */
export interface StoreState {
  model: string;
  sentence: string;
  layer: number;
  head: number;
  token: number | null;
  causal: boolean;
  scale: boolean;
  lang: 'en' | 'zh';
  panel: string | null;
  result: Analysis | Run | null;
  /** the config of the model that made `result` */
  config: ModelConfig | null;
  /** the models/ directory of the <attention-explorer> that owns the store (its models-base), if not the page's */
  modelsBase?: string | null;
  [key: string]: unknown;
}

export interface Store {
  get(): StoreState;
  set(patch: Partial<StoreState>): void;
  subscribe(listener: (state: StoreState, changed: Set<string>) => void): () => void;
}

export function createStore(initial?: Partial<StoreState>): Store;
