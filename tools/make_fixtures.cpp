// Writes the native core's results for a table of inputs as JSON, so that the wasm tests
// (tests/wasm) can check that the module computes the same numbers. Nothing here is typed
// by hand: inputs come from seeded generators, outputs from the native build of src/.
// The same tool compiled to wasm (build/wasm/make_fixtures.cjs, run by Node) writes the same
// file from the wasm build of src/: its `gradients` section, a training step's arithmetic that
// the page's module does not expose, is compared with this one's.
//
//   make_fixtures OUT.json
//
// JSON cannot hold −∞, so masked scores appear as null.
#include "model/transformer.h"
#include "ops/attention.h"
#include "text/tokenizer.h"
#include "train/optimizer.h"
#include "train/trainer.h"
#include "util/rng.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

namespace {

using nlohmann::json;

constexpr int kFixtureVersion = 2;

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

// {name: values} of every parameter of m.
json parameters_json(ae::Transformer& m) {
  json out = json::object();
  m.visit_parameters([&](const std::string& name, ae::Matrix& p) { out[name] = to_json(p); });
  return out;
}

// One encoder–decoder training example (the decoder cross-attends to the encoder's output):
// the loss, every parameter's gradient of both models, and the decoder's dL/dmemory for a
// weighted sum of its output. Pre- and post-LN decoders, with and without dropout.
json gradient_cases() {
  struct GradientCase {
    const char* norm;
    float dropout;
  };
  const GradientCase cases[] = {{"pre", 0.0f}, {"post", 0.0f}, {"pre", 0.1f}};
  const std::vector<int> source = {3, 9, 14, 2, 7, 11, 5}, target = {1, 4, 8, 4, 12, 6};
  const ae::TrainingExample example{target, {1, 3, 5}, {8, 12, 0}};
  json out = json::array();
  for (const auto& c : cases) {
    ae::ModelConfig encoder_config{.vocab_size = 16, .d_model = 16, .n_heads = 2, .n_layers = 2, .max_len = 12};
    ae::ModelConfig decoder_config = encoder_config;
    decoder_config.positional = ae::PositionalEncoding::Rope;
    decoder_config.norm = ae::norm_placement_from_string(c.norm);
    decoder_config.causal = true;
    decoder_config.cross_attention = true;
    ae::Transformer encoder(encoder_config), decoder(decoder_config);
    encoder.init_random(21);
    decoder.init_random(22);
    ae::EncoderDecoderOptions options;
    options.encoder.dropout = options.decoder.dropout = c.dropout;
    options.encoder.dropout_seed = 5;
    options.decoder.dropout_seed = 6;
    ae::Transformer encoder_grads = ae::gradient_buffer(encoder_config);
    ae::Transformer decoder_grads = ae::gradient_buffer(decoder_config);
    ae::EncoderDecoderGradients grads{encoder_grads, decoder_grads};
    const ae::ExampleResult r =
        ae::accumulate_gradients(ae::EncoderDecoder{encoder, decoder}, source, example, options, 1.0f, grads);

    ae::Rng rng(23);
    const ae::Matrix memory = random_matrix(rng, static_cast<int>(source.size()), 16, 1.0);
    const ae::Matrix weights = random_matrix(rng, static_cast<int>(target.size()), 16, 1.0);
    ae::RunOptions run;
    run.memory = &memory;
    ae::ForwardTrace trace;
    decoder.forward(target, run, &trace);
    ae::Transformer scratch = ae::gradient_buffer(decoder_config);
    const ae::Matrix d_memory = decoder.backward(target, run, trace, weights, scratch);
    out.push_back({{"norm", c.norm},
                   {"dropout", c.dropout},
                   {"loss", r.loss},
                   {"encoder", parameters_json(encoder_grads)},
                   {"decoder", parameters_json(decoder_grads)},
                   {"memory", to_json(d_memory)}});
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
                           {"gradients", gradient_cases()},
                           {"tokenizer", tokenizer_cases()}};
    std::ofstream file(argv[1]);
    file << fixtures.dump();
    if (!file) throw std::runtime_error(std::string("cannot write ") + argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "make_fixtures: " << e.what() << "\n";
    return 1;
  }
}
