// Positional encodings: the sinusoidal table and RoPE against their formulas, RoPE's
// relative-position and norm-preserving properties, and the order-blindness of a model
// without positional encoding (permuting input rows permutes output rows) versus a model with one.
#include "model/positional.h"
#include "model/transformer.h"
#include "reference.h"

#include <cmath>
#include <vector>

using testing_helpers::max_abs_diff;
using testing_helpers::permute;
using testing_helpers::permute_rows;

namespace {

constexpr int kSizes[] = {1, 3, 4, 5, 15, 16, 17, 64};

double dot(const ae::Matrix& a, const ae::Matrix& b) {
  double s = 0.0;
  for (int c = 0; c < a.cols(); ++c) s += static_cast<double>(a(0, c)) * b(0, c);
  return s;
}

double norm(const ae::Matrix& a) { return std::sqrt(dot(a, a)); }

ae::Matrix rotated(ae::Matrix x, int position, float base = 10000.0f) {
  ae::apply_rope(x, position, base);
  return x;
}

ae::Transformer encoder(ae::PositionalEncoding positional, ae::NormPlacement norm, uint64_t seed) {
  ae::ModelConfig c{.vocab_size = 50, .d_model = 16, .n_heads = 4, .n_layers = 2, .max_len = 32};
  c.positional = positional, c.norm = norm;
  ae::Transformer model(c);
  model.init_random(seed);
  return model;
}

const std::vector<int> kPerm = {3, 0, 6, 1, 5, 2, 4};
const std::vector<int> kIds = {5, 9, 2, 33, 17, 8, 41};

// Largest difference between model(permuted input) and the permuted model(input).
double equivariance_gap_embeddings(const ae::Transformer& model, const ae::Matrix& x) {
  const ae::Matrix out = model.forward_embeddings(x, {}, nullptr);
  const ae::Matrix out_of_permuted = model.forward_embeddings(permute_rows(x, kPerm), {}, nullptr);
  return max_abs_diff(out_of_permuted, permute_rows(out, kPerm));
}

double equivariance_gap_ids(const ae::Transformer& model) {
  const ae::Matrix out = model.forward(kIds, {}, nullptr);
  const ae::Matrix out_of_permuted = model.forward(permute(kIds, kPerm), {}, nullptr);
  return max_abs_diff(out_of_permuted, permute_rows(out, kPerm));
}

// Outputs are LayerNorm'd (entries of order 1); reordering the sums inside softmax and the
// products changes them only by float rounding, ~1e-6.
constexpr double kEquivarianceTol = 1e-5;
// "Clearly not equivariant": a positional signal moves outputs by O(0.1..1), far above rounding.
constexpr double kClearlyDifferent = 1e-2;

}  // namespace

TEST_CASE("sinusoidal_encoding matches sin/cos of p / 10000^(2i/d)") {
  struct Shape {
    int n, d;
  };
  for (const Shape s : {Shape{1, 2}, Shape{3, 4}, Shape{16, 16}, Shape{17, 64}, Shape{64, 32}, Shape{128, 6}}) {
    CAPTURE(s.n);
    CAPTURE(s.d);
    const ae::Matrix pe = ae::sinusoidal_encoding(s.n, s.d);
    // Values in [−1, 1] rounded to float: error ≤ 6e-8.
    CHECK_MATRIX_NEAR(pe, ref::sinusoidal(s.n, s.d), 1e-7, 0.0);
  }
  // Position 0 is (sin 0, cos 0, …) = (0, 1, 0, 1, …) exactly; the first pair turns at 1 rad per step.
  const ae::Matrix pe = ae::sinusoidal_encoding(5, 8);
  for (int c = 0; c < 8; ++c) CHECK(pe(0, c) == (c % 2 == 0 ? 0.0f : 1.0f));
  for (int p = 0; p < 5; ++p) {
    CHECK(pe(p, 0) == doctest::Approx(std::sin(p)).epsilon(1e-6));
    CHECK(pe(p, 1) == doctest::Approx(std::cos(p)).epsilon(1e-6));
  }
}

TEST_CASE("sinusoidal_encoding rejects an odd width") {
  CHECK_THROWS_WITH_AS(ae::sinusoidal_encoding(4, 7), doctest::Contains("even"), std::invalid_argument);
}

