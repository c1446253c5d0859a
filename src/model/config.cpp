#include "model/config.h"

#include "model/head_split.h"
#include "util/error.h"

#include <cmath>
#include <stdexcept>

namespace ae {

namespace {

// field: the config key the rule is about (empty for a rule between several keys).
[[noreturn]] void config_error(const std::string& why, const std::string& field = {}) {
  throw InputError(ErrorCode::BadConfig, "config: " + why, field);
}

void require_positive(const char* field, int value, int limit) {
  if (value < 1 || value > limit)
    config_error(
        std::string(field) + " must be between 1 and " + std::to_string(limit) + ", got " + std::to_string(value),
        field);
}

}  // namespace

void ModelConfig::validate(int64_t max_parameters) const {
  require_positive("vocab_size", vocab_size, 1 << 20);
  require_positive("d_model", d_model, 4096);
  require_positive("n_heads", n_heads, kMaxHeads);
  require_positive("n_layers", n_layers, 64);
  require_positive("max_len", max_len, 1 << 16);
  if (d_ff < 0 || d_ff > 16384)
    config_error("d_ff must be 0 (meaning 4·d_model) or at most 16384, got " + std::to_string(d_ff), "d_ff");
  if (d_model % n_heads != 0)
    config_error("n_heads (" + std::to_string(n_heads) + ") must divide d_model (" + std::to_string(d_model) +
                     ") so that every head gets the same width",
                 "n_heads");
  if (positional == PositionalEncoding::Rope && head_dim() % 2 != 0)
    config_error("RoPE rotates pairs of features, so the head width d_model/n_heads (" + std::to_string(head_dim()) +
                 ") must be even");
  if (positional == PositionalEncoding::Sinusoidal && d_model % 2 != 0)
    config_error("sinusoidal encoding pairs sin and cos, so d_model (" + std::to_string(d_model) + ") must be even");
  if (!(layer_norm_eps > 0.0f) || !std::isfinite(layer_norm_eps))
    config_error("layer_norm_eps must be a positive number", "layer_norm_eps");
  if (!(rope_base > 1.0f) || !std::isfinite(rope_base)) config_error("rope_base must be a number above 1", "rope_base");
  if (parameter_count() > max_parameters)
    config_error("the model would have " + std::to_string(parameter_count()) + " parameters (" +
                 std::to_string(parameter_count() * 4 / (1 << 20)) + " MiB); the limit is " +
                 std::to_string(max_parameters) + " (" + std::to_string(max_parameters * 4 / (1 << 20)) + " MiB)");
}

int64_t ModelConfig::parameter_count() const {
  // Mirrors the constructors of Transformer and TransformerLayer (model/transformer.cpp, layers.cpp).
  const int64_t v = vocab_size, d = d_model, f = ffn_dim();
  const int64_t layer_norm = 2 * d;               // gamma, beta
  const int64_t attention = 4 * (d * d + d);      // W_Q, W_K, W_V, W_O with biases
  const int64_t ffn = (d * f + f) + (f * d + d);  // expand, project
  const int64_t layer = layer_norm + attention + layer_norm + ffn + (cross_attention ? layer_norm + attention : 0);
  int64_t count = v * d + v + n_layers * layer;  // token embedding, output bias, layers
  if (positional == PositionalEncoding::Learned) count += static_cast<int64_t>(max_len) * d;
  if (norm == NormPlacement::Pre) count += layer_norm;  // final LayerNorm
  if (!tie_output) count += d * v;                      // output projection
  return count;
}

std::string to_string(PositionalEncoding p) {
  switch (p) {
    case PositionalEncoding::None: return "none";
    case PositionalEncoding::Sinusoidal: return "sinusoidal";
    case PositionalEncoding::Learned: return "learned";
    case PositionalEncoding::Rope: return "rope";
  }
  return "?";
}

std::string to_string(NormPlacement p) { return p == NormPlacement::Pre ? "pre" : "post"; }

PositionalEncoding positional_encoding_from_string(const std::string& name) {
  for (auto p : {PositionalEncoding::None, PositionalEncoding::Sinusoidal, PositionalEncoding::Learned,
                 PositionalEncoding::Rope})
    if (name == to_string(p)) return p;
  config_error("unknown positional encoding \"" + name + "\" (expected none, sinusoidal, learned or rope)",
               "positional");
}

void check_token_count(int n, int max_len, const std::string& what) {
  if (n == 0) throw InputError(ErrorCode::EmptyInput, "the " + what + " is empty; type a few words", what);
  if (n > max_len)
    throw InputError(
        ErrorCode::TooLong,
        "the " + what + " has " + std::to_string(n) + " tokens; this model reads at most " + std::to_string(max_len),
        what);
}

NormPlacement norm_placement_from_string(const std::string& name) {
  if (name == "pre") return NormPlacement::Pre;
  if (name == "post") return NormPlacement::Post;
  config_error("unknown norm placement \"" + name + "\" (expected pre or post)", "norm");
}

}  // namespace ae
