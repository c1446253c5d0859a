#include "io/quantize.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ae {

Quantized quantize_symmetric(const float* values, int64_t rows, int64_t cols, ScaleAxis axis, int levels) {
  if (levels < 1 || levels > 127)
    throw std::invalid_argument("quantize: levels must be in 1 … 127, got " + std::to_string(levels));
  if (rows < 0 || cols < 0) throw std::invalid_argument("quantize: negative shape");
  const bool per_row = axis == ScaleAxis::Rows;
  Quantized out;
  out.q.resize(static_cast<size_t>(rows * cols));
  out.scale.assign(static_cast<size_t>(per_row ? rows : cols), 0.0f);
  const auto at = [cols](int64_t r, int64_t c) { return static_cast<size_t>(r * cols + c); };
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      float& s = out.scale[static_cast<size_t>(per_row ? r : c)];
      s = std::max(s, std::fabs(values[at(r, c)]));  // the row's (column's) largest magnitude
    }
  for (float& s : out.scale) s /= static_cast<float>(levels);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const float s = out.scale[static_cast<size_t>(per_row ? r : c)];
      // nearbyint rounds half to even under the default rounding mode; the clamp only guards
      // the absmax element against a division that lands a hair above ±levels.
      const float q = s == 0.0f ? 0.0f : std::nearbyint(values[at(r, c)] / s);
      out.q[at(r, c)] = std::clamp(q, static_cast<float>(-levels), static_cast<float>(levels));
    }
  return out;
}

void dequantize_symmetric(const float* q, const float* scale, int64_t rows, int64_t cols, ScaleAxis axis, float* out) {
  const bool per_row = axis == ScaleAxis::Rows;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const size_t i = static_cast<size_t>(r * cols + c);
      out[i] = q[i] * scale[static_cast<size_t>(per_row ? r : c)];
    }
}

}  // namespace ae
