// softmax_rows_inplace and row_entropy against plain-loop references; all_finite, the check
// that keeps NaN and infinity out of every kernel (softmax included).
#include "error_of.h"
#include "ops/softmax.h"
#include "reference.h"

#include <cmath>
#include <limits>
#include <vector>

namespace {

constexpr int kSizes[] = {1, 3, 4, 5, 15, 16, 17, 64};
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

ae::Matrix softmax(ae::Matrix x) {
  ae::softmax_rows_inplace(x);
  return x;
}

ae::Matrix row(const std::vector<float>& values) {
  ae::Matrix m(1, static_cast<int>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) m(0, static_cast<int>(i)) = values[i];
  return m;
}

double row_sum(const ae::Matrix& m, int r) {
  double s = 0.0;
  for (int c = 0; c < m.cols(); ++c) s += m(r, c);
  return s;
}

}  // namespace

TEST_CASE("softmax matches the plain-loop reference for every size") {
  for (int n : kSizes)
    for (double scale : {0.1, 1.0, 5.0}) {
      CAPTURE(n);
      CAPTURE(scale);
      const ae::Matrix x = ref::random_matrix(4, n, 100 + n, scale);
      // float exp plus one division: a few ulp of relative error on values ≤ 1.
      CHECK_MATRIX_NEAR(softmax(x), ref::softmax_rows(ref::to_double(x)), 1e-7, 1e-5);
    }
}

TEST_CASE("softmax rows sum to 1 within 1e-6") {
  for (int n : kSizes)
    for (double scale : {0.01, 1.0, 10.0, 100.0}) {
      CAPTURE(n);
      CAPTURE(scale);
      const ae::Matrix p = softmax(ref::random_matrix(6, n, 200 + n, scale));
      for (int r = 0; r < p.rows(); ++r) {
        CHECK(std::abs(row_sum(p, r) - 1.0) <= 1e-6);  // the documented guarantee
        CHECK(p.row(r).minCoeff() >= 0.0f);
      }
    }
}

TEST_CASE("softmax subtracts the row maximum, so huge logits neither overflow nor underflow") {
  struct Case {
    const char* name;
    std::vector<float> logits;
    std::vector<double> expected;  // computed by hand from the shifted logits
  };
  const double e1 = std::exp(-1.0), e2 = std::exp(-2.0), z = 1.0 + e1 + e2;
  const std::vector<Case> cases = {
      {"1000, 999, 998 behaves like 2, 1, 0", {1000.0f, 999.0f, 998.0f}, {1 / z, e1 / z, e2 / z}},
      {"-1000, -1001, -1002 (all exp underflow)", {-1000.0f, -1001.0f, -1002.0f}, {1 / z, e1 / z, e2 / z}},
      {"1e30 dominates", {1e30f, 0.0f, -1e30f}, {1.0, 0.0, 0.0}},
      {"two equal 1e30 logits", {1e30f, 1e30f}, {0.5, 0.5}},
      {"near float max", {3e38f, 3e38f, 3e38f, 3e38f}, {0.25, 0.25, 0.25, 0.25}},
      {"1e30 with a -inf neighbour", {1e30f, kNegInf, 1e30f}, {0.5, 0.0, 0.5}},
  };
  for (const Case& c : cases) {
    INFO("c.name := ", std::string(c.name));
    const ae::Matrix p = softmax(row(c.logits));
    REQUIRE(ae::all_finite(p));
    ref::DMat expected(1, static_cast<int>(c.expected.size()));
    expected.v = c.expected;
    // float exp of small shifted values: relative error ~1e-7.
    CHECK_MATRIX_NEAR(p, expected, 1e-7, 1e-6);
  }
}

TEST_CASE("softmax turns -inf entries into exactly 0 and renormalises the rest") {
  for (int n : kSizes) {
    if (n < 2) continue;  // a 1-wide row cannot hold a masked entry and a visible one
    CAPTURE(n);
    ae::Matrix x = ref::random_matrix(3, n, 300 + n, 2.0);
    std::vector<int> kept;
    for (int c = 0; c < n; ++c)
      if (c % 3 == 1) x.col(c).setConstant(kNegInf);
      else kept.push_back(c);
    const ae::Matrix p = softmax(x);
    ae::Matrix compact(3, static_cast<int>(kept.size()));
    for (size_t i = 0; i < kept.size(); ++i) compact.col(static_cast<int>(i)) = x.col(kept[i]);
    const ref::DMat expected = ref::softmax_rows(ref::to_double(compact));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < n; ++c)
        if (c % 3 == 1) CHECK(p(r, c) == 0.0f);
    for (int r = 0; r < 3; ++r)
      for (size_t i = 0; i < kept.size(); ++i)
        CHECK(std::abs(p(r, kept[i]) - expected(r, static_cast<int>(i))) <= 1e-6);  // as above
  }
}

