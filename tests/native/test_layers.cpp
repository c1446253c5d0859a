// Building blocks against plain-loop references: layer_norm, gelu, Linear, FeedForward,
// MultiHeadAttention (with RoPE, masks, cross shapes, head ablation) and TransformerLayer
// (pre-LN and post-LN, with and without cross-attention).
#include "model/layers.h"
#include "ops/activation.h"
#include "ops/norm.h"
#include "reference.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace {

constexpr int kSizes[] = {1, 3, 4, 5, 15, 16, 17, 64};

// One case of Linear or FeedForward: n rows of `width` features through `inner` (Linear's
// output width, FeedForward's hidden width).
struct Shape {
  int n, width, inner;
};

std::ostream& operator<<(std::ostream& os, const Shape& s) {
  return os << "n " << s.n << ", width " << s.width << ", inner " << s.inner;
}

// Fills every parameter a visit() reaches with N(0, scale²) values, so biases and norm gains
// are not the trivial 0 and 1 that would hide a missing term.
template <class Module>
void randomize(Module& module, uint64_t seed, double scale = 0.3) {
  module.visit("m", [&](const std::string&, ae::Matrix& m) {
    m = ref::random_matrix(static_cast<int>(m.rows()), static_cast<int>(m.cols()), seed++, scale);
  });
}

template <class Module>
size_t count_parameters(Module& module) {
  size_t n = 0;
  module.visit("m", [&](const std::string&, ae::Matrix& m) { n += static_cast<size_t>(m.size()); });
  return n;
}

ref::DMat layer_norm_ref(const ae::Matrix& x, const ae::LayerNorm& ln) {
  return ref::layer_norm(ref::to_double(x), ref::to_double(ln.gamma), ref::to_double(ln.beta), ln.eps);
}

ref::DMat layer_norm_ref(const ref::DMat& x, const ae::LayerNorm& ln) {
  return ref::layer_norm(x, ref::to_double(ln.gamma), ref::to_double(ln.beta), ln.eps);
}

}  // namespace

// --- layer_norm ---------------------------------------------------------------------------

TEST_CASE("layer_norm matches the reference for every width, eps and offset") {
  for (int d : kSizes)
    for (float eps : {1e-5f, 1e-2f})
      for (double offset : {0.0, 50.0}) {
        CAPTURE(d);
        CAPTURE(eps);
        CAPTURE(offset);
        ae::Matrix x = ref::random_matrix(5, d, 500 + d, 2.0);
        x.array() += static_cast<float>(offset);
        const ae::Matrix gamma = ref::random_matrix(1, d, 600 + d), beta = ref::random_matrix(1, d, 700 + d);
        // Float mean/variance over ≤ 64 entries; an offset of 50 costs ~50·ε relative in x − mean,
        // amplified by 1/σ ≈ 0.5 and |γ| ≲ 3.
        CHECK_MATRIX_NEAR(ae::layer_norm(x, gamma, beta, eps),
                          ref::layer_norm(ref::to_double(x), ref::to_double(gamma), ref::to_double(beta), eps), 2e-5,
                          1e-5);
      }
}

TEST_CASE("layer_norm with unit gain and zero bias gives rows of mean 0 and variance 1") {
  for (int d : {4, 16, 64}) {
    CAPTURE(d);
    const ae::Matrix y =
        ae::layer_norm(ref::random_matrix(6, d, 800 + d, 5.0), ae::Matrix::Ones(1, d), ae::Matrix::Zero(1, d), 1e-5f);
    for (int r = 0; r < y.rows(); ++r) {
      const double mean = y.row(r).cast<double>().mean();
      const double var = (y.row(r).cast<double>().array() - mean).square().mean();
      CHECK(std::abs(mean) <= 1e-6);
      CHECK(var == doctest::Approx(1.0).epsilon(1e-5));  // eps = 1e-5 against a variance of ~25
    }
  }
}

