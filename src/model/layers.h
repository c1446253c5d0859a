// Building blocks of a Transformer layer. Weights are stored as in×out so that a row of
// token vectors is transformed by y = x·W + b; biases and norm parameters are 1×d matrices.
#pragma once

#include "model/config.h"
#include "model/parameters.h"
#include "model/positional.h"
#include "ops/attention.h"
#include "util/turns.h"

#include <functional>
#include <optional>
#include <vector>

namespace ae {

class Rng;

// Some rows of an n-row sequence (ascending, distinct): training runs the last layer's
// feed-forward sublayer only on the rows the loss reads (RunOptions::output_rows). Every
// operation there is row by row except the sums over rows in the backward pass (weight and
// bias gradients); for those, the other rows' dL/dy is exactly zero, and leaving a zero out of a
// sum that starts at +0 changes none of its bits — as long as the sum is taken in the same way:
// the products through the tiles (matmul with `as_rows` = n), the bias sums over the n rows.
// FeedForward::rows_exact says whether a build's products allow it.
struct RowSubset {
  const std::vector<int>* rows = nullptr;
  Eigen::Index n = 0;  // rows of the whole sequence
};

struct Linear {
  Matrix weight;  // in×out
  Matrix bias;    // 1×out
  // Not a parameter: in a gradient buffer, the transpose (out×in) of the weight whose gradient
  // this Linear collects, held by Transformer::hold_transposed_weights for the step's backward
  // passes (dx = dy·Wᵀ then reads it in place). Empty elsewhere: backward transposes W itself.
  Matrix weight_t;
  // Not a parameter either: in a gradient buffer that threads share, the gate that orders their
  // additions into weight and bias (util/turns.h; TransformerLayer::order_additions).
  TurnGate* turn = nullptr;

  Linear(int in, int out);
  Matrix forward(const Matrix& x) const;  // x: n×in → n×out
  // Adds dL/dW and dL/db into grad and returns dL/dx, given the forward input x and dL/dy.
  // rows: x and dy hold only these rows (ascending) of an n-row input, the others' dy being
  // zero (the last layer in training, RowSubset); the sums are then taken as the whole input's
  // would be, bit for bit (see RowSubset). nullptr: x and dy are the whole input. Reads
  // grad.weight_t as Wᵀ when it is held (the same bits either way).
  Matrix backward(const Matrix& x, const Matrix& dy, Linear& grad, const RowSubset* rows = nullptr) const;
  void init_random(Rng& rng);  // weight ~ N(0, 1/in), bias = 0
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

struct LayerNorm {
  Matrix gamma;  // 1×d, starts at 1
  Matrix beta;   // 1×d, starts at 0
  float eps;
  TurnGate* turn = nullptr;  // in a gradient buffer that threads share: see Linear::turn

  LayerNorm(int d, float eps);
  Matrix forward(const Matrix& x) const;
  Matrix backward(const Matrix& x, const Matrix& dy, LayerNorm& grad) const;  // x: the forward input
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

// Position-wise feed-forward: expand to d_ff, GELU, project back to d.
struct FeedForward {
  Linear expand, project;

