// GPT-2-layout checkpoints (io/gpt2.h, inference/gpt2_model.h, text/bpe.h) against the
// golden outputs of an independent PyTorch implementation (tools/gpt2_reference.py, in
// tests/fixtures/gpt2-tiny): token ids, logits of every position and every head's attention,
// ≤ 1e-4 relative; the same model from F16 and "transformer."-prefixed files; and the refusals.
#include "error_of.h"
#include "inference/gpt2_model.h"
#include "io/gpt2.h"
#include "io/half.h"
#include "io/safetensors.h"
#include "text/bpe.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

constexpr int kGoldenVersion = 1;
constexpr double kTolerance = 1e-4;  // relative to the largest magnitude of the tensor compared

std::string fixture(const char* file) {
  const std::string path = std::string(AE_SOURCE_DIR) + "/tests/fixtures/gpt2-tiny/" + file;
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path << " (python3 tools/gpt2_reference.py tiny tests/fixtures/gpt2-tiny)");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

struct Files {
  std::string config = fixture("config.json"), weights = fixture("model.safetensors");
  std::string vocab = fixture("vocab.json"), merges = fixture("merges.txt");
};

const Files& files() {
  static const Files f;
  return f;
}

ae::Gpt2Model open(const std::string& config, const std::string& weights) {
  return ae::Gpt2Model(config, weights, files().vocab, files().merges);
}

const json& golden() {
  static const json g = [] {
    json j = json::parse(fixture("golden.json"));
    REQUIRE_MESSAGE(j.value("version", 0) == kGoldenVersion,
                    "golden.json has another version: regenerate it with tools/gpt2_reference.py tiny");
    return j;
  }();
  return g;
}

// max |actual − expected| / max |expected| over a tensor given as nested JSON rows.
double relative_error(const ae::Matrix& actual, const json& expected_rows) {
  double worst = 0, scale = 1e-30;
  REQUIRE(actual.rows() == static_cast<Eigen::Index>(expected_rows.size()));
  for (Eigen::Index r = 0; r < actual.rows(); ++r) {
    const json& row = expected_rows[static_cast<size_t>(r)];
    REQUIRE(actual.cols() == static_cast<Eigen::Index>(row.size()));
    for (Eigen::Index c = 0; c < actual.cols(); ++c) {
      const double e = row[static_cast<size_t>(c)].get<double>();
      worst = std::max(worst, std::abs(actual(r, c) - e));
      scale = std::max(scale, std::abs(e));
    }
  }
  return worst / scale;
}

// The fixture's tensors rewritten with another dtype and name prefix.
std::string rewritten(ae::DType dtype, const std::string& prefix) {
  const ae::SafetensorsFile file = ae::parse_safetensors(files().weights);
  std::vector<ae::NamedTensor> tensors;
  for (const auto& [name, t] : file.tensors) tensors.push_back({prefix + name, t.shape, dtype, t.values.data()});
  return ae::write_safetensors(tensors);
}

// The fixture without one tensor, or with one tensor's shape changed.
std::string without(const std::string& dropped) {
  const ae::SafetensorsFile file = ae::parse_safetensors(files().weights);
  std::vector<ae::NamedTensor> tensors;
  for (const auto& [name, t] : file.tensors)
    if (name != dropped) tensors.push_back({name, t.shape, ae::DType::F32, t.values.data()});
  return ae::write_safetensors(tensors);
}

json config_with(const std::string& key, const json& value) {
  json c = json::parse(files().config);
  if (value.is_discarded()) c.erase(key);
  else c[key] = value;
  return c;
}

}  // namespace

