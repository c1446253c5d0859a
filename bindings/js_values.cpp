// Definitions for js_values.h.
#include "js_values.h"

#include "util/error.h"

#include <emscripten/val.h>

#include <cmath>
#include <stdexcept>

namespace aejs {

[[noreturn]] void argument_error(const std::string& why, const std::string& field) {
  throw ae::InputError(ae::ErrorCode::BadInput, why, field);
}

// --- reading JS values ------------------------------------------------------------------

int whole_number(const val& v, const std::string& name) {
  if (!v.isNumber()) argument_error(name + " must be a number", name);
  const double d = v.as<double>();
  // Range first: casting NaN or an out-of-range double to int is undefined behaviour.
  if (!(d >= -2147483648.0 && d <= 2147483647.0) || d != std::trunc(d))
    argument_error(name + " must be a whole number, got " + std::to_string(d), name);
  return static_cast<int>(d);
}

int int_option(const val& options, const char* name, int fallback) {
  if (options.isUndefined() || options.isNull()) return fallback;
  const val v = options[name];
  if (v.isUndefined() || v.isNull()) return fallback;
  return whole_number(v, name);
}

// Seeds cross as JS numbers: whole, non-negative and exactly representable (< 2^53).
uint64_t seed_option(const val& options) {
  const double v = option<double>(options, "seed", 1.0);
  if (!(v >= 0.0 && v < 9007199254740992.0) || v != static_cast<double>(static_cast<uint64_t>(v)))
    argument_error("seed must be a whole number from 0 to 2^53 − 1, got " + std::to_string(v), "seed");
  return static_cast<uint64_t>(v);
}

std::string string_option(const val& options, const char* name, const std::string& fallback) {
  return option<std::string>(options, name, fallback);
}

std::string text_from_js(const val& text, const char* name) {
  if (!text.isString()) argument_error(std::string(name) + " must be a string", name);
  return text.as<std::string>();
}

size_t js_length(const val& array, const char* name) {
  if (array.isUndefined() || array.isNull() || array["length"].isUndefined())
    argument_error(std::string(name) + " must be an array of numbers", name);
  return array["length"].as<size_t>();
}

ae::Matrix matrix_from_js(const val& array, int rows, int cols, const char* name) {
  if (rows < 0 || cols < 0) argument_error(std::string(name) + ": shape must not be negative", name);
  const size_t length = js_length(array, name);
  if (length != static_cast<size_t>(rows) * static_cast<size_t>(cols))
    argument_error(std::string(name) + " has " + std::to_string(length) + " values but its shape " +
                       std::to_string(rows) + "×" + std::to_string(cols) + " needs " +
                       std::to_string(static_cast<size_t>(rows) * static_cast<size_t>(cols)),
                   name);
  const std::vector<float> data = emscripten::convertJSArrayToNumberVector<float>(array);
  return Eigen::Map<const ae::Matrix>(data.data(), rows, cols);
}

std::vector<uint8_t> flags_from_js(const val& options, const char* name) {
  if (options.isUndefined() || options.isNull()) return {};
  const val v = options[name];
  if (v.isUndefined() || v.isNull()) return {};
  js_length(v, name);
  return emscripten::convertJSArrayToNumberVector<uint8_t>(v);
}

// --- writing JS values ------------------------------------------------------------------

val to_js(const ae::Matrix& m) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(static_cast<size_t>(m.size()), m.data()));
}

val to_js(const std::vector<std::string>& strings) {
  val array = val::array();
  for (const auto& s : strings) array.call<void>("push", s);
  return array;
}

val trace_to_js(const ae::AttentionTrace& t) {
  val out = val::object();
  out.set("rawScores", to_js(t.raw_scores));
  out.set("scaledScores", to_js(t.scaled_scores));
  out.set("maskedScores", to_js(t.masked_scores));
  out.set("weights", to_js(t.weights));
  out.set("output", to_js(t.output));
  return out;
}

ae::AttentionOptions attention_options_from_js(const val& o) {
  ae::AttentionOptions options;
  options.mask.causal = option<bool>(o, "causal", false);
  options.mask.window = int_option(o, "window", 0);
  options.mask.query_offset = int_option(o, "queryOffset", 0);
  options.mask.key_padding = flags_from_js(o, "keyPadding");
  options.scale = option<bool>(o, "scale", true);
  options.score_multiplier = static_cast<float>(option<double>(o, "scoreMultiplier", 1.0));
  return options;
}
ae::ModelConfig config_from_js(const val& o) {
  ae::ModelConfig c;
  c.vocab_size = int_option(o, "vocabSize", 512);
  c.d_model = int_option(o, "dModel", c.d_model);
  c.n_heads = int_option(o, "nHeads", c.n_heads);
  c.n_layers = int_option(o, "nLayers", c.n_layers);
  c.d_ff = int_option(o, "dFF", c.d_ff);
  c.max_len = int_option(o, "maxLen", c.max_len);
  c.positional = ae::positional_encoding_from_string(string_option(o, "positional", "sinusoidal"));
  c.norm = ae::norm_placement_from_string(string_option(o, "norm", "pre"));
  c.causal = option<bool>(o, "causal", false);
  return c;
}

val config_to_js(const ae::ModelConfig& c) {
  val o = val::object();
  o.set("vocabSize", c.vocab_size);
  o.set("dModel", c.d_model);
  o.set("nHeads", c.n_heads);
  o.set("nLayers", c.n_layers);
  o.set("dFF", c.ffn_dim());
  o.set("headDim", c.head_dim());
  o.set("maxLen", c.max_len);
  o.set("positional", ae::to_string(c.positional));
  o.set("norm", ae::to_string(c.norm));
  o.set("causal", c.causal);
  return o;
}

// {causal, window, scale, scoreMultiplier} → RunOptions; causal only when given.
std::vector<std::vector<uint8_t>> head_mask_from_js(const val& pairs, const ae::ModelConfig& c) {
  std::vector<std::vector<uint8_t>> mask(static_cast<size_t>(c.n_layers),
                                         std::vector<uint8_t>(static_cast<size_t>(c.n_heads), 1));
  const size_t count = js_length(pairs, "ablate");
  for (size_t i = 0; i < count; ++i) {
    const val pair = pairs[i];
    const int layer = whole_number(pair[0], "ablate layer");
    const int head = whole_number(pair[1], "ablate head");
    if (layer < 0 || layer >= c.n_layers || head < 0 || head >= c.n_heads)
      argument_error("ablate: [" + std::to_string(layer) + ", " + std::to_string(head) +
                         "] is not a head of this model (" + std::to_string(c.n_layers) + " layers × " +
                         std::to_string(c.n_heads) + " heads)",
                     "ablate");
    mask[static_cast<size_t>(layer)][static_cast<size_t>(head)] = 0;
  }
  return mask;
}

ae::RunOptions run_options_from_js(const val& o) {
  ae::RunOptions options;
  if (!o.isUndefined() && !o.isNull() && !o["causal"].isUndefined()) options.causal = o["causal"].as<bool>();
  options.window = int_option(o, "window", 0);
  options.scale = option<bool>(o, "scale", true);
  options.score_multiplier = static_cast<float>(option<double>(o, "scoreMultiplier", 1.0));
  return options;
}

std::string bytes_from_js(const val& array, const char* name) {
  if (array.isUndefined() || array.isNull() || !array.instanceof (val::global("Uint8Array")))
    argument_error(std::string(name) + " must be a Uint8Array", name);
  std::string bytes(array["length"].as<size_t>(), '\0');
  val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<uint8_t*>(bytes.data()))).call<void>("set", array);
  return bytes;
}
}  // namespace aejs
