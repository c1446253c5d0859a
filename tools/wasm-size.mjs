// Where the bytes of a wasm module go: each function's code size, from a build that keeps
// function names (CMakeLists.txt's *_names targets, linked with --profiling-funcs: the same
// code as the shipped module plus a name section), summed into groups by name. Prints a
// markdown table: per group the functions, raw bytes, their share of the code, and the group's
// code gzipped on its own (gzip of a part is not additive, but it ranks the parts); then the
// largest functions.
//
//   node tools/wasm-size.mjs FILE.wasm [--top N] [--shipped FILE.wasm]
//   node tools/wasm-size.mjs --doc [--top N]          (npm run size:wasm builds what it reads)
//
// --shipped names the module as shipped (no name section) for its raw and gzipped size.
// --doc rewrites the generated part of docs/wasm-size.md: every shipped module's size, and the
// groups and largest functions of the page's and the full module (build/wasm/*-names.wasm).
// Groups are matched on the demangled names in the order of GROUPS: a function whose name
// mentions a trainer type (std::vector<ae::CorefExample>::…) counts for the trainer.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const GROUPS = [
  [
    'trainer (src/train: corpora, loss, AdamW, TrainingSession, the backward passes, the files it writes)',
    new RegExp(
      [
        String.raw`\bae::(Coref|coref_|chinese_coref|WordOrder(Example|Corpus|Options)|word_order_(?!roles)|make_word_order|make_coref|Corpus|corpus|Trainer\b|Training|train_|AdamW|zero_parameters|StepReport|Session|session_|lesson_examples|cross_entropy|accuracy|dropout|next_epoch|probe_pronoun|LessonRows|evaluate_example|choose_coreference|decoder_text|PronounAttention|AttentionGradients)`,
        String.raw`ae::\(anonymous namespace\)::(build_families|make_example|fill_split|PairSpec|WordOrderKey|HeldOut|Split\b|parameter_list)`,
        String.raw`backward|derivative|write_safetensors|save_weights|float_to_half|config_to_json|Vocabulary::(serialize|from_words)|fnv1a`,
      ].join('|'),
    ),
  ],
  [
    'GPT-2 loader and byte-level BPE (src/io/gpt2, src/text/bpe, Unicode classes)',
    /Gpt2|gpt2|Bpe|bpe_|is_unicode_|ByteBuffer|segment_as_rendered/,
  ],
  ['nlohmann::json (config.json, safetensors headers)', /nlohmann::/],
  [
    'Embind and the bindings (bindings/)',
    /emscripten::|_embind|^\(anonymous namespace\)::|^aejs::|EmscriptenBindingInitializer/,
  ],
  ['Eigen (GEMM fallback, matrix expressions)', /^(void |bool |float |int |long )?Eigen::|Eigen::internal/],
  [
    'kernels (src/ops: GEMM tiles, fused attention, softmax, GELU)',
    /ae::(f32_|simd|gemm|attention_fused|softmax|gelu|layer_norm|GemmArgs|validate_gemm|pack_|find_gemm)|ae::\(anonymous namespace\)::(pack|tile|kernel)/,
  ],
  ['the rest of the core (ae::: models, tokenizer, vocabulary, checkpoints)', /\bae::/],
  ['libc++ (std::)', /std::|__cxxabiv1|__cxa_|typeinfo|type_info/],
  ['libc, malloc, compiler-rt', /./],
];

function leb(bytes, at) {
  let value = 0,
    shift = 0,
    byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function name(bytes, at) {
  const [length, start] = leb(bytes, at);
  return [new TextDecoder().decode(bytes.subarray(start, start + length)), start + length];
}

// {functions: [{index, name, size, body}], sections: {name: bytes}, imported}
export function readModule(bytes) {
  if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error('not a wasm file');
  const SECTION = [
    'custom',
    'type',
    'import',
    'function',
    'table',
    'memory',
    'global',
    'export',
    'start',
    'elem',
    'code',
    'data',
    'datacount',
  ];
  const sections = {};
  const bodies = [];
  const names = new Map();
  let imported = 0;
  for (let at = 8; at < bytes.length;) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    const end = start + size;
    let label = SECTION[id] ?? `section ${id}`;
    if (id === 0) {
      const [custom, next] = name(bytes, start);
      label = `custom "${custom}"`;
      if (custom === 'name') readNames(bytes, next, end, names);
    } else if (id === 2) {
      let [count, p] = leb(bytes, start);
      for (let i = 0; i < count; i++) {
        [, p] = name(bytes, p);
        [, p] = name(bytes, p);
        const kind = bytes[p++];
        if (kind === 0) (imported++, ([, p] = leb(bytes, p)));
        else if (kind === 1) p = limits(bytes, p + 1);
        else if (kind === 2) p = limits(bytes, p);
        else if (kind === 3) p += 2;
        else if (kind === 4) [, p] = leb(bytes, p + 1);
      }
    } else if (id === 10) {
      let [count, p] = leb(bytes, start);
      for (let i = 0; i < count; i++) {
        const [bodySize, bodyStart] = leb(bytes, p);
        bodies.push(bytes.subarray(bodyStart, bodyStart + bodySize));
        p = bodyStart + bodySize;
      }
    }
    sections[label] = (sections[label] ?? 0) + (end - at);
    at = end;
  }
  const functions = bodies.map((body, i) => ({
    index: imported + i,
    name: names.get(imported + i) ?? `func[${imported + i}]`,
    size: body.length,
    body,
  }));
  return { functions, sections, imported, named: names.size > 0 };
}

function limits(bytes, at) {
  const flags = bytes[at];
  let [, p] = leb(bytes, at + 1);
  if (flags & 1) [, p] = leb(bytes, p);
  return p;
}