TEST_CASE("gpt2: the core matches the PyTorch reference on every prompt: ids, logits, every head's attention") {
  const ae::Gpt2Model model = open(files().config, files().weights);
  CHECK(model.config().n_layers == 3);
  for (const json& prompt : golden()["prompts"]) {
    const std::string text = prompt["text"];
    INFO("prompt: " << text);
    const std::vector<int> ids = prompt["ids"];
    CHECK(model.tokenizer().encode(text) == ids);
    const ae::Analysis a = model.analyze(text);
    const double logits_error = relative_error(model.transformer().logits(a.trace.output), prompt["logits"]);
    INFO("logits: relative error " << logits_error);
    CHECK(logits_error <= kTolerance);
    double attention_error = 0;
    for (size_t l = 0; l < a.trace.layers.size(); ++l)
      for (size_t h = 0; h < a.trace.layers[l].self_attention.heads.size(); ++h)
        attention_error = std::max(
            attention_error,
            relative_error(a.trace.layers[l].self_attention.heads[h].attention.weights, prompt["attention"][l][h]));
    INFO("attention: relative error " << attention_error);
    CHECK(attention_error <= kTolerance);
  }
}

TEST_CASE("gpt2: the prediction is the reference's arg-max of the last row") {
  const ae::Gpt2Model model = open(files().config, files().weights);
  const json& prompt = golden()["prompts"][0];
  const std::vector<double> last = prompt["logits"].back();
  const int best = static_cast<int>(std::max_element(last.begin(), last.end()) - last.begin());
  const ae::Analysis a = model.analyze(prompt["text"].get<std::string>());
  REQUIRE(a.prediction);
  CHECK(a.prediction->position == static_cast<int>(a.ids.size()) - 1);
  CHECK(a.prediction->top.front().id == best);
}

TEST_CASE("gpt2: F16 files give the half-rounded weights; 'transformer.' names load the same model") {
  const ae::Gpt2Model f32 = open(files().config, files().weights);
  const ae::Gpt2Model f16 = open(files().config, rewritten(ae::DType::F16, ""));
  const ae::Gpt2Model prefixed = open(files().config, rewritten(ae::DType::F32, "transformer."));
  const std::string text = golden()["prompts"][0]["text"];
  const ae::Analysis a = f32.analyze(text), b = prefixed.analyze(text), c = f16.analyze(text);
  CHECK(a.trace.output == b.trace.output);
  // F16 rounds every weight by up to 2^-11 relative: the outputs move, but stay close.
  CHECK((c.trace.output - a.trace.output).cwiseAbs().maxCoeff() < 0.05f * a.trace.output.cwiseAbs().maxCoeff());
  CHECK(c.trace.output != a.trace.output);
}

TEST_CASE("gpt2: generation step by step gives the same tokens with and without the KV cache") {
  const ae::Gpt2Model model = open(files().config, files().weights);
  const ae::Generation cached = model.generate_steps("The animal", 5, true);
  const ae::Generation full = model.generate_steps("The animal", 5, false);
  CHECK(cached.ids == full.ids);
  REQUIRE(cached.steps.size() == full.steps.size());
  CHECK(cached.steps.back().rows_new == 1);
  for (size_t i = 0; i < cached.steps.size(); ++i)
    for (size_t v = 0; v < cached.steps[i].logits.size(); ++v)
      CHECK(cached.steps[i].logits[v] == doctest::Approx(full.steps[i].logits[v]).epsilon(1e-4));
}

namespace {

// Every matrix a traced layer keeps, in one list, to compare two traces of it bit for bit.
std::vector<const ae::Matrix*> layer_matrices(const ae::LayerTrace& t) {
  std::vector<const ae::Matrix*> out{&t.self_attention.concat,
                                     &t.self_attention.output,
                                     &t.output,
                                     &t.self_norm,
                                     &t.after_self,
                                     &t.ffn_norm,
                                     &t.ffn_activation,
                                     &t.ffn_output};
  for (const ae::HeadTrace& h : t.self_attention.heads)
    for (const ae::Matrix* m : {&h.q, &h.k, &h.v, &h.attention.raw_scores, &h.attention.scaled_scores,
                                &h.attention.masked_scores, &h.attention.weights, &h.attention.output})
      out.push_back(m);
  return out;
}

std::vector<uint8_t> only_layer(int layer, int n_layers) {
  std::vector<uint8_t> flags(static_cast<size_t>(n_layers), 0);
  flags[static_cast<size_t>(layer)] = 1;
  return flags;
}

}  // namespace

