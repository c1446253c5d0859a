#include "ops/attention.h"

#include "ops/attention_memory.h"
#include "ops/dropout_avx512.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
#include "ops/softmax.h"
#include "util/error.h"
#include "util/rng.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ae {

bool AttentionMask::allows(int64_t query_pos, int64_t key) const {
  if (causal && key > query_pos) return false;
  if (window > 0 && std::abs(query_pos - key) >= window) return false;
  if (!key_padding.empty() && key_padding[static_cast<size_t>(key)] != 0) return false;
  return true;
}

namespace {

void check_inputs(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& o) {
  auto fail = [](const std::string& why) { throw std::invalid_argument("attention: " + why); };
  check_attention_shapes(q, k, v);
  if (!all_finite(q) || !all_finite(k) || !all_finite(v)) fail("Q, K or V contains NaN or infinity");
  const auto& pad = o.mask.key_padding;
  if (!pad.empty() && pad.size() != static_cast<size_t>(k.rows()))
    fail("key_padding has " + std::to_string(pad.size()) + " flags for " + std::to_string(k.rows()) + " keys");
  if (o.mask.window < 0) fail("window must be ≥ 0 (0 = no window), got " + std::to_string(o.mask.window));
  if (o.mask.query_offset < 0) fail("query_offset must be ≥ 0");
  check_query_positions(o.mask, q.rows());
  if (!std::isfinite(o.score_multiplier)) fail("score_multiplier must be finite");
  if (!(o.dropout >= 0.0f && o.dropout < 1.0f)) fail("dropout must lie in [0, 1)");
}

void apply_mask(Matrix& scores, const AttentionMask& mask) {
  if (mask.empty()) return;
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < scores.rows(); ++i) {
    bool any_visible = false;
    for (int j = 0; j < scores.cols(); ++j) {
      if (mask.allows(static_cast<int64_t>(mask.query_offset) + i, j)) any_visible = true;
      else scores(i, j) = kMasked;
    }
    if (!any_visible)
      throw std::invalid_argument("attention: every key is masked for query " + std::to_string(i) +
                                  ", so its softmax is undefined; unmask at least one key per query");
  }
}

// Scores are finite before masking unless Q·Kᵀ or the scaling overflowed float; softmax would
// turn such a row into NaN (inf − inf), so stop with the place and the cure instead.
void check_scores_finite(const Matrix& scores) {
  for (Eigen::Index i = 0; i < scores.rows(); ++i)
    for (Eigen::Index j = 0; j < scores.cols(); ++j)
      if (!std::isfinite(scores(i, j))) throw_score_overflow(i, j);
}

}  // namespace

void check_attention_shapes(const Matrix& q, const Matrix& k, const Matrix& v) {
  auto fail = [](const std::string& why) { throw std::invalid_argument("attention: " + why); };
  if (q.rows() == 0 || k.rows() == 0)  // the same words as attention_fused.cpp
    throw InputError(ErrorCode::EmptyInput, "attention: empty sequence (Q has " + std::to_string(q.rows()) +
                                                " rows, K has " + std::to_string(k.rows()) + ")");
  if (q.cols() == 0) fail("key width dk is 0");
  if (q.cols() != k.cols())
    fail("Q is " + shape_string(q) + " and K is " + shape_string(k) + ": both need the same width dk");
  if (k.rows() != v.rows())
    fail("K is " + shape_string(k) + " and V is " + shape_string(v) + ": both need one row per key");
}

void check_query_positions(const AttentionMask& mask, int64_t n) {
  // Positions are ints elsewhere (RoPE, the KV cache): the last query's must fit in one.
  const int64_t last_position = static_cast<int64_t>(mask.query_offset) + n - 1;
  if (last_position > std::numeric_limits<int>::max())
    throw std::invalid_argument("attention: query_offset " + std::to_string(mask.query_offset) + " puts query " +
                                std::to_string(n - 1) + " at position " + std::to_string(last_position) +
                                ", beyond the largest position 2147483647");
}

void throw_score_overflow(int64_t query, int64_t key) {
  throw std::invalid_argument("attention: the score of query " + std::to_string(query) + " and key " +
                              std::to_string(key) +
                              " overflows float (|q·k · scale| > 3.4e38), so the softmax would be NaN; use "
                              "smaller Q and K values or a smaller score multiplier");
}

namespace {

// One row of a dropout mask: cols entries from rng, each 0 when its 53-bit uniform falls below p.
// Where the CPU has AVX-512, eight draws at a time (the same bits; about 8 % of a training step
// went to this loop).
void fill_dropout_row(float* row, Eigen::Index cols, float p, Rng& rng) {
  const float keep = 1.0f / (1.0f - p);
  const uint64_t threshold = static_cast<uint64_t>(static_cast<double>(p) * 0x1.0p53);
#if AE_DROPOUT_HAS_AVX512
  if (cols >= 8 && dropout_avx512_supported()) {
    return fill_dropout_row_avx512(row, static_cast<size_t>(cols), rng, threshold, keep);
  }
#endif
  for (Eigen::Index j = 0; j < cols; ++j) row[j] = (rng.next_u64() >> 11) < threshold ? 0.0f : keep;
}

}  // namespace

