// ModelConfig::validate and the string conversions: every broken rule is an
// std::invalid_argument whose message names the field; valid configs pass.
#include "model/config.h"
#include "model/transformer.h"

#include <doctest/doctest.h>

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct BadConfig {
  const char* name;
  std::function<void(ae::ModelConfig&)> change;
  const char* mentions;  // the message must contain this (the field, or the rule's subject)
};

const std::vector<BadConfig>& bad_configs() {
  using C = ae::ModelConfig;
  static const std::vector<BadConfig> cases = {
      {"heads do not divide d_model", [](C& c) { c.d_model = 30, c.n_heads = 4; }, "n_heads"},
      {"heads do not divide d_model (names d_model too)", [](C& c) { c.d_model = 30, c.n_heads = 4; }, "d_model"},
      {"more heads than features", [](C& c) { c.d_model = 4, c.n_heads = 8; }, "n_heads"},
      {"zero vocab_size", [](C& c) { c.vocab_size = 0; }, "vocab_size"},
      {"negative vocab_size", [](C& c) { c.vocab_size = -5; }, "vocab_size"},
      {"zero d_model", [](C& c) { c.d_model = 0; }, "d_model"},
      {"negative d_model", [](C& c) { c.d_model = -32; }, "d_model"},
      {"zero n_heads", [](C& c) { c.n_heads = 0; }, "n_heads"},
      {"negative n_heads", [](C& c) { c.n_heads = -4; }, "n_heads"},
      {"zero n_layers", [](C& c) { c.n_layers = 0; }, "n_layers"},
      {"negative n_layers", [](C& c) { c.n_layers = -1; }, "n_layers"},
      {"zero max_len", [](C& c) { c.max_len = 0; }, "max_len"},
      {"negative max_len", [](C& c) { c.max_len = -128; }, "max_len"},
      {"negative d_ff", [](C& c) { c.d_ff = -1; }, "d_ff"},
      {"RoPE with odd head width",
       [](C& c) { c.d_model = 12, c.n_heads = 4, c.positional = ae::PositionalEncoding::Rope; }, "RoPE"},
      {"RoPE with odd head width (names the width)",
       [](C& c) { c.d_model = 12, c.n_heads = 4, c.positional = ae::PositionalEncoding::Rope; }, "head width"},
      {"sinusoidal with odd d_model",
       [](C& c) { c.d_model = 9, c.n_heads = 3, c.positional = ae::PositionalEncoding::Sinusoidal; }, "d_model"},
      {"zero layer_norm_eps", [](C& c) { c.layer_norm_eps = 0.0f; }, "layer_norm_eps"},
      {"NaN layer_norm_eps", [](C& c) { c.layer_norm_eps = std::numeric_limits<float>::quiet_NaN(); },
       "layer_norm_eps"},
      {"rope_base of 1", [](C& c) { c.rope_base = 1.0f; }, "rope_base"},
      // Every dimension within its own bound, 3.3·10¹¹ parameters together (the 51 GB config).
      {"more parameters than kMaxParameters",
       [](C& c) { c.vocab_size = 1 << 20, c.d_model = 4096, c.n_layers = 64, c.d_ff = 16384; },
       "the limit is 67108864"},
  };
  return cases;
}

ae::ModelConfig changed(const BadConfig& bad) {
  ae::ModelConfig c;
  bad.change(c);
  return c;
}

}  // namespace

TEST_CASE("validate() names the offending field for every broken rule") {
  for (const BadConfig& bad : bad_configs()) {
    INFO("bad.name := ", std::string(bad.name));
    const ae::ModelConfig c = changed(bad);
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains(bad.mentions), std::invalid_argument);
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("config: "), std::invalid_argument);
  }
}

TEST_CASE("the Transformer constructor rejects every invalid config") {
  for (const BadConfig& bad : bad_configs()) {
    INFO("bad.name := ", std::string(bad.name));
    const ae::ModelConfig c = changed(bad);
    CHECK_THROWS_WITH_AS(ae::Transformer{c}, doctest::Contains(bad.mentions), std::invalid_argument);
  }
}

