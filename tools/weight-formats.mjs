// What each way of storing the coreference models' weights costs in bytes and in every figure of
// metrics.json: runs build/native/weight_formats (tools/weight_formats.cpp) on each model's F32
// weights, gzips each candidate file as scripts/serve.mjs sends it (zlib's default level), and
// rewrites the "Weight formats" tables of docs/models.md between their markers.
//
//   build/native/train --only coref-decoder --out /tmp/m --f32-copy build/f32-models   (one per model)
//   node tools/weight-formats.mjs [F32_DIR=build/f32-models] [--check]
//
// --check prints the tables without writing the doc.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const f32Dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'build/f32-models'));
const MODELS = ['coref-encoder', 'coref-decoder', 'coref-encoder-zh'];
const SPLITS = [
  ['validation', 'val'],
  ['heldout_templates', 'frames'],
  ['heldout_structures', 'struct.'],
  ['heldout_noun_roles', 'roles'],
  ['heldout_combinations', 'combos'],
];
const BEGIN = '<!-- weight-formats:begin (node tools/weight-formats.mjs) -->';
const END = '<!-- weight-formats:end -->';

const pct = (x) => (100 * x).toFixed(1);
const kb = (bytes) => (bytes / 1000).toFixed(1);

function measure(name, scratch) {
  const out = execFileSync(
    path.join(root, 'build/native/weight_formats'),
    ['--model', path.join(f32Dir, name), '--out', path.join(scratch, name)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 },
  );
  return JSON.parse(out).formats.map((f) => ({ ...f, gzipped: gzipSync(readFileSync(f.file)).length }));
}

function table(name, formats) {
  const rows = [
    `**${name}**`,
    '',
    '| format | KB | KB gzipped | head: referent / other | accuracy: ' +
      SPLITS.map(([, s]) => s).join(' / ') +
      ' | flip rate: ' +
      SPLITS.map(([, s]) => s).join(' / ') +
      ' | in sentence, lowest | lesson pair | criteria |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const f of formats) {
    const h = f.chosen_head;
    const splits = SPLITS.map(([s]) => f.splits[s]);
    const cells = [
      `\`${f.format}\``,
      kb(f.bytes),
      kb(f.gzipped),
      `L${h.layer + 1}H${h.head + 1}: ${h.mean_on_referent.toFixed(4)} / ${h.mean_on_other.toFixed(4)}`,
      splits.map((r) => pct(r.accuracy)).join(' / '),
      splits.map((r) => pct(r.flip_rate)).join(' / '),
      pct(Math.min(...splits.map((r) => r.answer_in_sentence))),
      f.lesson.map((l) => l.weight_on_referent.toFixed(4)).join(' / '),
      f.criteria.all
        ? 'all met'
        : 'not met: ' +
          Object.entries(f.criteria)
            .filter(([k, v]) => k !== 'all' && !v)
            .map(([k]) => k)
            .join(', '),
    ];
    rows.push(`| ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'weight-formats-'));
try {
  const tables = MODELS.map((name) => table(name, measure(name, scratch)));
  const text = tables.join('\n\n');
  if (check) {
    console.log(text);
  } else {
    const docPath = path.join(root, 'docs/models.md');
    const doc = readFileSync(docPath, 'utf8');
    const begin = doc.indexOf(BEGIN),
      end = doc.indexOf(END);
    if (begin < 0 || end < begin) throw new Error(`docs/models.md has no ${BEGIN} … ${END} markers`);
    writeFileSync(docPath, doc.slice(0, begin + BEGIN.length) + '\n' + text + '\n' + doc.slice(end));
    console.log(`docs/models.md: ${MODELS.length} tables written`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
