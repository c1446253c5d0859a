// npm run evaluate (build/native/evaluate) on the committed sentence file
// tests/fixtures/coref-eval.jsonl, for every coreference model in web/models/index.json: the
// categories and counts come from the file, every rate lies in [0, 1], the overall row is the
// sum of the categories, and the unknown words are those the vocabulary lacks. No accuracy of
// today's models is asserted (they are retrained), except the lesson pair on the encoder.
// Also the command-line contract of evaluate and inspect: exit 2 for a bad command line or
// sentence file, exit 1 for a bad model or sentence.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { root } from './helpers.mjs';
import { parseVocab, splitWords } from './reference-forward.mjs';

const modelsDir = path.join(root, 'web/models');
const readLines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const fixture = path.join(root, 'tests/fixtures/coref-eval.jsonl');
const lines = readLines(fixture);
// A model reads the fixture in its own language (config.json "language"; English when absent).
const FIXTURES = { en: fixture, zh: path.join(root, 'tests/fixtures/coref-eval-zh.jsonl') };
const index = JSON.parse(readFileSync(path.join(modelsDir, 'index.json'), 'utf8'));
const corefModels = index.models.filter((m) => m.task === 'coreference' || (m.task === 'next-word' && m.causal));

function run(tool, args) {
  return spawnSync(path.join(root, 'build/native', tool), args, { encoding: 'utf8' });
}

function evaluate(args) {
  const r = run('evaluate', args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const near = (a, b) => Math.abs(a - b) < 1e-9;

test('the fixture has pairs of one category and at least three categories', () => {
  assert.equal(lines.length % 2, 0);
  for (let i = 0; i < lines.length; i += 2)
    assert.equal(lines[i].category, lines[i + 1].category, `lines ${i + 1}, ${i + 2}`);
  assert.ok(new Set(lines.map((l) => l.category)).size >= 3);
  assert.ok(corefModels.length >= 2, 'index.json lists a coreference encoder and decoder');
});

describe('evaluate --json on every coreference model', () => {
  for (const { name, language = 'en' } of corefModels) {
    test(name, () => {
      const dir = path.join(modelsDir, name);
      const lines = readLines(FIXTURES[language]);
      const out = JSON.parse(evaluate(['--model', dir, '--file', FIXTURES[language], '--json']));
      const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));

      const categories = [...new Set(lines.map((l) => l.category))];
      assert.deepEqual(
        out.categories.map((c) => c.category),
        categories,
      );
      for (const c of out.categories) {
        const n = lines.filter((l) => l.category === c.category).length;
        assert.equal(c.n, n, c.category);
        assert.equal(c.pairs, n / 2, c.category);
      }
      for (const c of [...out.categories, out.all]) {
        for (const key of ['accuracy', 'answer_in_sentence', 'mean_on_referent', 'mean_on_other', 'flip_rate'])
          assert.ok(c[key] >= 0 && c[key] <= 1, `${c.category} ${key} = ${c[key]}`);
        assert.ok(c.mean_on_referent + c.mean_on_other <= 1 + 1e-6, `${c.category}: one row's weights sum to 1`);
        assert.ok(near(c.flip_rate, c.flips / c.pairs), `${c.category} flip rate`);
      }
      // The overall row is the categories added up.
      assert.equal(out.all.n, lines.length);
      assert.equal(out.all.pairs, lines.length / 2);
      const sum = (f) => out.categories.reduce((s, c) => s + f(c), 0);
      assert.equal(
        out.all.flips,
        sum((c) => c.flips),
      );
      for (const key of ['accuracy', 'answer_in_sentence', 'mean_on_referent', 'mean_on_other'])
        assert.ok(near(out.all[key], sum((c) => c[key] * c.n) / out.all.n), `all ${key}`);

      // The head: config.json's coreference_head (0-based) when present, else chosen from the file.
      if (config.coreference_head) {
        assert.deepEqual(
          [out.head.layer, out.head.head],
          [config.coreference_head.layer, config.coreference_head.head],
        );
        assert.match(out.head.source, /config/);
      } else {
        assert.match(out.head.source, /chosen from this file/);
        assert.ok(
          out.head.layer >= 0 &&
            out.head.layer < config.n_layers &&
            out.head.head >= 0 &&
            out.head.head < config.n_heads,
        );
      }

      // Unknown words: the fixture's words the vocabulary lacks.
      const words = parseVocab(readFileSync(path.join(dir, 'vocab.txt'), 'utf8'));
      const vocab = new Set(words);
      const split = (text) => splitWords(text, new Map(words.map((w, i) => [w, i])));
      const unknown = [...new Set(lines.flatMap((l) => split(l.text)).filter((w) => !vocab.has(w)))].sort();
      assert.deepEqual(out.unknown_words, unknown);
      assert.equal(out.all.with_unknown, lines.filter((l) => split(l.text).some((w) => !vocab.has(w))).length);

      if (config.task === 'coreference') {
        const lesson = out.categories.find((c) => c.category === 'lesson');
        assert.equal(lesson.accuracy, 1, 'the encoder answers the lesson pair');
      }
    });
  }
});

test('evaluate prints an aligned table by default', () => {
  const out = evaluate(['--model', path.join(modelsDir, corefModels[0].name), '--file', fixture])
    .trimEnd()
    .split('\n');
  const table = out.slice(1, 1 + 1 + new Set(lines.map((l) => l.category)).size + 1); // header, categories, all
  assert.match(out[0], /head \d+:\d+/);
  assert.match(table[0], /^category\s+n\s+pairs\s+accuracy/);
  assert.match(table.at(-1), /^all\s/);
  for (const row of table) assert.equal(row.length, table[0].length, `"${row}"`);
});

