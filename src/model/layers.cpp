#include "model/layers.h"

#include "model/positional.h"
#include "ops/activation.h"
#include "ops/gemm.h"
#include "ops/norm.h"
#include "util/rng.h"

#include <cmath>
#include <stdexcept>

namespace ae {

namespace {

void fill_normal(Matrix& m, Rng& rng, double stddev) {
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(rng.normal() * stddev);
}

}  // namespace

// --- Linear ---------------------------------------------------------------------------

Linear::Linear(int in, int out) : weight(Matrix::Zero(in, out)), bias(Matrix::Zero(1, out)) {}

Matrix Linear::forward(const Matrix& x) const {
  if (x.cols() != weight.rows())
    throw std::invalid_argument("linear: input is " + shape_string(x) + " but the weight expects " +
                                std::to_string(weight.rows()) + " features");
  // The project's GEMM kernel with the bias fused: faster than Eigen's general product on
  // these few-row matrices, in wasm and natively.
  return gemm_product(x, weight, false, &bias);
}

void Linear::init_random(Rng& rng) {
  fill_normal(weight, rng, 1.0 / std::sqrt(static_cast<double>(weight.rows())));
  bias.setZero();
}

void Linear::visit(const std::string& prefix, const ParameterVisitor& f) {
  f(prefix + ".weight", weight);
  f(prefix + ".bias", bias);
}

// --- LayerNorm ------------------------------------------------------------------------

LayerNorm::LayerNorm(int d, float eps_) : gamma(Matrix::Ones(1, d)), beta(Matrix::Zero(1, d)), eps(eps_) {}

Matrix LayerNorm::forward(const Matrix& x) const { return layer_norm(x, gamma, beta, eps); }

void LayerNorm::visit(const std::string& prefix, const ParameterVisitor& f) {
  f(prefix + ".gamma", gamma);
  f(prefix + ".beta", beta);
}

// --- FeedForward ----------------------------------------------------------------------

FeedForward::FeedForward(int d, int d_ff) : expand(d, d_ff), project(d_ff, d) {}

Matrix FeedForward::forward(const Matrix& x, Matrix* hidden) const {
  Matrix pre_activation = expand.forward(x);
  Matrix y = project.forward(gelu(pre_activation));
  if (hidden) *hidden = std::move(pre_activation);
  return y;
}

Matrix FeedForward::forward_traced(const Matrix& x, Matrix& hidden, Matrix& activation) const {
  hidden = expand.forward(x);
  activation = gelu(hidden);
  return project.forward(activation);
}

Matrix FeedForward::forward(const Matrix& x, Matrix* hidden, const Matrix* activation_mask) const {
  if (!activation_mask) return forward(x, hidden);
  Matrix pre_activation = expand.forward(x);
  Matrix y = project.forward((gelu(pre_activation).array() * activation_mask->array()).matrix());
  if (hidden) *hidden = std::move(pre_activation);
  return y;
}

void FeedForward::init_random(Rng& rng) {
  expand.init_random(rng);
  project.init_random(rng);
}

void FeedForward::visit(const std::string& prefix, const ParameterVisitor& f) {
  expand.visit(prefix + ".expand", f);
  project.visit(prefix + ".project", f);
}

// --- MultiHeadAttention ---------------------------------------------------------------

MultiHeadAttention::MultiHeadAttention(int d_model, int heads)
    : n_heads(heads), head_dim(d_model / heads), wq(d_model, d_model), wk(d_model, d_model),
      wv(d_model, d_model), wo(d_model, d_model) {
  if (heads < 1 || d_model % heads != 0)
    throw std::invalid_argument("multi-head attention: n_heads (" + std::to_string(heads) +
                                ") must divide d_model (" + std::to_string(d_model) + ")");
}

Matrix MultiHeadAttention::forward(const Matrix& queries_from, const Matrix& keys_from,
                                   const AttentionOptions& options, const std::optional<RopeSettings>& rope,
                                   const std::vector<uint8_t>* head_active, MultiHeadTrace* trace) const {
  if (head_active && head_active->size() != static_cast<size_t>(n_heads))
    throw std::invalid_argument("multi-head attention: head mask has " + std::to_string(head_active->size()) +
                                " flags for " + std::to_string(n_heads) + " heads");
  const Matrix q_all = wq.forward(queries_from);  // n×d
  const Matrix k_all = wk.forward(keys_from);     // m×d
  const Matrix v_all = wv.forward(keys_from);     // m×d
  Matrix concat = Matrix::Zero(queries_from.rows(), wo.weight.rows());
  if (trace) trace->heads.clear();
  AttentionOptions head_options;  // per-head dropout seed; only copied when dropout is on
  const bool dropout = options.dropout > 0.0f;
  if (dropout) head_options = options;
  for (int h = 0; h < n_heads; ++h) {
    const int col = h * head_dim;
    Matrix q = q_all.middleCols(col, head_dim);
    Matrix k = k_all.middleCols(col, head_dim);
    Matrix v = v_all.middleCols(col, head_dim);
    if (rope) {
      apply_rope(q, options.mask.query_offset, rope->base);
      apply_rope(k, 0, rope->base);
    }
    if (dropout) head_options.dropout_seed = derive_seed(options.dropout_seed, static_cast<uint64_t>(h));
    AttentionTrace step = attention_traced(q, k, v, dropout ? head_options : options);
    if (!head_active || (*head_active)[static_cast<size_t>(h)] != 0)
      concat.middleCols(col, head_dim) = step.output;
    if (trace) trace->heads.push_back(HeadTrace{std::move(q), std::move(k), std::move(v), std::move(step)});
  }
  Matrix out = wo.forward(concat);
  if (trace) {
    trace->concat = concat;
    trace->output = out;
  }
  return out;
}

void MultiHeadAttention::init_random(Rng& rng) {
  wq.init_random(rng);
  wk.init_random(rng);
  wv.init_random(rng);
  wo.init_random(rng);
}

void MultiHeadAttention::visit(const std::string& prefix, const ParameterVisitor& f) {
  wq.visit(prefix + ".wq", f);
  wk.visit(prefix + ".wk", f);
  wv.visit(prefix + ".wv", f);
  wo.visit(prefix + ".wo", f);
}

// --- TransformerLayer -----------------------------------------------------------------

TransformerLayer::TransformerLayer(const ModelConfig& c)
    : norm(c.norm), ln_self(c.d_model, c.layer_norm_eps), ln_ffn(c.d_model, c.layer_norm_eps),
      self_attention(c.d_model, c.n_heads), ffn(c.d_model, c.ffn_dim()) {
  if (c.cross_attention) {
    ln_cross.emplace(c.d_model, c.layer_norm_eps);
    cross_attention.emplace(c.d_model, c.n_heads);
  }
}

Matrix TransformerLayer::forward(const Matrix& x_in, const Matrix* memory, const LayerOptions& o,
                                 LayerTrace* trace) const {
  if (cross_attention && !memory)
    throw std::invalid_argument("decoder layer with cross-attention needs the encoder output (memory)");
  MultiHeadTrace* self_trace = trace ? &trace->self_attention : nullptr;
  MultiHeadTrace* cross_trace = nullptr;
  if (trace && cross_attention) cross_trace = &trace->cross_attention.emplace();

  if (o.dropout > 0.0f) return forward_dropout(x_in, o, trace);
  Matrix x = x_in;
  if (norm == NormPlacement::Pre) {
    Matrix h = ln_self.forward(x);
    x += self_attention.forward(h, h, o.self_attention, o.rope, o.head_active, self_trace);
    if (trace) {
      trace->input = x_in;
      trace->self_norm = std::move(h);
      trace->after_self = x;
    }
    if (cross_attention) x += cross_attention->forward(ln_cross->forward(x), *memory, o.cross_attention,
                                                       std::nullopt, nullptr, cross_trace);
    Matrix h_ffn = ln_ffn.forward(x);
    if (trace) {
      trace->ffn_output = ffn.forward_traced(h_ffn, trace->ffn_hidden, trace->ffn_activation);
      x += trace->ffn_output;
      trace->ffn_norm = std::move(h_ffn);
      trace->after_ffn.resize(0, 0);
    } else {
      x += ffn.forward(h_ffn);
    }
  } else {
    x = x_in + self_attention.forward(x_in, x_in, o.self_attention, o.rope, o.head_active, self_trace);
    if (trace) {
      trace->input = x_in;
      trace->after_self = x;
    }
    x = ln_self.forward(x);
    if (trace) trace->self_norm = x;
    if (cross_attention)
      x = ln_cross->forward(x + cross_attention->forward(x, *memory, o.cross_attention, std::nullopt, nullptr,
                                                         cross_trace));
    if (trace) {
      trace->ffn_output = ffn.forward_traced(x, trace->ffn_hidden, trace->ffn_activation);
      trace->after_ffn = x + trace->ffn_output;
      x = ln_ffn.forward(trace->after_ffn);
      trace->ffn_norm = x;
    } else {
      x = ln_ffn.forward(x + ffn.forward(x));
    }
  }
  if (trace) trace->output = x;
  return x;
}

// The pre-LN forward with dropout (training):
//   x1 = x + D1 ⊙ SelfAttn(LN1 x)   (attention weights dropped inside each head)
//   x2 = x1 + D2 ⊙ FFN(LN2 x1)      (FFN activation dropped by D3 after GELU)
Matrix TransformerLayer::forward_dropout(const Matrix& x_in, const LayerOptions& o, LayerTrace* trace) const {
  if (norm != NormPlacement::Pre || cross_attention)
    throw std::invalid_argument("dropout is supported for pre-LN layers without cross-attention only");
  if (!(o.dropout > 0.0f && o.dropout < 1.0f)) throw std::invalid_argument("dropout must lie in [0, 1)");
  const Eigen::Index n = x_in.rows(), d = x_in.cols();
  AttentionOptions attention_options = o.self_attention;
  attention_options.dropout = o.dropout;
  attention_options.dropout_seed = derive_seed(o.dropout_seed, 0);
  const Matrix self_mask = dropout_mask(n, d, o.dropout, derive_seed(o.dropout_seed, 1));
  const Matrix hidden_mask = dropout_mask(n, ffn.expand.weight.cols(), o.dropout, derive_seed(o.dropout_seed, 2));
  const Matrix ffn_mask = dropout_mask(n, d, o.dropout, derive_seed(o.dropout_seed, 3));

  Matrix h = ln_self.forward(x_in);
  Matrix x = x_in;
  x.array() += self_attention.forward(h, h, attention_options, o.rope, o.head_active,
                                      trace ? &trace->self_attention : nullptr).array() * self_mask.array();
  Matrix h_ffn = ln_ffn.forward(x);
  Matrix hidden;
  Matrix after_self = x;
  x.array() += ffn.forward(h_ffn, &hidden, &hidden_mask).array() * ffn_mask.array();
  if (trace) {
    trace->input = x_in;
    trace->self_norm = std::move(h);
    trace->after_self = std::move(after_self);
    trace->ffn_norm = std::move(h_ffn);
    trace->ffn_hidden = std::move(hidden);
    trace->self_dropout_mask = self_mask;
    trace->ffn_dropout_mask = ffn_mask;
    trace->ffn_hidden_dropout_mask = hidden_mask;
    trace->output = x;
  }
  return x;
}

std::vector<LayerStage> layer_stages(const LayerTrace& t) {
  const bool post = t.after_ffn.size() > 0;
  const Eigen::Index n = t.output.rows();
  for (const Matrix* m : {&t.input, &t.self_norm, &t.self_attention.output, &t.after_self, &t.ffn_norm,
                          &t.ffn_activation, &t.ffn_output})
    if (m->rows() != n || n == 0)
      throw std::invalid_argument("layer stages: this trace lacks them (a forward without a trace, or with dropout)");
  return {{"input", &t.input},
          {"norm1", &t.self_norm},
          {"attention", &t.self_attention.output},
          {"residual1", &t.after_self},
          {"norm2", &t.ffn_norm},
          {"ffnHidden", &t.ffn_activation},
          {"ffn", &t.ffn_output},
          {"residual2", post ? &t.after_ffn : &t.output},
          {"output", &t.output}};
}

Matrix row_norms(const Matrix& m) { return m.rowwise().norm(); }

void TransformerLayer::init_random(Rng& rng) {
  self_attention.init_random(rng);
  if (cross_attention) cross_attention->init_random(rng);
  ffn.init_random(rng);
}

void TransformerLayer::visit(const std::string& prefix, const ParameterVisitor& f) {
  ln_self.visit(prefix + ".ln_self", f);
  self_attention.visit(prefix + ".self_attn", f);
  if (cross_attention) {
    ln_cross->visit(prefix + ".ln_cross", f);
    cross_attention->visit(prefix + ".cross_attn", f);
  }
  ln_ffn.visit(prefix + ".ln_ffn", f);
  ffn.visit(prefix + ".ffn", f);
}

}  // namespace ae
