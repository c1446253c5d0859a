// Scaled dot-product attention: every traced step against the plain-loop reference, across
// sizes, masks, KV-cache offsets and cross-attention shapes; mask exactness; error reporting;
// and the variance argument for the 1/√d scale.
#include "ops/attention.h"
#include "reference.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kSizes[] = {1, 3, 4, 5, 15, 16, 17, 64};

using ref::MaskCase;

constexpr MaskCase kMasks[] = {
    {"none", false, 0, false},           {"causal", true, 0, false},
    {"window 1", false, 1, false},       {"window 2", false, 2, false},
    {"window 5", false, 5, false},       {"causal window 1", true, 1, false},
    {"causal window 3", true, 3, false}, {"key padding", false, 0, true},
    {"causal + padding", true, 0, true}, {"window 1 + padding", false, 1, true},
};

struct ScaleCase {
  bool scale;
  float multiplier;
};

constexpr ScaleCase kScales[] = {{true, 1.0f}, {false, 1.0f}, {true, 0.5f}, {true, 3.0f}, {false, 0.25f}};

ae::AttentionOptions make_options(const MaskCase& m, const ScaleCase& s, int n_keys, int query_offset = 0) {
  return ref::mask_options(m, n_keys, query_offset, s.scale, s.multiplier);
}

// masked_scores is −∞ exactly where the reference mask forbids and the scaled score elsewhere;
// weights are exactly 0 at the same places.
void check_mask_exactness(const ae::AttentionTrace& t, const ref::AttentionSteps& expected) {
  int wrong_masked = 0, wrong_kept = 0, nonzero_weight = 0;
  for (int i = 0; i < expected.masked.rows; ++i)
    for (int j = 0; j < expected.masked.cols; ++j) {
      if (expected.masked(i, j) == -ref::kInf) {
        wrong_masked += t.masked_scores(i, j) != -std::numeric_limits<float>::infinity();
        nonzero_weight += t.weights(i, j) != 0.0f;
      } else {
        wrong_kept += t.masked_scores(i, j) != t.scaled_scores(i, j);
      }
    }
  CHECK_MESSAGE(wrong_masked == 0, wrong_masked << " forbidden scores are not -inf");
  CHECK_MESSAGE(wrong_kept == 0, wrong_kept << " allowed scores were changed by the mask");
  CHECK_MESSAGE(nonzero_weight == 0, nonzero_weight << " masked weights are not exactly 0");
}

void check_rows_sum_to_one(const ae::Matrix& weights) {
  for (int r = 0; r < weights.rows(); ++r) {
    double s = 0.0;
    for (int c = 0; c < weights.cols(); ++c) s += weights(r, c);
    CHECK(std::abs(s - 1.0) <= 1e-6);  // float softmax, see test_softmax.cpp
  }
}

// Runs attention_traced and attention on one input and checks every step against the reference.
void check_against_reference(const ae::Matrix& q, const ae::Matrix& k, const ae::Matrix& v,
                             const ae::AttentionOptions& o) {
  const ref::AttentionSteps expected = ref::attention(ref::to_double(q), ref::to_double(k), ref::to_double(v), o);
  const ae::AttentionTrace t = ae::attention_traced(q, k, v, o);
  // Scores are float dot products of dk = 8 unit-variance terms (|score| ≲ 10): rounding ≈ 1e-6.
  CHECK_MATRIX_NEAR(t.raw_scores, expected.raw, 1e-5, 1e-6);
  CHECK_MATRIX_NEAR(t.scaled_scores, expected.scaled, 1e-5, 1e-6);
  CHECK_MATRIX_NEAR(t.masked_scores, expected.masked, 1e-5, 1e-6);
  // A score error δ moves a weight by at most w·δ, plus the float exp/division (~1e-7).
  CHECK_MATRIX_NEAR(t.weights, expected.weights, 2e-6, 1e-5);
  // Output rows are convex combinations of V rows: the weight error carries over, times |v| ≲ 4.
  CHECK_MATRIX_NEAR(t.output, expected.output, 5e-6, 1e-5);
  check_mask_exactness(t, expected);
  check_rows_sum_to_one(t.weights);
  // The untraced path computes the same thing (allow for a fused scale in the product).
  CHECK_MATRIX_NEAR(ae::attention(q, k, v, o), t.output, 1e-6, 1e-5);
}

