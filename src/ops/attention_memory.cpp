#include "ops/attention_memory.h"

#include <stdexcept>
#include <string>

namespace ae {

size_t attention_trace_bytes(int n, int m, int dv) {
  if (n < 0 || m < 0 || dv < 0)
    throw std::invalid_argument("attention_trace_bytes: sizes must not be negative (n = " + std::to_string(n) +
                                ", m = " + std::to_string(m) + ", dv = " + std::to_string(dv) + ")");
  const size_t nm = static_cast<size_t>(n) * static_cast<size_t>(m);
  // raw_scores, scaled_scores, masked_scores, weights (n×m each) and output (n×dv).
  return (4 * nm + static_cast<size_t>(n) * static_cast<size_t>(dv)) * sizeof(float);
}

}  // namespace ae