TEST_CASE("apply_rope matches the rotation formula") {
  for (int n : kSizes)
    for (int dh : {2, 4, 8, 16, 64})
      for (int first : {0, 7, 100})
        for (float base : {10000.0f, 500.0f}) {
          CAPTURE(n);
          CAPTURE(dh);
          CAPTURE(first);
          CAPTURE(base);
          const ae::Matrix x = ref::random_matrix(n, dh, 70 + n * dh);
          ref::DMat expected = ref::to_double(x);
          ref::rope(expected, first, base);
          // cos/sin rounded to float, one multiply-add: ~2 ulp of |x| ≤ ~4.
          CHECK_MATRIX_NEAR(rotated(x, first, base), expected, 2e-6, 1e-6);
        }
}

TEST_CASE("apply_rope at position 0 is the identity and odd widths are rejected") {
  const ae::Matrix x = ref::random_matrix(1, 16, 3);
  CHECK_MATRIX_EQUAL(rotated(x, 0), x);  // cos 0 = 1, sin 0 = 0 exactly
  ae::Matrix odd = ref::random_matrix(2, 5, 4);
  CHECK_THROWS_WITH_AS(ae::apply_rope(odd, 0, 10000.0f), doctest::Contains("even"), std::invalid_argument);
}

TEST_CASE("RopeTable rotates bit for bit as apply_rope, forward and inverse, inside and past its positions") {
  for (int dh : {2, 8, 16, 64})
    for (float base : {10000.0f, 500.0f}) {
      const ae::RopeTable table(base, dh, 48);
      for (int n : {1, 5, 17, 48})
        for (int first : {0, 7, 31, 40})  // 31 + 17 = 48 fills the table; 40 + 17 runs past it
          for (bool inverse : {false, true}) {
            CAPTURE(dh);
            CAPTURE(base);
            CAPTURE(n);
            CAPTURE(first);
            CAPTURE(inverse);
            const ae::Matrix x = ref::random_matrix(n, dh, 90 + n + dh);
            ae::Matrix expected = x, got = x;
            ae::apply_rope(expected, first, base, inverse);
            table.rotate(got, first, inverse);
            CHECK(testing_helpers::bit_differences(got, expected) == 0);
          }
    }
  ae::Matrix other_width = ref::random_matrix(3, 4, 5), expected = other_width;
  ae::RopeTable(10000.0f, 8, 16).rotate(other_width, 2);  // not the table's width: computed
  ae::apply_rope(expected, 2, 10000.0f);
  CHECK(testing_helpers::bit_differences(other_width, expected) == 0);
  CHECK_THROWS_WITH_AS(ae::RopeTable(10000.0f, 5, 8), doctest::Contains("even"), std::invalid_argument);
}

TEST_CASE("RoPE preserves the norm of every vector") {
  for (int dh : {2, 8, 16, 64})
    for (int position : {0, 1, 5, 17, 100, 1000}) {
      CAPTURE(dh);
      CAPTURE(position);
      const ae::Matrix x = ref::random_matrix(1, dh, 80 + dh);
      // Rotations are orthogonal; only float rounding of the entries (~1e-7 relative) remains.
      CHECK(norm(rotated(x, position)) == doctest::Approx(norm(x)).epsilon(1e-6));
    }
}

TEST_CASE("RoPE: q.k depends only on the offset between the two positions") {
  for (int dh : {4, 16, 64}) {
    CAPTURE(dh);
    const ae::Matrix q = ref::random_matrix(1, dh, 90 + dh), k = ref::random_matrix(1, dh, 95 + dh);
    const double scale = norm(q) * norm(k);  // |q·k| ≤ |q||k|
    std::vector<double> by_offset;
    for (int delta : {0, 1, 2, 3, 5, 8}) {
      CAPTURE(delta);
      const double at_zero = dot(rotated(q, 0), rotated(k, delta));
      for (int p : {1, 5, 17, 100, 1000}) {
        CAPTURE(p);
        // float rounding of rotated entries (~1e-7 relative each) over dh terms, relative to |q||k|.
        CHECK(std::abs(dot(rotated(q, p), rotated(k, p + delta)) - at_zero) <= 1e-5 * scale);
      }
      by_offset.push_back(at_zero);
    }
    // Different offsets give clearly different products (100× the tolerance above).
    for (size_t a = 0; a < by_offset.size(); ++a)
      for (size_t b = a + 1; b < by_offset.size(); ++b) {
        CAPTURE(a);
        CAPTURE(b);
        CHECK(std::abs(by_offset[a] - by_offset[b]) > 1e-3 * scale);
      }
  }
}