// Either the reference finds a query without any visible key (then both entry points must
// throw), or every step must match.
void check_case(const ae::Matrix& q, const ae::Matrix& k, const ae::Matrix& v, const ae::AttentionOptions& o) {
  if (ref::has_fully_masked_row(o.mask, static_cast<int>(q.rows()), static_cast<int>(k.rows()))) {
    CHECK_THROWS_AS(ae::attention_traced(q, k, v, o), std::invalid_argument);
    CHECK_THROWS_AS(ae::attention(q, k, v, o), std::invalid_argument);
  } else {
    check_against_reference(q, k, v, o);
  }
}

}  // namespace

TEST_CASE("self-attention trace matches the reference for every size, mask and scale") {
  int compared = 0;
  for (int n : kSizes)
    for (const MaskCase& m : kMasks)
      for (const ScaleCase& s : kScales) {
        CAPTURE(n);
        INFO("m.name := ", std::string(m.name));
        CAPTURE(s.scale);
        CAPTURE(s.multiplier);
        const ae::Matrix q = ref::random_matrix(n, 8, 1000 + n), k = ref::random_matrix(n, 8, 2000 + n),
                         v = ref::random_matrix(n, 5, 3000 + n);
        const ae::AttentionOptions o = make_options(m, s, n);
        compared += !ref::has_fully_masked_row(o.mask, n, n);
        check_case(q, k, v, o);
      }
  // Only "window 1 + padding" hides whole rows, for the 7 sizes n ≥ 3 (query 1 then sees only
  // its own, padded key); all other size × mask × scale combinations must have been compared.
  CHECK(compared == 8 * 10 * 5 - 7 * 5);
}

TEST_CASE("query_offset: a block of new queries over a longer key cache (KV cache)") {
  const int n_k = 17;
  const ae::Matrix q_all = ref::random_matrix(n_k, 6, 11), k = ref::random_matrix(n_k, 6, 12),
                   v = ref::random_matrix(n_k, 4, 13);
  for (int n_q : {1, 4, 5, 16, 17})
    for (const MaskCase& m : kMasks) {
      CAPTURE(n_q);
      INFO("m.name := ", std::string(m.name));
      const int offset = n_k - n_q;
      const ae::Matrix q = q_all.bottomRows(n_q);
      const ae::AttentionOptions o = make_options(m, kScales[0], n_k, offset);
      check_case(q, k, v, o);
      if (ref::has_fully_masked_row(o.mask, n_q, n_k)) continue;
      // The new rows must equal the last rows of attention over the whole sequence.
      const ae::Matrix full = ae::attention(q_all, k, v, make_options(m, kScales[0], n_k));
      CHECK_MATRIX_NEAR(ae::attention(q, k, v, o), ae::Matrix(full.bottomRows(n_q)), 1e-6, 1e-5);
    }
}

TEST_CASE("query_offset moves the causal diagonal") {
  // 2 queries at positions 3 and 4 over 5 keys: query 0 sees keys 0..3, query 1 sees all 5.
  ae::AttentionOptions o;
  o.mask.causal = true;
  o.mask.query_offset = 3;
  const ae::AttentionTrace t =
      ae::attention_traced(ref::random_matrix(2, 4, 1), ref::random_matrix(5, 4, 2), ref::random_matrix(5, 3, 3), o);
  CHECK(t.weights(0, 4) == 0.0f);
  for (int j = 0; j < 4; ++j) CHECK(t.weights(0, j) > 0.0f);
  for (int j = 0; j < 5; ++j) CHECK(t.weights(1, j) > 0.0f);
}

