// Checkpoints: config.json round trips and refusals, weights saved under the visit_parameters
// names and shapes, F32 round trips that reproduce every parameter and forward output bit for
// bit, F16 round trips that give the half-rounded values, and file-level errors naming paths.
#include "error_of.h"
#include "io/checkpoint.h"
#include "io/half.h"
#include "io/quantize.h"
#include "reference.h"
#include "util/rng.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace doctest {
template <>
struct StringMaker<ae::ModelConfig> {
  static String convert(const ae::ModelConfig& c) { return ae::config_to_json(c).dump().c_str(); }
};
}  // namespace doctest

namespace {

using nlohmann::json;

ae::ModelConfig small_config() {
  return {.vocab_size = 11, .d_model = 8, .n_heads = 2, .n_layers = 2, .d_ff = 12, .max_len = 16};
}

// Configurations that between them exercise every optional parameter group.
std::vector<std::pair<const char*, ae::ModelConfig>> config_table() {
  std::vector<std::pair<const char*, ae::ModelConfig>> table;
  ae::ModelConfig c = small_config();
  table.emplace_back("pre-LN sinusoidal encoder", c);
  c.positional = ae::PositionalEncoding::Learned;
  c.norm = ae::NormPlacement::Post;
  c.d_ff = 0;
  table.emplace_back("post-LN learned encoder", c);
  c = small_config();
  c.positional = ae::PositionalEncoding::Rope;
  c.causal = true;
  c.rope_base = 500.0f;
  table.emplace_back("RoPE causal decoder", c);
  c = small_config();
  c.positional = ae::PositionalEncoding::None;
  c.causal = true;
  c.cross_attention = true;
  c.n_layers = 1;
  c.layer_norm_eps = 1e-6f;
  table.emplace_back("cross-attending decoder", c);
  return table;
}

// A model whose every parameter (biases and LayerNorm gains included) holds a distinct random
// value, so that a parameter lost or swapped on the way changes something.
std::unique_ptr<ae::Transformer> random_model(const ae::ModelConfig& config, uint64_t seed) {
  auto model = std::make_unique<ae::Transformer>(config);
  ae::Rng rng(seed);
  model->visit_parameters(
      [&](const std::string&, ae::Matrix& m) { ref::fill_normal(m.data(), static_cast<size_t>(m.size()), rng, 0.5); });
  return model;
}

std::map<std::string, ae::Matrix> parameters(ae::Transformer& model) {
  std::map<std::string, ae::Matrix> out;
  model.visit_parameters([&](const std::string& name, ae::Matrix& m) { out[name] = m; });
  return out;
}

ae::Matrix run(const ae::Transformer& model) {
  const std::vector<int> ids = {1, 4, 0, 9, 3, 7};
  ae::RunOptions options;
  ae::Matrix memory;
  if (model.config().cross_attention) {
    memory = ae::Matrix::Constant(3, model.config().d_model, 0.25f);
    memory(1, 2) = -1.0f;
    options.memory = &memory;
  }
  return model.forward(ids, options, nullptr);
}

std::string config_text(const ae::ModelConfig& c) { return ae::config_to_json(c).dump(); }

// A fresh directory under the system temporary directory, removed at the end of the scope.
struct TemporaryDirectory {
  std::filesystem::path path;
  explicit TemporaryDirectory(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("ae_test_checkpoint_" + name)) {
    std::filesystem::remove_all(path);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string str() const { return path.string(); }
};

}  // namespace

TEST_CASE("checkpoint: config.json round trip") {
  for (const auto& [what, config] : config_table()) {
    const auto& what_ = what;  // clang 14 cannot capture a structured binding
    CAPTURE(what_);
    const json j = ae::config_to_json(config);
    CHECK(j["format"] == "attention-explorer/1");
    CHECK(j.size() == 13);
    const ae::ModelConfig back = ae::config_from_json(json::parse(j.dump()));
    CHECK(back == config);  // every field (a failure prints both as config.json)
  }
  // Floats are written as their shortest decimal, not as the widened double.
  const std::string text = ae::config_to_json(ae::ModelConfig{}).dump();
  CHECK_CONTAINS(text, "\"layer_norm_eps\":1e-05");
  CHECK_CONTAINS(text, "\"rope_base\":10000.0");
  CHECK_CONTAINS(text, "\"positional\":\"sinusoidal\"");
  CHECK_CONTAINS(text, "\"norm\":\"pre\"");
  // Keys the trainer adds are ignored here.
  json with_task = ae::config_to_json(small_config());
  with_task["task"] = "copy";
  CHECK(ae::config_from_json(with_task).d_model == 8);
}

TEST_CASE("checkpoint: config.json refusals name the key and the rule") {
  const json good = ae::config_to_json(small_config());
  auto error_with = [&](const char* key, const json& value) {
    json j = good;
    j[key] = value;
    return error_of([&] { ae::config_from_json(j); });
  };
  CHECK_CONTAINS(error_of([] { ae::config_from_json(json::array()); }), "config: expected a JSON object, got array");
  {
    json j = good;
    j.erase("format");
    CHECK_CONTAINS(error_of([&] { ae::config_from_json(j); }), "config: missing key \"format\"");
  }
  CHECK_CONTAINS(error_with("format", "attention-explorer/2"),
                 "format \"attention-explorer/2\" is not supported (expected \"attention-explorer/1\")");
  for (const auto& [key, value] : good.items()) {
    if (key == "format") continue;
    const auto& key_ = key;  // clang 14 cannot capture a structured binding
    CAPTURE(key_);
    json j = good;
    j.erase(key);
    CHECK(error_of([&] { ae::config_from_json(j); }) == "config: missing key \"" + key + "\"");
  }
  CHECK(error_with("d_model", "32") == "config: \"d_model\" must be an integer, got \"32\"");
  CHECK(error_with("d_model", 2.5) == "config: \"d_model\" must be an integer, got 2.5");
  CHECK(error_with("n_layers", true) == "config: \"n_layers\" must be an integer, got true");
  CHECK(error_with("vocab_size", 10000000000ll) == "config: \"vocab_size\" = 10000000000 is out of range");
  CHECK(error_with("causal", "yes") == "config: \"causal\" must be true or false, got \"yes\"");
  CHECK(error_with("positional", 3) == "config: \"positional\" must be a string, got 3");
  CHECK_CONTAINS(error_with("positional", "absolute"), "unknown positional encoding \"absolute\"");
  CHECK_CONTAINS(error_with("norm", "sandwich"), "unknown norm placement \"sandwich\"");
  CHECK(error_with("layer_norm_eps", "small") == "config: \"layer_norm_eps\" must be a number, got \"small\"");
  CHECK_CONTAINS(error_with("rope_base", 1e300), "out of range for a float");
  // Values of the right type that validate() refuses.
  CHECK_CONTAINS(error_with("n_heads", 3), "n_heads (3) must divide d_model (8)");
  CHECK_CONTAINS(error_with("d_model", 0), "d_model must be between 1 and");
  CHECK_CONTAINS(error_with("layer_norm_eps", -1), "layer_norm_eps must be a positive number");
}

TEST_CASE("checkpoint: weights are stored under the parameter names with their shapes") {
  ae::ModelConfig config = small_config();
  config.positional = ae::PositionalEncoding::Learned;
  auto model = random_model(config, 3);
  const ae::SafetensorsFile file = ae::parse_safetensors(ae::save_weights(*model, ae::DType::F32));

  std::vector<std::string> names;
  model->visit_parameters([&](const std::string& name, ae::Matrix&) { names.push_back(name); });
  REQUIRE(file.tensors.size() == names.size());
  for (const std::string& name : names) CHECK(file.tensors.count(name) == 1);
  CHECK(file.metadata.at("format") == "attention-explorer/1");

  using Shape = std::vector<int64_t>;
  CHECK(file.tensors.at("token_embedding").shape == Shape{11, 8});
  CHECK(file.tensors.at("position_embedding").shape == Shape{16, 8});
  CHECK(file.tensors.at("layers.0.self_attn.wq.weight").shape == Shape{8, 8});
  CHECK(file.tensors.at("layers.0.self_attn.wq.bias").shape == Shape{8});
  CHECK(file.tensors.at("layers.1.ffn.expand.weight").shape == Shape{8, 12});  // in×out
  CHECK(file.tensors.at("layers.1.ffn.expand.bias").shape == Shape{12});
  CHECK(file.tensors.at("layers.1.ffn.project.weight").shape == Shape{12, 8});
  CHECK(file.tensors.at("layers.0.ln_self.gamma").shape == Shape{8});
  CHECK(file.tensors.at("final_norm.beta").shape == Shape{8});
  // The rule, on whatever parameters the model has: vectors 1-D, everything else 2-D.
  for (const auto& [name, m] : parameters(*model)) {
    const auto& name_ = name;  // clang 14 cannot capture a structured binding
    CAPTURE(name_);
    const bool vector = name.ends_with("bias") || name.ends_with(".gamma") || name.ends_with(".beta");
    CHECK(file.tensors.at(name).shape == (vector ? Shape{m.cols()} : Shape{m.rows(), m.cols()}));
    CHECK(m.rows() == (vector ? 1 : m.rows()));
  }
  // Row-major: element (r, c) of a weight is value r·cols + c.
  // A copy: parameters() returns a temporary map (a reference into it dangled; ASan found it).
  const ae::Matrix wq = parameters(*model).at("layers.0.self_attn.wq.weight");
  CHECK(file.tensors.at("layers.0.self_attn.wq.weight").values[2 * 8 + 5] == wq(2, 5));
}

TEST_CASE("checkpoint: an F32 round trip reproduces every parameter and the forward pass exactly") {
  for (const auto& [what, config] : config_table()) {
    const auto& what_ = what;  // clang 14 cannot capture a structured binding
    CAPTURE(what_);
    auto original = random_model(config, 11);
    const ae::Checkpoint loaded =
        ae::load_checkpoint_from_memory(config_text(config), ae::save_weights(*original, ae::DType::F32), "a\nb\n");
    CHECK(loaded.vocab_text == "a\nb\n");
    CHECK(loaded.config_json == ae::config_to_json(config));
    const auto before = parameters(*original);
    const auto after = parameters(*loaded.model);
    REQUIRE(before.size() == after.size());
    for (const auto& [name, m] : before) {
      const auto& name_ = name;  // clang 14 cannot capture a structured binding
      CAPTURE(name_);
      CHECK(after.at(name) == m);
    }
    CHECK(run(*loaded.model) == run(*original));
  }
}

TEST_CASE("checkpoint: an F16 round trip gives each parameter its half-rounded value") {
  for (const auto& [what, config] : config_table()) {
    const auto& what_ = what;  // clang 14 cannot capture a structured binding
    CAPTURE(what_);
    auto original = random_model(config, 12);
    const std::string f16 = ae::save_weights(*original, ae::DType::F16);
    const std::string f32 = ae::save_weights(*original, ae::DType::F32);
    CHECK(f16.size() < f32.size());
    const ae::Checkpoint loaded = ae::load_checkpoint_from_memory(config_text(config), f16, "");
    const auto before = parameters(*original);
    const auto after = parameters(*loaded.model);
    int mismatches = 0;
    for (const auto& [name, m] : before)
      for (Eigen::Index i = 0; i < m.size(); ++i)
        if (after.at(name).data()[i] != ae::round_to_half(m.data()[i])) ++mismatches;
    CHECK(mismatches == 0);
  }
}

TEST_CASE("quantize: symmetric absmax, one scale per row or per column") {
  // 2×3, rows [-2, 1, 0.5] and [0, 0, 0] (an all-zero row).
  const std::vector<float> w = {-2.0f, 1.0f, 0.5f, 0.0f, 0.0f, 0.0f};
  const ae::Quantized rows = ae::quantize_symmetric(w.data(), 2, 3, ae::ScaleAxis::Rows, 4);
  CHECK(rows.scale == std::vector<float>{0.5f, 0.0f});  // absmax / levels
  CHECK(rows.q == std::vector<float>{-4.0f, 2.0f, 1.0f, 0.0f, 0.0f, 0.0f});
  const ae::Quantized columns = ae::quantize_symmetric(w.data(), 2, 3, ae::ScaleAxis::Columns, 4);
  CHECK(columns.scale == std::vector<float>{0.5f, 0.25f, 0.125f});
  CHECK(columns.q == std::vector<float>{-4.0f, 4.0f, 4.0f, 0.0f, 0.0f, 0.0f});
  // Ties go to even: 0.75 / 0.5 = 1.5 → 2, 0.25 / 0.5 = 0.5 → 0.
  const std::vector<float> ties = {1.0f, 0.75f, 0.25f, -0.75f};
  CHECK(ae::quantize_symmetric(ties.data(), 1, 4, ae::ScaleAxis::Rows, 2).q ==
        std::vector<float>{2.0f, 2.0f, 0.0f, -2.0f});

  // On random data: |q| ≤ levels, the absmax element of each row is ±levels, and the error of
  // every value is at most half a step.
  ae::Rng rng(21);
  std::vector<float> x(7 * 13);
  ref::fill_normal(x.data(), x.size(), rng, 3.0);
  for (const auto axis : {ae::ScaleAxis::Rows, ae::ScaleAxis::Columns})
    for (const int levels : {1, 7, 15, 127}) {
      CAPTURE(levels);
      const ae::Quantized q = ae::quantize_symmetric(x.data(), 7, 13, axis, levels);
      std::vector<float> back(x.size());
      ae::dequantize_symmetric(q.q.data(), q.scale.data(), 7, 13, axis, back.data());
      std::vector<float> largest(q.scale.size(), 0.0f);
      for (int r = 0; r < 7; ++r)
        for (int c = 0; c < 13; ++c) {
          const size_t i = static_cast<size_t>(r * 13 + c), k = axis == ae::ScaleAxis::Rows ? r : c;
          const float s = q.scale[k];
          CHECK(std::fabs(q.q[i]) <= levels);
          CHECK(back[i] == q.q[i] * s);
          CHECK(std::fabs(back[i] - x[i]) <= 0.5f * s * (1.0f + 1e-5f));
          largest[k] = std::max(largest[k], std::fabs(q.q[i]));
        }
      for (const float l : largest) CHECK(l == levels);
    }
  CHECK_CONTAINS(error_of([&] { ae::quantize_symmetric(x.data(), 7, 13, ae::ScaleAxis::Rows, 128); }),
                 "levels must be in 1 … 127, got 128");
}

TEST_CASE("checkpoint: an I8 round trip gives every matrix its dequantized value and every vector its F16 value") {
  for (const auto& [what, config] : config_table()) {
    const auto& what_ = what;  // clang 14 cannot capture a structured binding
    CAPTURE(what_);
    auto original = random_model(config, 14);
    const auto before = parameters(*original);
    for (const auto rule : {ae::ScaleRule::Rows, ae::ScaleRule::Columns, ae::ScaleRule::Outputs})
      for (const int levels : {127, 15}) {
        CAPTURE(levels);
        const ae::WeightFormat format{ae::DType::I8, levels, rule, ae::DType::F16};
        const std::string bytes = ae::save_weights(*original, format);
        const ae::SafetensorsFile file = ae::parse_safetensors(bytes);
        const ae::Checkpoint loaded = ae::load_checkpoint_from_memory(config_text(config), bytes, "");
        const auto after = parameters(*loaded.model);
        int mismatches = 0;
        for (const auto& [name, m] : before) {
          const std::vector<int64_t> shape = ae::stored_shape(name, m);
          if (shape.size() == 1) {
            CHECK(file.tensors.at(name).dtype == ae::DType::F16);
            CHECK(file.tensors.count(name + "_scale") == 0);
            for (Eigen::Index i = 0; i < m.size(); ++i)
              mismatches += after.at(name).data()[i] != ae::round_to_half(m.data()[i]);
            continue;
          }
          // The file holds the integers under the name and the scales next to them.
          const ae::ScaleAxis axis = ae::scale_axis(name, rule);
          const ae::StoredTensor& q = file.tensors.at(name);
          const ae::StoredTensor& scale = file.tensors.at(name + "_scale");
          CHECK(q.dtype == ae::DType::I8);
          CHECK(scale.dtype == ae::DType::F32);
          CHECK(scale.shape ==
                (axis == ae::ScaleAxis::Rows ? std::vector<int64_t>{shape[0], 1} : std::vector<int64_t>{1, shape[1]}));
          const ae::Quantized expected = ae::quantize_symmetric(m.data(), shape[0], shape[1], axis, levels);
          CHECK(q.values == expected.q);
          CHECK(scale.values == expected.scale);
          for (Eigen::Index r = 0; r < m.rows(); ++r)
            for (Eigen::Index c = 0; c < m.cols(); ++c) {
              const float s = expected.scale[static_cast<size_t>(axis == ae::ScaleAxis::Rows ? r : c)];
              mismatches += after.at(name)(r, c) != expected.q[static_cast<size_t>(r * m.cols() + c)] * s;
            }
        }
        CHECK(mismatches == 0);
        if (rule == ae::ScaleRule::Outputs) {  // per output: tables by row, weights by column
          CHECK(file.tensors.at("token_embedding_scale").shape == std::vector<int64_t>{11, 1});
          CHECK(file.tensors.at("layers.0.self_attn.wq.weight_scale").shape == std::vector<int64_t>{1, 8});
        }
        // round_trip_weights gives the model those same values.
        auto copy = random_model(config, 14);
        ae::round_trip_weights(*copy, format);
        for (const auto& [name, m] : parameters(*copy)) CHECK(m == after.at(name));
      }
  }
}

TEST_CASE("checkpoint: quantized files that are wrong are refused, naming the tensor and the rule") {
  const ae::ModelConfig config = small_config();
  auto source = random_model(config, 15);
  const ae::SafetensorsFile good = ae::parse_safetensors(
      ae::save_weights(*source, ae::WeightFormat{ae::DType::I8, 127, ae::ScaleRule::Columns, ae::DType::F16}));
  auto target = random_model(config, 16);
  const auto target_before = parameters(*target);
  auto load_error = [&](const ae::SafetensorsFile& file) { return error_of([&] { ae::load_weights(*target, file); }); };
  const std::string w = "layers.0.ffn.expand.weight";  // [8, 12]
  CHECK(load_error(good).empty());
  target = random_model(config, 16);
  {
    ae::SafetensorsFile f = good;
    f.tensors.erase(w + "_scale");
    CHECK(load_error(f) == "weights: tensor '" + w + "' is I8 but its scale tensor '" + w +
                               "_scale' is missing (an I8 tensor stores value / scale; docs/model-format.md)");
  }
  {
    ae::SafetensorsFile f = good;
    f.tensors.at(w + "_scale").shape = {12};
    CHECK(load_error(f) == "weights: scale tensor '" + w +
                               "_scale' has shape [12], expected [8,1] (one scale per row) or [1,12] (one per "
                               "column) for '" +
                               w + "' [8,12]");
    f.tensors.at(w + "_scale") = ae::StoredTensor{{8, 12}, ae::DType::F32, std::vector<float>(96, 1.0f)};
    CHECK_CONTAINS(load_error(f), "has shape [8,12], expected [8,1]");
  }
  {
    ae::SafetensorsFile f = good;
    f.tensors.at(w + "_scale").values[5] = std::numeric_limits<float>::quiet_NaN();
    CHECK(load_error(f) ==
          "weights: scale tensor '" + w + "_scale' holds nan at element 5; a scale must be a finite number");
    f.tensors.at(w + "_scale").values[5] = std::numeric_limits<float>::infinity();
    CHECK_CONTAINS(load_error(f), "holds inf at element 5");
  }
  {
    ae::SafetensorsFile f = good;  // a scale so large that q · scale overflows
    f.tensors.at(w + "_scale").values[0] = 3e38f;
    CHECK_CONTAINS(load_error(f), "weights: tensor '" + w + "' holds ");
    CHECK_CONTAINS(load_error(f), "a model with non-finite weights cannot run");
  }
  {
    ae::SafetensorsFile f = good;
    f.tensors.at(w + "_scale").dtype = ae::DType::I8;
    CHECK(load_error(f) == "weights: scale tensor '" + w + "_scale' must be F32 or F16, got I8");
  }
  {
    ae::SafetensorsFile f = good;  // a quantized vector: the format quantizes matrices only
    f.tensors.at("layers.0.ffn.expand.bias").dtype = ae::DType::I8;
    CHECK_CONTAINS(load_error(f), "weights: tensor 'layers.0.ffn.expand.bias' is I8, but only 2-D tensors");
  }
  {
    ae::SafetensorsFile f = good;  // a scale next to a tensor that is not I8
    f.tensors.at(w).dtype = ae::DType::F32;
    CHECK(load_error(f) == "weights: unexpected tensor '" + w + "_scale': a scale belongs to an I8 tensor, but '" + w +
                               "' is stored as F32");
  }
  {
    ae::SafetensorsFile f = good;  // a scale of no parameter
    f.tensors["nothing_scale"] = ae::StoredTensor{{1}, ae::DType::F32, {1.0f}};
    CHECK_CONTAINS(load_error(f), "weights: unexpected tensor 'nothing_scale': this configuration has no such");
  }
  const auto target_after = parameters(*target);
  for (const auto& [name, m] : target_before) CHECK(target_after.at(name) == m);

  // The checkpoint loader counts the parameters without the scales.
  auto model = random_model(config, 17);
  const std::string q8 = ae::save_weights(*model, ae::WeightFormat{ae::DType::I8});
  CHECK_NOTHROW(ae::load_checkpoint_from_memory(config_text(config), q8, ""));
  ae::ModelConfig wider = config;
  wider.d_model = 16;
  CHECK_CONTAINS(error_of([&] { ae::load_checkpoint_from_memory(config_text(wider), q8, ""); }),
                 "but the file holds " + std::to_string(config.parameter_count()) + " values in ");

  // Formats the writer cannot produce.
  CHECK(error_of([&] {
          ae::save_weights(*model, ae::WeightFormat{ae::DType::I8, 0});
        }) == "weights: cannot save as I8 with 0 levels (1 … 127)");
  CHECK(error_of([&] {
          ae::save_weights(*model, ae::WeightFormat{ae::DType::I8, 127, ae::ScaleRule::Rows, ae::DType::I8});
        }) == "weights: cannot save 1-D parameters as I8: choose F32 or F16");
}

TEST_CASE("checkpoint: save_weights refuses values that could not be loaded back") {
  auto model = random_model(small_config(), 13);
  model->visit_parameters([](const std::string& name, ae::Matrix& m) {
    if (name == "layers.1.ffn.project.weight") m(2, 3) = 70000.0f;  // 12×8: element 2·8 + 3
  });
  CHECK_NOTHROW(ae::save_weights(*model, ae::DType::F32));
  CHECK(error_of([&] { ae::save_weights(*model, ae::DType::F16); }) ==
        "weights: cannot save tensor 'layers.1.ffn.project.weight' as F16: element 19 = 70000.000000 is beyond the "
        "F16 range (±65504); save as F32");
  model->visit_parameters([](const std::string& name, ae::Matrix& m) {
    if (name == "layers.0.ln_ffn.beta") m(0, 1) = std::numeric_limits<float>::infinity();
  });
  CHECK(error_of([&] { ae::save_weights(*model, ae::DType::F32); }) ==
        "weights: cannot save tensor 'layers.0.ln_ffn.beta': it holds inf at element 1");
}

TEST_CASE("checkpoint: load_weights refuses files that do not fit the config and leaves the model untouched") {
  const ae::ModelConfig config = small_config();
  auto source = random_model(config, 5);
  const ae::SafetensorsFile good = ae::parse_safetensors(ae::save_weights(*source, ae::DType::F32));
  auto target = random_model(config, 6);
  const auto target_before = parameters(*target);
  auto load_error = [&](const ae::SafetensorsFile& file) { return error_of([&] { ae::load_weights(*target, file); }); };

  {
    ae::SafetensorsFile f = good;
    f.tensors.erase("layers.0.self_attn.wq.weight");
    CHECK(load_error(f) ==
          "weights: missing tensor 'layers.0.self_attn.wq.weight' (does config.json match model.safetensors?)");
    f.tensors.erase("final_norm.gamma");
    CHECK_CONTAINS(load_error(f), "missing tensor 'layers.0.self_attn.wq.weight' and 1 more");
  }
  {
    ae::SafetensorsFile f = good;
    f.tensors.at("layers.1.self_attn.wk.weight").shape = {4, 16};
    CHECK(load_error(f) == "weights: tensor 'layers.1.self_attn.wk.weight' has shape [4,16], the config needs [8,8]");
  }
  {
    ae::SafetensorsFile f = good;
    f.tensors.at("layers.0.ln_ffn.gamma").shape = {1, 8};  // 2-D where the format says 1-D
    CHECK_CONTAINS(load_error(f), "tensor 'layers.0.ln_ffn.gamma' has shape [1,8], the config needs [8]");
  }
  {
    ae::SafetensorsFile f = good;
    f.tensors["lm_head.weight"] = ae::StoredTensor{{8, 11}, ae::DType::F32, std::vector<float>(88, 0.0f)};
    CHECK_CONTAINS(load_error(f),
                   "weights: unexpected tensor 'lm_head.weight': this configuration has no such parameter");
  }
  {
    ae::SafetensorsFile f = good;
    f.tensors.at("token_embedding").values[17] = std::numeric_limits<float>::quiet_NaN();
    CHECK_CONTAINS(load_error(f), "weights: tensor 'token_embedding' holds nan at element 17");
  }
  // A file written for more layers than the config has.
  ae::ModelConfig deeper = config;
  deeper.n_layers = 3;
  auto deep = random_model(deeper, 7);
  CHECK_CONTAINS(load_error(ae::parse_safetensors(ae::save_weights(*deep, ae::DType::F32))),
                 "unexpected tensor 'layers.2.");

  const auto target_after = parameters(*target);
  for (const auto& [name, m] : target_before) CHECK(target_after.at(name) == m);
}

TEST_CASE("checkpoint: in-memory loading names the stage that failed") {
  const ae::ModelConfig config = small_config();
  auto model = random_model(config, 8);
  const std::string weights = ae::save_weights(*model, ae::DType::F32);
  CHECK_CONTAINS(error_of([&] { ae::load_checkpoint_from_memory("{\"format\":", weights, ""); }),
                 "config: invalid JSON: ");
  CHECK_CONTAINS(error_of([&] { ae::load_checkpoint_from_memory("{}", weights, ""); }),
                 "config: missing key \"format\"");
  CHECK_CONTAINS(error_of([&] { ae::load_checkpoint_from_memory(config_text(config), weights.substr(0, 5), ""); }),
                 "safetensors: file shorter than 8 bytes");
  ae::ModelConfig wider = config;
  wider.d_model = 16;
  // Found by counting, before a model of the wider config is allocated.
  CHECK(error_of([&] { ae::load_checkpoint_from_memory(config_text(wider), weights, ""); }) ==
        "weights: config.json describes a model of " + std::to_string(wider.parameter_count()) +
            " parameters, but the file holds " + std::to_string(config.parameter_count()) + " values in " +
            std::to_string(ae::parse_safetensors(weights).tensors.size()) +
            " tensors (does config.json match model.safetensors?)");
}

TEST_CASE("checkpoint: save_checkpoint and load_checkpoint through a directory") {
  TemporaryDirectory dir("round_trip");
  ae::ModelConfig config = small_config();
  config.positional = ae::PositionalEncoding::Rope;
  auto model = random_model(config, 9);
  const std::string vocab = "<pad>\n<unk>\nthe\ncat\n";
  const std::string nested = (dir.path / "models" / "tiny").string();  // directories are created
  ae::save_checkpoint(nested, *model, vocab, ae::DType::F32, json{{"task", "copy"}, {"steps", 200}});

  for (const char* file : {"config.json", "model.safetensors", "vocab.txt"})
    CHECK(std::filesystem::exists(std::filesystem::path(nested) / file));
  CHECK_FALSE(std::filesystem::exists(std::filesystem::path(nested) / "config.json.tmp"));

  const ae::Checkpoint loaded = ae::load_checkpoint(nested + "/");
  CHECK(loaded.vocab_text == vocab);
  CHECK(loaded.config_json["task"] == "copy");
  CHECK(loaded.config_json["steps"] == 200);
  CHECK(loaded.config.positional == ae::PositionalEncoding::Rope);
  CHECK(run(*loaded.model) == run(*model));

  // Saving again over an existing checkpoint replaces it.
  auto other = random_model(config, 10);
  ae::save_checkpoint(nested, *other, vocab, ae::DType::F16, nullptr);
  CHECK(ae::load_checkpoint(nested).config_json.count("task") == 0);

  CHECK_CONTAINS(error_of([&] {
                   ae::save_checkpoint(nested, *model, vocab, ae::DType::F32, json{{"d_model", 4}});
                 }),
                 "save_checkpoint: extra_config key \"d_model\" would override");
  CHECK_CONTAINS(error_of([&] { ae::save_checkpoint(nested, *model, vocab, ae::DType::F32, json::array()); }),
                 "extra_config must be a JSON object, got array");
}

TEST_CASE("checkpoint: file errors name the path") {
  TemporaryDirectory dir("errors");
  const std::string missing = (dir.path / "nowhere").string();
  CHECK(error_of([&] { ae::load_checkpoint(missing); }) ==
        "cannot read " + missing + "/config.json: No such file or directory");

  auto model = random_model(small_config(), 4);
  ae::save_checkpoint(dir.str(), *model, "x\n", ae::DType::F32);
  std::filesystem::remove(dir.path / "vocab.txt");
  CHECK(error_of([&] { ae::load_checkpoint(dir.str()); }) ==
        "cannot read " + dir.str() + "/vocab.txt: No such file or directory");
  ae::save_checkpoint(dir.str(), *model, "x\n", ae::DType::F32);

  {
    std::ofstream(dir.path / "model.safetensors", std::ios::binary) << "garbage!garbage";
    CHECK_CONTAINS(error_of([&] { ae::load_checkpoint(dir.str()); }),
                   dir.str() + "/model.safetensors: safetensors: header length");
  }
  {
    std::ofstream(dir.path / "config.json") << "{\"format\": \"attention-explorer/1\"}";
    CHECK(error_of([&] { ae::load_checkpoint(dir.str()); }) ==
          dir.str() + "/config.json: config: missing key \"vocab_size\"");
  }
  CHECK_CONTAINS(
      error_of([&] { ae::save_checkpoint((dir.path / "config.json").string(), *model, "", ae::DType::F32); }),
      "cannot create directory");
}
