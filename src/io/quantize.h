// Symmetric integer quantization of a [rows, cols] row-major matrix, one F32 scale per row or
// per column (docs/model-format.md, "Quantized tensors"):
//
//   value[r, c] ≈ q[r, c] · scale[r]   (per row)      or   q[r, c] · scale[c]   (per column)
//
// with q an integer in −levels … levels and scale = absmax / levels over the row (or column): the
// largest magnitude maps to ±levels exactly. levels = 127 uses all of int8; fewer levels keep
// the same I8 container but leave gzip fewer distinct bytes to code (15 levels on each side cost
// about 5 bits per weight once compressed). Dequantizing is one float multiplication per value,
// so every build (native, wasm) gets the same bits.
#pragma once

#include <cstdint>
#include <vector>

namespace ae {

enum class ScaleAxis { Rows, Columns };

struct Quantized {
  std::vector<float> q;      // rows·cols integers in −levels … levels (floats: NamedTensor's I8 takes them)
  std::vector<float> scale;  // rows (ScaleAxis::Rows) or cols (ScaleAxis::Columns) scales, ≥ 0
};

// levels in 1 … 127. An all-zero row (column) gets scale 0 and q 0. Values must be finite.
Quantized quantize_symmetric(const float* values, int64_t rows, int64_t cols, ScaleAxis axis, int levels);

// out[r·cols + c] = q[r·cols + c] · scale[r or c], in float.
void dequantize_symmetric(const float* q, const float* scale, int64_t rows, int64_t cols, ScaleAxis axis, float* out);

}  // namespace ae