TEST_CASE("valid configs pass validation and build a model") {
  std::vector<ae::ModelConfig> valid(6);
  valid[1].positional = ae::PositionalEncoding::Rope;                                                 // 32/4 = 8, even
  valid[2].d_model = 9, valid[2].n_heads = 3, valid[2].positional = ae::PositionalEncoding::Learned;  // odd d is fine
  valid[3].d_model = 6, valid[3].n_heads = 6, valid[3].positional = ae::PositionalEncoding::None, valid[3].d_ff = 5;
  valid[4].causal = true, valid[4].cross_attention = true, valid[4].norm = ae::NormPlacement::Post;
  valid[5].vocab_size = 1, valid[5].d_model = 2, valid[5].n_heads = 1, valid[5].n_layers = 1, valid[5].max_len = 1;
  for (size_t i = 0; i < valid.size(); ++i) {
    CAPTURE(i);
    CHECK_NOTHROW(valid[i].validate());
    CHECK_NOTHROW(ae::Transformer{valid[i]});
  }
}

TEST_CASE("head_dim and ffn_dim derive from the config") {
  ae::ModelConfig c;
  c.d_model = 48, c.n_heads = 6;
  CHECK(c.head_dim() == 8);
  CHECK(c.ffn_dim() == 4 * 48);  // d_ff = 0 means 4·d_model
  c.d_ff = 100;
  CHECK(c.ffn_dim() == 100);
}

TEST_CASE("positional and norm names round-trip, and unknown names throw naming the kind") {
  for (auto p : {ae::PositionalEncoding::None, ae::PositionalEncoding::Sinusoidal, ae::PositionalEncoding::Learned,
                 ae::PositionalEncoding::Rope})
    CHECK(ae::positional_encoding_from_string(ae::to_string(p)) == p);
  CHECK(ae::to_string(ae::PositionalEncoding::Rope) == "rope");
  CHECK(ae::to_string(ae::PositionalEncoding::Sinusoidal) == "sinusoidal");
  for (const char* unknown : {"alibi", "", "sinus", "rope "}) {
    INFO("unknown := ", std::string(unknown));
    CHECK_THROWS_WITH_AS(ae::positional_encoding_from_string(unknown), doctest::Contains("positional"),
                         std::invalid_argument);
  }
  CHECK(ae::norm_placement_from_string("pre") == ae::NormPlacement::Pre);
  CHECK(ae::norm_placement_from_string("post") == ae::NormPlacement::Post);
  CHECK(ae::to_string(ae::NormPlacement::Post) == "post");
  CHECK_THROWS_WITH_AS(ae::norm_placement_from_string("middle"), doctest::Contains("norm"), std::invalid_argument);
}

TEST_CASE("parameter_count() equals what a Transformer of the config allocates") {
  std::vector<ae::ModelConfig> configs(7);
  configs[1].positional = ae::PositionalEncoding::Learned, configs[1].max_len = 40;
  configs[2].norm = ae::NormPlacement::Post, configs[2].d_ff = 7;
  configs[3].cross_attention = true, configs[3].causal = true, configs[3].n_layers = 3;
  configs[4].tie_output = false, configs[4].vocab_size = 181;
  configs[5].d_model = 9, configs[5].n_heads = 3, configs[5].positional = ae::PositionalEncoding::Learned;
  configs[6].vocab_size = 1, configs[6].d_model = 2, configs[6].n_heads = 1, configs[6].n_layers = 1,
  configs[6].max_len = 1;
  for (size_t i = 0; i < configs.size(); ++i) {
    CAPTURE(i);
    CHECK(configs[i].parameter_count() == static_cast<int64_t>(ae::Transformer{configs[i]}.parameter_count()));
  }
}

TEST_CASE("kMaxParameters: a model at the limit passes, one more row of embedding does not") {
  ae::ModelConfig c;
  c.d_model = 64, c.n_heads = 4, c.n_layers = 1, c.d_ff = 64, c.positional = ae::PositionalEncoding::None;
  c.norm = ae::NormPlacement::Post;  // no final LayerNorm: every parameter but the layer's is V·(d + 1)
  c.vocab_size = 1;
  const int64_t layer = c.parameter_count() - (c.d_model + 1);
  c.vocab_size = static_cast<int>((ae::kMaxParameters - layer) / (c.d_model + 1));
  CHECK(c.parameter_count() <= ae::kMaxParameters);
  CHECK_NOTHROW(c.validate());
  c.vocab_size += 1;
  CHECK(c.parameter_count() > ae::kMaxParameters);
  CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("parameters ("), std::invalid_argument);
}