Matrix dropout_mask(Eigen::Index rows, Eigen::Index cols, float p, uint64_t seed) {
  if (!(p >= 0.0f && p < 1.0f)) throw std::invalid_argument("dropout: p must lie in [0, 1)");
  Matrix m(rows, cols);
  Rng rng(seed);
  for (Eigen::Index i = 0; i < rows; ++i) fill_dropout_row(m.row(i).data(), cols, p, rng);
  return m;
}

Matrix dropout_mask_rows(const std::vector<int>& rows, Eigen::Index cols, float p, uint64_t seed) {
  if (!(p >= 0.0f && p < 1.0f)) throw std::invalid_argument("dropout: p must lie in [0, 1)");
  Matrix m(static_cast<Eigen::Index>(rows.size()), cols);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] < 0) throw std::invalid_argument("dropout: row " + std::to_string(rows[i]) + " is negative");
    Rng rng(seed);
    rng.discard(static_cast<uint64_t>(rows[i]) * static_cast<uint64_t>(cols));
    fill_dropout_row(m.row(static_cast<Eigen::Index>(i)).data(), cols, p, rng);
  }
  return m;
}

uint64_t derive_seed(uint64_t seed, uint64_t index) {
  Rng rng(seed ^ (index * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull));
  return rng.next_u64();
}

float attention_score_scale(int dk, const AttentionOptions& options) {
  const float base = options.scale ? 1.0f / std::sqrt(static_cast<float>(dk)) : 1.0f;
  return base * options.score_multiplier;
}

AttentionTrace attention_traced(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
  check_inputs(q, k, v, options);
  check_trace_fits(static_cast<int>(q.rows()), static_cast<int>(k.rows()), static_cast<int>(v.cols()));
  AttentionTrace t;
  t.raw_scores = gemm_product(q, k, /*transpose_b=*/true);
  t.scaled_scores = t.raw_scores * attention_score_scale(static_cast<int>(q.cols()), options);
  check_scores_finite(t.scaled_scores);  // also catches an overflow in raw_scores
  t.masked_scores = t.scaled_scores;
  apply_mask(t.masked_scores, options.mask);
  t.weights = t.masked_scores;
  softmax_rows_inplace(t.weights);
  if (options.dropout > 0.0f) {
    t.dropout_mask = dropout_mask(t.weights.rows(), t.weights.cols(), options.dropout, options.dropout_seed);
    t.output = (t.weights.array() * t.dropout_mask.array()).matrix() * v;
  } else {
    t.output = gemm_product(t.weights, v);
  }
  return t;
}

AttentionGradients attention_backward(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionTrace& trace,
                                      const AttentionOptions& options, const Matrix& d_output) {
  const Matrix& p = trace.weights;  // n×m
  const bool dropped = trace.dropout_mask.size() > 0;
  AttentionGradients g;
  // matmul: Eigen's sums on the faster tiles (ops/matmul.h). The products assigned to g's
  // members stay Eigen's: assigned, they are summed as column-major products, which matmul
  // does not reproduce (and they are the small ones: n×dh).
  Matrix d_weights = matmul(d_output, false, v, /*transpose_b=*/true);  // n×m
  if (dropped) {                                                        // output = (P ⊙ M)·V
    g.v = (p.array() * trace.dropout_mask.array()).matrix().transpose() * d_output;
    d_weights.array() *= trace.dropout_mask.array();
  } else {
    g.v = p.transpose() * d_output;  // m×dv
  }
  // Softmax backward per row: dS = P ⊙ (dP − Σ_j dP_j P_j).
  const Eigen::VectorXf row_dot = (d_weights.array() * p.array()).rowwise().sum();
  Matrix d_scores = (p.array() * (d_weights.array().colwise() - row_dot.array())).matrix();
  d_scores *= attention_score_scale(static_cast<int>(q.cols()), options);
  g.q = d_scores * k;              // n×dk
  g.k = d_scores.transpose() * q;  // m×dk
  return g;
}

Matrix attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
  if (options.dropout > 0.0f) return attention_traced(q, k, v, options).output;
  check_inputs(q, k, v, options);
  Matrix scores = gemm_product(q, k, /*transpose_b=*/true) * attention_score_scale(static_cast<int>(q.cols()), options);
  check_scores_finite(scores);
  apply_mask(scores, options.mask);
  softmax_rows_inplace(scores);
  return gemm_product(scores, v);
}

}  // namespace ae