TEST_CASE("softmax of a constant row is uniform") {
  for (int n : kSizes) {
    CAPTURE(n);
    const ae::Matrix p = softmax(ae::Matrix::Constant(2, n, 7.5f));
    // every exp is exactly 1, so the only error is the rounding of 1/n.
    CHECK_MATRIX_NEAR(p, ref::DMat(2, n, 1.0 / n), 0.0, 1e-7);
  }
}

TEST_CASE("row_entropy: uniform rows give log n, one-hot rows give 0, others match the formula") {
  for (int n : kSizes) {
    CAPTURE(n);
    const ae::Vector uniform = ae::row_entropy(ae::Matrix::Constant(1, n, 1.0f / n));
    CHECK(uniform[0] == doctest::Approx(std::log(static_cast<double>(n))).epsilon(1e-6));

    ae::Matrix one_hot = ae::Matrix::Zero(1, n);
    one_hot(0, n / 2) = 1.0f;
    CHECK(ae::row_entropy(one_hot)[0] == 0.0f);  // 1·log 1 = 0 and 0·log 0 = 0 exactly

    const ae::Matrix p = softmax(ref::random_matrix(3, n, 400 + n));
    const ae::Vector h = ae::row_entropy(p);
    for (int r = 0; r < 3; ++r) {
      double expected = 0.0;
      for (int c = 0; c < n; ++c) expected -= static_cast<double>(p(r, c)) * std::log(static_cast<double>(p(r, c)));
      CHECK(h[r] == doctest::Approx(expected).epsilon(1e-6));  // double accumulation, float result
    }
  }
}

TEST_CASE("all_finite: false for any NaN or infinity, true for every finite float, whatever its size") {
  const float inf = std::numeric_limits<float>::infinity();
  const float finite_edges[] = {0.0f,
                                -0.0f,
                                std::numeric_limits<float>::max(),
                                -std::numeric_limits<float>::max(),
                                std::numeric_limits<float>::min(),
                                std::numeric_limits<float>::denorm_min(),
                                1.0f};
  for (int n : {1, 3, 8, 17, 64}) {
    ae::Matrix m(n, 3);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = finite_edges[static_cast<size_t>(i) % 7];
    CHECK(ae::all_finite(m));
    for (float special :
         {inf, -inf, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN()}) {
      for (Eigen::Index at : {Eigen::Index{0}, m.size() / 2, m.size() - 1}) {
        ae::Matrix bad = m;
        bad.data()[at] = special;
        CHECK_MESSAGE(!ae::all_finite(bad), "n=" << n << " at " << at << " value " << special);
      }
    }
  }
  CHECK(ae::all_finite(ae::Matrix(0, 4)));
}

TEST_CASE("distribution_entropy: a row of attention weights, or a clear refusal (never a negative entropy)") {
  ae::Matrix half(1, 2);
  half << 0.5f, 0.5f;
  CHECK(ae::distribution_entropy(half) == doctest::Approx(std::log(2.0)));
  ae::Matrix unnormalized(1, 2);
  unnormalized << 2.0f, 3.0f;  // the formula would give −4.68
  CHECK(error_of([&] { ae::distribution_entropy(unnormalized); }) ==
        "entropy: weights must sum to 1 (a row of attention weights), they sum to 5.000000");
  ae::Matrix negative(1, 2);
  negative << 1.5f, -0.5f;
  CHECK_THROWS_WITH_AS(ae::distribution_entropy(negative), "entropy: weights must be finite and ≥ 0",
                       std::invalid_argument);
  CHECK_THROWS_AS(ae::distribution_entropy(ae::Matrix(1, 0)), std::invalid_argument);
  ae::Matrix rounded(1, 3);  // float softmax output: within the tolerance
  rounded << 0.3333f, 0.3333f, 0.3333f;
  CHECK(ae::distribution_entropy(rounded) == doctest::Approx(std::log(3.0)).epsilon(1e-3));
}
