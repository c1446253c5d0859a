// The safetensors file format (https://github.com/huggingface/safetensors), dtypes F32, F16 and I8.
//
//   bytes [0, 8)      : N, the header length, unsigned 64-bit little-endian
//   bytes [8, 8+N)    : UTF-8 JSON object, padded with spaces to a multiple of 8 bytes:
//                       {"__metadata__": {"key": "value", ...},
//                        "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...}
//   bytes [8+N, end)  : the data buffer; offsets are relative to its start, every byte belongs
//                       to exactly one tensor, values are little-endian and row-major (C order).
//
// Writer and reader take and give bytes in memory (the wasm build has no file system).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

// I8 holds the integers of a quantized tensor (io/quantize.h); what they mean (a scale tensor
// next to them) is the checkpoint's business, not the container's.
enum class DType { F32, F16, I8 };

std::string to_string(DType dtype);  // "F32", "F16", "I8"
size_t dtype_size(DType dtype);      // bytes per element
// Accepts "F32", "F16" and "I8"; throws std::invalid_argument("unsupported dtype BF16 (expected
// F32, F16 or I8)") for anything else.
DType dtype_from_string(const std::string& name);

// One tensor to write. data points at product(shape) floats in row-major order; F16 narrows
// them (round to nearest even) on the way out; I8 requires every value to be an integer in
// −128 … 127 (anything else throws). The data must stay alive during the call.
struct NamedTensor {
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  const float* data = nullptr;
};

// Serialises the tensors the way the reference implementation does: tensors ordered by
// descending dtype size, then by name (so a file with one dtype is ordered by name), with
// contiguous offsets; compact JSON with "__metadata__" first (omitted when empty) and the keys
// of each entry in the order dtype, shape, data_offsets; header padded with spaces to a
// multiple of 8 so that the data buffer starts 8-byte aligned.
// Throws std::invalid_argument for an empty, reserved ("__metadata__") or repeated name, a
// negative dimension, or missing data.
std::string write_safetensors(const std::vector<NamedTensor>& tensors,
                              const std::map<std::string, std::string>& metadata = {});

struct StoredTensor {
  std::vector<int64_t> shape;
  DType dtype = DType::F32;   // as stored in the file
  std::vector<float> values;  // product(shape) values, row-major, widened to f32 (I8: the integers)
};

struct SafetensorsFile {
  std::map<std::string, StoredTensor> tensors;
  std::map<std::string, std::string> metadata;
};

// Parses and checks a whole file. Throws std::invalid_argument("safetensors: …") naming the
// tensor and the rule for: a file shorter than 8 bytes, a header length beyond the file or
// above 100 MB, a header that is not a JSON object (or not UTF-8), a repeated name, a dtype
// other than F32/F16/I8, a shape that is not a list of non-negative integers, data_offsets that
// are not [begin, end] with begin ≤ end, that lie outside the buffer, or whose size does not
// match dtype and shape, tensors that overlap, and bytes of the buffer that belong to no tensor.
// Unknown keys inside a tensor entry are ignored, as the reference implementation does.
SafetensorsFile parse_safetensors(std::string_view bytes);

// The checked header of a file, without decoding any value: what a loader needs to refuse a
// file before allocating a model for it. `data` views the data buffer inside the bytes given,
// which must stay alive while the index is used.
struct TensorEntry {
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  uint64_t begin = 0, end = 0;  // byte offsets in the data buffer
};

struct SafetensorsIndex {
  std::map<std::string, TensorEntry> tensors;
  std::map<std::string, std::string> metadata;
  std::string_view data;
};

// Every check of parse_safetensors, with the same errors, but no value is decoded.
SafetensorsIndex index_safetensors(std::string_view bytes);

// Widens `count` of one tensor's values, from element `first` on (row-major), to f32 into out
// (an I8 tensor gives its integers);
// count = SIZE_MAX means to the end. Throws std::out_of_range if the range leaves the tensor.
void read_tensor_values(const SafetensorsIndex& index, const TensorEntry& entry, float* out, size_t first = 0,
                        size_t count = SIZE_MAX);

// Product of the dimensions; throws std::invalid_argument if it does not fit in 63 bits.
int64_t element_count(const std::vector<int64_t>& shape);

// "[2,3]" for error messages.
std::string shape_string(const std::vector<int64_t>& shape);

}  // namespace ae
