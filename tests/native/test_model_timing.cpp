// The benchmark entry points of the core: analyze_seconds_per_call (forward with full trace)
// and coref_encoder_training_throughput (the coreference recipe's trainer). Their timings are
// not asserted (no timed tests); what is checked is that they do the work they report.
#include "bench/model_latency.h"
#include "bench/training_throughput.h"
#include "io/checkpoint.h"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace {

const std::string kLesson = "The animal didn't cross the street because it was too tired.";

ae::TrainedModel coref_encoder() {
  return ae::TrainedModel(ae::load_checkpoint(std::string(AE_SOURCE_DIR) + "/web/models/coref-encoder"));
}

}  // namespace

TEST_CASE("analyze_seconds_per_call times the forward pass and passes analyze's errors on") {
  const ae::TrainedModel model = coref_encoder();
  const double s = ae::analyze_seconds_per_call(model, kLesson, {}, 5);
  CHECK(std::isfinite(s));
  CHECK(s > 0.0);
  CHECK_THROWS_AS(ae::analyze_seconds_per_call(model, kLesson, {}, 0), std::invalid_argument);
  CHECK_THROWS_AS(ae::analyze_seconds_per_call(model, "", {}, 3), std::invalid_argument);
}

TEST_CASE("gelu_seconds_per_forward times GELU on the forward pass's own feed-forward values") {
  const ae::TrainedModel model = coref_encoder();
  const ae::Analysis a = model.analyze(kLesson);
  // The trace keeps every layer's expansion (n × ffn_dim) that GELU is applied to.
  for (const auto& layer : a.trace.layers) {
    CHECK(layer.ffn_hidden.rows() == static_cast<int>(a.tokens.size()));
    CHECK(layer.ffn_hidden.cols() == model.config().ffn_dim());
  }
  const double s = ae::gelu_seconds_per_forward(a, 5);
  CHECK(std::isfinite(s));
  CHECK(s > 0.0);
  CHECK_THROWS_AS(ae::gelu_seconds_per_forward(a, 0), std::invalid_argument);
}

TEST_CASE("matrix_products_per_forward counts the forward's products: the flop of every layer and the logits") {
  const ae::TrainedModel model = coref_encoder();
  const ae::ModelConfig& c = model.config();
  const int n = static_cast<int>(model.analyze(kLesson).ids.size());
  const ae::MatrixProductsTiming t = ae::matrix_products_per_forward(c, n, 3);
  // Per layer: Q, K, V, O (n×d·d×d), the two feed-forward projections, QKᵀ and P·V of every
  // head (n×hd·hd×n, n×n·n×hd); then one row of logits. Written out here as plain arithmetic.
  const double d = c.d_model, ffn = c.ffn_dim(), hd = d / c.n_heads;
  const double per_layer = 4 * 2 * n * d * d + 2 * (2 * n * d * ffn) + c.n_heads * 2 * (2 * n * hd * n);
  CHECK(t.flop == doctest::Approx(c.n_layers * per_layer + 2 * d * c.vocab_size));
  CHECK(t.seconds > 0.0);
  CHECK(std::isfinite(t.seconds));
  CHECK_THROWS_AS(ae::matrix_products_per_forward(c, n, 0), std::invalid_argument);
  CHECK_THROWS_AS(ae::matrix_products_per_forward(c, 0, 3), std::invalid_argument);
}

TEST_CASE("coref_encoder_training_throughput runs the recipe's trainer for the asked steps") {
  const ae::TrainedModel model = coref_encoder();
  const ae::TrainingThroughput t =
      ae::coref_encoder_training_throughput(model.config(), model.vocabulary(), 6, 8, 64, 3);
  CHECK(t.steps == 6);
  CHECK(t.batch_size == 8);
  CHECK(t.examples == 64);
  CHECK(t.seconds > 0.0);
  CHECK(t.steps_per_second == doctest::Approx(6 / t.seconds));
  CHECK(std::isfinite(t.first_loss));
  CHECK(std::isfinite(t.last_loss));
  // A fresh model over a vocabulary of ~180 words starts near ln(vocab size).
  CHECK(t.first_loss > 2.0f);
  // The same seed gives the same losses (the trainer is deterministic).
  const ae::TrainingThroughput again =
      ae::coref_encoder_training_throughput(model.config(), model.vocabulary(), 6, 8, 64, 3);
  CHECK(again.first_loss == t.first_loss);
  CHECK(again.last_loss == t.last_loss);
  CHECK_THROWS_AS(ae::coref_encoder_training_throughput(model.config(), model.vocabulary(), 0, 8),
                  std::invalid_argument);
}