TEST_CASE("layer_norm rejects gamma/beta of the wrong size, and LayerNorm forwards to it") {
  const ae::Matrix x = ref::random_matrix(3, 8, 1);
  CHECK_THROWS_WITH_AS(ae::layer_norm(x, ae::Matrix::Ones(1, 7), ae::Matrix::Zero(1, 8), 1e-5f),
                       doctest::Contains("gamma"), std::invalid_argument);
  ae::LayerNorm ln(8, 1e-5f);
  CHECK_MATRIX_EQUAL(ln.gamma, ae::Matrix(ae::Matrix::Ones(1, 8)));
  CHECK_MATRIX_EQUAL(ln.beta, ae::Matrix(ae::Matrix::Zero(1, 8)));
  randomize(ln, 2);
  CHECK_MATRIX_NEAR(ln.forward(x), layer_norm_ref(x, ln), 1e-6, 1e-6);  // no offset: a few ulp
}

// --- gelu ---------------------------------------------------------------------------------

// d gelu/dx of the tanh form, in double.
double gelu_derivative_ref(double x) {
  const double k = std::sqrt(2.0 / 3.141592653589793), u = k * (x + 0.044715 * x * x * x);
  const double t = std::tanh(u);
  return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x);
}

// Relative error measured against the double reference; 1e-7 absolute covers values near 0.
bool gelu_close(double got, double want, double relative) {
  return std::abs(got - want) <= relative * std::abs(want) + 1e-7;
}

TEST_CASE("gelu follows the tanh formula at many points, to a few ulp also for x < 0") {
  for (float x : {-10.0f, -5.0f, -3.0f, -1.5f, -1.0f, -0.5f, -0.1f, 0.0f, 0.1f, 0.5f, 1.0f, 1.5f, 3.0f, 5.0f, 10.0f}) {
    CAPTURE(x);
    CHECK(gelu_close(ae::gelu(x), ref::gelu(x), 1e-6));
  }
  // x·σ(2u) has no cancellation where 1 + tanh(u) has: at x = −5 the value (−2.3e-6) keeps its digits.
  CHECK(std::abs(ae::gelu(-5.0f) - ref::gelu(-5.0)) <= 1e-6 * std::abs(ref::gelu(-5.0)));
  // Published values of the tanh approximation.
  CHECK(ae::gelu(1.0f) == doctest::Approx(0.8411920).epsilon(1e-6));
  CHECK(ae::gelu(-1.0f) == doctest::Approx(-0.1588080).epsilon(1e-6));
  CHECK(ae::gelu(0.0f) == 0.0f);
}

TEST_CASE("gelu saturates exactly: x for large x, 0 for very negative x, also for huge values") {
  for (float x : {10.0f, 11.0f, 100.0f, 1e6f, 1e30f}) CHECK(ae::gelu(x) == x);
  for (float x : {-11.0f, -20.0f, -1e6f, -1e30f}) CHECK(ae::gelu(x) == 0.0f);
}

TEST_CASE("gelu_values equals the scalar gelu bit for bit, at every length and alignment") {
  // One kernel serves whole groups of four and the padded tail: no value depends on where it sits.
  std::vector<float> x(70);
  for (size_t i = 0; i < x.size(); ++i) x[i] = -8.0f + 0.23f * static_cast<float>(i);
  for (int n : kSizes) {
    for (size_t offset : {size_t{0}, size_t{1}, size_t{3}}) {
      CAPTURE(n);
      CAPTURE(offset);
      std::vector<float> y(static_cast<size_t>(n), -1.0f), dy(static_cast<size_t>(n), -1.0f),
          y2(static_cast<size_t>(n));
      ae::gelu_values(x.data() + offset, y.data(), static_cast<size_t>(n));
      ae::gelu_values_and_derivative(x.data() + offset, y2.data(), dy.data(), static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        const float xi = x[offset + static_cast<size_t>(i)];
        CHECK(y[static_cast<size_t>(i)] == ae::gelu(xi));
        CHECK(y2[static_cast<size_t>(i)] == y[static_cast<size_t>(i)]);
        CHECK(std::abs(dy[static_cast<size_t>(i)] - gelu_derivative_ref(xi)) < 5e-7);
      }
    }
  }
}

