#!/usr/bin/env node
// Plants realistic one-line bugs in the core, one at a time, in a scratch copy of the committed
// tree (git archive HEAD, its own native build directory), runs the smallest set of native tests
// that should catch each (a ctest -R subset) and prints caught / survived. A bug that survives its
// subset is run against the whole native suite too, to tell "caught elsewhere" from "survives".
// Not part of npm test: a full native build plus one rebuild per bug (docs/planted-bugs.md).
//   node tools/planted-bugs.mjs [--scratch DIR] [--jobs N] [--markdown] [--only I,J,…]
// (--only: the bugs of those indices in BUGS, from 0)
// The scratch copy is kept (an incremental second run is quick); delete it when done.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Each bug: the file, its exact text (found exactly once), the planted text, and the tests that
// should catch it (a ctest -R regular expression over the doctest case names).
export const BUGS = [
  {
    name: 'softmax backward summed over the wrong axis',
    file: 'src/ops/attention.cpp',
    from: '(d_weights.array() * p.array()).rowwise().sum();',
    to: '(d_weights.array() * p.array()).colwise().sum();',
    tests: '^gradient: attention',
  },
  {
    name: 'causal mask off by one (a query sees the next key)',
    file: 'src/ops/attention.cpp',
    from: 'if (causal && key > query_pos) return false;',
    to: 'if (causal && key > query_pos + 1) return false;',
    tests: 'causal',
  },
  {
    name: 'scores ÷√d_model instead of ÷√d_head',
    file: 'src/model/layers.cpp',
    from: 'Matrix q = q_all.middleCols(col, head_dim);',
    to: 'Matrix q = q_all.middleCols(col, head_dim) * std::sqrt(static_cast<float>(head_dim) / q_all.cols());',
    tests: '^multi-head self-attention matches',
  },
  {
    name: 'LayerNorm without subtracting the mean',
    file: 'src/ops/norm.cpp',
    from: 'y.row(r) = ((x.row(r).array() - mean) * rstd',
    to: 'y.row(r) = ((x.row(r).array()) * rstd',
    tests: '^layer_norm',
  },
  {
    name: 'KV cache rotates the new keys at position 0',
    file: 'src/model/kv_cache.cpp',
    from: 'rope->rotate(k, first);',
    to: 'rope->rotate(k, 0);',
    tests: '^KV cache',
  },
  {
    name: 'RoPE rotates the wrong way (sign of sin)',
    file: 'src/model/positional.cpp',
    from: 'const float si = s[i] * sign;',
    to: 'const float si = -s[i] * sign;',
    tests: 'RoPE|RopeTable|rope',
  },
  {
    name: 'safetensors bounds check lets data_offsets end past the buffer',
    file: 'src/io/safetensors.cpp',
    from: 'if (e.end > buffer_size)',
    to: 'if (e.end > buffer_size + 8)',
    tests: '^safetensors',
  },
  {
    name: 'I8 quantization with one scale per tensor instead of per row',
    file: 'src/io/quantize.cpp',
    from: 'for (float& s : out.scale) s /= static_cast<float>(levels);',
    to:
      'const float tensor_max = out.scale.empty() ? 0.0f : *std::max_element(out.scale.begin(), out.scale.end());' +
      ' for (float& s : out.scale) s = tensor_max / static_cast<float>(levels);',
    tests: '^quantize|I8',
  },
  {
    name: 'unknown words encoded as [PAD] instead of [UNK]',
    file: 'src/text/vocabulary.cpp',
    from: 'return it == ids_.end() ? kUnk : it->second;',
    to: 'return it == ids_.end() ? kPad : it->second;',
    tests: '^encode|unknown',
  },
  {
    name: 'AdamW second-moment bias correction with β₁ instead of β₂',
    file: 'src/train/optimizer.cpp',
    from: 'const float bias2 = 1.0f - std::pow(options_.beta2, static_cast<float>(step_));',
    to: 'const float bias2 = 1.0f - std::pow(options_.beta1, static_cast<float>(step_));',
    tests: 'AdamW|Trainer::step',
  },
  {
    name: 'AdamW without the first-moment bias correction',
    file: 'src/train/optimizer.cpp',
    from: 'lr * (first_moment_[i].array() / bias1)',
    to: 'lr * (first_moment_[i].array())',
    tests: 'AdamW|Trainer::step',
  },
];

