// Plain-loop reference implementations and comparison helpers for the native tests.
//
// Every reference here is written from the formulas (not from src/): nested for loops over
// doubles, no Eigen products, so that a bug in the core's vectorised code cannot be copied
// into its own oracle. Only the parameter *values* are read from the core's objects.
#pragma once

#include <doctest/doctest.h>

#include "model/layers.h"
#include "ops/attention.h"
#include "tensor.h"
#include "util/rng.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ref {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Dense row-major matrix of doubles.
struct DMat {
  int rows = 0, cols = 0;
  std::vector<double> v;

  DMat() = default;
  DMat(int r, int c, double fill = 0.0) : rows(r), cols(c), v(static_cast<size_t>(r) * c, fill) {}
  double& operator()(int r, int c) { return v[static_cast<size_t>(r) * cols + c]; }
  double operator()(int r, int c) const { return v[static_cast<size_t>(r) * cols + c]; }
};

// One row of a mask case table (test_attention, test_attention_fused; each has its own rows).
struct MaskCase {
  const char* name;
  bool causal;
  int window;
  bool padding;  // hide every key j with j % 3 == 1
};

// The options of mask case m over n_keys keys, queries starting at query_offset.
inline ae::AttentionOptions mask_options(const MaskCase& m, int n_keys, int query_offset = 0, bool scale = true,
                                         float multiplier = 1.0f) {
  ae::AttentionOptions o;
  o.mask.causal = m.causal;
  o.mask.window = m.window;
  o.mask.query_offset = query_offset;
  if (m.padding) {
    o.mask.key_padding.resize(static_cast<size_t>(n_keys));
    for (int j = 0; j < n_keys; ++j) o.mask.key_padding[static_cast<size_t>(j)] = j % 3 == 1;
  }
  o.scale = scale;
  o.score_multiplier = multiplier;
  return o;
}

inline DMat to_double(const ae::Matrix& m) {
  DMat out(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  for (int r = 0; r < out.rows; ++r)
    for (int c = 0; c < out.cols; ++c) out(r, c) = m(r, c);
  return out;
}

inline ae::Matrix to_float(const DMat& m) {
  ae::Matrix out(m.rows, m.cols);
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) out(r, c) = static_cast<float>(m(r, c));
  return out;
}

// The tests' one random fill: `count` draws of N(0, scale²) from `rng`, in order, so that a
// test drawing several operands from one generator gets the same numbers on every build.
inline void fill_normal(float* out, size_t count, ae::Rng& rng, double scale = 1.0) {
  for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(rng.normal() * scale);
}

inline std::vector<float> random_values(size_t count, uint64_t seed, double scale = 1.0) {
  ae::Rng rng(seed);
  std::vector<float> v(count);
  fill_normal(v.data(), count, rng, scale);
  return v;
}

// rows×cols matrix of N(0, scale²) entries (row-major: the same order as fill_normal).
inline ae::Matrix random_matrix(Eigen::Index rows, Eigen::Index cols, ae::Rng& rng, double scale = 1.0) {
  ae::Matrix m(rows, cols);
  fill_normal(m.data(), static_cast<size_t>(m.size()), rng, scale);
  return m;
}

inline ae::Matrix random_matrix(int rows, int cols, uint64_t seed, double scale = 1.0) {
  ae::Rng rng(seed);
  return random_matrix(rows, cols, rng, scale);
}

inline DMat matmul(const DMat& a, const DMat& b) {
  DMat out(a.rows, b.cols);
  for (int i = 0; i < a.rows; ++i)
    for (int j = 0; j < b.cols; ++j) {
      double acc = 0.0;
      for (int t = 0; t < a.cols; ++t) acc += a(i, t) * b(t, j);
      out(i, j) = acc;
    }
  return out;
}

inline DMat columns(const DMat& m, int first, int count) {
  DMat out(m.rows, count);
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < count; ++c) out(r, c) = m(r, first + c);
  return out;
}

// Row-wise softmax with max subtraction; -inf entries give exactly 0.
inline DMat softmax_rows(DMat x) {
  for (int r = 0; r < x.rows; ++r) {
    double mx = -kInf;
    for (int c = 0; c < x.cols; ++c) mx = std::max(mx, x(r, c));
    double sum = 0.0;
    for (int c = 0; c < x.cols; ++c) sum += (x(r, c) = (x(r, c) == -kInf ? 0.0 : std::exp(x(r, c) - mx)));
    for (int c = 0; c < x.cols; ++c) x(r, c) /= sum;
  }
  return x;
}

// y = (x − mean) / √(var + eps) · γ + β per row, biased variance.
inline DMat layer_norm(const DMat& x, const DMat& gamma, const DMat& beta, double eps) {
  DMat y(x.rows, x.cols);
  for (int r = 0; r < x.rows; ++r) {
    double mean = 0.0, var = 0.0;
    for (int c = 0; c < x.cols; ++c) mean += x(r, c);
    mean /= x.cols;
    for (int c = 0; c < x.cols; ++c) var += (x(r, c) - mean) * (x(r, c) - mean);
    var /= x.cols;
    for (int c = 0; c < x.cols; ++c) y(r, c) = (x(r, c) - mean) / std::sqrt(var + eps) * gamma(0, c) + beta(0, c);
  }
  return y;
}