TEST_CASE("gelu's derivative matches the analytic one and central differences, on a fine grid") {
  double worst = 0.0;
  for (double x = -12.0; x <= 12.0; x += 0.01) {
    const float xf = static_cast<float>(x);
    float y, dy;
    ae::gelu_values_and_derivative(&xf, &y, &dy, 1);
    const double want = gelu_derivative_ref(xf);
    worst = std::max(worst, std::abs(dy - want));  // |gelu'| ≤ 1.13: the sum's two terms cancel near x = −0.75
    const double h = 1e-4, difference = (ref::gelu(xf + h) - ref::gelu(xf - h)) / (2 * h);
    CHECK(std::abs(want - difference) < 1e-6);  // the reference derivative itself
    CHECK(y == ae::gelu(xf));
  }
  CAPTURE(worst);
  CHECK(worst < 5e-7);
}

TEST_CASE("gelu on a matrix applies the scalar function to every entry") {
  const ae::Matrix x = ref::random_matrix(7, 9, 3, 3.0);
  ref::DMat expected = ref::to_double(x);
  for (double& v : expected.v) v = ref::gelu(v);
  CHECK_MATRIX_NEAR(ae::gelu(x), expected, 1e-6, 1e-6);  // as above, with |x| ≲ 10
}

TEST_CASE("gelu's tanh form stays within 1e-3 of the exact erf form") {
  for (double x = -6.0; x <= 6.0; x += 0.25) {
    CAPTURE(x);
    const double exact = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    CHECK(std::abs(ae::gelu(static_cast<float>(x)) - exact) < 1e-3);  // max gap of the approximation ≈ 5e-4
  }
}

// --- Linear and FeedForward ---------------------------------------------------------------

TEST_CASE("Linear computes x.W + b") {
  for (const Shape s : {Shape{1, 1, 1}, Shape{3, 4, 5}, Shape{16, 15, 17}, Shape{5, 64, 16}, Shape{17, 16, 64}}) {
    CAPTURE(s);
    ae::Linear layer(s.width, s.inner);
    randomize(layer, 10 + s.width, 1.0);
    const ae::Matrix x = ref::random_matrix(s.n, s.width, 20 + s.n);
    // Float dot products over ≤ 64 unit-variance terms (|y| ≲ 30): observed ≲ 2e-6.
    CHECK_MATRIX_NEAR(layer.forward(x), ref::linear(ref::to_double(x), layer), 1e-5, 1e-6);
  }
}

TEST_CASE("Linear rejects inputs of the wrong width") {
  ae::Linear layer(4, 3);
  CHECK_THROWS_WITH_AS(layer.forward(ae::Matrix::Zero(2, 5)), doctest::Contains("4 features"), std::invalid_argument);
}

TEST_CASE("Linear::init_random draws N(0, 1/in) weights and zero biases") {
  ae::Linear layer(256, 64);
  layer.bias.setOnes();
  ae::Rng rng(77);
  layer.init_random(rng);
  CHECK(layer.bias.cwiseAbs().maxCoeff() == 0.0f);
  const double var = layer.weight.cast<double>().array().square().mean();
  // 16384 samples: the variance estimate has relative error √(2/16384) ≈ 1.1%.
  CHECK(var * 256 == doctest::Approx(1.0).epsilon(0.05));
}

TEST_CASE("FeedForward is project(gelu(expand(x)))") {
  for (const Shape s : {Shape{1, 4, 16}, Shape{5, 8, 32}, Shape{17, 16, 64}, Shape{3, 15, 7}}) {
    CAPTURE(s);
    ae::FeedForward ffn(s.width, s.inner);
    randomize(ffn, 30 + s.width, 0.5);
    const ae::Matrix x = ref::random_matrix(s.n, s.width, 40 + s.n);
    // Two float products over ≤ 64 terms, see Linear.
    CHECK_MATRIX_NEAR(ffn.forward(x), ref::feed_forward(ref::to_double(x), ffn), 1e-5, 1e-6);
  }
}

// --- MultiHeadAttention -------------------------------------------------------------------