  FeedForward(int d, int d_ff);
  // y = (GELU(x·W1 + b1) ⊙ M)·W2 + b2. activation_mask M (n×d_ff, 0 or 1/(1 − p), see
  // dropout_mask) is dropout inside the FFN in training; nullptr = none. hidden and activation,
  // when given, receive x·W1 + b1 (what backward needs) and GELU of it (before M); slope, GELU′
  // there, from the same pass of the GELU kernel (then backward need not run it again).
  Matrix forward(const Matrix& x, Matrix* hidden = nullptr, const Matrix* activation_mask = nullptr,
                 Matrix* activation = nullptr, Matrix* slope = nullptr) const;
  // Backward of forward(x, &hidden, activation_mask) given dL/dy; rows: see Linear::backward.
  // activation and slope, when given, are what that forward wrote to them (the same bits that
  // backward would otherwise compute again from hidden).
  Matrix backward(const Matrix& x, const Matrix& hidden, const Matrix& dy, FeedForward& grad,
                  const Matrix* activation_mask, const RowSubset* rows = nullptr, const Matrix* activation = nullptr,
                  const Matrix* slope = nullptr) const;
  // Whether backward on t of n rows gives the whole input's sums bit for bit in this build
  // (where the products run on the tiles; not where one is Eigen's, whose sums depend on n).
  bool rows_exact(Eigen::Index n, Eigen::Index t) const;
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

// Rotary encoding for the queries and keys of one attention call. table, when given, holds
// the rotation for this base and head width (a Transformer's, model/positional.h): the same bits
// as computing it, without pow, sin and cos per entry.
struct RopeSettings {
  float base = 10000.0f;
  const RopeTable* table = nullptr;

