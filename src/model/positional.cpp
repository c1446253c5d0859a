#include "model/positional.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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

namespace {

// θ_i = base^(−2i/dh), and the angle's cos and sin rounded to float: the one definition that
// apply_rope and RopeTable share, so that both give the same bits.
double rope_theta(float base, int i, int dh) { return std::pow(static_cast<double>(base), -2.0 * i / dh); }

}  // namespace

void apply_rope(Matrix& x, int first_position, float base, bool inverse) {
  const int dh = static_cast<int>(x.cols());
  if (dh % 2 != 0) throw std::invalid_argument("apply_rope: head width must be even, got " + std::to_string(dh));
  for (int r = 0; r < x.rows(); ++r) {
    const double p = first_position + r;
    for (int i = 0; i < dh / 2; ++i) {
      const double theta = rope_theta(base, i, dh);
      const float c = static_cast<float>(std::cos(p * theta));
      const float s = static_cast<float>(std::sin(p * theta)) * (inverse ? -1.0f : 1.0f);
      const float a = x(r, 2 * i), b = x(r, 2 * i + 1);
      x(r, 2 * i) = a * c - b * s;
      x(r, 2 * i + 1) = a * s + b * c;
    }
  }
}

RopeTable::RopeTable(float base, int dh, int positions) : base_(base), dh_(dh), positions_(std::max(positions, 0)) {
  if (dh % 2 != 0) throw std::invalid_argument("RopeTable: head width must be even, got " + std::to_string(dh));
  const int pairs = dh / 2;
  cos_.resize(static_cast<size_t>(positions_) * pairs);
  sin_.resize(cos_.size());
  for (int i = 0; i < pairs; ++i) {
    const double theta = rope_theta(base, i, dh);
    for (int p = 0; p < positions_; ++p) {
      const double angle = static_cast<double>(p) * theta;
      cos_[static_cast<size_t>(p) * pairs + i] = static_cast<float>(std::cos(angle));
      sin_[static_cast<size_t>(p) * pairs + i] = static_cast<float>(std::sin(angle));
    }
  }
}

void RopeTable::rotate(Matrix& x, int first_position, bool inverse) const {
  const int n = static_cast<int>(x.rows());
  if (x.cols() != dh_ || first_position < 0 || first_position > positions_ - n)
    return apply_rope(x, first_position, base_, inverse);
  const int pairs = dh_ / 2;
  const float sign = inverse ? -1.0f : 1.0f;
  for (int r = 0; r < n; ++r) {
    const float* c = cos_.data() + static_cast<size_t>(first_position + r) * pairs;
    const float* s = sin_.data() + static_cast<size_t>(first_position + r) * pairs;
    float* row = x.row(r).data();
    for (int i = 0; i < pairs; ++i) {
      const float si = s[i] * sign;
      const float a = row[2 * i], b = row[2 * i + 1];
      row[2 * i] = a * c[i] - b * si;
      row[2 * i + 1] = a * si + b * c[i];
    }
  }
}

}  // namespace ae