namespace {

struct HeadShape {
  int d, h;
};
constexpr HeadShape kHeadShapes[] = {{8, 1}, {8, 2}, {16, 4}, {12, 3}, {32, 8}, {6, 6}, {64, 4}};

struct MhaCase {
  const char* name;
  ae::AttentionOptions options;
};

std::vector<MhaCase> mha_cases(int n_q, int n_k) {
  std::vector<MhaCase> cases(4);
  cases[0].name = "no mask";
  cases[1].name = "causal";
  cases[1].options.mask.causal = true;
  cases[1].options.mask.query_offset = n_k - n_q;
  cases[2].name = "window 2, unscaled";
  cases[2].options.mask.window = 2;
  cases[2].options.mask.query_offset = n_k - n_q;
  cases[2].options.scale = false;
  cases[3].name = "padding, multiplier 2";
  cases[3].options.mask.key_padding.assign(static_cast<size_t>(n_k), 0);
  cases[3].options.mask.key_padding.back() = n_k > 1;
  cases[3].options.score_multiplier = 2.0f;
  return cases;
}

// Every step of one multi-head call against ref::multi_head.
void check_multi_head(const ae::MultiHeadAttention& mha, const ae::Matrix& xq, const ae::Matrix& xkv,
                      const ae::AttentionOptions& o, std::optional<float> rope_base,
                      const std::vector<uint8_t>* head_active) {
  std::optional<ae::RopeSettings> rope;
  if (rope_base) rope = ae::RopeSettings{*rope_base};
  ae::MultiHeadTrace trace;
  const ae::Matrix out = mha.forward(xq, xkv, o, rope, head_active, &trace);
  const ref::MultiHeadSteps expected =
      ref::multi_head(mha, ref::to_double(xq), ref::to_double(xkv), o,
                      rope_base ? std::optional<double>(*rope_base) : std::nullopt, head_active);
  REQUIRE(trace.heads.size() == static_cast<size_t>(mha.n_heads));
  // Projections and scores are float products over ≤ 64 terms of O(1) values (observed ≲ 1e-6);
  // the errors pass through softmax and two more products, so the later steps get 2e-5.
  for (int h = 0; h < mha.n_heads; ++h) {
    CAPTURE(h);
    const ae::HeadTrace& t = trace.heads[static_cast<size_t>(h)];
    CHECK_MATRIX_NEAR(t.q, expected.q[static_cast<size_t>(h)], 1e-5, 1e-5);
    CHECK_MATRIX_NEAR(t.k, expected.k[static_cast<size_t>(h)], 1e-5, 1e-5);
    CHECK_MATRIX_NEAR(t.v, expected.v[static_cast<size_t>(h)], 1e-5, 1e-5);
    CHECK_MATRIX_NEAR(t.attention.scaled_scores, expected.heads[static_cast<size_t>(h)].scaled, 1e-5, 1e-5);
    CHECK_MATRIX_NEAR(t.attention.weights, expected.heads[static_cast<size_t>(h)].weights, 1e-5, 1e-5);
  }
  CHECK_MATRIX_NEAR(trace.concat, expected.concat, 2e-5, 1e-5);
  CHECK_MATRIX_NEAR(trace.output, expected.output, 2e-5, 1e-5);
  CHECK_MATRIX_EQUAL(out, trace.output);
}

ae::MultiHeadAttention random_mha(const HeadShape& s, uint64_t seed) {
  ae::MultiHeadAttention mha(s.d, s.h);
  randomize(mha, seed, 1.0 / std::sqrt(s.d));
  return mha;
}

}  // namespace

TEST_CASE("multi-head self-attention matches a per-head reference, with and without RoPE") {
  for (const HeadShape& s : kHeadShapes)
    for (int n : {1, 4, 5, 17}) {
      const ae::MultiHeadAttention mha = random_mha(s, 100 + s.d * s.h);
      const ae::Matrix x = ref::random_matrix(n, s.d, 200 + n);
      for (const MhaCase& c : mha_cases(n, n))
        for (std::optional<float> rope : {std::optional<float>{}, std::optional<float>{10000.0f}}) {
          if (rope && s.d / s.h % 2 != 0) continue;  // RoPE needs an even head width
          CAPTURE(s.d);
          CAPTURE(s.h);
          CAPTURE(n);
          INFO("c.name := ", std::string(c.name));
          CAPTURE(rope.has_value());
          check_multi_head(mha, x, x, c.options, rope, nullptr);
        }
    }
}