function parseArgs(argv) {
  const out = { scratch: path.join(os.tmpdir(), 'ae-planted-bugs'), jobs: 2, markdown: false, only: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--scratch') out.scratch = path.resolve(argv[++i]);
    else if (argv[i] === '--jobs') out.jobs = Number(argv[++i]);
    else if (argv[i] === '--markdown') out.markdown = true;
    else if (argv[i] === '--only') out.only = new Set(argv[++i].split(',').map(Number));
    else throw new Error(`planted-bugs: unknown argument ${argv[i]}`);
  }
  return out;
}

const run = (cmd, args, cwd) => spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });

// A fresh copy of HEAD's files in `scratch` (its build directory kept), configured.
function prepare(scratch) {
  fs.mkdirSync(scratch, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', 'HEAD'], { cwd: repo, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', scratch], { input: archive });
  const build = path.join(scratch, 'build/native');
  if (!fs.existsSync(path.join(build, 'CMakeCache.txt')))
    execFileSync('cmake', ['-S', scratch, '-B', build, '-DCMAKE_BUILD_TYPE=Release'], { stdio: 'ignore' });
  return build;
}

const buildTests = (build, jobs) =>
  run('nice', ['-n', '10', 'cmake', '--build', build, '--target', 'native_tests', `-j${jobs}`]);
const ctest = (build, regex) => run('ctest', ['--test-dir', build, ...(regex ? ['-R', regex] : [])]);
const testCount = (output) => Number(/tests passed, \d+ tests failed out of (\d+)/.exec(output)?.[1] ?? 0);

// Plants `bug`, builds, runs its tests (and, if they pass, the whole suite); restores the file.
function trial(scratch, build, jobs, bug) {
  const file = path.join(scratch, bug.file);
  const original = fs.readFileSync(file, 'utf8');
  const count = original.split(bug.from).length - 1;
  if (count !== 1) return { ...bug, verdict: `not planted (${count} matches)` };
  fs.writeFileSync(file, original.replace(bug.from, bug.to));
  try {
    const built = buildTests(build, jobs);
    if (built.status !== 0) return { ...bug, verdict: 'did not compile' };
    const subset = ctest(build, bug.tests);
    const ran = testCount(subset.stdout);
    if (ran === 0) return { ...bug, verdict: 'no test matched' };
    if (subset.status !== 0) return { ...bug, ran, verdict: 'caught' };
    const all = ctest(build, null);
    return { ...bug, ran, verdict: all.status !== 0 ? 'caught only outside its subset' : 'survived' };
  } finally {
    fs.writeFileSync(file, original);
  }
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const build = prepare(o.scratch);
  const clean = buildTests(build, o.jobs);
  if (clean.status !== 0) throw new Error(`planted-bugs: the unmodified tree does not build:\n${clean.stderr}`);
  if (ctest(build, null).status !== 0) throw new Error('planted-bugs: the unmodified tree fails its native tests');
  const rows = [];
  for (const bug of BUGS.filter((_, i) => !o.only || o.only.has(i))) {
    const t0 = Date.now();
    const r = trial(o.scratch, build, o.jobs, bug);
    r.seconds = Math.round((Date.now() - t0) / 1000);
    rows.push(r);
    console.error(`${r.verdict.padEnd(30)} ${bug.name} (${r.seconds} s)`);
  }
  buildTests(build, o.jobs); // leave the scratch build matching its sources
  const caught = rows.filter((r) => r.verdict === 'caught').length;
  if (o.markdown) {
    console.log(
      `Commit ${commit}, ${new Date().toISOString().slice(0, 10)}: **${caught} of ${rows.length} caught** by their subset.\n`,
    );
    console.log('| bug | file | tests run (`ctest -R`) | verdict |');
    console.log('| --- | --- | --- | --- |');
    for (const r of rows)
      console.log(
        `| ${r.name} | \`${r.file}\` | \`${r.tests.replaceAll('|', '\\|')}\` (${r.ran ?? 0}) | ${r.verdict} |`,
      );
  } else {
    for (const r of rows)
      console.log(`${r.verdict.padEnd(30)} ${r.name}  [${r.file}; ctest -R '${r.tests}': ${r.ran ?? 0} tests]`);
    console.log(`${caught} of ${rows.length} caught`);
  }
  process.exitCode = caught === rows.length ? 0 : 1;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
