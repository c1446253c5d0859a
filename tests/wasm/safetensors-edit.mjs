// Takes a safetensors file apart and puts it back together, so that tests can build hostile
// model files from a shipped one (a scale removed, a NaN scale, a wrong shape, an unknown dtype)
// while the container itself stays valid. Used by tests/wasm/errors.test.mjs and
// tests/fuzz/make-regressions.mjs.

// bytes → {metadata, tensors: {name: {dtype, shape, data: Uint8Array}}} in the file's header order.
export function splitSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const base = 8 + headerLength;
  const { __metadata__: metadata, ...entries } = header;
  const tensors = {};
  for (const [
    name,
    {
      dtype,
      shape,
      data_offsets: [begin, end],
    },
  ] of Object.entries(entries))
    tensors[name] = { dtype, shape, data: bytes.slice(base + begin, base + end) };
  return { metadata, tensors };
}

// The inverse: tensors placed one after another in the order given, the header padded with
// spaces to a multiple of 8. Nothing is checked: a test may write a dtype or shape that does
// not match its bytes on purpose.
export function joinSafetensors({ metadata, tensors }) {
  const header = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const [name, { dtype, shape, data }] of Object.entries(tensors)) {
    header[name] = { dtype, shape, data_offsets: [offset, offset + data.length] };
    offset += data.length;
  }
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (Buffer.byteLength(text) % 8)) % 8);
  const headerBytes = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const { data } of Object.values(tensors)) {
    out.set(data, at);
    at += data.length;
  }
  return out;
}

// A copy of the file with `edit(parts)` applied to its parts.
export function editSafetensors(bytes, edit) {
  const parts = splitSafetensors(bytes);
  edit(parts);
  return joinSafetensors(parts);
}

// Float32 little-endian bytes of the given numbers.
export function float32Bytes(values) {
  const out = new Uint8Array(4 * values.length);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(4 * i, v, true));
  return out;
}
