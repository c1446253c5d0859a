// Fused attention (online softmax): against the double-precision reference and ae::attention
// over a sweep of sizes, masks, key-block sizes (so that 1 to ~65 key blocks are crossed),
// KV-cache offsets and cross-attention shapes; logits up to ~1e4 that would overflow a
// softmax without max subtraction; the same errors as ae::attention; and the vector exp
// it relies on. Also built to wasm (kernel_tests_wasm) and run by ctest.
#include "ops/activation.h"
#include "ops/attention_fused.h"
#include "reference.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

constexpr int kSizes[] = {1, 3, 4, 5, 15, 16, 17, 63, 64, 65, 100, 257};

using ref::mask_options;
using ref::MaskCase;

constexpr MaskCase kMasks[] = {
    {"none", false, 0, false},
    {"causal", true, 0, false},
    {"window 1", false, 1, false},
    {"window 5", false, 5, false},
    {"window 40", false, 40, false},
    {"causal window 3", true, 3, false},
    {"causal window 70", true, 70, false},
    {"key padding", false, 0, true},
    {"causal + padding", true, 0, true},
    {"window 1 + padding", false, 1, true},
};

std::string message_of(const auto& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

// Tolerances for unit-variance inputs with dk ≤ 16 (scores up to ~±12 with the scale on):
// weights carry the score rounding (~dk·u·|q||k| ≈ 1e-6) and the exp polynomial's 2 ulp;
// the output sums up to 257 of them times |v| ≲ 4, in float.
constexpr double kAbsTol = 2e-5, kRelTol = 1e-4;

// Compares every variant of fused attention (mul + add, fused multiply-add) with the reference
// and with ae::attention, or, when the mask hides every key of some query, checks that they
// throw the same message.
void check_case(const ae::Matrix& q, const ae::Matrix& k, const ae::Matrix& v, const ae::AttentionOptions& o,
                int key_block) {
  CAPTURE(key_block);
  const int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows());
  const bool refused = ref::has_fully_masked_row(o.mask, n, m);
  const std::string expected_error = refused ? message_of([&] { ae::attention(q, k, v, o); }) : "";
  const ref::AttentionSteps expected =
      refused ? ref::AttentionSteps{} : ref::attention(ref::to_double(q), ref::to_double(k), ref::to_double(v), o);
  const ae::Matrix traced = refused ? ae::Matrix() : ae::attention(q, k, v, o);
  for (const ae::FusedAttentionKernel& kernel : ae::attention_fused_kernels()) {
    CAPTURE(kernel.name);
    ae::Matrix out(n, v.cols());
    const auto run = [&] {
      kernel.fn(q.data(), k.data(), v.data(), n, m, static_cast<int>(q.cols()), static_cast<int>(v.cols()), o,
                out.data(), key_block);
    };
    if (refused) {
      CHECK(message_of(run) == expected_error);
      continue;
    }
    run();
    CHECK_MATRIX_NEAR(out, expected.output, kAbsTol, kRelTol);
    CHECK_MATRIX_NEAR(out, traced, kAbsTol, kRelTol);
  }
}

}  // namespace

TEST_CASE("fused attention matches the reference for every size, mask and key block") {
  for (int n : kSizes)
    for (const MaskCase& mask : kMasks)
      for (int key_block : {1, 4, 7, 64}) {
        if (n > 64 && key_block < 4) continue;  // 1-key blocks at n = 257 only repeat n = 64, slowly
        CAPTURE(n);
        CAPTURE(mask.name);
        const ae::Matrix q = ref::random_matrix(n, 8, 1000 + n), k = ref::random_matrix(n, 8, 2000 + n),
                         v = ref::random_matrix(n, 16, 3000 + n);
        check_case(q, k, v, mask_options(mask, n), key_block);
      }
}

