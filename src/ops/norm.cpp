#include "ops/norm.h"

#include <cmath>
#include <stdexcept>

namespace ae {

Matrix layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, float eps) {
  if (gamma.rows() != 1 || beta.rows() != 1 || gamma.size() != x.cols() || beta.size() != x.cols())
    throw std::invalid_argument("layer_norm: input is " + shape_string(x) + " but gamma/beta have " +
                                std::to_string(gamma.size()) + "/" + std::to_string(beta.size()) +
                                " entries");
  Matrix y(x.rows(), x.cols());
  const float d = static_cast<float>(x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const float mean = x.row(r).sum() / d;
    const float var = (x.row(r).array() - mean).square().sum() / d;
    const float rstd = 1.0f / std::sqrt(var + eps);
    y.row(r) = ((x.row(r).array() - mean) * rstd * gamma.row(0).array() + beta.row(0).array()).matrix();
  }
  return y;
}

}  // namespace ae