TEST_CASE("gpt2: tracing one layer gives that layer's matrices exactly as the full trace does") {
  const ae::Gpt2Model model = open(files().config, files().weights);
  const int n_layers = model.config().n_layers;
  for (const json& prompt : golden()["prompts"]) {
    const std::string text = prompt["text"];
    const ae::Analysis full = model.analyze(text);
    for (int l = 0; l < n_layers; ++l) {
      INFO("prompt: " << text << ", layer " << l);
      ae::AnalysisOptions options;
      options.run.traced_layers = only_layer(l, n_layers);
      const ae::Analysis one = model.analyze(text, options);
      for (int other = 0; other < n_layers; ++other)
        CHECK(one.trace.layers[static_cast<size_t>(other)].self_attention.heads.size() ==
              (other == l ? static_cast<size_t>(model.config().n_heads) : 0));
      const std::vector<const ae::Matrix*> a = layer_matrices(one.trace.layers[static_cast<size_t>(l)]);
      const std::vector<const ae::Matrix*> b = layer_matrices(full.trace.layers[static_cast<size_t>(l)]);
      REQUIRE(a.size() == b.size());
      for (size_t m = 0; m < a.size(); ++m) {
        INFO("matrix " << m);
        CHECK(a[m]->size() > 0);
        CHECK(*a[m] == *b[m]);  // bit for bit: the untraced layers before it compute the same input
      }
      CHECK(one.trace.output == full.trace.output);
      CHECK(one.prediction->top.front().id == full.prediction->top.front().id);
    }
  }
}

namespace {

// The tiny fixture widened to 12 layers of 8 heads and 1024 positions (its layers and position
// rows repeated): a trace of every layer grows past the 512 MiB budget at about 460 tokens.
ae::Gpt2Model widened_model() {
  const ae::SafetensorsFile file = ae::parse_safetensors(files().weights);
  constexpr int kLayers = 12, kPositions = 1024;
  const ae::StoredTensor& wpe = file.tensors.at("wpe.weight");
  const int64_t d = wpe.shape[1];
  std::vector<float> positions(static_cast<size_t>(kPositions * d));
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = wpe.values[i % wpe.values.size()];
  std::vector<ae::NamedTensor> tensors{{"wpe.weight", {kPositions, d}, ae::DType::F32, positions.data()}};
  std::vector<std::string> names;  // kept alive for the NamedTensors
  names.reserve(file.tensors.size() * kLayers);
  for (const auto& [name, t] : file.tensors) {
    if (name == "wpe.weight") continue;
    if (name.rfind("h.", 0) != 0) {
      tensors.push_back({name, t.shape, ae::DType::F32, t.values.data()});
      continue;
    }
    const size_t dot = name.find('.', 2);
    const int layer = std::stoi(name.substr(2, dot - 2));
    for (int l = layer; l < kLayers; l += 3) {
      names.push_back("h." + std::to_string(l) + name.substr(dot));
      tensors.push_back({names.back(), t.shape, ae::DType::F32, t.values.data()});
    }
  }
  json config = json::parse(files().config);
  config["n_layer"] = kLayers;
  config["n_head"] = 8;
  config["n_positions"] = config["n_ctx"] = kPositions;
  return open(config.dump(), ae::write_safetensors(tensors));
}

}  // namespace