TEST_CASE("scale off, score multipliers (also negative), and head widths that are not multiples of 8") {
  struct Variant {
    bool scale;
    float multiplier;
    int dk, dv;
  };
  const Variant variants[] = {{false, 1.0f, 5, 3},   {true, 0.5f, 16, 9}, {true, 3.0f, 1, 1},
                              {false, -2.0f, 7, 17}, {true, 0.0f, 4, 8},  {true, 1.0f, 64, 64}};
  for (const Variant& var : variants)
    for (int n : {1, 5, 17, 65})
      for (const MaskCase& mask : {kMasks[0], kMasks[1], kMasks[5], kMasks[8]}) {
        CAPTURE(var.dk);
        CAPTURE(var.dv);
        CAPTURE(var.multiplier);
        CAPTURE(n);
        CAPTURE(mask.name);
        const ae::Matrix q = ref::random_matrix(n, var.dk, 10 + n), k = ref::random_matrix(n, var.dk, 20 + n),
                         v = ref::random_matrix(n, var.dv, 30 + n);
        check_case(q, k, v, mask_options(mask, n, 0, var.scale, var.multiplier), 16);
      }
}

TEST_CASE("query_offset: new queries over a longer key cache, across key blocks") {
  const int n_k = 100;
  const ae::Matrix q_all = ref::random_matrix(n_k, 8, 11), k = ref::random_matrix(n_k, 8, 12),
                   v = ref::random_matrix(n_k, 8, 13);
  for (int n_q : {1, 3, 8, 9, 40, 100})
    for (const MaskCase& mask : kMasks) {
      CAPTURE(n_q);
      CAPTURE(mask.name);
      const ae::Matrix q = q_all.bottomRows(n_q);
      check_case(q, k, v, mask_options(mask, n_k, n_k - n_q), 16);
    }
}

TEST_CASE("cross-attention shapes: n != m") {
  const int shapes[][4] = {{3, 5, 4, 7},   {16, 4, 8, 2}, {1, 257, 16, 3},
                           {17, 15, 5, 1}, {64, 1, 3, 9}, {9, 130, 2, 16}};
  for (const auto& s : shapes)
    for (const MaskCase& mask : {kMasks[0], kMasks[7]}) {
      CAPTURE(s[0]);
      CAPTURE(s[1]);
      CAPTURE(mask.name);
      const ae::Matrix q = ref::random_matrix(s[0], s[2], 40 + s[0]), k = ref::random_matrix(s[1], s[2], 50 + s[1]),
                       v = ref::random_matrix(s[1], s[3], 60 + s[3]);
      check_case(q, k, v, mask_options(mask, s[1]), 32);
    }
}

TEST_CASE("logits of ~1e4 give finite outputs equal to the reference") {
  // Without max subtraction e^10000 overflows float at once. Entries of size 50 with dk = 16
  // and the scale off give scores with a spread of ~1e4; a score rounding of ~dk·u·Σ|q·k|
  // ≈ 0.04 moves a weight by at most 4 %, and only between near-tied keys, which these
  // seeds do not have: the softmax is then one-hot up to e^(−gap).
  for (int n : {5, 64, 257})
    for (const MaskCase& mask : {kMasks[0], kMasks[1], kMasks[3]}) {
      CAPTURE(n);
      CAPTURE(mask.name);
      const ae::Matrix q = ref::random_matrix(n, 16, 70 + n, 50.0), k = ref::random_matrix(n, 16, 80 + n, 50.0),
                       v = ref::random_matrix(n, 8, 90 + n);
      const ae::AttentionOptions o = mask_options(mask, n, 0, false);
      const ae::Matrix out = ae::attention_fused(q, k, v, o);
      CHECK(ae::all_finite(out));
      const ref::AttentionSteps expected = ref::attention(ref::to_double(q), ref::to_double(k), ref::to_double(v), o);
      CHECK_MATRIX_NEAR(out, expected.output, 1e-3, 1e-3);
    }
}

