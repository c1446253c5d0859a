// split_heads / attention_parameter_count: the parameter count of multi-head attention is
// independent of the number of heads and equals the parameters the real layer holds.
#include "error_of.h"
#include "io/checkpoint.h"
#include "model/config.h"
#include "model/head_split.h"
#include "model/layers.h"
#include "model/transformer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace {

// Parameters a MultiHeadAttention actually holds, counted through its visitor.
uint64_t held_parameters(ae::MultiHeadAttention& mha) {
  uint64_t count = 0;
  mha.visit("attn", [&](const std::string&, ae::Matrix& m) { count += static_cast<uint64_t>(m.size()); });
  return count;
}

}  // namespace

TEST_CASE("attention parameter count does not depend on the number of heads") {
  for (int d : {1, 6, 32, 64, 96, 512}) {
    CAPTURE(d);
    const uint64_t one_head = ae::attention_parameter_count(d, 1);
    CHECK(one_head == 4ull * d * d + 4ull * d);  // W_Q, W_K, W_V, W_O (d×d) and their biases
    for (int h = 1; h <= std::min(d, ae::kMaxHeads); ++h) {
      if (d % h) continue;
      CAPTURE(h);
      CHECK(ae::attention_parameter_count(d, h) == one_head);
    }
  }
}

TEST_CASE("attention parameter count equals the parameters of the real layer") {
  for (int d : {8, 32, 48})
    for (int h : {1, 2, 4, 8}) {
      if (d % h) continue;
      CAPTURE(d);
      CAPTURE(h);
      ae::MultiHeadAttention mha(d, h);
      CHECK(held_parameters(mha) == ae::attention_parameter_count(d, h));
    }
}

TEST_CASE("attention parameter count equals one self-attention block of the shipped coreference model") {
  ae::Checkpoint c = ae::load_checkpoint(std::string(AE_SOURCE_DIR) + "/web/models/coref-encoder");
  uint64_t block = 0;
  c.model->visit_parameters([&](const std::string& name, ae::Matrix& m) {
    if (name.rfind("layers.0.self_attn.", 0) == 0) block += static_cast<uint64_t>(m.size());
  });
  CHECK(block > 0);
  CHECK(block == ae::attention_parameter_count(c.config.d_model, c.config.n_heads));
}

TEST_CASE("split_heads: heads, per-head and output-projection counts") {
  const ae::HeadSplit s = ae::split_heads(4096, 128);  // the lesson's example
  CHECK(s.divides);
  CHECK(s.n_heads == 32);
  CHECK(s.per_head == 3ull * (4096 * 128 + 128));
  CHECK(s.output_projection == 4096ull * 4096 + 4096);
  CHECK(s.all_heads == 32 * s.per_head);
  CHECK(s.all_heads == 3ull * (4096 * 4096 + 4096));  // the heads' Q, K, V together: three d×d
  CHECK(s.total == s.all_heads + s.output_projection);
  CHECK(s.total == ae::attention_parameter_count(4096, 32));

  const ae::HeadSplit bad = ae::split_heads(4096, 100);
  CHECK_FALSE(bad.divides);
  CHECK(bad.n_heads == 0);
  CHECK(bad.total == 0);

  CHECK_THROWS_AS(ae::split_heads(0, 8), std::invalid_argument);
  CHECK_THROWS_AS(ae::split_heads(64, 0), std::invalid_argument);
  CHECK_THROWS_AS(ae::split_heads(ae::kHeadSplitMaxWidth + 1, 8), std::invalid_argument);
  CHECK_THROWS_AS(ae::attention_parameter_count(32, 3), std::invalid_argument);
  CHECK_THROWS_AS(ae::attention_parameter_count(32, 0), std::invalid_argument);
  // More heads than a model may have (ModelConfig's limit): refused, not reported as 100,000 heads.
  CHECK(error_of([] { ae::split_heads(100000, 1); }) ==
        "head split: 100000 / 1 = 100000 heads; a layer has at most 256");
  CHECK(ae::split_heads(256, 1).n_heads == 256);
  CHECK_THROWS_AS(ae::attention_parameter_count(512, 512), std::invalid_argument);
}
