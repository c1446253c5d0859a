// The configuration of a Transformer, as a plain struct. validate() turns every
// inconsistent combination into an exception whose message names the field and the rule.
#pragma once

#include <cstdint>
#include <string>

namespace ae {

// The largest model the project builds: 2²⁶ = 67,108,864 parameters (256 MiB as F32; the
// shipped models have about 30,000). Each dimension has its own bound too (validate()), but
// their product could still ask for terabytes; wasm32 memory ends at 2 GiB, and loading
// needs the file, its decoded tensors and the model side by side.
inline constexpr int64_t kMaxParameters = int64_t{1} << 26;
// Checkpoints opened from a published layout (io/gpt2.h) may be larger: 2²⁸ = 268,435,456
// parameters (1 GiB as F32) covers GPT-2's 124M while wasm32's memory still holds the
// file next to the model.
inline constexpr int64_t kMaxImportedParameters = int64_t{1} << 28;

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

  // The number of floats a Transformer of this config holds (Transformer::parameter_count,
  // which a test compares it with), computed without allocating anything, in 64 bits: the
  // loader compares it with the weights file before building the model. Needs validated dims.
  int64_t parameter_count() const;

  // Throws InputError(bad-config, "config: …") describing the first rule broken, including a
  // model above max_parameters.
  void validate(int64_t max_parameters = kMaxParameters) const;

  bool operator==(const ModelConfig&) const = default;
};

// The one check of an input's length in tokens against a model's max_len, for every model and
// call: InputError empty-input for 0 tokens, too-long above max_len ("the <what> has n tokens;
// this model reads at most max_len"), with `what` ("sentence", "prompt", …) as the field.
void check_token_count(int n, int max_len, const std::string& what);

std::string to_string(PositionalEncoding p);
std::string to_string(NormPlacement p);
// Accepts "none", "sinusoidal", "learned", "rope"; throws for anything else.
PositionalEncoding positional_encoding_from_string(const std::string& name);
// Accepts "pre", "post".
NormPlacement norm_placement_from_string(const std::string& name);

}  // namespace ae