TEST_CASE("running maximum that rises (or falls) in every key block") {
  // Key j has score j·c with the query; with c = 100 the scores climb to ~2.5e4, so each new
  // key block rescales everything kept so far by e^(−100·block) — an underflow to exactly 0
  // that must not turn into NaN. Falling scores never rescale.
  const int n_k = 257, dk = 4;
  for (double c : {100.0, -100.0, 0.01}) {
    CAPTURE(c);
    ae::Matrix q = ae::Matrix::Zero(3, dk), k = ae::Matrix::Zero(n_k, dk);
    q.col(0).setConstant(1.0f);
    for (int j = 0; j < n_k; ++j) k(j, 0) = static_cast<float>(j * c);
    const ae::Matrix v = ref::random_matrix(n_k, 8, 5);
    ae::AttentionOptions o;
    o.scale = false;
    for (int key_block : {1, 16, 64}) {
      CAPTURE(key_block);
      ae::Matrix out(3, 8);
      ae::attention_fused(q.data(), k.data(), v.data(), 3, n_k, dk, 8, o, out.data(), key_block);
      CHECK(ae::all_finite(out));
      const ref::AttentionSteps expected = ref::attention(ref::to_double(q), ref::to_double(k), ref::to_double(v), o);
      CHECK_MATRIX_NEAR(out, expected.output, 1e-5, 1e-4);
    }
  }
}

TEST_CASE("equal huge logits average V exactly as the reference does") {
  // Every score is 1e4·(same value): the weights must be uniform, not NaN from inf − inf.
  const int n = 33;
  const ae::Matrix q = ae::Matrix::Constant(n, 4, 50.0f), k = ae::Matrix::Constant(n, 4, 50.0f);
  const ae::Matrix v = ref::random_matrix(n, 5, 9);
  ae::AttentionOptions o;
  o.scale = false;
  const ae::Matrix out = ae::attention_fused(q, k, v, o);
  const ae::Vector mean = v.colwise().mean();
  for (int i = 0; i < n; ++i) CHECK_MATRIX_NEAR(ae::Matrix(out.row(i)), ae::Matrix(mean), 1e-6, 1e-5);
}

TEST_CASE("errors: the same std::invalid_argument messages as ae::attention") {
  const ae::Matrix q = ref::random_matrix(4, 3, 1), k = ref::random_matrix(5, 3, 2), v = ref::random_matrix(5, 2, 3);
  ae::Matrix q_nan = q;
  q_nan(1, 2) = std::numeric_limits<float>::quiet_NaN();
  ae::Matrix v_inf = v;
  v_inf(0, 0) = std::numeric_limits<float>::infinity();
  ae::AttentionOptions ok, bad_pad, bad_window, bad_offset, bad_multiplier, all_padded, window_self_padded;
  bad_pad.mask.key_padding = {0, 1};
  bad_window.mask.window = -1;
  bad_offset.mask.query_offset = -2;
  bad_multiplier.score_multiplier = std::numeric_limits<float>::infinity();
  all_padded.mask.key_padding = {1, 1, 1, 1, 1};
  window_self_padded.mask.window = 1;
  window_self_padded.mask.key_padding = {0, 0, 1, 0, 0};

  struct Case {
    const char* name;
    ae::Matrix q, k, v;
    ae::AttentionOptions o;
  };
  const Case cases[] = {
      {"empty Q", ae::Matrix(0, 3), k, v, ok},
      {"dk mismatch", ref::random_matrix(4, 2, 1), k, v, ok},
      {"K/V rows", q, k, ref::random_matrix(4, 2, 3), ok},
      {"NaN in Q", q_nan, k, v, ok},
      {"inf in V", q, k, v_inf, ok},
      {"padding length", q, k, v, bad_pad},
      {"negative window", q, k, v, bad_window},
      {"negative offset", q, k, v, bad_offset},
      {"infinite multiplier", q, k, v, bad_multiplier},
      {"every key padded", q, k, v, all_padded},
      {"window 1, own key padded", q, k, v, window_self_padded},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string expected = message_of([&] { ae::attention(c.q, c.k, c.v, c.o); });
    CHECK(expected.rfind("attention: ", 0) == 0);
    CHECK(message_of([&] { ae::attention_fused(c.q, c.k, c.v, c.o); }) == expected);
  }
  ae::Matrix out(4, 2);
  CHECK_THROWS_WITH_AS(ae::attention_fused(q.data(), k.data(), v.data(), 4, 5, 3, 2, ok, out.data(), 0),
                       doctest::Contains("key_block"), std::invalid_argument);
  // Dropout: an out-of-range rate fails as in ae::attention; a valid one is refused, since
  // the fused kernel has no dropout and must not silently compute something else.
  ae::AttentionOptions bad_dropout, dropout;
  bad_dropout.dropout = 1.0f;
  dropout.dropout = 0.1f;
  CHECK(message_of([&] { ae::attention_fused(q, k, v, bad_dropout); }) ==
        message_of([&] { ae::attention(q, k, v, bad_dropout); }));
  CHECK_THROWS_WITH_AS(ae::attention_fused(q, k, v, dropout), doctest::Contains("no dropout"), std::invalid_argument);
}

