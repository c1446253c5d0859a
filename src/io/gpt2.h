// GPT-2-layout checkpoints as published (Hugging Face's GPT2Model / GPT2LMHeadModel saved as
// safetensors, with its config.json), mapped onto the core's own Transformer: a pre-LN causal
// stack with learned positions, tanh GELU and the output tied to the token embedding — every
// piece GPT-2 has — so the model runs through the same forward pass, trace and KV cache as the
// trained models, not through a second implementation.
//
// Dimensions: V vocabulary, d = n_embd, f = n_inner (null: 4d), P = n_positions, L layers.
// Tensors, each name optionally prefixed "transformer." (GPT2LMHeadModel), F32 or F16:
//   wte.weight [V, d] → token_embedding           wpe.weight [P, d] → position_embedding
//   h.i.ln_1.{weight,bias} [d] → layers.i.ln_self  h.i.ln_2.{weight,bias} [d] → layers.i.ln_ffn
//   h.i.attn.c_attn.weight [d, 3d], .bias [3d]: Conv1D stores in×out (y = x·W + b, the core's
//       convention, the transpose of nn.Linear), the fused Q | K | V side by side: columns
//       [0, d) → W_Q, [d, 2d) → W_K, [2d, 3d) → W_V; head j owns columns j·d/h … of each, as in the core.
//   h.i.attn.c_proj [d, d], [d] → W_O   h.i.mlp.c_fc [d, f], [f] → ffn.expand   h.i.mlp.c_proj [f, d], [d] →
//   ffn.project ln_f.{weight,bias} [d] → final_norm
// GPT-2 has no output bias: the core's stays zero. Ignored: h.i.attn.bias and h.i.attn.masked_bias
// (the causal mask as a buffer, in older files) and lm_head.weight (tied: a copy of wte).
#pragma once

#include "io/safetensors.h"
#include "model/config.h"
#include "model/transformer.h"

#include <memory>
#include <string_view>

namespace ae {

// config.json → ModelConfig. Requires n_embd, n_head, n_layer, n_positions (or n_ctx) and
// vocab_size as integers; layer_norm_epsilon defaults to 1e-5. Refuses, naming the key, what the
// core cannot run exactly: another model_type or architecture, an activation other than
// gelu_new / gelu_pytorch_tanh, scale_attn_by_inverse_layer_idx, unscaled attention, cross-
// attention, untied embeddings, and models above kMaxImportedParameters. Errors are
// std::invalid_argument("config.json: …").
ModelConfig gpt2_config_from_json(std::string_view config_json);

// Checks every tensor of the file against the config — names, shapes, dtypes, nothing missing
// or unexpected — before allocating the model, then copies the values in (finite only).
// Errors are std::invalid_argument("model.safetensors: …") naming the tensor; a file of
// another layout lists a few of the names it holds.
std::unique_ptr<Transformer> load_gpt2_weights(const ModelConfig& config, std::string_view safetensors);

}  // namespace ae
