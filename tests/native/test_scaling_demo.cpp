// scaling_demo (the "why ÷√d" experiment) against plain loops over the same random vectors,
// and the statistics the lesson claims: Var(q·k) ≈ d unscaled, ≈ 1 scaled; large unscaled d
// collapses the weights onto one key.
#include "lesson/scaling_demo.h"
#include "util/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

// The vectors scaling_demo draws, regenerated here: Q first (row-major), then K.
struct Vectors {
  std::vector<std::vector<double>> q, k;
};

// Unit-variance uniform entries as documented in scaling_demo.h: (2u − 1)·√3.
std::vector<double> draws(ae::Rng& rng, size_t count) {
  std::vector<double> out;
  while (out.size() < count) out.push_back(static_cast<float>((2.0 * rng.uniform() - 1.0) * std::sqrt(3.0)));
  return out;
}

Vectors draw(const ae::ScalingDemoOptions& o) {
  ae::Rng rng(o.seed);
  Vectors v;
  const std::vector<double> q = draws(rng, static_cast<size_t>(o.n_queries) * o.d);
  const std::vector<double> k = draws(rng, static_cast<size_t>(o.n_keys) * o.d);
  for (int r = 0; r < o.n_queries; ++r) v.q.emplace_back(q.begin() + r * o.d, q.begin() + (r + 1) * o.d);
  for (int r = 0; r < o.n_keys; ++r) v.k.emplace_back(k.begin() + r * o.d, k.begin() + (r + 1) * o.d);
  return v;
}

// Scores, softmax, entropy and max of one row, in double with plain loops.
struct RefRow {
  std::vector<double> scores, weights;
  double entropy = 0.0, max_weight = 0.0;
};

RefRow reference_row(const Vectors& v, int query, bool scale) {
  const size_t d = v.q[0].size();
  RefRow r;
  for (const auto& key : v.k) {
    double dot = 0.0;
    for (size_t i = 0; i < d; ++i) dot += v.q[query][i] * key[i];
    r.scores.push_back(scale ? dot / std::sqrt(static_cast<double>(d)) : dot);
  }
  const double max = *std::max_element(r.scores.begin(), r.scores.end());
  double sum = 0.0;
  for (double s : r.scores) sum += std::exp(s - max);
  for (double s : r.scores) r.weights.push_back(std::exp(s - max) / sum);
  for (double w : r.weights) {
    if (w > 0.0) r.entropy -= w * std::log(w);
    r.max_weight = std::max(r.max_weight, w);
  }
  return r;
}

}  // namespace

TEST_CASE("scaling demo: scores, weights, entropy and max weight match plain loops") {
  for (int d : {1, 2, 3, 16, 64, 257})
    for (bool scale : {true, false}) {
      CAPTURE(d);
      CAPTURE(scale);
      const ae::ScalingDemoOptions o{d, 7, 5, 42u + static_cast<unsigned>(d), scale};
      const ae::ScalingDemo demo = ae::scaling_demo(o);
      REQUIRE(demo.scores.rows() == 5);
      REQUIRE(demo.scores.cols() == 7);
      CHECK(demo.factor == doctest::Approx(scale ? 1.0 / std::sqrt(d) : 1.0).epsilon(1e-6));
      const Vectors v = draw(o);
      double entropy = 0.0, max_weight = 0.0;
      for (int q = 0; q < 5; ++q) {
        const RefRow r = reference_row(v, q, scale);
        for (int j = 0; j < 7; ++j) {
          // float products summed in float: error grows like √d ulps of the magnitude (≈ √d).
          CHECK(demo.scores(q, j) == doctest::Approx(r.scores[j]).epsilon(1e-4).scale(std::sqrt(d)));
          CHECK(demo.weights(q, j) == doctest::Approx(r.weights[j]).epsilon(1e-3).scale(1.0));
        }
        CHECK(demo.entropy[q] == doctest::Approx(r.entropy).epsilon(1e-3).scale(1.0));
        CHECK(demo.max_weight[q] == doctest::Approx(r.max_weight).epsilon(1e-3).scale(1.0));
        entropy += demo.entropy[q];
        max_weight += demo.max_weight[q];
      }
      CHECK(demo.mean_entropy == doctest::Approx(entropy / 5).epsilon(1e-6));
      CHECK(demo.mean_max_weight == doctest::Approx(max_weight / 5).epsilon(1e-6));
      CHECK(demo.uniform_entropy == doctest::Approx(std::log(7.0)));
    }
}

