// Writes small ONNX models as protobuf bytes, by hand (no Python onnx here): a MatMul, and
// attention composed of standard ops. Only the fields these models use are encoded.
//
//   matmulModel(m, k, n)             Y[m×n] = MatMul(A[m×k], B[k×n])
//   attentionModel(n, d, {causal})   Y[n×d] = MatMul(Softmax(MatMul(Q·s, Transpose(K)) [+ mask]), V)
//     s = 1/√d applied to Q (n·d multiplies instead of n²); the causal mask is built inside
//     the graph — Trilu(ConstantOfShape([n, n], −∞), k = 1, upper) is −∞ above the diagonal
//     and 0 elsewhere — so the model file stays small at any n.
//
// Run as a script it writes one of each to a folder for inspection:
//   node tools/bench/onnx-graph.mjs OUT_DIR
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// --- protobuf wire format -------------------------------------------------------------------
// A message is a list of fields; each field is (number, wire type, payload).
const VARINT = 0,
  LEN = 2;

function varint(value) {
  const out = [];
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n; // int64 negatives are 10-byte two's complement
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const key = (field, wire) => varint((field << 3) | wire);
const int = (field, value) => [...key(field, VARINT), ...varint(value)];
const bytes = (field, payload) => [...key(field, LEN), ...varint(payload.length), ...payload];
const str = (field, s) => bytes(field, [...new TextEncoder().encode(s)]);
const msg = (field, ...parts) => bytes(field, parts.flat());

// --- ONNX messages (field numbers from onnx/onnx.proto) -------------------------------------
const FLOAT = 1; // TensorProto.DataType
const ATTR = { FLOAT: 1, INT: 2, TENSOR: 4, INTS: 7 };

// TensorProto: dims = 1, data_type = 2, float_data = 4 (packed), int64_data = 7, name = 8
function floatTensor(field, name, dims, values) {
  const data = new Uint8Array(new Float32Array(values).buffer);
  return msg(field, ...dims.map((d) => int(1, d)), int(2, FLOAT), bytes(4, [...data]), str(8, name));
}
function int64Tensor(field, name, dims, values) {
  const packed = values.flatMap((v) => varint(v));
  return msg(field, ...dims.map((d) => int(1, d)), int(2, 7), bytes(7, packed), str(8, name));
}

// AttributeProto: name = 1, f = 2, i = 3, t = 5, ints = 8, type = 20
const attrInt = (name, i) => msg(5, str(1, name), int(3, i), int(20, ATTR.INT));
const attrInts = (name, list) => msg(5, str(1, name), ...list.map((i) => int(8, i)), int(20, ATTR.INTS));
const attrTensor = (name, tensor) => msg(5, str(1, name), tensor, int(20, ATTR.TENSOR));

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5
const node = (op, inputs, outputs, ...attributes) =>
  msg(
    1,
    ...inputs.map((s) => str(1, s)),
    ...outputs.map((s) => str(2, s)),
    str(3, `${op}_${outputs[0]}`),
    str(4, op),
    ...attributes,
  );

// ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 { dim_value = 1 } } } } }
const valueInfo = (field, name, dims) =>
  msg(field, str(1, name), msg(2, msg(1, int(1, FLOAT), msg(2, ...dims.map((d) => msg(1, int(1, d)))))));

// ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 { domain = 1, version = 2 }
// GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12
function model({ nodes, initializers = [], inputs, outputs, name }) {
  const graph = msg(7, ...nodes, str(2, name), ...initializers, ...inputs, ...outputs);
  return new Uint8Array([
    ...int(1, 8),
    ...str(2, 'attention-explorer bench'),
    ...graph,
    ...msg(8, str(1, ''), int(2, 17)),
  ]);
}

export function matmulModel(m, k, n) {
  return model({
    name: `matmul_${m}x${k}x${n}`,
    nodes: [node('MatMul', ['A', 'B'], ['Y'])],
    inputs: [valueInfo(11, 'A', [m, k]), valueInfo(11, 'B', [k, n])],
    outputs: [valueInfo(12, 'Y', [m, n])],
  });
}

export function attentionModel(n, d, { causal = false } = {}) {
  const nodes = [
    node('Mul', ['Q', 'scale'], ['Qs']),
    node('Transpose', ['K'], ['Kt'], attrInts('perm', [1, 0])),
    node('MatMul', ['Qs', 'Kt'], ['S']),
  ];
  const initializers = [floatTensor(5, 'scale', [], [1 / Math.sqrt(d)])];
  let scores = 'S';
  if (causal) {
    initializers.push(int64Tensor(5, 'nn', [2], [n, n]), int64Tensor(5, 'one', [], [1]));
    nodes.push(
      node('ConstantOfShape', ['nn'], ['neg_inf'], attrTensor('value', floatTensor(5, 'v', [1], [-Infinity]))),
      node('Trilu', ['neg_inf', 'one'], ['mask'], attrInt('upper', 1)),
      node('Add', ['S', 'mask'], ['S_masked']),
    );
    scores = 'S_masked';
  }
  nodes.push(node('Softmax', [scores], ['P'], attrInt('axis', -1)), node('MatMul', ['P', 'V'], ['Y']));
  return model({
    name: `attention_${n}x${d}${causal ? '_causal' : ''}`,
    nodes,
    initializers,
    inputs: ['Q', 'K', 'V'].map((x) => valueInfo(11, x, [n, d])),
    outputs: [valueInfo(12, 'Y', [n, d])],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'build/bench/onnx';
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'matmul_64.onnx'), matmulModel(64, 64, 64));
  writeFileSync(path.join(dir, 'attention_128_causal.onnx'), attentionModel(128, 64, { causal: true }));
  console.log(`wrote ${dir}/matmul_64.onnx and ${dir}/attention_128_causal.onnx`);
}
