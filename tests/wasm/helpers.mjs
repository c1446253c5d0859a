// Shared set-up for the wasm tests: the engine loaded in Node, and fixtures produced by the
// native build (build/native/make_fixtures), so that both builds are compared on the same inputs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { MODULE_FILES, chooseModule, loadEngine } from '../../web/lib/engine.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The build this Node picks, as the page does: 'relaxed' under --experimental-wasm-relaxed-simd,
// else 'simd128' (tests/wasm/modules.test.mjs runs the tests under both).
export const build = chooseModule();
export const modulePath = (b) => path.join(root, 'web/dist', MODULE_FILES[b].wasm);
export const wasmPath = modulePath(build);

// Node's fetch cannot read file: URLs, so the module gets its bytes directly (TOOLCHAIN §2):
// moduleOptions as a function of the build, so that engine.full() can load the full module too.
export const nodeModuleOptions = (b) => ({ wasmBinary: readFileSync(modulePath(b)) });
export function loadNodeEngine(b = build) {
  return loadEngine(nodeModuleOptions, b);
}

// The full module of this Node's instruction set (the page's plus the trainer and the GPT-2 loader).
export const fullBuild = chooseModule('full');
export function loadNodeFullEngine() {
  return loadNodeEngine(fullBuild);
}

// The benchmarks' module (attention_bench): the full module's API plus createModelBench.
export function loadNodeBenchEngine() {
  return loadNodeEngine('bench');
}

// The three files of a model directory as loadTrainedModel takes them.
export function modelFiles(dir) {
  return {
    config: readFileSync(path.join(dir, 'config.json'), 'utf8'),
    weights: new Uint8Array(readFileSync(path.join(dir, 'model.safetensors'))),
    vocab: readFileSync(path.join(dir, 'vocab.txt'), 'utf8'),
  };
}

const FIXTURE_VERSION = 2;

// make_fixtures' output: `command` runs the tool and writes `name`.json under build/fixtures.
function readFixtures(name, command, args) {
  const out = path.join(root, `build/fixtures/${name}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  execFileSync(command, [...args, out]);
  const fixtures = JSON.parse(readFileSync(out, 'utf8'));
  if (fixtures.version !== FIXTURE_VERSION)
    throw new Error(
      `fixtures are version ${fixtures.version}, tests expect ${FIXTURE_VERSION}: rebuild (npm run build)`,
    );
  return fixtures;
}

export const nativeFixtures = () => readFixtures('native', path.join(root, 'build/native/make_fixtures'), []);
// The same tool compiled to wasm (build/wasm/make_fixtures.cjs): for what the page's module does
// not expose, a training step's gradients.
export const wasmFixtures = () =>
  readFixtures('wasm', process.execPath, ['--no-experimental-fetch', path.join(root, 'build/wasm/make_fixtures.cjs')]);

// Largest |actual − expected| relative to (atol + rtol·|expected|); ≤ 1 means "agrees".
// Expected null stands for −∞ (JSON has no infinities) and must match exactly.
export function compareArrays(actual, expected, { atol, rtol }) {
  if (actual.length !== expected.length) return { ok: false, detail: `length ${actual.length} ≠ ${expected.length}` };
  let worst = { ratio: 0, index: -1 };
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e === null) {
      if (a !== -Infinity) return { ok: false, detail: `[${i}] is ${a}, native has −∞` };
      continue;
    }
    const ratio = Math.abs(a - e) / (atol + rtol * Math.abs(e));
    if (!(ratio <= worst.ratio)) worst = { ratio, index: i, a, e };
  }
  const ok = worst.ratio <= 1;
  return { ok, maxRatio: worst.ratio, detail: ok ? '' : `[${worst.index}] wasm ${worst.a} vs native ${worst.e}` };
}

// The files of a shipped model (web/models/<name>), as loadTrainedModel takes them.
export const shippedModel = (name) => modelFiles(path.join(root, 'web/models', name));

// The shipped models by name, loaded in `engine` (the caller deletes them).
export const loadShippedModels = (engine, names) =>
  Object.fromEntries(names.map((name) => [name, engine.loadTrainedModel(shippedModel(name))]));

// A shipped model's config.json, parsed: tests take shapes (max_len, vocab_size, layers, heads)
// from it rather than typing them, so they follow a retrained model.
export const shippedConfig = (name) =>
  JSON.parse(readFileSync(path.join(root, 'web/models', name, 'config.json'), 'utf8'));