TEST_CASE("scaling demo: score mean and variance match a two-pass loop over the scores") {
  const ae::ScalingDemo demo = ae::scaling_demo({32, 9, 11, 3, false});
  double sum = 0.0, squares = 0.0;
  const int count = 9 * 11;
  for (int q = 0; q < 11; ++q)
    for (int j = 0; j < 9; ++j) sum += demo.scores(q, j);
  const double mean = sum / count;
  for (int q = 0; q < 11; ++q)
    for (int j = 0; j < 9; ++j) squares += (demo.scores(q, j) - mean) * (demo.scores(q, j) - mean);
  CHECK(demo.score_mean == doctest::Approx(mean).epsilon(1e-9));
  CHECK(demo.score_variance == doctest::Approx(squares / count).epsilon(1e-9));
  CHECK(demo.score_std == doctest::Approx(std::sqrt(squares / count)).epsilon(1e-9));
}

TEST_CASE("scaling demo: every weight row sums to 1") {
  for (int d : {2, 64, 1024})
    for (bool scale : {true, false}) {
      CAPTURE(d);
      CAPTURE(scale);
      const ae::ScalingDemo demo = ae::scaling_demo({d, 16, 32, 7, scale});
      for (int q = 0; q < 32; ++q) {
        double sum = 0.0;
        for (int j = 0; j < 16; ++j) sum += demo.weights(q, j);
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
      }
    }
}

TEST_CASE("scaling demo: Var(q·k) ≈ d without scaling and ≈ 1 with it, for large samples") {
  // 200 queries × 100 keys = 20,000 scores; the sample variance of a sum of d unit-variance
  // products is within a few percent of its expectation at this size (10% leaves ~5σ room).
  for (int d : {4, 64, 512}) {
    CAPTURE(d);
    const ae::ScalingDemo raw = ae::scaling_demo({d, 100, 200, 11, false});
    const ae::ScalingDemo scaled = ae::scaling_demo({d, 100, 200, 11, true});
    CHECK(raw.score_variance == doctest::Approx(d).epsilon(0.1));
    CHECK(scaled.score_variance == doctest::Approx(1.0).epsilon(0.1));
    CHECK(std::abs(scaled.score_mean) < 0.05);
    // Same vectors: the scaled scores are the raw ones times 1/√d.
    CHECK(scaled.score_variance * d == doctest::Approx(raw.score_variance).epsilon(1e-4));
  }
}

TEST_CASE("scaling demo: without scaling a large d collapses the weights onto one key") {
  // Scores spread like √1024 = 32: the top two of 8 keys are rarely within a few units, so
  // on average the largest weight is ≈ 0.95 (0.9 leaves room for the sample of 256 queries).
  const ae::ScalingDemo raw = ae::scaling_demo({1024, 8, 256, 5, false});
  const ae::ScalingDemo scaled = ae::scaling_demo({1024, 8, 256, 5, true});
  CHECK(raw.mean_max_weight > 0.9);
  CHECK(raw.mean_entropy < 0.25);
  CHECK(scaled.mean_max_weight < 0.6);
  CHECK(scaled.mean_entropy > 1.0);  // log 8 ≈ 2.08 is the most it can be
  CHECK(scaled.mean_entropy <= scaled.uniform_entropy);
  // With scaling, the spread no longer depends on d: d = 2 and d = 1024 look alike.
  const ae::ScalingDemo small = ae::scaling_demo({2, 8, 256, 5, true});
  CHECK(std::abs(small.mean_entropy - scaled.mean_entropy) < 0.3);
}

TEST_CASE("scaling demo: the same seed gives the same numbers; sizes out of range throw") {
  const ae::ScalingDemo a = ae::scaling_demo({16, 4, 3, 99, true});
  const ae::ScalingDemo b = ae::scaling_demo({16, 4, 3, 99, true});
  CHECK(a.scores == b.scores);
  CHECK(a.scores != ae::scaling_demo({16, 4, 3, 100, true}).scores);
  CHECK_THROWS_AS(ae::scaling_demo({0, 4, 3, 1, true}), std::invalid_argument);
  CHECK_THROWS_AS(ae::scaling_demo({ae::kScalingDemoMaxD + 1, 4, 3, 1, true}), std::invalid_argument);
  CHECK_THROWS_AS(ae::scaling_demo({8, 0, 3, 1, true}), std::invalid_argument);
  CHECK_THROWS_AS(ae::scaling_demo({8, 4, 0, 1, true}), std::invalid_argument);
}
