// Writes the native core's results for a table of inputs as JSON, so that the wasm tests
// (tests/wasm) can check that the module computes the same numbers. Nothing here is typed
// by hand: inputs come from seeded generators, outputs from the native build of src/.
//
//   make_fixtures OUT.json
//
// JSON cannot hold −∞, so masked scores appear as null.
#include "model/transformer.h"
#include "ops/attention.h"
#include "text/tokenizer.h"
#include "util/rng.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

namespace {

using nlohmann::json;

constexpr int kFixtureVersion = 1;

json to_json(const ae::Matrix& m) {
  json values = json::array();
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const float v = m.data()[i];
    values.push_back(std::isfinite(v) ? json(v) : json(nullptr));
  }
  return values;
}

ae::Matrix random_matrix(ae::Rng& rng, int rows, int cols, double scale) {
  ae::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(rng.normal() * scale);
  return m;
}

struct AttentionCase {
  int n, m, dk, dv;
  double scale;  // input spread; 30 drives scores far past exp's float range before max-subtraction
  bool causal;
  int window;
  int query_offset;
  bool pad_last_key;
};

json attention_cases() {
  const AttentionCase cases[] = {
      {1, 1, 1, 1, 1, false, 0, 0, false},    {3, 5, 4, 2, 1, false, 0, 0, false},
      {5, 5, 8, 8, 1, true, 0, 0, false},     {16, 16, 16, 16, 2, false, 3, 0, false},
      {17, 17, 64, 64, 1, true, 4, 0, false}, {4, 7, 3, 5, 1, false, 0, 0, true},
      {3, 8, 8, 8, 1, true, 0, 5, false},     {12, 12, 16, 16, 30, false, 0, 0, false},
      {12, 12, 16, 16, 30, true, 0, 0, true},
  };
  ae::Rng rng(2024);
  json out = json::array();
  for (const auto& c : cases) {
    ae::AttentionOptions options;
    options.mask.causal = c.causal;
    options.mask.window = c.window;
    options.mask.query_offset = c.query_offset;
    if (c.pad_last_key) {
      options.mask.key_padding.assign(static_cast<size_t>(c.m), 0);
      options.mask.key_padding.back() = 1;
    }
    for (bool scale : {true, false}) {
      options.scale = scale;
      const ae::Matrix q = random_matrix(rng, c.n, c.dk, c.scale);
      const ae::Matrix k = random_matrix(rng, c.m, c.dk, c.scale);
      const ae::Matrix v = random_matrix(rng, c.m, c.dv, 1.0);
      const ae::AttentionTrace t = ae::attention_traced(q, k, v, options);
      json args = {{"n", c.n},
                   {"m", c.m},
                   {"dk", c.dk},
                   {"dv", c.dv},
                   {"causal", c.causal},
                   {"window", c.window},
                   {"queryOffset", c.query_offset},
                   {"scale", scale},
                   {"q", to_json(q)},
                   {"k", to_json(k)},
                   {"v", to_json(v)}};
      if (c.pad_last_key) args["keyPadding"] = options.mask.key_padding;
      out.push_back({{"args", args},
                     {"expected",
                      {{"rawScores", to_json(t.raw_scores)},
                       {"scaledScores", to_json(t.scaled_scores)},
                       {"maskedScores", to_json(t.masked_scores)},
                       {"weights", to_json(t.weights)},
                       {"output", to_json(t.output)}}}});
    }
  }
  return out;
}

// Mirrors RandomModel in bindings/bindings.cpp: hashed word ids starting at 5.
json model_cases() {
  struct ModelCase {
    const char* positional;
    const char* norm;
    int heads, layers;
    bool causal;
    uint64_t seed;
  };
  const ModelCase cases[] = {
      {"none", "pre", 4, 2, false, 1}, {"sinusoidal", "pre", 4, 2, false, 2}, {"learned", "post", 2, 3, false, 3},
      {"rope", "pre", 8, 1, true, 4},  {"sinusoidal", "post", 1, 2, true, 5},
  };
  const std::string text = "The animal didn't cross the street because it was too tired.";
  json out = json::array();
  for (const auto& c : cases) {
    ae::ModelConfig config;
    config.vocab_size = 512;
    config.d_model = 32;
    config.n_heads = c.heads;
    config.n_layers = c.layers;
    config.positional = ae::positional_encoding_from_string(c.positional);
    config.norm = ae::norm_placement_from_string(c.norm);
    config.causal = c.causal;
    ae::Transformer model(config);
    model.init_random(c.seed);

    std::vector<int> ids;
    for (const auto& w : ae::split_words(text)) ids.push_back(ae::hashed_token_id(w, config.vocab_size, 5));
    ae::ForwardTrace trace;
    model.forward(ids, {}, &trace);

    json layers = json::array();
    for (const auto& layer : trace.layers) {
      json heads = json::array();
      for (const auto& h : layer.self_attention.heads)
        heads.push_back({{"weights", to_json(h.attention.weights)}, {"q", to_json(h.q)}});
      layers.push_back({{"heads", heads}});
    }
    out.push_back({{"config",
                    {{"vocabSize", 512},
                     {"dModel", 32},
                     {"nHeads", c.heads},
                     {"nLayers", c.layers},
                     {"positional", c.positional},
                     {"norm", c.norm},
                     {"causal", c.causal},
                     {"seed", c.seed}}},
                   {"text", text},
                   {"ids", ids},
                   {"parameterCount", model.parameter_count()},
                   {"expected", {{"layers", layers}, {"output", to_json(trace.output)}}}});
  }
  return out;
}

json tokenizer_cases() {
  const char* texts[] = {"The animal didn't cross the street because it was too tired.",
                         "It’s a trophy; it wouldn't fit!", "猫追狗。狗追猫？", "GPT-4 很强，“对吧”"};
  json out = json::array();
  for (const char* t : texts) out.push_back({{"text", t}, {"tokens", ae::split_words(t)}});
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_fixtures OUT.json\n";
    return 2;
  }
  try {
    const json fixtures = {{"version", kFixtureVersion},
                           {"attention", attention_cases()},
                           {"models", model_cases()},
                           {"tokenizer", tokenizer_cases()}};
    std::ofstream file(argv[1]);
    file << fixtures.dump();
    if (!file) throw std::runtime_error(std::string("cannot write ") + argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "make_fixtures: " << e.what() << "\n";
    return 1;
  }
}
