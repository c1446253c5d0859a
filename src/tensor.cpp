#include "tensor.h"

#include <cstdint>
#include <cstring>

namespace ae {

std::string shape_string(const Matrix& m) { return std::to_string(m.rows()) + "×" + std::to_string(m.cols()); }

// A float is NaN or ±∞ exactly when its exponent bits are all ones. One branch-free pass that
// the compiler vectorises: Eigen's allFinite (x − x == x − x) was about 1.4 % of a training
// step, which checks every head's Q, K and V.
bool all_finite(const Matrix& m) {
  const float* data = m.data();
  const Eigen::Index size = m.size();
  uint32_t any_special = 0;
  for (Eigen::Index i = 0; i < size; ++i) {
    uint32_t bits;
    std::memcpy(&bits, data + i, sizeof bits);
    any_special |= static_cast<uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
  }
  return any_special == 0;
}

}  // namespace ae