// GELU, tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
inline double gelu(double x) {
  const double pi = std::acos(-1.0);
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / pi) * (x + 0.044715 * x * x * x)));
}

// y = x·W + b with W stored in×out.
inline DMat linear(const DMat& x, const ae::Linear& layer) {
  const DMat w = to_double(layer.weight), b = to_double(layer.bias);
  DMat y = matmul(x, w);
  for (int r = 0; r < y.rows; ++r)
    for (int c = 0; c < y.cols; ++c) y(r, c) += b(0, c);
  return y;
}

inline DMat feed_forward(const DMat& x, const ae::FeedForward& f) {
  DMat hidden = linear(x, f.expand);
  for (double& h : hidden.v) h = gelu(h);
  return linear(hidden, f.project);
}

// The mask rule, restated from the header comment of ae::AttentionMask.
inline bool allows(const ae::AttentionMask& m, int query_pos, int key) {
  if (m.causal && key > query_pos) return false;
  if (m.window > 0 && (key <= query_pos - m.window || key >= query_pos + m.window)) return false;
  if (!m.key_padding.empty() && m.key_padding[static_cast<size_t>(key)] != 0) return false;
  return true;
}

// True when some query row of an n_q×n_k attention call would have no visible key.
inline bool has_fully_masked_row(const ae::AttentionMask& m, int n_q, int n_k) {
  for (int i = 0; i < n_q; ++i) {
    bool any = false;
    for (int j = 0; j < n_k; ++j) any = any || allows(m, m.query_offset + i, j);
    if (!any) return true;
  }
  return false;
}

struct AttentionSteps {
  DMat raw, scaled, masked, weights, output;
};

inline AttentionSteps attention(const DMat& q, const DMat& k, const DMat& v, const ae::AttentionOptions& o) {
  AttentionSteps s;
  const double factor = o.score_multiplier / (o.scale ? std::sqrt(static_cast<double>(q.cols)) : 1.0);
  s.raw = DMat(q.rows, k.rows);
  for (int i = 0; i < q.rows; ++i)
    for (int j = 0; j < k.rows; ++j) {
      double acc = 0.0;
      for (int t = 0; t < q.cols; ++t) acc += q(i, t) * k(j, t);
      s.raw(i, j) = acc;
    }
  s.scaled = s.raw;
  for (double& x : s.scaled.v) x *= factor;
  s.masked = s.scaled;
  for (int i = 0; i < q.rows; ++i)
    for (int j = 0; j < k.rows; ++j)
      if (!allows(o.mask, o.mask.query_offset + i, j)) s.masked(i, j) = -kInf;
  s.weights = softmax_rows(s.masked);
  s.output = matmul(s.weights, v);
  return s;
}

// RoPE from the formula: pair (2i, 2i+1) of row r rotated by (first_position + r)·base^(−2i/dh).
inline void rope(DMat& x, int first_position, double base) {
  for (int r = 0; r < x.rows; ++r)
    for (int i = 0; i < x.cols / 2; ++i) {
      const double angle = (first_position + r) * std::pow(base, -2.0 * i / x.cols);
      const double a = x(r, 2 * i), b = x(r, 2 * i + 1);
      x(r, 2 * i) = a * std::cos(angle) - b * std::sin(angle);
      x(r, 2 * i + 1) = a * std::sin(angle) + b * std::cos(angle);
    }
}

// PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(same angle).
inline DMat sinusoidal(int n, int d) {
  DMat pe(n, d);
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < d / 2; ++i) {
      const double angle = p / std::pow(10000.0, 2.0 * i / d);
      pe(p, 2 * i) = std::sin(angle);
      pe(p, 2 * i + 1) = std::cos(angle);
    }
  return pe;
}

struct MultiHeadSteps {
  std::vector<DMat> q, k, v;  // per head, after RoPE
  std::vector<AttentionSteps> heads;
  DMat concat, output;
};