// coref_split writes a model's own held-out split for evaluate (the per-frame tables of
// docs/models.md): the corpus its metrics.json settings make, so evaluate's overall figures on it
// are the trainer's, and its categories are the split's frames.
test('coref_split writes the split the trainer measured: evaluate gives its metrics.json figures', () => {
  const name = corefModels.find((m) => m.task === 'coreference' && (m.language ?? 'en') === 'en').name;
  const dir = path.join(modelsDir, name);
  const { shipped } = JSON.parse(readFileSync(path.join(dir, 'metrics.json'), 'utf8'));
  const split = 'heldout_templates';
  const written = run('coref_split', ['--model', dir, '--split', split]);
  assert.equal(written.status, 0, written.stderr);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'coref-split-')), `${split}.jsonl`);
  writeFileSync(file, written.stdout);
  const rows = readLines(file);
  assert.equal(rows.length, shipped.splits[split].examples);
  for (const row of rows) assert.match(row.category, /^[a-z]+:\d+( polarity pair| both flipped)?$/);
  const out = JSON.parse(evaluate(['--model', dir, '--file', file, '--json']));
  assert.ok(
    near(out.all.accuracy, shipped.splits[split].accuracy),
    `${out.all.accuracy} vs ${shipped.splits[split].accuracy}`,
  );
  assert.ok(near(out.all.flip_rate, shipped.splits[split].flip_rate), 'flip rate');

  const bad = run('coref_split', ['--model', dir, '--split', 'heldout_nothing']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /no split "heldout_nothing"/);
  assert.equal(run('coref_split', ['--model', path.join(modelsDir, 'no-such-model'), '--split', split]).status, 2);
  assert.equal(run('coref_split', ['--split', split]).status, 2);
});

describe('command-line errors', () => {
  const encoder = path.join(modelsDir, corefModels.find((m) => m.task === 'coreference').name);
  const otherTask = path.join(modelsDir, index.models.find((m) => !corefModels.includes(m)).name);
  const scratch = mkdtempSync(path.join(tmpdir(), 'evaluate-'));
  const file = (name, text) => {
    const p = path.join(scratch, name);
    writeFileSync(p, text);
    return p;
  };
  const cases = [
    ['no arguments', 'evaluate', [], 2, /--model is required[\s\S]*usage/],
    ['no --file', 'evaluate', ['--model', encoder], 2, /--file is required/],
    ['unknown option', 'evaluate', ['--model', encoder, '--file', fixture, '--csv'], 2, /unknown option --csv/],
    [
      'a line without "it"',
      'evaluate',
      [
        '--model',
        encoder,
        '--file',
        file(
          'no-it.jsonl',
          `${JSON.stringify(lines[0])}\n${JSON.stringify({ ...lines[1], text: 'The street was wide.' })}\n`,
        ),
      ],
      2,
      /line 2: .*no "it"/,
    ],
    [
      'a referent not in the sentence',
      'evaluate',
      ['--model', encoder, '--file', file('referent.jsonl', JSON.stringify({ ...lines[0], referent: 'zebra' }))],
      2,
      /line 1: .*"zebra" is not a word of the sentence/,
    ],
    [
      'a line that is not JSON',
      'evaluate',
      ['--model', encoder, '--file', file('bad.jsonl', '{"text": ')],
      2,
      /line 1: not JSON/,
    ],
    [
      'a missing field',
      'evaluate',
      ['--model', encoder, '--file', file('field.jsonl', '{"text": "it"}')],
      2,
      /line 1: .*"referent"/,
    ],
    ['a missing model', 'evaluate', ['--model', path.join(scratch, 'none'), '--file', fixture], 1, /cannot read/],
    ['a model of another task', 'evaluate', ['--model', otherTask, '--file', fixture], 1, /has task "(?!coreference)/],
    ['inspect without --text', 'inspect', ['--model', encoder], 2, /--text is required/],
    ['inspect with an empty sentence', 'inspect', ['--model', encoder, '--text', ''], 1, /empty/],
    [
      'inspect with a fractional --top',
      'inspect',
      ['--model', encoder, '--text', 'it', '--top', '1.5'],
      2,
      /--top expects a whole number, got "1.5"/,
    ],
    [
      'inspect with --ablate missing its head',
      'inspect',
      ['--model', encoder, '--text', 'it', '--ablate', '1:'],
      2,
      /--ablate expects a whole number/,
    ],
    ['inspect with a flag lacking its value', 'inspect', ['--model'], 2, /--model needs a value/],
    [
      'train with --seeds abc (was silently 1)',
      'train',
      ['--seeds', 'abc'],
      2,
      /seeds must be a number in \[1, 1000\]/,
    ],
    ['train with an unknown --set key', 'train', ['--set', 'width=3'], 2, /unknown key "width"/],
    ['train with a model it does not know', 'train', ['--only', 'gpt'], 2, /--only takes coref-encoder/],
    ['corpus_stats with a seed that is not a number', 'corpus_stats', ['12x'], 2, /SEED expects a whole number/],
  ];
  for (const [what, tool, args, status, message] of cases) {
    test(`${tool}: ${what} → exit ${status}`, () => {
      const r = run(tool, args);
      assert.equal(r.status, status, r.stderr);
      assert.match(r.stderr, message);
    });
  }
});
