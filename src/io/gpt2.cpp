#include "io/gpt2.h"

#include "io/json_input.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <map>
#include <new>
#include <set>
#include <stdexcept>
#include <string>

namespace ae {

namespace {

using nlohmann::json;

[[noreturn]] void config_error(const std::string& why) { throw std::invalid_argument("config.json: " + why); }
[[noreturn]] void weights_error(const std::string& why) { throw std::invalid_argument("model.safetensors: " + why); }

const json* find_key(const json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

int read_dimension(const json& j, const char* key) {
  const json* v = find_key(j, key);
  if (!v) config_error(std::string("missing key \"") + key + "\" (is this a GPT-2 config.json?)");
  if (!v->is_number_integer() || v->get<int64_t>() < 1 || v->get<int64_t>() > INT_MAX)
    config_error(std::string("\"") + key + "\" must be a positive integer, got " + describe_json(*v));
  return static_cast<int>(v->get<int64_t>());
}

// An optional key that must hold `expected` for the core to compute what GPT-2 computes.
void require_value(const json& j, const char* key, const json& expected, const std::string& why) {
  const json* v = find_key(j, key);
  if (v && *v != expected)
    config_error(std::string("\"") + key + "\" = " + describe_json(*v) + " is not supported: " + why);
}

void check_architecture(const json& j) {
  if (const json* type = find_key(j, "model_type"); type && *type != "gpt2")
    config_error("model_type " + describe_json(*type) + " is not GPT-2; only GPT-2-layout checkpoints can be opened");
  if (const json* names = find_key(j, "architectures"); names && names->is_array())
    for (const json& name : *names)
      if (!name.is_string() || name.get<std::string>().rfind("GPT2", 0) != 0)
        config_error("architecture " + describe_json(name) + " is not GPT-2 (expected GPT2LMHeadModel or GPT2Model)");
  if (const json* act = find_key(j, "activation_function"); act && *act != "gelu_new" && *act != "gelu_pytorch_tanh")
    config_error("activation_function " + describe_json(*act) +
                 " is not supported: the core's GELU is the tanh approximation (gelu_new)");
  require_value(j, "scale_attn_by_inverse_layer_idx", false, "the core scales scores by 1/√d_head only");
  require_value(j, "scale_attn_weights", true, "the core scales scores by 1/√d_head");
  require_value(j, "add_cross_attention", false, "cross-attention layers are not read");
  require_value(j, "tie_word_embeddings", true, "the output head must be the token embedding (wte)");
}

// One core parameter filled from the columns [first_column, first_column + its width) of a
// GPT-2 tensor of `shape` (1-D tensors count as one row).
struct Source {
  std::string tensor;
  std::vector<int64_t> shape;
  int64_t first_column = 0;
};

int64_t column_count(const std::vector<int64_t>& shape) { return shape.back(); }

// Core parameter name (Transformer::visit_parameters) → where GPT-2 keeps it.
std::map<std::string, Source> gpt2_sources(const ModelConfig& c, const std::string& prefix) {
  const int64_t d = c.d_model, f = c.ffn_dim();
  std::map<std::string, Source> s;
  const auto norm = [&](const std::string& core, const std::string& gpt2) {
    s[core + ".gamma"] = {prefix + gpt2 + ".weight", {d}};
    s[core + ".beta"] = {prefix + gpt2 + ".bias", {d}};
  };
  const auto linear = [&](const std::string& core, const std::string& gpt2, int64_t in, int64_t stride, int64_t first) {
    s[core + ".weight"] = {prefix + gpt2 + ".weight", {in, stride}, first};
    s[core + ".bias"] = {prefix + gpt2 + ".bias", {stride}, first};
  };
  s["token_embedding"] = {prefix + "wte.weight", {c.vocab_size, d}};
  s["position_embedding"] = {prefix + "wpe.weight", {c.max_len, d}};
  for (int i = 0; i < c.n_layers; ++i) {
    const std::string core = "layers." + std::to_string(i), h = "h." + std::to_string(i);
    norm(core + ".ln_self", h + ".ln_1");
    linear(core + ".self_attn.wq", h + ".attn.c_attn", d, 3 * d, 0);
    linear(core + ".self_attn.wk", h + ".attn.c_attn", d, 3 * d, d);
    linear(core + ".self_attn.wv", h + ".attn.c_attn", d, 3 * d, 2 * d);
    linear(core + ".self_attn.wo", h + ".attn.c_proj", d, d, 0);
    norm(core + ".ln_ffn", h + ".ln_2");
    linear(core + ".ffn.expand", h + ".mlp.c_fc", d, f, 0);
    linear(core + ".ffn.project", h + ".mlp.c_proj", f, d, 0);
  }
  norm("final_norm", "ln_f");
  return s;
}

// Tensors a GPT-2 file may hold that the core does not need.
bool ignored_tensor(const std::string& name, const std::string& prefix) {
  const auto ends_with = [&](const char* tail) {
    const std::string t = tail;
    return name.size() >= t.size() && name.compare(name.size() - t.size(), t.size(), t) == 0;
  };
  return name == "lm_head.weight" ||
         (name.rfind(prefix + "h.", 0) == 0 && (ends_with(".attn.bias") || ends_with(".attn.masked_bias")));
}

std::string some_names(const SafetensorsIndex& index) {
  std::string names;
  int shown = 0;
  for (const auto& [name, entry] : index.tensors) {
    if (shown == 3) return names + ", …";
    names += (shown++ ? ", " : "") + shorten_for_message(name);
  }
  return names.empty() ? "no tensors" : names;
}

// Every check that can be made without allocating the model.
void check_tensors(const SafetensorsIndex& index, const std::map<std::string, Source>& sources,
                   const std::string& prefix) {
  std::set<std::string> expected;
  for (const auto& [core, source] : sources) {
    expected.insert(source.tensor);
    const auto it = index.tensors.find(source.tensor);
    if (it == index.tensors.end()) weights_error("tensor '" + source.tensor + "' is missing");
    if (it->second.dtype == DType::I8)
      weights_error("tensor '" + source.tensor +
                    "' is I8: a GPT-2 checkpoint is read from F32 or F16 (quantized I8 tensors with their scales "
                    "are read only in Attention Explorer checkpoints, docs/model-format.md)");
    if (it->second.shape != source.shape)
      weights_error("tensor '" + source.tensor + "' has shape " + shape_string(it->second.shape) +
                    " but config.json implies " + shape_string(source.shape));
  }
  for (const auto& [name, entry] : index.tensors)
    if (!expected.count(name) && !ignored_tensor(name, prefix))
      weights_error("unexpected tensor '" + shorten_for_message(name) +
                    "': the file holds more than a GPT-2 model of this config.json");
}

void fill_parameter(const SafetensorsIndex& index, const Source& source, Matrix& value) {
  const TensorEntry& entry = index.tensors.at(source.tensor);
  const size_t stride = static_cast<size_t>(column_count(entry.shape));
  for (Eigen::Index r = 0; r < value.rows(); ++r)
    read_tensor_values(index, entry, value.row(r).data(),
                       static_cast<size_t>(r) * stride + static_cast<size_t>(source.first_column),
                       static_cast<size_t>(value.cols()));
  if (!all_finite(value)) weights_error("tensor '" + source.tensor + "' holds NaN or infinity");
}

}  // namespace

ModelConfig gpt2_config_from_json(std::string_view config_text) {
  const json j = parse_json_input(config_text, "config.json: invalid JSON");
  if (!j.is_object()) config_error(std::string("expected a JSON object, got ") + j.type_name());
  check_architecture(j);
  ModelConfig c;
  c.vocab_size = read_dimension(j, "vocab_size");
  c.d_model = read_dimension(j, "n_embd");
  c.n_heads = read_dimension(j, "n_head");
  c.n_layers = read_dimension(j, "n_layer");
  c.max_len = read_dimension(j, find_key(j, "n_positions") ? "n_positions" : "n_ctx");
  if (find_key(j, "n_inner")) c.d_ff = read_dimension(j, "n_inner");
  if (const json* eps = find_key(j, "layer_norm_epsilon")) {
    if (!eps->is_number()) config_error("\"layer_norm_epsilon\" must be a number, got " + describe_json(*eps));
    c.layer_norm_eps = eps->get<float>();
  }
  c.positional = PositionalEncoding::Learned;
  c.norm = NormPlacement::Pre;
  c.causal = true;
  c.tie_output = true;
  try {
    c.validate(kMaxImportedParameters);
  } catch (const std::invalid_argument& e) {
    config_error(e.what());
  }
  return c;
}

std::unique_ptr<Transformer> load_gpt2_weights(const ModelConfig& config, std::string_view safetensors) {
  SafetensorsIndex index;
  try {
    index = index_safetensors(safetensors);
  } catch (const std::invalid_argument& e) {
    weights_error(e.what());
  }
  const std::string prefix = index.tensors.count("transformer.wte.weight") ? "transformer." : "";
  if (!index.tensors.count(prefix + "wte.weight"))
    weights_error("no tensor 'wte.weight' or 'transformer.wte.weight': not a GPT-2 layout (the file holds " +
                  some_names(index) + ")");
  const std::map<std::string, Source> sources = gpt2_sources(config, prefix);
  check_tensors(index, sources, prefix);

  std::unique_ptr<Transformer> model;
  try {
    model = std::make_unique<Transformer>(config, kMaxImportedParameters);
  } catch (const std::bad_alloc&) {
    throw ResourceError(ErrorCode::OutOfMemory,
                        "model.safetensors: out of memory for a model of " + std::to_string(config.parameter_count()) +
                            " parameters (" + std::to_string(config.parameter_count() * 4 >> 20) +
                            " MiB as F32, next to the file); close other tabs or open a smaller model");
  }
  model->visit_parameters([&](const std::string& name, Matrix& value) {
    if (name == "output_bias") return;  // GPT-2 has none: stays zero
    fill_parameter(index, sources.at(name), value);
  });
  return model;
}

}  // namespace ae