TEST_CASE("multi-head attention with a KV cache offset rotates queries at their absolute positions") {
  const HeadShape s{16, 4};
  const ae::MultiHeadAttention mha = random_mha(s, 300);
  const ae::Matrix keys_from = ref::random_matrix(9, 16, 301);
  for (int n_q : {1, 3}) {
    CAPTURE(n_q);
    const ae::Matrix queries_from = keys_from.bottomRows(n_q);
    for (const MhaCase& c : mha_cases(n_q, 9)) {
      INFO("c.name := ", std::string(c.name));
      check_multi_head(mha, queries_from, keys_from, c.options, 10000.0f, nullptr);
    }
  }
}

TEST_CASE("multi-head cross-attention: queries and keys from different sequences") {
  for (const HeadShape& s : kHeadShapes)
    for (int n_k : {1, 3, 16}) {
      CAPTURE(s.d);
      CAPTURE(s.h);
      CAPTURE(n_k);
      const ae::MultiHeadAttention mha = random_mha(s, 400 + s.d);
      ae::AttentionOptions o;
      check_multi_head(mha, ref::random_matrix(5, s.d, 401), ref::random_matrix(n_k, s.d, 402), o, std::nullopt,
                       nullptr);
      ae::MultiHeadTrace trace;
      mha.forward(ref::random_matrix(5, s.d, 401), ref::random_matrix(n_k, s.d, 402), o, std::nullopt, nullptr, &trace);
      CHECK(trace.heads[0].attention.weights.rows() == 5);
      CHECK(trace.heads[0].attention.weights.cols() == n_k);
    }
}

TEST_CASE("head ablation: a switched-off head's slice of concat is exactly zero") {
  for (const HeadShape& s : {HeadShape{8, 2}, HeadShape{16, 4}, HeadShape{32, 8}}) {
    const ae::MultiHeadAttention mha = random_mha(s, 500 + s.h);
    const ae::Matrix x = ref::random_matrix(6, s.d, 501);
    ae::MultiHeadTrace all_on;
    mha.forward(x, x, {}, std::nullopt, nullptr, &all_on);
    for (int off = 0; off < s.h; ++off) {
      CAPTURE(s.h);
      CAPTURE(off);
      std::vector<uint8_t> active(static_cast<size_t>(s.h), 1);
      active[static_cast<size_t>(off)] = 0;
      ae::MultiHeadTrace trace;
      mha.forward(x, x, {}, std::nullopt, &active, &trace);
      const int dh = s.d / s.h;
      for (int h = 0; h < s.h; ++h) {
        const ae::Matrix slice = trace.concat.middleCols(h * dh, dh);
        if (h == off) CHECK_MATRIX_EQUAL(slice, ae::Matrix(ae::Matrix::Zero(6, dh)));
        else CHECK_MATRIX_EQUAL(slice, ae::Matrix(all_on.concat.middleCols(h * dh, dh)));
      }
      CHECK(testing_helpers::max_abs_diff(trace.output, all_on.output) > 1e-3);  // the head mattered
      check_multi_head(mha, x, x, {}, std::nullopt, &active);
    }
  }
}

TEST_CASE("head ablation: all heads off leaves only the output bias, and a wrong flag count throws") {
  const ae::MultiHeadAttention mha = random_mha({16, 4}, 600);
  const ae::Matrix x = ref::random_matrix(3, 16, 601);
  const std::vector<uint8_t> none(4, 0);
  const ae::Matrix out = mha.forward(x, x, {}, std::nullopt, &none, nullptr);
  CHECK_MATRIX_EQUAL(out, ae::Matrix(mha.wo.bias.replicate(3, 1)));  // 0·W + b, exactly b
  const std::vector<uint8_t> three(3, 1);
  CHECK_THROWS_WITH_AS(mha.forward(x, x, {}, std::nullopt, &three, nullptr), doctest::Contains("3 flags"),
                       std::invalid_argument);
}

TEST_CASE("h heads of width d/h have exactly the parameters of one head of width d: 4d^2 + 4d") {
  for (const HeadShape& s : kHeadShapes) {
    CAPTURE(s.d);
    CAPTURE(s.h);
    ae::MultiHeadAttention multi(s.d, s.h), single(s.d, 1);
    const size_t d = static_cast<size_t>(s.d);
    CHECK(count_parameters(multi) == count_parameters(single));
    CHECK(count_parameters(multi) == 4 * d * d + 4 * d);
  }
  CHECK_THROWS_AS(ae::MultiHeadAttention(10, 4), std::invalid_argument);
}

