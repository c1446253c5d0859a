#include "model/positional.h"

#include <cmath>
#include <stdexcept>

namespace ae {

Matrix sinusoidal_encoding(int n, int d) {
  if (d % 2 != 0) throw std::invalid_argument("sinusoidal_encoding: d must be even, got " + std::to_string(d));
  Matrix pe(n, d);
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < d / 2; ++i) {
      const double angle = p / std::pow(10000.0, 2.0 * i / d);
      pe(p, 2 * i) = static_cast<float>(std::sin(angle));
      pe(p, 2 * i + 1) = static_cast<float>(std::cos(angle));
    }
  return pe;
}

void apply_rope(Matrix& x, int first_position, float base, bool inverse) {
  const int dh = static_cast<int>(x.cols());
  if (dh % 2 != 0) throw std::invalid_argument("apply_rope: head width must be even, got " + std::to_string(dh));
  for (int r = 0; r < x.rows(); ++r) {
    const double p = first_position + r;
    for (int i = 0; i < dh / 2; ++i) {
      const double theta = std::pow(static_cast<double>(base), -2.0 * i / dh);
      const float c = static_cast<float>(std::cos(p * theta));
      const float s = static_cast<float>(std::sin(p * theta)) * (inverse ? -1.0f : 1.0f);
      const float a = x(r, 2 * i), b = x(r, 2 * i + 1);
      x(r, 2 * i) = a * c - b * s;
      x(r, 2 * i + 1) = a * s + b * c;
    }
  }
}

}  // namespace ae
