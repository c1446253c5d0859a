#include "ops/softmax.h"

#include "ops/f32x4.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ae {

namespace {

using namespace simd;

float largest_lane(f32x4 v) {
  float lanes[4];
  store(lanes, v);
  return std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
}

float lane_sum(f32x4 v) {
  float lanes[4];
  store(lanes, v);
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

// One row, four entries at a time; the last one to three entries go through the same lanes,
// padded with −∞, which adds nothing to the maximum or to the sum.
void softmax_row(float* row, size_t n) {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  const size_t whole = n / 4 * 4, rest = n - whole;
  float tail[4] = {minus_inf, minus_inf, minus_inf, minus_inf};
  std::copy(row + whole, row + n, tail);

  f32x4 max4 = load(tail);
  for (size_t i = 0; i < whole; i += 4) max4 = max(max4, load(row + i));
  const f32x4 row_max = splat(largest_lane(max4));

  // exp(−∞ − max) == 0 exactly (simd::exp_nonpositive), so masked entries stay 0.
  f32x4 sum4 = zero();
  for (size_t i = 0; i < whole; i += 4) {
    const f32x4 e = exp_nonpositive(sub(load(row + i), row_max));
    store(row + i, e);
    sum4 = add(sum4, e);
  }
  const f32x4 tail_e = exp_nonpositive(sub(load(tail), row_max));
  sum4 = add(sum4, tail_e);

  const f32x4 sum = splat(lane_sum(sum4));
  for (size_t i = 0; i < whole; i += 4) store(row + i, div(load(row + i), sum));
  store(tail, div(tail_e, sum));
  std::copy(tail, tail + rest, row + whole);
}

}  // namespace

void softmax_rows_inplace(Matrix& x) {
  for (Eigen::Index r = 0; r < x.rows(); ++r) softmax_row(x.row(r).data(), static_cast<size_t>(x.cols()));
}

float distribution_entropy(const Matrix& row) {
  if (row.rows() != 1 || row.cols() == 0) throw std::invalid_argument("entropy: weights must be one non-empty row");
  if (!row.allFinite() || row.minCoeff() < 0.0f) throw std::invalid_argument("entropy: weights must be finite and ≥ 0");
  const double sum = row.cast<double>().sum();
  if (std::abs(sum - 1.0) > kDistributionSumTolerance)
    throw std::invalid_argument("entropy: weights must sum to 1 (a row of attention weights), they sum to " +
                                std::to_string(sum));
  return row_entropy(row)[0];
}

Vector row_entropy(const Matrix& p) {
  Vector h(p.rows());
  for (Eigen::Index r = 0; r < p.rows(); ++r) {
    double acc = 0.0;
    for (Eigen::Index c = 0; c < p.cols(); ++c) {
      const double v = p(r, c);
      if (v > 0.0) acc -= v * std::log(v);
    }
    h[r] = static_cast<float>(acc);
  }
  return h;
}

}  // namespace ae
