// Building blocks of a Transformer layer. Weights are stored as in×out so that a row of
// token vectors is transformed by y = x·W + b; biases and norm parameters are 1×d matrices.
#pragma once

#include "model/config.h"
#include "model/parameters.h"
#include "ops/attention.h"

#include <optional>
#include <vector>

namespace ae {

class Rng;

struct Linear {
  Matrix weight;  // in×out
  Matrix bias;    // 1×out

  Linear(int in, int out);
  Matrix forward(const Matrix& x) const;  // x: n×in → n×out
  // Adds dL/dW and dL/db into grad and returns dL/dx, given the forward input x and dL/dy.
  Matrix backward(const Matrix& x, const Matrix& dy, Linear& grad) const;
  void init_random(Rng& rng);             // weight ~ N(0, 1/in), bias = 0
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

struct LayerNorm {
  Matrix gamma;  // 1×d, starts at 1
  Matrix beta;   // 1×d, starts at 0
  float eps;

  LayerNorm(int d, float eps);
  Matrix forward(const Matrix& x) const;
  Matrix backward(const Matrix& x, const Matrix& dy, LayerNorm& grad) const;  // x: the forward input
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

// Position-wise feed-forward: expand to d_ff, GELU, project back to d.
struct FeedForward {
  Linear expand, project;

  FeedForward(int d, int d_ff);
  // hidden, when given, receives the expansion before GELU (what backward needs).
  Matrix forward(const Matrix& x, Matrix* hidden = nullptr) const;
  // Training: activation_mask (n×d_ff, 0 or 1/(1 − p), see dropout_mask) multiplies GELU's
  // output before the projection (dropout inside the FFN); nullptr = none.
  Matrix forward(const Matrix& x, Matrix* hidden, const Matrix* activation_mask) const;
  // forward() keeping both the expansion before GELU (hidden) and after it (activation, n×d_ff).
  Matrix forward_traced(const Matrix& x, Matrix& hidden, Matrix& activation) const;
  Matrix backward(const Matrix& x, const Matrix& hidden, const Matrix& dy, FeedForward& grad) const;
  Matrix backward(const Matrix& x, const Matrix& hidden, const Matrix& dy, FeedForward& grad,
                  const Matrix* activation_mask) const;
  void init_random(Rng& rng);
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

// One head's share of a multi-head attention call.
struct HeadTrace {
  Matrix q, k, v;            // n×dh, m×dh, m×dh (after RoPE when it is used)
  AttentionTrace attention;  // the four steps on this head
};

struct MultiHeadTrace {
  std::vector<HeadTrace> heads;
  Matrix concat;  // n×d: the heads' outputs side by side, before W_O
  Matrix output;  // n×d: concat·W_O + b_O
};

// Rotary encoding for the queries and keys of one attention call.
struct RopeSettings {
  float base = 10000.0f;
};

// Multi-head attention. W_Q, W_K, W_V, W_O are d×d; head j owns columns [j·dh, (j+1)·dh) of
// Q, K and V, so h heads of width d/h have exactly the parameters of one head of width d.
struct MultiHeadAttention {
  int n_heads;
  int head_dim;
  Linear wq, wk, wv, wo;

