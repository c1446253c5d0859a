#include "lesson/scaling_demo.h"

#include "ops/attention.h"
#include "ops/softmax.h"
#include "util/rng.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ae {

namespace {

void check_range(const char* name, int value, int max) {
  if (value < 1 || value > max)
    throw std::invalid_argument(std::string("scaling demo: ") + name + " must be 1 … " + std::to_string(max) +
                                ", got " + std::to_string(value));
}

// Entries uniform on [−√3, √3): mean 0, variance exactly 1, in row-major order. Uniform rather
// than normal because only the variance matters for the lesson (Var(q·k) = d for any such
// entries, and q·k is close to normal for large d anyway), and because the demo draws up to
// (queries + keys)·d values per slider step: Box–Muller's log and cosine made it ~10× slower in wasm.
Matrix unit_variance_matrix(int rows, int cols, Rng& rng) {
  constexpr double kSqrt3 = 1.7320508075688772;
  Matrix m(rows, cols);
  float* out = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i) out[i] = static_cast<float>((2.0 * rng.uniform() - 1.0) * kSqrt3);
  return m;
}

}  // namespace

ScalingDemo scaling_demo(const ScalingDemoOptions& o) {
  check_range("d", o.d, kScalingDemoMaxD);
  check_range("the number of keys", o.n_keys, kScalingDemoMaxKeys);
  check_range("the number of queries", o.n_queries, kScalingDemoMaxQueries);

  Rng rng(o.seed);
  const Matrix q = unit_variance_matrix(o.n_queries, o.d, rng);  // drawn first, so a seed fixes Q for every n_keys
  const Matrix k = unit_variance_matrix(o.n_keys, o.d, rng);
  const Matrix v = Matrix::Zero(o.n_keys, 1);  // the output is not part of the lesson here

  // The same attention the models run, so the demo shows the core's own scale and softmax.
  AttentionOptions options;
  options.scale = o.scale;
  AttentionTrace trace = attention_traced(q, k, v, options);

  ScalingDemo out;
  out.factor = attention_score_scale(o.d, options);
  out.scores = std::move(trace.scaled_scores);
  out.weights = std::move(trace.weights);
  out.entropy = row_entropy(out.weights);
  out.max_weight = out.weights.rowwise().maxCoeff().transpose();

  // Two passes in double: the mean first, so the variance does not lose digits to cancellation.
  const double count = static_cast<double>(out.scores.size());
  double sum = 0.0;
  for (Eigen::Index i = 0; i < out.scores.size(); ++i) sum += out.scores.data()[i];
  out.score_mean = sum / count;
  double squares = 0.0;
  for (Eigen::Index i = 0; i < out.scores.size(); ++i) {
    const double e = out.scores.data()[i] - out.score_mean;
    squares += e * e;
  }
  out.score_variance = squares / count;
  out.score_std = std::sqrt(out.score_variance);

  double entropy = 0.0, max_weight = 0.0;
  for (int r = 0; r < o.n_queries; ++r) entropy += out.entropy[r], max_weight += out.max_weight[r];
  out.mean_entropy = entropy / o.n_queries;
  out.mean_max_weight = max_weight / o.n_queries;
  out.uniform_entropy = std::log(static_cast<double>(o.n_keys));
  return out;
}

}  // namespace ae
