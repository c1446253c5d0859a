#include "model/config.h"

#include <cmath>
#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void config_error(const std::string& why) {
  throw std::invalid_argument("config: " + why);
}

void require_positive(const char* field, int value, int limit) {
  if (value < 1 || value > limit)
    config_error(std::string(field) + " must be between 1 and " + std::to_string(limit) + ", got " +
                 std::to_string(value));
}

}  // namespace

void ModelConfig::validate() const {
  require_positive("vocab_size", vocab_size, 1 << 20);
  require_positive("d_model", d_model, 4096);
  require_positive("n_heads", n_heads, 256);
  require_positive("n_layers", n_layers, 64);
  require_positive("max_len", max_len, 1 << 16);
  if (d_ff < 0 || d_ff > 16384) config_error("d_ff must be 0 (meaning 4·d_model) or at most 16384, got " + std::to_string(d_ff));
  if (d_model % n_heads != 0)
    config_error("n_heads (" + std::to_string(n_heads) + ") must divide d_model (" + std::to_string(d_model) +
                 ") so that every head gets the same width");
  if (positional == PositionalEncoding::Rope && head_dim() % 2 != 0)
    config_error("RoPE rotates pairs of features, so the head width d_model/n_heads (" +
                 std::to_string(head_dim()) + ") must be even");
  if (positional == PositionalEncoding::Sinusoidal && d_model % 2 != 0)
    config_error("sinusoidal encoding pairs sin and cos, so d_model (" + std::to_string(d_model) + ") must be even");
  if (!(layer_norm_eps > 0.0f) || !std::isfinite(layer_norm_eps)) config_error("layer_norm_eps must be a positive number");
  if (!(rope_base > 1.0f) || !std::isfinite(rope_base)) config_error("rope_base must be a number above 1");
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
  config_error("unknown positional encoding \"" + name + "\" (expected none, sinusoidal, learned or rope)");
}

NormPlacement norm_placement_from_string(const std::string& name) {
  if (name == "pre") return NormPlacement::Pre;
  if (name == "post") return NormPlacement::Post;
  config_error("unknown norm placement \"" + name + "\" (expected pre or post)");
}

}  // namespace ae