TEST_CASE("gpt2: the trace budget applies to the layers traced: a text too long for all of them fits in one") {
  const ae::Gpt2Model model = widened_model();
  const std::string sentence = "The animal didn't cross the street. ";
  std::string text;
  for (size_t i = 0, per = model.tokenizer().encode(sentence).size(); i * per < 600; ++i) text += sentence;
  REQUIRE(model.tokenizer().encode(text).size() >= 600);
  CHECK_CONTAINS(error_of([&] { model.analyze(text); }), "this model reads at most");
  ae::AnalysisOptions options;
  options.run.traced_layers = only_layer(11, 12);
  const ae::Analysis a = model.analyze(text, options);
  const ae::LayerTrace& last = a.trace.layers.back();
  CHECK(last.self_attention.heads.size() == 8);
  CHECK(last.self_attention.heads[0].attention.weights.rows() == static_cast<int>(a.ids.size()));
  CHECK(a.trace.layers.front().self_attention.heads.empty());
}

TEST_CASE("gpt2: config.json refusals name the key") {
  const auto error = [](const json& config) { return error_of([&] { ae::gpt2_config_from_json(config.dump()); }); };
  CHECK_CONTAINS(error(config_with("model_type", "llama")), "model_type \"llama\" is not GPT-2");
  CHECK_CONTAINS(error(config_with("architectures", json::array({"BertModel"}))),
                 "architecture \"BertModel\" is not GPT-2");
  CHECK_CONTAINS(error(config_with("n_embd", json(json::value_t::discarded))), "missing key \"n_embd\"");
  CHECK_CONTAINS(error(config_with("n_head", 5)), "n_heads (5) must divide d_model (32)");
  CHECK_CONTAINS(error(config_with("activation_function", "relu")), "activation_function \"relu\" is not supported");
  CHECK_CONTAINS(error(config_with("scale_attn_by_inverse_layer_idx", true)), "scale_attn_by_inverse_layer_idx");
  CHECK_CONTAINS(error(config_with("n_layer", 2.5)), "\"n_layer\" must be a positive integer");
  CHECK_CONTAINS(error_of([] { ae::gpt2_config_from_json("[1]"); }), "config.json: expected a JSON object");
  // GPT-2 XL's shape (1.5 billion parameters) is refused before anything is allocated.
  json xl = config_with("n_embd", 1600);
  xl["n_layer"] = 48;
  xl["n_head"] = 25;
  xl["vocab_size"] = 50257;
  CHECK_CONTAINS(error(xl), "parameters");
}

TEST_CASE("gpt2: weights that disagree with config.json are refused before the model is allocated") {
  const auto error = [](const std::string& config, const std::string& weights) {
    return error_of([&] { open(config, weights); });
  };
  CHECK_CONTAINS(error(files().config, without("h.1.attn.c_attn.weight")),
                 "tensor 'h.1.attn.c_attn.weight' is missing");
  CHECK_CONTAINS(error(config_with("n_positions", 64).dump(), files().weights),
                 "tensor 'wpe.weight' has shape [32,32] but config.json implies [64,32]");
  CHECK_CONTAINS(error(config_with("n_layer", 2).dump(), files().weights), "unexpected tensor 'h.2.");
  // A config of 124M parameters against the tiny file: a shape error, not 500 MB allocated first.
  json big = config_with("n_embd", 768);
  big["n_head"] = 12;
  big["n_layer"] = 12;
  big["vocab_size"] = 320;
  CHECK_CONTAINS(error(big.dump(), files().weights), "has shape");
  // An I8 tensor: its integers are not the weights, and GPT-2 files have no scale convention here.
  {
    const ae::SafetensorsFile file = ae::parse_safetensors(files().weights);
    std::vector<std::vector<float>> integers;
    std::vector<ae::NamedTensor> tensors;
    for (const auto& [name, t] : file.tensors) {
      if (name != "h.0.mlp.c_fc.weight") {
        tensors.push_back({name, t.shape, ae::DType::F32, t.values.data()});
        continue;
      }
      integers.emplace_back(t.values.size(), 1.0f);
      tensors.push_back({name, t.shape, ae::DType::I8, integers.back().data()});
    }
    CHECK_CONTAINS(error(files().config, ae::write_safetensors(tensors)),
                   "tensor 'h.0.mlp.c_fc.weight' is I8: a GPT-2 checkpoint is read from F32 or F16");
  }
  // Another architecture's file.
  const float one = 1;
  const std::string llama = ae::write_safetensors({{"model.embed_tokens.weight", {1}, ae::DType::F32, &one}});
  CHECK_CONTAINS(error(files().config, llama), "not a GPT-2 layout (the file holds model.embed_tokens.weight)");
  CHECK_CONTAINS(error(files().config, "not a file"), "model.safetensors: safetensors:");
  CHECK_CONTAINS(error_of([] {
                   ae::Gpt2Model(config_with("vocab_size", 321).dump(), files().weights, files().vocab, files().merges);
                 }),
                 "vocab.json has 320 tokens but config.json's vocab_size is 321");
}

