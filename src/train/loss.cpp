#include "train/loss.h"

#include "ops/softmax.h"

#include <cmath>
#include <stdexcept>

namespace ae {

float cross_entropy(const Matrix& logits, const std::vector<int>& targets, Matrix* d_logits) {
  if (static_cast<size_t>(logits.rows()) != targets.size() || targets.empty())
    throw std::invalid_argument("cross_entropy: " + std::to_string(logits.rows()) + " rows of logits for " +
                                std::to_string(targets.size()) + " targets");
  Matrix p = logits;
  softmax_rows_inplace(p);
  double loss = 0.0;
  const float k = static_cast<float>(targets.size());
  for (size_t r = 0; r < targets.size(); ++r) {
    const int t = targets[r];
    if (t < 0 || t >= logits.cols()) throw std::invalid_argument("cross_entropy: target id out of range");
    const auto row = logits.row(static_cast<Eigen::Index>(r));
    const double max = row.maxCoeff();
    double sum = 0.0;
    for (Eigen::Index c = 0; c < row.size(); ++c) sum += std::exp(row[c] - max);
    loss += max + std::log(sum) - row[t];  // −log softmax[t], without forming log(0)
  }
  if (d_logits) {
    *d_logits = p;
    for (size_t r = 0; r < targets.size(); ++r) (*d_logits)(static_cast<Eigen::Index>(r), targets[r]) -= 1.0f;
    *d_logits /= k;
  }
  return static_cast<float>(loss / k);
}

}  // namespace ae