function readNames(bytes, at, end, names) {
  while (at < end) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    if (id === 1) {
      let [count, p] = leb(bytes, start);
      for (let i = 0; i < count; i++) {
        let index, text;
        [index, p] = leb(bytes, p);
        [text, p] = name(bytes, p);
        names.set(index, text);
      }
    }
    at = start + size;
  }
}

export const groupOf = (functionName) => GROUPS.find(([, pattern]) => pattern.test(functionName))[0];

const kb = (b) => (b / 1000).toFixed(1);
const short = (s, n = 110) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\|/g, '\\|');

export function report(file, { top = 25, shipped = null } = {}) {
  const bytes = readFileSync(file);
  const { functions, sections, named } = readModule(bytes);
  if (!named) throw new Error(`${file} has no name section: give the *-names.wasm build (see docs/wasm-size.md)`);
  const code = functions.reduce((s, f) => s + f.size, 0);
  const groups = new Map(GROUPS.map(([g]) => [g, { count: 0, size: 0, bodies: [] }]));
  for (const f of functions) {
    const g = groups.get(groupOf(f.name));
    (g.count++, (g.size += f.size), g.bodies.push(f.body));
  }
  const out = [];
  const shippedBytes = shipped ? readFileSync(shipped) : null;
  out.push(
    `**${path.basename(shipped ?? file)}**` +
      (shippedBytes
        ? `: ${kb(shippedBytes.length)} KB, ${kb(gzipSync(shippedBytes, { level: 9 }).length)} KB gzipped;`
        : ':') +
      ` code ${kb(code)} KB in ${functions.length} functions, data ${kb(sections.data ?? 0)} KB` +
      ` (${kb(gzipSync(bytes.subarray(0), { level: 9 }).length)} KB gzipped with names)`,
  );
  out.push('');
  out.push('| group | functions | code KB | share | gz alone KB |');
  out.push('| --- | ---: | ---: | ---: | ---: |');
  for (const [g, { count, size, bodies }] of [...groups].sort((a, b) => b[1].size - a[1].size)) {
    if (!count) continue;
    const gz = gzipSync(Buffer.concat(bodies), { level: 9 }).length;
    out.push(`| ${g} | ${count} | ${kb(size)} | ${((100 * size) / code).toFixed(1)} % | ${kb(gz)} |`);
  }
  out.push('');
  out.push(`Largest ${top} functions:`);
  out.push('');
  out.push('| bytes | function | group |');
  out.push('| ---: | --- | --- |');
  for (const f of [...functions].sort((a, b) => b.size - a.size).slice(0, top))
    out.push(`| ${f.size} | \`${short(f.name)}\` | ${groupOf(f.name).split(' (')[0]} |`);
  return out.join('\n');
}

// --- docs/wasm-size.md: its generated part ----------------------------------------------------
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const START = '<!-- npm run size:wasm: start -->';
const END = '<!-- npm run size:wasm: end -->';
// The files of each build in web/dist and, for the two SIMD128 modules, their twins with names.
const SHIPPED = [
  ["the page's module, relaxed SIMD (Chromium ≥ 114)", 'attention-relaxed'],
  ["the page's module, SIMD128", 'attention'],
  ['the full module, relaxed SIMD', 'attention-full-relaxed'],
  ['the full module, SIMD128', 'attention-full'],
];
const NAMED = [
  ["the page's module (attention.wasm)", 'attention-names.wasm', 'attention.wasm'],
  ['the full module (attention-full.wasm)', 'attention-full-names.wasm', 'attention-full.wasm'],
];

function generated(top) {
  const out = [];
  const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
  const raw = (file) => readFileSync(file).length;
  const dist = (f) => path.join(root, 'web/dist', f);
  out.push(
    `Generated by \`npm run size:wasm\` (\`node tools/wasm-size.mjs --doc\`) on ${new Date().toISOString().slice(0, 10)}; gzip -9. Do not edit by hand: run it again.`,
  );
  out.push('');
  out.push('| module | wasm KB | wasm gz KB | glue KB | glue gz KB | wasm + glue gz KB |');
  out.push('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [label, name] of SHIPPED) {
    const wasm = dist(`${name}.wasm`),
      glue = dist(`${name}.mjs`);
    out.push(
      `| ${label}: \`${name}.wasm\` | ${kb(raw(wasm))} | ${kb(gz(wasm))} | ${kb(raw(glue))} | ${kb(gz(glue))} | ${kb(gz(wasm) + gz(glue))} |`,
    );
  }
  for (const [label, named, shipped] of NAMED) {
    out.push('');
    out.push(`### ${label}`);
    out.push('');
    out.push(report(path.join(root, 'build/wasm', named), { top, shipped: dist(shipped) }));
  }
  return out.join('\n');
}

function writeDoc(file, top) {
  const text = readFileSync(file, 'utf8');
  const [before, rest] = text.split(START);
  if (rest === undefined || !rest.includes(END)) throw new Error(`${file}: the markers ${START} … ${END} are missing`);
  const after = rest.slice(rest.indexOf(END));
  writeFileSync(file, `${before}${START}\n${generated(top)}\n${after}`);
  console.log(`${path.relative(root, file)}: rewrote its generated part`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : null);
  const top = Number(option('--top') ?? 25);
  if (args.includes('--doc')) {
    writeDoc(path.join(root, 'docs/wasm-size.md'), Number(option('--top') ?? 20));
  } else {
    const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
    if (!file) {
      console.error('usage: node tools/wasm-size.mjs FILE.wasm [--top N] [--shipped FILE.wasm] | --doc [--top N]');
      process.exit(2);
    }
    console.log(report(file, { top, shipped: option('--shipped') }));
  }
}
