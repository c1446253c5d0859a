// The configuration of a Transformer, as a plain struct. validate() turns every
// inconsistent combination into an exception whose message names the field and the rule.
#pragma once

#include <string>

namespace ae {

enum class PositionalEncoding { None, Sinusoidal, Learned, Rope };
enum class NormPlacement { Pre, Post };

struct ModelConfig {
  int vocab_size = 64;
  int d_model = 32;
  int n_heads = 4;
  int n_layers = 2;
  int d_ff = 0;  // 0 means 4·d_model, the usual expansion
  int max_len = 128;
  PositionalEncoding positional = PositionalEncoding::Sinusoidal;
  NormPlacement norm = NormPlacement::Pre;
  bool causal = false;           // decoder (causal self-attention) instead of encoder
  bool cross_attention = false;  // each layer also attends to an encoder's output ("memory")
  float layer_norm_eps = 1e-5f;
  float rope_base = 10000.0f;
  // Output head for vocabulary logits: tied to the token embedding (h·Eᵀ + b), or, when false,
  // a separate d×V matrix "output_projection.weight" (h·W + b).
  bool tie_output = true;

  int head_dim() const { return n_heads > 0 ? d_model / n_heads : 0; }
  int ffn_dim() const { return d_ff > 0 ? d_ff : 4 * d_model; }

  // Throws std::invalid_argument("config: …") describing the first rule broken.
  void validate() const;
};

std::string to_string(PositionalEncoding p);
std::string to_string(NormPlacement p);
// Accepts "none", "sinusoidal", "learned", "rope"; throws for anything else.
PositionalEncoding positional_encoding_from_string(const std::string& name);
// Accepts "pre", "post".
NormPlacement norm_placement_from_string(const std::string& name);

}  // namespace ae