// Multi-head attention, one head at a time: head h owns columns [h·dh, (h+1)·dh).
inline MultiHeadSteps multi_head(const ae::MultiHeadAttention& mha, const DMat& queries_from, const DMat& keys_from,
                                 const ae::AttentionOptions& o, std::optional<double> rope_base,
                                 const std::vector<uint8_t>* head_active) {
  const DMat q_all = linear(queries_from, mha.wq), k_all = linear(keys_from, mha.wk), v_all = linear(keys_from, mha.wv);
  const int dh = mha.head_dim;
  MultiHeadSteps s;
  s.concat = DMat(queries_from.rows, mha.n_heads * dh);
  for (int h = 0; h < mha.n_heads; ++h) {
    DMat q = columns(q_all, h * dh, dh), k = columns(k_all, h * dh, dh), v = columns(v_all, h * dh, dh);
    if (rope_base) {
      rope(q, o.mask.query_offset, *rope_base);
      rope(k, 0, *rope_base);
    }
    AttentionSteps a = attention(q, k, v, o);
    const bool active = !head_active || (*head_active)[static_cast<size_t>(h)] != 0;
    for (int r = 0; r < s.concat.rows; ++r)
      for (int c = 0; c < dh; ++c) s.concat(r, h * dh + c) = active ? a.output(r, c) : 0.0;
    s.q.push_back(q), s.k.push_back(k), s.v.push_back(v), s.heads.push_back(std::move(a));
  }
  s.output = linear(s.concat, mha.wo);
  return s;
}

inline DMat add(const DMat& a, const DMat& b) {
  DMat out = a;
  for (size_t i = 0; i < out.v.size(); ++i) out.v[i] += b.v[i];
  return out;
}

}  // namespace ref

// --- comparisons ----------------------------------------------------------------------------

namespace testing_detail {

// |actual − expected| ≤ abs_tol + rel_tol·|expected|; equal infinities match, NaN never does.
inline bool near(double actual, double expected, double abs_tol, double rel_tol) {
  if (std::isnan(actual) || std::isnan(expected)) return false;
  if (std::isinf(actual) || std::isinf(expected)) return actual == expected;
  return std::abs(actual - expected) <= abs_tol + rel_tol * std::abs(expected);
}

inline void check_matrix_near(const char* file, int line, const char* name, const ae::Matrix& actual,
                              const ref::DMat& expected, double abs_tol, double rel_tol) {
  if (actual.rows() != expected.rows || actual.cols() != expected.cols) {
    ADD_FAIL_CHECK_AT(file, line,
                      name << ": shape " << actual.rows() << "x" << actual.cols() << ", expected " << expected.rows
                           << "x" << expected.cols);
    return;
  }
  int bad = 0;
  std::ostringstream first;
  first.precision(9);
  for (int r = 0; r < expected.rows; ++r)
    for (int c = 0; c < expected.cols; ++c)
      if (!near(actual(r, c), expected(r, c), abs_tol, rel_tol) && bad++ < 5)
        first << "\n  [" << r << "," << c << "] got " << actual(r, c) << ", expected " << expected(r, c);
  if (bad > 0)
    ADD_FAIL_CHECK_AT(file, line,
                      name << ": " << bad << " of " << expected.v.size() << " entries differ (abs_tol " << abs_tol
                           << ", rel_tol " << rel_tol << ")" << first.str());
}

inline void check_matrix_near(const char* file, int line, const char* name, const ae::Matrix& actual,
                              const ae::Matrix& expected, double abs_tol, double rel_tol) {
  check_matrix_near(file, line, name, actual, ref::to_double(expected), abs_tol, rel_tol);
}

}  // namespace testing_detail

// CHECK_MATRIX_NEAR(actual, expected, abs_tol, rel_tol): elementwise; on failure reports the
// first few differing indices with both values. expected is a ref::DMat or an ae::Matrix.
#define CHECK_MATRIX_NEAR(actual, expected, abs_tol, rel_tol) \
  ::testing_detail::check_matrix_near(__FILE__, __LINE__, #actual, (actual), (expected), (abs_tol), (rel_tol))

// CHECK_MATRIX_EQUAL(actual, expected): exactly equal entries (exactness claims; 0 == -0).
#define CHECK_MATRIX_EQUAL(actual, expected) CHECK_MATRIX_NEAR(actual, expected, 0.0, 0.0)

namespace testing_helpers {

// Largest |a − b| over all entries (shapes must match).
inline double max_abs_diff(const ae::Matrix& a, const ae::Matrix& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  return static_cast<double>((a - b).cwiseAbs().maxCoeff());
}

// Entries that differ in their bits (0 and −0 differ; shapes must match): for the fast paths
// that must give exactly what their twin gives, so that training stays byte-identical.
inline int bit_differences(const ae::Matrix& a, const ae::Matrix& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  int differ = 0;
  for (Eigen::Index i = 0; i < a.size(); ++i) differ += std::memcmp(a.data() + i, b.data() + i, sizeof(float)) != 0;
  return differ;
}

// Row i of the result is row perm[i] of x.
inline ae::Matrix permute_rows(const ae::Matrix& x, const std::vector<int>& perm) {
  ae::Matrix out(static_cast<int>(perm.size()), x.cols());
  for (size_t i = 0; i < perm.size(); ++i) out.row(static_cast<int>(i)) = x.row(perm[i]);
  return out;
}

template <class T>
std::vector<T> permute(const std::vector<T>& x, const std::vector<int>& perm) {
  std::vector<T> out;
  for (int p : perm) out.push_back(x[static_cast<size_t>(p)]);
  return out;
}

}  // namespace testing_helpers
