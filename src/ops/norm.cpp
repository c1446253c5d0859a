#include "ops/norm.h"

#include <cmath>
#include <stdexcept>

namespace ae {

namespace {

struct RowStats {
  float mean, rstd;  // mean and 1/√(biased variance + ε) of one row
};

RowStats row_stats(const Eigen::Ref<const Matrix>& x, Eigen::Index r, float eps) {
  const float d = static_cast<float>(x.cols());
  const float mean = x.row(r).sum() / d;
  const float var = (x.row(r).array() - mean).square().sum() / d;
  return {mean, 1.0f / std::sqrt(var + eps)};
}

}  // namespace

Matrix layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, float eps) {
  if (gamma.rows() != 1 || beta.rows() != 1 || gamma.size() != x.cols() || beta.size() != x.cols())
    throw std::invalid_argument("layer_norm: input is " + shape_string(x) + " but gamma/beta have " +
                                std::to_string(gamma.size()) + "/" + std::to_string(beta.size()) + " entries");
  Matrix y(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const auto [mean, rstd] = row_stats(x, r, eps);
    y.row(r) = ((x.row(r).array() - mean) * rstd * gamma.row(0).array() + beta.row(0).array()).matrix();
  }
  return y;
}

Matrix layer_norm_backward(const Matrix& x, const Matrix& gamma, float eps, const Matrix& dy, Matrix& d_gamma,
                           Matrix& d_beta) {
  Matrix dx(x.rows(), x.cols());
  const float d = static_cast<float>(x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const auto [mean, rstd] = row_stats(x, r, eps);
    const Eigen::ArrayXXf xhat = ((x.row(r).array() - mean) * rstd);
    const Eigen::ArrayXXf dxhat = dy.row(r).array() * gamma.row(0).array();
    d_gamma.row(0).array() += dy.row(r).array() * xhat.row(0);
    d_beta.row(0) += dy.row(r);
    // dx = rstd · (dxhat − mean(dxhat) − xhat · mean(dxhat · xhat))
    const float mean_dxhat = dxhat.sum() / d;
    const float mean_dxhat_xhat = (dxhat * xhat).sum() / d;
    dx.row(r) = (rstd * (dxhat - mean_dxhat - xhat * mean_dxhat_xhat)).matrix();
  }
  return dx;
}

}  // namespace ae