TEST_CASE("cross-attention shapes: n_q != n_k and dv != dk") {
  struct Shape {
    int n_q, n_k, dk, dv;
  };
  const Shape shapes[] = {{3, 5, 4, 7}, {16, 4, 8, 2}, {1, 64, 16, 3}, {17, 15, 5, 1}, {64, 1, 3, 9}, {4, 17, 2, 16}};
  for (const Shape& sh : shapes)
    for (const MaskCase& m : {kMasks[0], kMasks[7]})  // cross-attention masks are none or padding
      for (const ScaleCase& s : {kScales[0], kScales[1]}) {
        CAPTURE(sh.n_q);
        CAPTURE(sh.n_k);
        CAPTURE(sh.dk);
        CAPTURE(sh.dv);
        INFO("m.name := ", std::string(m.name));
        const ae::Matrix q = ref::random_matrix(sh.n_q, sh.dk, 40 + sh.n_q),
                         k = ref::random_matrix(sh.n_k, sh.dk, 50 + sh.n_k),
                         v = ref::random_matrix(sh.n_k, sh.dv, 60 + sh.dv);
        const ae::AttentionOptions o = make_options(m, s, sh.n_k);
        const ae::AttentionTrace t = ae::attention_traced(q, k, v, o);
        CHECK(t.weights.rows() == sh.n_q);
        CHECK(t.weights.cols() == sh.n_k);
        CHECK(t.output.rows() == sh.n_q);
        CHECK(t.output.cols() == sh.dv);
        check_case(q, k, v, o);
      }
}

TEST_CASE("causally masked weights are exactly 0") {
  for (int n : kSizes) {
    CAPTURE(n);
    ae::AttentionOptions o;
    o.mask.causal = true;
    const ae::AttentionTrace t =
        ae::attention_traced(ref::random_matrix(n, 4, 7), ref::random_matrix(n, 4, 8), ref::random_matrix(n, 4, 9), o);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (j > i) CHECK(t.weights(i, j) == 0.0f);
        else CHECK(t.weights(i, j) > 0.0f);
      }
  }
}

TEST_CASE("a fully masked query row throws std::invalid_argument naming the query") {
  struct Case {
    const char* name;
    int n;
    ae::AttentionMask mask;
    const char* expected;  // substring of the message
  };
  const ae::AttentionMask pad_all{false, 0, 0, {1, 1, 1, 1}};
  const ae::AttentionMask window1_pad2{false, 1, 0, {0, 0, 1, 0}};
  const ae::AttentionMask causal_pad0{true, 0, 0, {1, 0, 0, 0}};
  const Case cases[] = {
      {"every key padded", 4, pad_all, "query 0"},
      {"window 1, own key padded", 4, window1_pad2, "query 2"},
      {"causal, first key padded", 4, causal_pad0, "query 0"},
  };
  for (const Case& c : cases) {
    INFO("c.name := ", std::string(c.name));
    ae::AttentionOptions o;
    o.mask = c.mask;
    const ae::Matrix x = ref::random_matrix(c.n, 4, 5);
    CHECK_THROWS_WITH_AS(ae::attention_traced(x, x, x, o), doctest::Contains(c.expected), std::invalid_argument);
    CHECK_THROWS_WITH_AS(ae::attention(x, x, x, o), doctest::Contains(c.expected), std::invalid_argument);
  }
}

