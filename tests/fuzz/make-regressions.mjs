// Writes tests/fuzz/regressions/<target>/<case>: inputs that crashed, hung or allocated
// without bound before they were fixed (issue 14's audit and our own fuzzing). Each target
// replays its directory as a ctest in the sanitized build (fuzz_regressions_<target>) and
// fuzzes from it in scripts/fuzz.sh. Run it again after adding a case:
//   node tests/fuzz/make-regressions.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { editSafetensors, float32Bytes } from '../wasm/safetensors-edit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const models = path.join(here, '../../web/models');

// A safetensors file: 8-byte little-endian header length, header, data.
function safetensors(header, data = Buffer.alloc(0)) {
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(header)));
  return Buffer.concat([length, Buffer.from(header), data]);
}

const deep = (n) => '['.repeat(n) + ']'.repeat(n);
const shippedConfig = JSON.parse(fs.readFileSync(path.join(models, 'coref-decoder/config.json'), 'utf8'));
const config = (changes) => JSON.stringify({ ...shippedConfig, ...changes });
const shippedWeights = fs.readFileSync(path.join(models, 'coref-decoder/model.safetensors'));
// The shipped decoder's I8 weights with one rule of docs/model-format.md broken.
const quantized = 'layers.1.self_attn.wq.weight';
const broken = (edit) => Buffer.from(editSafetensors(new Uint8Array(shippedWeights), edit));

const cases = {
  safetensors: {
    // json::dump() of this header in an error message overflowed the stack (SIGSEGV in inspect).
    'deep-header-100000': safetensors(deep(100000)),
    'deep-dtype-100000': safetensors(`{"x":{"dtype":${deep(100000)},"shape":[1],"data_offsets":[0,4]}}`),
    'truncated-shipped-model': shippedWeights.subarray(0, 1000),
    'shape-2-to-the-64': safetensors(
      '{"x":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}',
      Buffer.alloc(4),
    ),
    'huge-header-length': Buffer.concat([
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]),
      Buffer.from('{}'),
    ]),
    'long-dtype-name': safetensors(
      `{"x":{"dtype":"${'B'.repeat(100000)}","shape":[1],"data_offsets":[0,4]}}`,
      Buffer.alloc(4),
    ),
    'number-1e999': safetensors('{"x":{"dtype":"F32","shape":[1e999],"data_offsets":[0,4]}}', Buffer.alloc(4)),
    'quantized-scale-missing': broken((p) => delete p.tensors[`${quantized}_scale`]),
    'quantized-scale-nan': broken((p) => p.tensors[`${quantized}_scale`].data.set(float32Bytes([NaN]), 0)),
    'quantized-scale-huge': broken((p) => p.tensors[`${quantized}_scale`].data.set(float32Bytes([3e38, 3e38]), 0)),
    'quantized-scale-shape-0': broken((p) => {
      p.tensors[`${quantized}_scale`] = { dtype: 'F32', shape: [0, 1], data: new Uint8Array(0) };
    }),
    'quantized-scale-without-tensor': broken((p) => {
      p.tensors.x_scale = { dtype: 'F32', shape: [1], data: float32Bytes([1]) };
    }),
  },
  config: {
    'deep-config-100000': Buffer.from(`{"format":${deep(100000)}}`),
    // 51 GB claimed next to 107 KB of weights: allocated first, then std::bad_alloc.
    'claims-51-GB': Buffer.from(config({ vocab_size: 1 << 20, d_model: 4096, n_layers: 64, d_ff: 16384 })),
    'claims-260-MB': Buffer.from(config({ vocab_size: 1000000, d_model: 64 })),
    'task-is-a-number': Buffer.from(config({ task: 5 })), // json type_error.302 naming no key
    'd-model-1e999': Buffer.from(config({}).replace('"d_model":32', '"d_model":1e999')),
    'not-utf8': Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
  },
  vocabulary: {
    'specials-only': Buffer.from('[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n'),
    'long-line': Buffer.from('[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n' + 'w'.repeat(100000) + '\n'),
    'lone-surrogate': Buffer.from([...Buffer.from('[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n'), 0xed, 0xb0, 0x80, 0x0a]),
    'crlf-and-empty-line': Buffer.from('[PAD]\r\n[UNK]\r\n[CLS]\r\n[SEP]\r\n[MASK]\r\n\r\nword\r\n'),
  },
  tokenizer: {
    'lone-surrogate-then-word': Buffer.from([0xed, 0xb0, 0x80, 0x20, 0x74, 0x69, 0x72, 0x65, 0x64]),
    'overlong-slash': Buffer.from([0xc0, 0xaf]),
    'contractions-and-cjk': Buffer.from("didn't it's 猫追狗 ’s '' ' n't"),
    'truncated-4-byte': Buffer.from([0x61, 0xf0, 0x9f, 0x98]),
  },
  // The first byte chooses the loader (fuzz_gpt2.cpp): 0 config, 1 weights, 2 text, 3 vocab + merges.
  gpt2: {
    'truncated-emoji': Buffer.from([2, 0xf0, 0x9f, 0x98]),
    'spaces-100000': Buffer.concat([Buffer.from([2]), Buffer.from(' '.repeat(100000) + 'x')]), // one piece: O(m log m) BPE
    'vocab-without-bytes': Buffer.from('\x03{"a":0}\n\n#version\nx y z'),
    'claims-gpt2-xl': Buffer.from(
      '\x00' + JSON.stringify({ n_embd: 1600, n_head: 25, n_layer: 48, n_positions: 1024, vocab_size: 50257 }),
    ),
    'weights-of-another-layout': Buffer.concat([
      Buffer.from([1]),
      safetensors('{"model.embed_tokens.weight":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', Buffer.alloc(4)),
    ]),
  },
};

for (const [target, files] of Object.entries(cases)) {
  const dir = path.join(here, 'regressions', target);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), bytes);
}
console.log(`regressions: ${Object.values(cases).reduce((n, f) => n + Object.keys(f).length, 0)} files`);