  // x (n×dh) rotated in place as apply_rope(x, first_position, base, inverse).
  void rotate(Matrix& x, int first_position, bool inverse = false) const;
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

// What a layer's forward saved. The layer's input is not kept: it is the previous layer's
// output or the stack's embeddings (ForwardTrace::layer_input), so each tensor is stored once.
struct LayerTrace {
  MultiHeadTrace self_attention;
  std::optional<MultiHeadTrace> cross_attention;
  Matrix output;  // n×d, this layer's output
  // Saved for backward: LN1's output, the sum after self-attention, LN2's output (pre-LN only;
  // post-LN's is `output`), the feed-forward expansion before GELU, and post-LN's sum before LN2
  // (empty for pre-LN, where it is `output`). Pre-LN: self_norm = LN1(input), after_self =
  // input + attention, ffn_norm = LN2(after_self). Post-LN: after_self = input + attention,
  // self_norm = LN1(after_self), after_ffn = self_norm + ffn output, output = LN2(after_ffn).
  Matrix self_norm, after_self, ffn_norm, ffn_hidden, after_ffn;
  // The cross-attention sublayer's, as self_norm and after_self are the self-attention's (empty
  // without cross-attention): pre-LN cross_norm = LNc(after_self), after_cross = after_self +
  // CrossAttn(cross_norm, memory); post-LN after_cross = self_norm + CrossAttn(self_norm, memory),
  // cross_norm = LNc(after_cross). The feed-forward sublayer's input is then after_cross (pre-LN)
  // or cross_norm (post-LN) instead of after_self or self_norm.
  Matrix cross_norm, after_cross;
  // Dropout masks (training; empty when dropout is off): on the self-attention, cross-attention
  // and feed-forward outputs before their residual adds, and on the FFN activation after GELU.
  // The attention-weight masks live in each head's AttentionTrace.
  Matrix self_dropout_mask, cross_dropout_mask, ffn_dropout_mask, ffn_hidden_dropout_mask;
  // The FFN activation after GELU (before dropout), on the rows the FFN ran on (n×d_ff, or the
  // output rows' in training). Training traces only (dropout or output rows): GELU′ there, for
  // backward. Inference traces only (neither): the FFN output (n×d).
  Matrix ffn_activation, ffn_gelu_slope, ffn_output;
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
// The stages of an inference trace (forward without dropout) of a layer that read `input`, in
// the order above. Throws std::invalid_argument when the trace lacks them (e.g. a training
// trace with dropout).
std::vector<LayerStage> layer_stages(const LayerTrace& trace, const Matrix& input);
// Euclidean length of every row of m: n×1; summed in double, so finite whenever the length fits a float.
Matrix row_norms(const Matrix& m);

// Per-call switches that do not change the weights.
struct LayerOptions {
  AttentionOptions self_attention;
  AttentionOptions cross_attention;
  std::optional<RopeSettings> rope;
  const std::vector<uint8_t>* head_active = nullptr;  // self-attention head ablation
  // Training only: inverted dropout with probability `dropout` on the attention weights (self
  // and cross), each sublayer output before the residual add, and the FFN activation; masks come
  // from streams derived from dropout_seed. 0 = off.
  float dropout = 0.0f;
  uint64_t dropout_seed = 0;
  // Training only: run the feed-forward sublayer on these rows (ascending, distinct) of the
  // layer's input alone; the layer's output is then just these rows (RowSubset). nullptr = all.
  const std::vector<int>* ffn_rows = nullptr;
};

// One sublayer f (attention or feed-forward) with its residual add and LayerNorm: the one place
// that wires the norm placement, used by every pass (TransformerLayer::forward with or without
// dropout, Transformer::forward_cached; sublayer_backward is its mirror).
//   pre-LN:  y = x + D ⊙ f(LN(x))      *saved = LN(x), f's input
//   post-LN: y = LN(x + D ⊙ f(x))      *saved = x + D ⊙ f(x), LN's input
// D: the dropout mask on f's output (training), nullptr = none. saved: nullptr = not kept.
template <class Sublayer>
Matrix sublayer_forward(NormPlacement norm, const LayerNorm& ln, const Matrix& x, const Matrix* dropout, Sublayer&& f,
                        Matrix* saved) {
  const bool pre = norm == NormPlacement::Pre;
  Matrix h = pre ? ln.forward(x) : Matrix();
  Matrix out = f(pre ? h : x);
  if (dropout) out.array() *= dropout->array();
  Matrix sum = x + out;
  if (pre) {
    if (saved) *saved = std::move(h);
    return sum;
  }
  Matrix y = ln.forward(sum);
  if (saved) *saved = std::move(sum);
  return y;
}

// Backward of sublayer_forward given dL/dy, x and what it saved. f_backward(f_input, dL/d(f
// output)) adds f's parameter gradients and returns dL/d(f_input); ln_grad receives LN's.
template <class SublayerBackward>
Matrix sublayer_backward(NormPlacement norm, const LayerNorm& ln, LayerNorm& ln_grad, const Matrix& x,
                         const Matrix& saved, const Matrix* dropout, const Matrix& dy, SublayerBackward&& f_backward) {
  const auto dropped = [&](const Matrix& d) { return dropout ? Matrix(d.array() * dropout->array()) : d; };
  if (norm == NormPlacement::Pre) {
    // y = x + D ⊙ f(LN(x)), saved = LN(x)
    return dy + ln.backward(x, f_backward(saved, dropped(dy)), ln_grad);
  }
  // y = LN(x + D ⊙ f(x)), saved = x + D ⊙ f(x)
  const Matrix d_sum = ln.backward(saved, dy, ln_grad);
  return d_sum + f_backward(x, dropped(d_sum));
}

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
  // x: n×d; memory: m×d, an encoder's output (layers with cross-attention; nullptr otherwise) →
  // n×d, or one row per options.ffn_rows.
  Matrix forward(const Matrix& x, const Matrix* memory, const LayerOptions& options, LayerTrace* trace) const;
  // Backward of forward(x, memory, options, &trace) given dL/d(output): adds into grad and
  // returns dL/dx (n×d). With cross-attention, memory is the forward's and dL/dmemory (m×d) is
  // added into *d_memory (m×d) when it is given.
  Matrix backward(const Matrix& x, const Matrix* memory, const LayerTrace& trace, const LayerOptions& options,
                  const Matrix& d_output, TransformerLayer& grad, Matrix* d_memory = nullptr) const;
  // For a gradient buffer: hold the transposes of model's weights (Linear::weight_t).
  void hold_transposed_weights(const TransformerLayer& model);
  // For a gradient buffer that threads share: a gate from new_gate() for each Linear and LayerNorm.
  void order_additions(const std::function<TurnGate*()>& new_gate);
  void init_random(Rng& rng);
  void visit(const std::string& prefix, const ParameterVisitor& f);
};

}  // namespace ae
