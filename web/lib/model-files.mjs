// A model directory in the documented format (docs/model-format.md) as files the reader picked
// or dropped, and back: File objects → loadTrainedModel's {config, weights, vocab}, and those
// (plus metrics.json) → files to download. The files are matched by name, so a browser's
// renamed download ("config (1).json") still counts; loading itself — and every check of the
// contents, with the shipped loader's messages — is engine.loadTrainedModel's.
import { EngineError } from './contract.mjs';

const ROLES = [
  { role: 'config', name: 'config.json', test: (n) => /^config\b.*\.json$/i.test(n) },
  { role: 'weights', name: 'model.safetensors', test: (n) => /\.safetensors$/i.test(n) },
  { role: 'vocab', name: 'vocab.txt', test: (n) => /^vocab\b.*\.txt$/i.test(n) },
];

// files: a FileList or array of File. Throws an EngineError 'bad-model' naming the missing file.
export async function readModelFiles(files) {
  const list = [...files];
  const found = Object.fromEntries(ROLES.map(({ role, test }) => [role, list.find((f) => test(f.name))]));
  const missing = ROLES.filter(({ role }) => !found[role]).map(({ name }) => name);
  if (missing.length)
    throw new EngineError(
      `loadModelFiles: ${missing.join(', ')} missing; choose the files config.json, ` +
        'model.safetensors and vocab.txt of one model together',
      'bad-model',
      { call: 'loadModelFiles', missing },
    );
  const [config, weights, vocab] = await Promise.all([
    found.config.text(),
    found.weights.arrayBuffer(),
    found.vocab.text(),
  ]);
  return { config, weights: new Uint8Array(weights), vocab };
}

// {config, weights, vocab, metrics} (TrainingSession.exportFiles) → [{name, blob}] to download.
export function modelDownloads({ config, weights, vocab, metrics }) {
  return [
    { name: 'config.json', blob: new Blob([config], { type: 'application/json' }) },
    { name: 'model.safetensors', blob: new Blob([weights], { type: 'application/octet-stream' }) },
    { name: 'vocab.txt', blob: new Blob([vocab], { type: 'text/plain' }) },
    { name: 'metrics.json', blob: new Blob([metrics], { type: 'application/json' }) },
  ];
}