TEST_CASE("RoPE inside the model: identical token vectors give scores that depend only on i - j") {
  ae::Transformer model = encoder(ae::PositionalEncoding::Rope, ae::NormPlacement::Pre, 5);
  const int n = 9;
  const ae::Matrix x = ref::random_matrix(1, 16, 6).replicate(n, 1);  // the same vector at every position
  ae::ForwardTrace trace;
  model.forward_embeddings(x, {}, &trace);
  for (const ae::HeadTrace& head : trace.layers[0].self_attention.heads) {
    const ae::Matrix& s = head.attention.raw_scores;
    double toeplitz_gap = 0.0, spread = 0.0;
    for (int i = 0; i + 1 < n; ++i)
      for (int j = 0; j + 1 < n; ++j) {
        toeplitz_gap = std::max(toeplitz_gap, std::abs(static_cast<double>(s(i + 1, j + 1)) - s(i, j)));
        spread = std::max(spread, std::abs(static_cast<double>(s(i, j)) - s(0, 0)));
      }
    CHECK(toeplitz_gap <= 1e-5);        // float rounding of the rotation, scores of order 1
    CHECK(spread > kClearlyDifferent);  // yet the scores do vary with the offset
  }
}

TEST_CASE("without positional encoding, permuting input rows permutes output rows") {
  for (ae::NormPlacement norm : {ae::NormPlacement::Pre, ae::NormPlacement::Post}) {
    CAPTURE(ae::to_string(norm));
    const ae::Transformer model = encoder(ae::PositionalEncoding::None, norm, 21);
    CHECK(equivariance_gap_embeddings(model, ref::random_matrix(7, 16, 22)) <= kEquivarianceTol);
    CHECK(equivariance_gap_ids(model) <= kEquivarianceTol);  // embed() adds nothing for None
  }
}

TEST_CASE("sinusoidal and learned encodings break permutation equivariance") {
  for (ae::PositionalEncoding pe : {ae::PositionalEncoding::Sinusoidal, ae::PositionalEncoding::Learned})
    for (ae::NormPlacement norm : {ae::NormPlacement::Pre, ae::NormPlacement::Post}) {
      CAPTURE(ae::to_string(pe));
      CAPTURE(ae::to_string(norm));
      // These encodings are added in embed(), so the model must be run on token ids.
      CHECK(equivariance_gap_ids(encoder(pe, norm, 31)) > kClearlyDifferent);
    }
}

TEST_CASE("RoPE breaks permutation equivariance even on raw embeddings") {
  for (ae::NormPlacement norm : {ae::NormPlacement::Pre, ae::NormPlacement::Post}) {
    CAPTURE(ae::to_string(norm));
    const ae::Transformer model = encoder(ae::PositionalEncoding::Rope, norm, 41);
    CHECK(equivariance_gap_embeddings(model, ref::random_matrix(7, 16, 42)) > kClearlyDifferent);
  }
}

TEST_CASE("embed adds the sinusoidal table, and nothing for None or RoPE") {
  for (ae::PositionalEncoding pe :
       {ae::PositionalEncoding::None, ae::PositionalEncoding::Sinusoidal, ae::PositionalEncoding::Rope}) {
    CAPTURE(ae::to_string(pe));
    ae::Transformer model = encoder(pe, ae::NormPlacement::Pre, 51);
    ae::Matrix table;
    model.visit_parameters([&](const std::string& name, ae::Matrix& m) {
      if (name == "token_embedding") table = m;
    });
    REQUIRE(table.rows() == 50);
    ref::DMat expected(static_cast<int>(kIds.size()), 16);
    const ref::DMat sin_table = ref::sinusoidal(static_cast<int>(kIds.size()), 16);
    for (int i = 0; i < expected.rows; ++i)
      for (int c = 0; c < 16; ++c)
        expected(i, c) =
            table(kIds[static_cast<size_t>(i)], c) + (pe == ae::PositionalEncoding::Sinusoidal ? sin_table(i, c) : 0.0);
    CHECK_MATRIX_NEAR(model.embed(kIds), expected, 1e-6, 1e-6);  // one float addition
  }
}