TEST_CASE("attention rejects malformed inputs with a message") {
  const ae::Matrix q = ref::random_matrix(3, 4, 1), k = ref::random_matrix(5, 4, 2), v = ref::random_matrix(5, 2, 3);
  ae::Matrix q_nan = q;
  q_nan(1, 2) = std::numeric_limits<float>::quiet_NaN();
  ae::AttentionOptions pad3, negative_window, negative_offset, inf_multiplier;
  pad3.mask.key_padding = {0, 0, 1};
  negative_window.mask.window = -1;
  negative_offset.mask.query_offset = -2;
  inf_multiplier.score_multiplier = std::numeric_limits<float>::infinity();
  const ae::AttentionOptions plain;

  CHECK_THROWS_WITH_AS(ae::attention(q, ref::random_matrix(5, 3, 4), v, plain), doctest::Contains("same width"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(q, k, ref::random_matrix(4, 2, 4), plain), doctest::Contains("one row per key"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(ae::Matrix(0, 4), k, v, plain), doctest::Contains("empty"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(q_nan, k, v, plain), doctest::Contains("NaN"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(q, k, v, pad3), doctest::Contains("key_padding"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(q, k, v, negative_window), doctest::Contains("window"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(q, k, v, negative_offset), doctest::Contains("query_offset"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(q, k, v, inf_multiplier), doctest::Contains("score_multiplier"),
                       std::invalid_argument);
}

TEST_CASE("attention_score_scale is multiplier/sqrt(dk), or the multiplier alone when scaling is off") {
  for (int dk : {1, 4, 16, 64, 100}) {
    CAPTURE(dk);
    ae::AttentionOptions o;
    CHECK(ae::attention_score_scale(dk, o) == doctest::Approx(1.0 / std::sqrt(dk)).epsilon(1e-7));
    o.score_multiplier = 2.5f;
    CHECK(ae::attention_score_scale(dk, o) == doctest::Approx(2.5 / std::sqrt(dk)).epsilon(1e-7));
    o.scale = false;
    CHECK(ae::attention_score_scale(dk, o) == 2.5f);
  }
}

TEST_CASE("with scaling off and multiplier 1, scaled scores equal raw scores exactly") {
  ae::AttentionOptions o;
  o.scale = false;
  const ae::AttentionTrace t =
      ae::attention_traced(ref::random_matrix(5, 16, 1), ref::random_matrix(7, 16, 2), ref::random_matrix(7, 3, 3), o);
  CHECK_MATRIX_EQUAL(t.scaled_scores, t.raw_scores);
}

// For q, k with independent unit-variance entries, Var(q·k) = d; the 1/√d scale brings it to 1.
// The scores come from attention_traced itself, one 1×1 call per sample.
TEST_CASE("statistics: Var(q.k) is about d, and about 1 after the 1/sqrt(d) scale") {
  const int kSamples = 20000;
  for (int d : {4, 16, 64, 256}) {
    CAPTURE(d);
    ae::Rng rng(9000 + static_cast<uint64_t>(d));
    ae::Matrix q(1, d), k(1, d);
    const ae::Matrix v = ae::Matrix::Ones(1, 1);
    double raw_sq = 0.0, scaled_sq = 0.0;  // the mean is 0, so Var = E[x²]
    for (int s = 0; s < kSamples; ++s) {
      for (int c = 0; c < d; ++c)
        q(0, c) = static_cast<float>(rng.normal()), k(0, c) = static_cast<float>(rng.normal());
      const ae::AttentionTrace t = ae::attention_traced(q, k, v, ae::AttentionOptions{});
      raw_sq += static_cast<double>(t.raw_scores(0, 0)) * t.raw_scores(0, 0);
      scaled_sq += static_cast<double>(t.scaled_scores(0, 0)) * t.scaled_scores(0, 0);
    }
    // Relative standard error of the estimate is √((2 + 6/d)/N) ≤ 1.3%; 10% is > 7 sigma.
    CHECK(raw_sq / kSamples == doctest::Approx(d).epsilon(0.10));
    CHECK(scaled_sq / kSamples == doctest::Approx(1.0).epsilon(0.10));
  }
}

// --- hostile but finite input: an error or finite weights, never NaN ------------------------

// Every weight finite and every row summing to 1, or else the call threw.
void check_finite_weights(const ae::AttentionTrace& t) {
  int non_finite = 0;
  for (Eigen::Index i = 0; i < t.weights.size(); ++i) non_finite += !std::isfinite(t.weights.data()[i]);
  CHECK_MESSAGE(non_finite == 0, non_finite << " weights are NaN or infinite");
  check_rows_sum_to_one(t.weights);
}

ae::Matrix row_of(std::vector<float> values) {
  ae::Matrix m(1, static_cast<Eigen::Index>(values.size()));
  for (size_t j = 0; j < values.size(); ++j) m(0, static_cast<Eigen::Index>(j)) = values[j];
  return m;
}

TEST_CASE("scores that overflow float are an error naming the query and key, not NaN weights") {
  // The audit's case: q = k = [1e20, 0, 0, 1] gives q·k = 1e40 > FLT_MAX.
  const ae::Matrix x = row_of({1e20f, 0.0f, 0.0f, 1.0f});
  for (bool traced : {true, false}) {
    CAPTURE(traced);
    auto run = [&](const ae::AttentionOptions& o) {
      return traced ? ae::attention_traced(x, x, x, o).weights : ae::attention(x, x, x, o);
    };
    CHECK_THROWS_WITH_AS(run({}), doctest::Contains("score of query 0 and key 0 overflows float"),
                         std::invalid_argument);
    // A finite q·k that the multiplier pushes past FLT_MAX: 2/√4 · 3e38 = 3e38 is fine, ·2 is not.
    ae::AttentionOptions big;
    big.score_multiplier = 3e38f;
    const ae::Matrix two = row_of({1.0f, 1.0f, 1.0f, 1.0f});  // q·k = 4, scaled 2
    CHECK_THROWS_WITH_AS(traced ? ae::attention_traced(two, two, two, big).weights : ae::attention(two, two, two, big),
                         doctest::Contains("overflows float"), std::invalid_argument);
  }
}

TEST_CASE("huge but representable scores give exact one-hot weights (the max is subtracted)") {
  // q·k up to 1e36 and −1e36: without max-subtraction exp() would overflow.
  ae::Matrix q = row_of({1e18f, 0.0f});
  ae::Matrix k(3, 2);
  k << 1e18f, 0.0f, -1e18f, 0.0f, 0.0f, 1.0f;
  const ae::AttentionTrace t = ae::attention_traced(q, k, ref::random_matrix(3, 2, 9), {});
  check_finite_weights(t);
  CHECK(t.weights(0, 0) == 1.0f);
  CHECK(t.weights(0, 1) == 0.0f);
  ae::AttentionOptions largest;
  largest.scale = false;
  largest.score_multiplier = 3e38f;  // scores of ±3e38 and 0: the difference overflows to −inf, exp gives 0
  const ae::Matrix unit = row_of({1.0f, 0.0f});
  ae::Matrix keys(2, 2);
  keys << 1.0f, 0.0f, -1.0f, 0.0f;
  const ae::AttentionTrace u = ae::attention_traced(unit, keys, keys, largest);
  check_finite_weights(u);
  CHECK(u.weights(0, 0) == 1.0f);
}

TEST_CASE("query_offset near 2^31: 64-bit positions, and an error past the largest position") {
  constexpr int kLargest = std::numeric_limits<int>::max();
  const ae::Matrix k = ref::random_matrix(4, 3, 1), v = ref::random_matrix(4, 2, 2);
  ae::AttentionOptions o;
  o.mask.causal = true;
  o.mask.window = 2;
  o.mask.query_offset = kLargest;  // the audit's UBSan case: query_offset + i overflowed int
  // One query at position 2³¹ − 1 sees every key causally; the window hides them all.
  CHECK_THROWS_WITH_AS(ae::attention_traced(ref::random_matrix(1, 3, 3), k, v, o),
                       doctest::Contains("every key is masked"), std::invalid_argument);
  o.mask.window = 0;
  check_finite_weights(ae::attention_traced(ref::random_matrix(1, 3, 3), k, v, o));
  o.mask.query_offset = kLargest - 1;
  check_finite_weights(ae::attention_traced(ref::random_matrix(2, 3, 3), k, v, o));
  o.mask.query_offset = kLargest;
  CHECK_THROWS_WITH_AS(ae::attention(ref::random_matrix(2, 3, 3), k, v, o),
                       doctest::Contains("puts query 1 at position 2147483648, beyond the largest position"),
                       std::invalid_argument);
}
