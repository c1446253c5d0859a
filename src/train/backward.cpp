// Backward passes of the layers in src/model/layers.h, kept in one file as mirrors of the
// forward functions: each takes what its forward saved plus dL/d(output), adds parameter
// gradients into a same-shaped `grad` object, and returns dL/d(input).
#include "model/layers.h"
#include "model/positional.h"
#include "ops/activation.h"
#include "ops/norm.h"

#include <stdexcept>

namespace ae {

Matrix Linear::backward(const Matrix& x, const Matrix& dy, Linear& grad) const {
  grad.weight.noalias() += x.transpose() * dy;
  grad.bias += dy.colwise().sum();
  return dy * weight.transpose();
}

Matrix LayerNorm::backward(const Matrix& x, const Matrix& dy, LayerNorm& grad) const {
  return layer_norm_backward(x, gamma, eps, dy, grad.gamma, grad.beta);
}

namespace {

// gelu(h) and its derivative from one pass of the GELU kernel (ops/activation.h): the same bits
// the forward pass computed, and one exp per element instead of a std::tanh for each.
void gelu_and_derivative(const Matrix& h, Matrix& activated, Matrix& derivative) {
  activated.resize(h.rows(), h.cols());
  derivative.resize(h.rows(), h.cols());
  gelu_values_and_derivative(h.data(), activated.data(), derivative.data(), static_cast<size_t>(h.size()));
}

}  // namespace

Matrix FeedForward::backward(const Matrix& x, const Matrix& hidden, const Matrix& dy, FeedForward& grad) const {
  return backward(x, hidden, dy, grad, nullptr);
}

Matrix FeedForward::backward(const Matrix& x, const Matrix& hidden, const Matrix& dy, FeedForward& grad,
                             const Matrix* activation_mask) const {
  // y = project(gelu(hidden) ⊙ M), M = 1 without dropout
  Matrix activated, derivative;
  gelu_and_derivative(hidden, activated, derivative);
  if (activation_mask) activated.array() *= activation_mask->array();
  Matrix d_activated = project.backward(activated, dy, grad.project);
  if (activation_mask) d_activated.array() *= activation_mask->array();
  return expand.backward(x, (derivative.array() * d_activated.array()).matrix(), grad.expand);
}

MultiHeadAttention::InputGradients MultiHeadAttention::backward(
    const Matrix& queries_from, const Matrix& keys_from, const AttentionOptions& options,
    const std::optional<RopeSettings>& rope, const std::vector<uint8_t>* head_active, const MultiHeadTrace& trace,
    const Matrix& d_output, MultiHeadAttention& grad) const {
  const Matrix d_concat = wo.backward(trace.concat, d_output, grad.wo);
  Matrix dq_all = Matrix::Zero(queries_from.rows(), wq.weight.cols());
  Matrix dk_all = Matrix::Zero(keys_from.rows(), wk.weight.cols());
  Matrix dv_all = Matrix::Zero(keys_from.rows(), wv.weight.cols());
  for (int h = 0; h < n_heads; ++h) {
    if (head_active && (*head_active)[static_cast<size_t>(h)] == 0) continue;  // ablated: no output, no gradient
    const int col = h * head_dim;
    const HeadTrace& t = trace.heads[static_cast<size_t>(h)];
    AttentionGradients g = attention_backward(t.q, t.k, t.v, t.attention, options, d_concat.middleCols(col, head_dim));
    if (rope) {  // q, k were rotated after projection: rotate their gradients back
      apply_rope(g.q, options.mask.query_offset, rope->base, /*inverse=*/true);
      apply_rope(g.k, 0, rope->base, /*inverse=*/true);
    }
    dq_all.middleCols(col, head_dim) = g.q;
    dk_all.middleCols(col, head_dim) = g.k;
    dv_all.middleCols(col, head_dim) = g.v;
  }
  InputGradients out;
  out.queries_from = wq.backward(queries_from, dq_all, grad.wq);
  out.keys_from = wk.backward(keys_from, dk_all, grad.wk) + wv.backward(keys_from, dv_all, grad.wv);
  return out;
}

Matrix TransformerLayer::backward(const LayerTrace& t, const LayerOptions& o, const Matrix& d_output,
                                  TransformerLayer& grad) const {
  if (norm != NormPlacement::Pre || cross_attention)
    throw std::logic_error("training supports pre-LN layers without cross-attention only");
  // x2 = x1 + D2 ⊙ FFN(LN2(x1)),  x1 = x + D1 ⊙ MHA(LN1(x)); D1, D2 = 1 without dropout
  // (the attention-weight masks are in the heads' traces, the FFN activation mask in t).
  const bool dropout = t.self_dropout_mask.size() > 0;
  Matrix d_after_self = d_output;
  Matrix d_ffn_out;
  if (dropout) d_ffn_out = (d_output.array() * t.ffn_dropout_mask.array()).matrix();
  const Matrix d_ffn_norm = ffn.backward(t.ffn_norm, t.ffn_hidden, dropout ? d_ffn_out : d_output, grad.ffn,
                                         dropout ? &t.ffn_hidden_dropout_mask : nullptr);
  d_after_self += ln_ffn.backward(t.after_self, d_ffn_norm, grad.ln_ffn);

  Matrix d_attention_out;
  if (dropout) d_attention_out = (d_after_self.array() * t.self_dropout_mask.array()).matrix();
  const auto d_attention_in = self_attention.backward(t.self_norm, t.self_norm, o.self_attention, o.rope,
                                                      o.head_active, t.self_attention,
                                                      dropout ? d_attention_out : d_after_self,
                                                      grad.self_attention);
  const Matrix d_self_norm = d_attention_in.queries_from + d_attention_in.keys_from;
  return d_after_self + ln_self.backward(t.input, d_self_norm, grad.ln_self);
}

}  // namespace ae