  MultiHeadAttention(int d_model, int n_heads);
  // queries_from: n×d; keys_from: m×d (the same matrix for self-attention, an encoder's
  // output for cross-attention). head_active, when given, holds one flag per head; a head
  // whose flag is 0 contributes zeros to the concatenation (ablation). With options.dropout > 0
  // (training), head h drops attention weights with seed derive_seed(options.dropout_seed, h).
  Matrix forward(const Matrix& queries_from, const Matrix& keys_from, const AttentionOptions& options,
                 const std::optional<RopeSettings>& rope, const std::vector<uint8_t>* head_active,
                 MultiHeadTrace* trace) const;
  // Backward of forward(queries_from, keys_from, …) given its trace and dL/d(output).
  // Returns dL/d(queries_from) and dL/d(keys_from); for self-attention add the two.
  struct InputGradients {
    Matrix queries_from, keys_from;
  };
  InputGradients backward(const Matrix& queries_from, const Matrix& keys_from, const AttentionOptions& options,
                          const std::optional<RopeSettings>& rope, const std::vector<uint8_t>* head_active,
                          const MultiHeadTrace& trace, const Matrix& d_output, MultiHeadAttention& grad) const;
  void init_random(Rng& rng);
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

struct LayerTrace {
  MultiHeadTrace self_attention;
  std::optional<MultiHeadTrace> cross_attention;
  Matrix output;  // n×d, this layer's output
  // Saved for backward (pre-LN layers): the layer input, LN1(input), input + self-attention,
  // LN2 of that, and the feed-forward expansion before GELU.
  Matrix input, self_norm, after_self, ffn_norm, ffn_hidden;
  // Dropout masks (training; empty when dropout is off): on the self-attention output and the
  // feed-forward output before their residual adds, and on the FFN activation after GELU.
  // The attention-weight masks live in each head's AttentionTrace.
  Matrix self_dropout_mask, ffn_dropout_mask, ffn_hidden_dropout_mask;
  // Inference trace (forward without dropout) of the rest of the layer's stages, filled for both
  // norm placements (post-LN also fills input, self_norm = LN1(x + attention), after_self,
  // ffn_norm = LN2(…) = output and ffn_hidden above): the FFN activation after GELU (n×d_ff), the
  // FFN output (n×d), and post-LN's sum before LN2 (empty for pre-LN, where it is the output).
  Matrix ffn_activation, ffn_output, after_ffn;
};

// One stage of a layer's computation for one sequence, in the names the lesson uses:
// input, norm1, attention, residual1, norm2, ffnHidden, ffn, residual2, output.
//   pre-LN:  norm1 = LN1(input), attention = SelfAttn(norm1), residual1 = input + attention,
//            norm2 = LN2(residual1), ffnHidden = GELU(norm2·W1 + b1), ffn = ffnHidden·W2 + b2,
//            residual2 = output = residual1 + ffn
//   post-LN: attention = SelfAttn(input), residual1 = input + attention, norm1 = LN1(residual1),
//            ffnHidden = GELU(norm1·W1 + b1), ffn = …, residual2 = norm1 + ffn,
//            norm2 = output = LN2(residual2)
// (With cross-attention, pre-LN norm2 and residual2 also include the cross-attention sum.)
struct LayerStage {
  const char* name;
  const Matrix* value;  // points into the LayerTrace; n×d, ffnHidden n×d_ff
};
inline constexpr int kLayerStageCount = 9;
// The stages of an inference trace (forward without dropout), in the order above. Throws
// std::invalid_argument when the trace lacks them (e.g. a training trace with dropout).
std::vector<LayerStage> layer_stages(const LayerTrace& trace);
// Euclidean length of every row of m: n×1.
Matrix row_norms(const Matrix& m);

// Per-call switches that do not change the weights.
struct LayerOptions {
  AttentionOptions self_attention;
  AttentionOptions cross_attention;
  std::optional<RopeSettings> rope;
  const std::vector<uint8_t>* head_active = nullptr;  // self-attention head ablation
  // Training only (pre-LN layers without cross-attention): inverted dropout with probability
  // `dropout` on the attention weights, each sublayer output before the residual add, and the
  // FFN activation; masks come from streams derived from dropout_seed. 0 = off.
  float dropout = 0.0f;
  uint64_t dropout_seed = 0;
};

// Transformer layer. Pre-LN: x += SelfAttn(LN1 x); x += CrossAttn(LNc x, memory); x += FFN(LN2 x).
// Post-LN (the 2017 paper): x = LN1(x + SelfAttn x); x = LNc(x + CrossAttn(x, memory)); x = LN2(x + FFN x).
struct TransformerLayer {
  NormPlacement norm;
  LayerNorm ln_self, ln_ffn;
  std::optional<LayerNorm> ln_cross;
  MultiHeadAttention self_attention;
  std::optional<MultiHeadAttention> cross_attention;
  FeedForward ffn;

  explicit TransformerLayer(const ModelConfig& config);
  Matrix forward(const Matrix& x, const Matrix* memory, const LayerOptions& options, LayerTrace* trace) const;
  // forward() with options.dropout > 0 (training): pre-LN without cross-attention only.
  Matrix forward_dropout(const Matrix& x, const LayerOptions& options, LayerTrace* trace) const;
  // Pre-LN layers without cross-attention only (what the trainer uses); throws otherwise.
  Matrix backward(const LayerTrace& trace, const LayerOptions& options, const Matrix& d_output,
                  TransformerLayer& grad) const;
  void init_random(Rng& rng);
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

}  // namespace ae