TEST_CASE("exp_nonpositive, every variant: within 3 ulp of std::exp on [−87.3, 0], exactly 0 below and at −∞") {
  std::vector<float> x(400004), y(x.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = -87.3f * static_cast<float>(i) / 400003.0f;
  const float special[5] = {-std::numeric_limits<float>::infinity(), -87.5f, -1000.0f, 0.0f, -0x1p-30f};
  for (const ae::VectorKernel& kernel : ae::exp_nonpositive_kernels()) {
    CAPTURE(kernel.name);
    double worst_ulps = 0.0;
    float worst_x = 0.0f;
    // Every length 1…9 first, so that each tail of one to three values is covered.
    for (size_t n = 1; n <= 9; ++n) kernel.fn(x.data() + 1000, y.data() + 1000, n);
    kernel.fn(x.data(), y.data(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = std::exp(static_cast<double>(x[i]));
      const double ulp = std::nextafter(static_cast<float>(want), 1.0f) - static_cast<float>(want);
      const double ulps = std::abs(y[i] - want) / ulp;
      if (ulps > worst_ulps) worst_ulps = ulps, worst_x = x[i];
    }
    CAPTURE(worst_x);
    MESSAGE(kernel.name << ": worst error " << worst_ulps << " ulp");
    CHECK(worst_ulps <= 3.0);
    float e[5];
    kernel.fn(special, e, 5);  // the fifth value goes through the padded tail
    CHECK(e[0] == 0.0f);
    CHECK(e[1] == 0.0f);
    CHECK(e[2] == 0.0f);
    CHECK(e[3] == 1.0f);
    CHECK(e[4] == 1.0f);
  }
}

TEST_CASE("fused: a score that overflows float is the same error as ae::attention's, and positions are 64-bit") {
  ae::Matrix x(2, 4);
  x << 1.0f, 0.0f, 0.0f, 1.0f, 1e20f, 0.0f, 0.0f, 1.0f;  // q1·k1 = 1e40
  const char* expected = "attention: the score of query 1 and key 1 overflows float";
  CHECK_THROWS_WITH_AS(ae::attention_fused(x, x, x, {}), doctest::Contains(expected), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::attention(x, x, x, {}), doctest::Contains(expected), std::invalid_argument);
  ae::AttentionOptions late;
  late.mask.causal = true;
  late.mask.query_offset = std::numeric_limits<int>::max() - 1;
  const ae::Matrix small = x.topRows(1);
  CHECK_NOTHROW(
      ae::attention_fused(ae::Matrix(x.topRows(2) * 0.5f), small.replicate(3, 1), small.replicate(3, 1), late));
  late.mask.query_offset += 1;
  CHECK_THROWS_WITH_AS(ae::attention_fused(ae::Matrix(x * 0.5f), small.replicate(3, 1), small.replicate(3, 1), late),
                       doctest::Contains("beyond the largest position"), std::invalid_argument);
}

TEST_CASE("attention_fused_scratch_bytes refuses sizes attention refuses, and counts in 64 bits") {
  CHECK_THROWS_AS(ae::attention_fused_scratch_bytes(-5, 4, 4, true), std::invalid_argument);
  CHECK_THROWS_AS(ae::attention_fused_scratch_bytes(0, 4, 4, false), std::invalid_argument);
  CHECK_THROWS_AS(ae::attention_fused_scratch_bytes(4, 0, 4, false), std::invalid_argument);
  CHECK_THROWS_AS(ae::attention_fused_scratch_bytes(4, 4, -1, false), std::invalid_argument);
  // The mask's m + 1 flags are counted: one more key, one more int.
  CHECK(ae::attention_fused_scratch_bytes(5, 4, 4, true) - ae::attention_fused_scratch_bytes(4, 4, 4, true) ==
        sizeof(int));
}
