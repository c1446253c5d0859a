#include "ops/softmax.h"

#include <cmath>
#include <limits>

namespace ae {

void softmax_rows_inplace(Matrix& x) {
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    auto row = x.row(r);
    const float max = row.maxCoeff();
    float sum = 0.0f;
    for (Eigen::Index c = 0; c < row.size(); ++c) {
      const float e = std::exp(row[c] - max);  // exp(-inf - max) == 0 exactly
      row[c] = e;
      sum += e;
    }
    row /= sum;
  }
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