// --- TransformerLayer ---------------------------------------------------------------------

namespace {

ae::ModelConfig layer_config(ae::NormPlacement norm, bool cross) {
  ae::ModelConfig c;
  c.d_model = 16;
  c.n_heads = 4;
  c.d_ff = 24;
  c.norm = norm;
  c.cross_attention = cross;
  c.positional = ae::PositionalEncoding::Rope;
  return c;
}

ref::DMat multi_head_out(const ae::MultiHeadAttention& mha, const ref::DMat& xq, const ref::DMat& xkv,
                         const ae::AttentionOptions& o, std::optional<double> rope) {
  return ref::multi_head(mha, xq, xkv, o, rope, nullptr).output;
}

// The layer equations from the header comment of ae::TransformerLayer.
ref::DMat layer_ref(const ae::TransformerLayer& layer, const ref::DMat& x_in, const ref::DMat* memory,
                    const ae::LayerOptions& o) {
  const std::optional<double> rope = o.rope ? std::optional<double>(o.rope->base) : std::nullopt;
  ref::DMat x = x_in;
  if (layer.norm == ae::NormPlacement::Pre) {
    const ref::DMat h = layer_norm_ref(x, layer.ln_self);
    x = ref::add(x, multi_head_out(layer.self_attention, h, h, o.self_attention, rope));
    if (memory)
      x = ref::add(x, multi_head_out(*layer.cross_attention, layer_norm_ref(x, *layer.ln_cross), *memory,
                                     o.cross_attention, std::nullopt));
    x = ref::add(x, ref::feed_forward(layer_norm_ref(x, layer.ln_ffn), layer.ffn));
  } else {
    x = layer_norm_ref(ref::add(x, multi_head_out(layer.self_attention, x, x, o.self_attention, rope)), layer.ln_self);
    if (memory)
      x = layer_norm_ref(
          ref::add(x, multi_head_out(*layer.cross_attention, x, *memory, o.cross_attention, std::nullopt)),
          *layer.ln_cross);
    x = layer_norm_ref(ref::add(x, ref::feed_forward(x, layer.ffn)), layer.ln_ffn);
  }
  return x;
}

}  // namespace

TEST_CASE("TransformerLayer follows the pre-LN and post-LN equations, with and without cross-attention") {
  for (ae::NormPlacement norm : {ae::NormPlacement::Pre, ae::NormPlacement::Post})
    for (bool cross : {false, true})
      for (bool causal_rope : {false, true}) {
        CAPTURE(ae::to_string(norm));
        CAPTURE(cross);
        CAPTURE(causal_rope);
        ae::TransformerLayer layer(layer_config(norm, cross));
        randomize(layer, 700, 0.25);
        const ae::Matrix x = ref::random_matrix(5, 16, 701), memory = ref::random_matrix(7, 16, 702);
        ae::LayerOptions o;
        o.self_attention.mask.causal = causal_rope;
        if (causal_rope) o.rope = ae::RopeSettings{10000.0f};
        const ref::DMat memory_d = ref::to_double(memory);
        ae::LayerTrace trace;
        const ae::Matrix out = layer.forward(x, cross ? &memory : nullptr, o, &trace);
        // Several chained float products and norms of O(1) values (observed error ≲ 3e-7).
        CHECK_MATRIX_NEAR(out, layer_ref(layer, ref::to_double(x), cross ? &memory_d : nullptr, o), 5e-6, 1e-5);
        CHECK_MATRIX_EQUAL(trace.output, out);
        CHECK(trace.cross_attention.has_value() == cross);
      }
}

TEST_CASE("a cross-attention layer without memory throws") {
  ae::TransformerLayer layer(layer_config(ae::NormPlacement::Pre, true));
  CHECK_THROWS_WITH_AS(layer.forward(ref::random_matrix(3, 16, 1), nullptr, {}, nullptr), doctest::Contains("memory"),
                       std::invalid_argument);
}