TEST_CASE("bpe: GPT-2's pre-tokenizer pattern") {
  const auto pieces = [](std::string_view text) {
    std::vector<std::string> out;
    for (std::string_view p : ae::gpt2_pretokenize(text)) out.emplace_back(p);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(pieces("Hello  world") == V{"Hello", " ", " world"});
  CHECK(pieces("it's we'll I'M") == V{"it", "'s", " we", "'ll", " I", "'", "M"});
  CHECK(pieces("a\n\nb  ") == V{"a", "\n", "\n", "b", "  "});  // a lone space-like character before a word
  CHECK(pieces("x  \ny") == V{"x", "  ", "\n", "y"});
  CHECK(pieces("3.14 km, 100%!") == V{"3", ".", "14", " km", ",", " 100", "%!"});
  CHECK(pieces("猫追狗。 😀😀 é") == V{"猫追狗", "。", " 😀😀", " é"});
  CHECK(pieces("") == V{});
  CHECK_CONTAINS(error_of([&] { pieces("a\xff"); }), "not valid UTF-8 (at byte 1)");
}

TEST_CASE("bpe: vocab.json and merges.txt refusals name the line") {
  const std::string& vocab = files().vocab;
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(vocab, "#version: 0.2\na b c\n"); }),
                 "merges.txt: line 2 must be two tokens");
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(vocab, "Ā ā\n"); }),
                 "merges.txt: line 1: the merged token \"Āā\" is not in vocab.json");
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(vocab, ""); }), "merges.txt: no merges");
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(vocab, "#version: 0.2\n\n"); }), "merges.txt: no merges");
  const std::string& merges = files().merges;
  const size_t first = merges.find('\n') + 1;  // after the #version line
  const std::string merge = merges.substr(first, merges.find('\n', first) - first);
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(vocab, "#version: 0.2\n" + merge + "\n" + merge + "\n"); }),
                 "merges.txt: line 3 repeats the merge \"" + merge + "\" of rank 0");
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(R"({"a": 0})", ""); }), "vocab.json: no token for byte 0");
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(R"({"a": 0, "b": 0})", ""); }),
                 "vocab.json: id 0 is given to two tokens");
  CHECK_CONTAINS(error_of([&] { ae::BpeTokenizer::parse(R"({"a": 7})", ""); }), "must be an integer in [0, 1)");
}

TEST_CASE("bpe: tokens decode to the text's bytes; split characters display as U+FFFD") {
  const ae::BpeTokenizer t = ae::BpeTokenizer::parse(files().vocab, files().merges);
  const std::string text = "The animal — 猫 😀";
  std::string bytes;
  for (int id : t.encode(text)) bytes += t.token_bytes(id);
  CHECK(bytes == text);
  const int first_byte_of_cat = t.id("ç");  // the character of byte 0xe7, the first of 猫 (e7 8c ab)
  REQUIRE(first_byte_of_cat >= 0);
  CHECK(t.token_text(first_byte_of_cat) == "\xef\xbf\xbd");
  CHECK(t.token_text(t.id("Ġ")) == " ");  // byte 0x20 is written U+0120
}
