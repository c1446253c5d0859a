#include "model/layers.h"

#include "model/positional.h"
#include "ops/activation.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
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

namespace {

// m's rows into an n-row matrix of zeros, at the rows `rows`.
Matrix scatter_rows(const Matrix& m, const RowSubset& subset) {
  Matrix out = Matrix::Zero(subset.n, m.cols());
  for (size_t i = 0; i < subset.rows->size(); ++i) out.row((*subset.rows)[i]) = m.row(static_cast<Eigen::Index>(i));
  return out;
}

Matrix gather_rows(const Matrix& m, const std::vector<int>& rows) {
  Matrix out(static_cast<Eigen::Index>(rows.size()), m.cols());
  for (size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = m.row(rows[i]);
  return out;
}

}  // namespace

Matrix Linear::backward(const Matrix& x, const Matrix& dy, Linear& grad, const RowSubset* rows) const {
  // y = x·W + b   (matmul: Eigen's sums, on the faster tiles)
  // Eigen sums a column in pairs of rows, so a subset's bias sum is taken over all n rows.
  const auto bias_sum = [&] {
    return rows ? Matrix(scatter_rows(dy, *rows).colwise().sum()) : Matrix(dy.colwise().sum());
  };
  if (current_turn_ticket() >= 0) {
    // A threaded step (train/trainer.cpp): the products off turn, on this example's thread, and
    // only the additions in example order, so the threads do not wait for each other's products.
    // The same bits as the additions below: those, too, take the whole sum first and then add it.
    const Matrix dw = matmul(x, /*ta=*/true, dy, false), db = bias_sum();
    const InTurn turn(grad.turn);
    grad.weight += dw;
    grad.bias += db;
  } else {
    matmul_add(grad.weight, x, /*transpose_a=*/true, dy, false);  // dW += xᵀ·dy (a row subset: fewer zero terms)
    grad.bias += bias_sum();
  }
  return matmul_transposed_b(dy, weight, grad.weight_t, rows ? rows->n : 0);  // dx = dy·Wᵀ
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

Matrix LayerNorm::backward(const Matrix& x, const Matrix& dy, LayerNorm& grad) const {
  const InTurn turn(grad.turn);  // dx is computed in the same loop as the additions
  return layer_norm_backward(x, gamma, eps, dy, grad.gamma, grad.beta);
}

void LayerNorm::visit(const std::string& prefix, const ParameterVisitor& f) {
  f(prefix + ".gamma", gamma);
  f(prefix + ".beta", beta);
}

// --- FeedForward ----------------------------------------------------------------------

FeedForward::FeedForward(int d, int d_ff) : expand(d, d_ff), project(d_ff, d) {}

namespace {

// gelu(h) and its derivative from one pass of the GELU kernel (ops/activation.h): the same bits
// as gelu(h), and one exp per element instead of a std::tanh for each.
void gelu_and_derivative(const Matrix& h, Matrix& activated, Matrix& derivative) {
  activated.resize(h.rows(), h.cols());
  derivative.resize(h.rows(), h.cols());
  gelu_values_and_derivative(h.data(), activated.data(), derivative.data(), static_cast<size_t>(h.size()));
}

}  // namespace

Matrix FeedForward::forward(const Matrix& x, Matrix* hidden, const Matrix* activation_mask, Matrix* activation,
                            Matrix* slope) const {
  Matrix pre_activation = expand.forward(x);
  Matrix activated;
  if (slope) gelu_and_derivative(pre_activation, activated, *slope);
  else activated = gelu(pre_activation);
  Matrix y = activation_mask ? project.forward((activated.array() * activation_mask->array()).matrix())
                             : project.forward(activated);
  if (hidden) *hidden = std::move(pre_activation);
  if (activation) *activation = std::move(activated);
  return y;
}

Matrix FeedForward::backward(const Matrix& x, const Matrix& hidden, const Matrix& dy, FeedForward& grad,
                             const Matrix* activation_mask, const RowSubset* rows, const Matrix* activation,
                             const Matrix* slope) const {
  // y = project(gelu(hidden) ⊙ M), hidden = expand(x); M = 1 without dropout
  const bool saved = activation && slope;
  Matrix activated, computed_slope;
  if (saved) activated = *activation;
  else gelu_and_derivative(hidden, activated, computed_slope);
  const Matrix& derivative = saved ? *slope : computed_slope;
  if (activation_mask) activated.array() *= activation_mask->array();
  Matrix d_activated = project.backward(activated, dy, grad.project, rows);
  if (activation_mask) d_activated.array() *= activation_mask->array();
  return expand.backward(x, (derivative.array() * d_activated.array()).matrix(), grad.expand, rows);
}

bool FeedForward::rows_exact(Eigen::Index n, Eigen::Index t) const {
  const Eigen::Index d = expand.weight.rows(), d_ff = expand.weight.cols();
  // dW += xᵀ·dy over t and over n rows, and dx = dy·Wᵀ as the n-row product, for both linears.
  return matmul_runs_on_tiles(d, d_ff, n) && matmul_runs_on_tiles(d, d_ff, t) && matmul_runs_on_tiles(d_ff, d, n) &&
         matmul_runs_on_tiles(d_ff, d, t) && matmul_runs_on_tiles(n, d, d_ff) && matmul_runs_on_tiles(n, d_ff, d);
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

void RopeSettings::rotate(Matrix& x, int first_position, bool inverse) const {
  if (table && table->base() == base) table->rotate(x, first_position, inverse);
  else apply_rope(x, first_position, base, inverse);
}

MultiHeadAttention::MultiHeadAttention(int d_model, int heads)
    : n_heads(heads),
      head_dim(d_model / heads),
      wq(d_model, d_model),
      wk(d_model, d_model),
      wv(d_model, d_model),
      wo(d_model, d_model) {
  if (heads < 1 || d_model % heads != 0)
    throw std::invalid_argument("multi-head attention: n_heads (" + std::to_string(heads) + ") must divide d_model (" +
                                std::to_string(d_model) + ")");
}

Matrix MultiHeadAttention::forward(const Matrix& queries_from, const Matrix& keys_from, const AttentionOptions& options,
                                   const std::optional<RopeSettings>& rope, const std::vector<uint8_t>* head_active,
                                   MultiHeadTrace* trace) const {
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
      rope->rotate(q, options.mask.query_offset);
      rope->rotate(k, 0);
    }
    if (dropout) head_options.dropout_seed = derive_seed(options.dropout_seed, static_cast<uint64_t>(h));
    const AttentionOptions& o = dropout ? head_options : options;
    const bool active = !head_active || (*head_active)[static_cast<size_t>(h)] != 0;
    if (!trace) {  // no trace asked for: the untraced attention, without the four n×m matrices
      const Matrix head_output = attention(q, k, v, o);
      if (active) concat.middleCols(col, head_dim) = head_output;
      continue;
    }
    AttentionTrace step = attention_traced(q, k, v, o);
    if (active) concat.middleCols(col, head_dim) = step.output;
    trace->heads.push_back(HeadTrace{std::move(q), std::move(k), std::move(v), std::move(step)});
  }
  Matrix out = wo.forward(concat);
  if (trace) {
    trace->concat = std::move(concat);
    trace->output = out;
  }
  return out;
}

MultiHeadAttention::InputGradients MultiHeadAttention::backward(const Matrix& queries_from, const Matrix& keys_from,
                                                                const AttentionOptions& options,
                                                                const std::optional<RopeSettings>& rope,
                                                                const std::vector<uint8_t>* head_active,
                                                                const MultiHeadTrace& trace, const Matrix& d_output,
                                                                MultiHeadAttention& grad) const {
  // out = concat·W_O + b_O, concat = [head_0 | … | head_h−1], head_j = attention(q_j, k_j, v_j)
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
      rope->rotate(g.q, options.mask.query_offset, /*inverse=*/true);
      rope->rotate(g.k, 0, /*inverse=*/true);
    }
    dq_all.middleCols(col, head_dim) = g.q;
    dk_all.middleCols(col, head_dim) = g.k;
    dv_all.middleCols(col, head_dim) = g.v;
  }
  // q_all = queries_from·W_Q + b_Q, k_all = keys_from·W_K + b_K, v_all = keys_from·W_V + b_V
  InputGradients out;
  out.queries_from = wq.backward(queries_from, dq_all, grad.wq);
  out.keys_from = wk.backward(keys_from, dk_all, grad.wk) + wv.backward(keys_from, dv_all, grad.wv);
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
    : norm(c.norm),
      ln_self(c.d_model, c.layer_norm_eps),
      ln_ffn(c.d_model, c.layer_norm_eps),
      self_attention(c.d_model, c.n_heads),
      ffn(c.d_model, c.ffn_dim()) {
  if (c.cross_attention) {
    ln_cross.emplace(c.d_model, c.layer_norm_eps);
    cross_attention.emplace(c.d_model, c.n_heads);
  }
}

namespace {

// The dropout of one layer's forward (training), from streams derived from options.dropout_seed;
// all empty and the attention options unchanged when dropout is off. The cross-attention's
// streams come after the others', so a layer without it draws what it always drew.
struct LayerDropout {
  AttentionOptions self_attention;          // the attention weights, seed stream 0
  Matrix self_mask, hidden_mask, ffn_mask;  // streams 1, 2, 3: n×d, n×d_ff, n×d
  AttentionOptions cross_attention;         // the cross-attention weights, stream 4
  Matrix cross_mask;                        // stream 5: n×d (layers with cross-attention)

  // With o.ffn_rows, the feed-forward masks (hidden_mask, ffn_mask) are just those rows.
  LayerDropout(const LayerOptions& o, Eigen::Index n, Eigen::Index d, Eigen::Index d_ff, bool cross)
      : self_attention(o.self_attention), cross_attention(o.cross_attention) {
    if (!(o.dropout > 0.0f)) return;
    if (!(o.dropout < 1.0f)) throw std::invalid_argument("dropout must lie in [0, 1)");
    self_attention.dropout = o.dropout;
    self_attention.dropout_seed = derive_seed(o.dropout_seed, 0);
    self_mask = dropout_mask(n, d, o.dropout, derive_seed(o.dropout_seed, 1));
    if (cross) {
      cross_attention.dropout = o.dropout;
      cross_attention.dropout_seed = derive_seed(o.dropout_seed, 4);
      cross_mask = dropout_mask(n, d, o.dropout, derive_seed(o.dropout_seed, 5));
    }
    if (o.ffn_rows) {
      hidden_mask = dropout_mask_rows(*o.ffn_rows, d_ff, o.dropout, derive_seed(o.dropout_seed, 2));
      ffn_mask = dropout_mask_rows(*o.ffn_rows, d, o.dropout, derive_seed(o.dropout_seed, 3));
    } else {
      hidden_mask = dropout_mask(n, d_ff, o.dropout, derive_seed(o.dropout_seed, 2));
      ffn_mask = dropout_mask(n, d, o.dropout, derive_seed(o.dropout_seed, 3));
    }
  }
  bool on() const { return self_mask.size() > 0; }
  static const Matrix* mask(const Matrix& m) { return m.size() > 0 ? &m : nullptr; }
};

}  // namespace

// Each sublayer is sublayer_forward (layers.h); with dropout (training):
//   x1 = x + D1 ⊙ SelfAttn(LN1 x),   y = x1 + D2 ⊙ FFN(LN2 x1)          (pre-LN)
//   x1 = LN1(x + D1 ⊙ SelfAttn x),   y = LN2(x1 + D2 ⊙ FFN x1)           (post-LN)
// with the attention weights dropped inside each head and the FFN activation by D3 after GELU.
// With cross-attention, a third sublayer between the two:
//   x1 ← x1 + Dc ⊙ CrossAttn(LNc x1, memory)   (pre-LN),   x1 ← LNc(x1 + Dc ⊙ CrossAttn(x1, memory))   (post-LN)
Matrix TransformerLayer::forward(const Matrix& x, const Matrix* memory, const LayerOptions& o,
                                 LayerTrace* trace) const {
  if (cross_attention && !memory)
    throw std::invalid_argument("decoder layer with cross-attention needs the encoder output (memory)");
  LayerDropout drop(o, x.rows(), x.cols(), ffn.expand.weight.cols(), cross_attention.has_value());
  if (trace) *trace = LayerTrace{};
  const bool pre = norm == NormPlacement::Pre;
  // What each sublayer saves (sublayer_forward's `saved`) and where its result goes.
  Matrix* self_saved = trace ? (pre ? &trace->self_norm : &trace->after_self) : nullptr;
  Matrix* self_result = trace ? (pre ? &trace->after_self : &trace->self_norm) : nullptr;
  Matrix* cross_saved = trace ? (pre ? &trace->cross_norm : &trace->after_cross) : nullptr;
  Matrix* cross_result = trace ? (pre ? &trace->after_cross : &trace->cross_norm) : nullptr;
  Matrix* ffn_saved = trace ? (pre ? &trace->ffn_norm : &trace->after_ffn) : nullptr;

  Matrix x1 = sublayer_forward(
      norm, ln_self, x, LayerDropout::mask(drop.self_mask),
      [&](const Matrix& h) {
        return self_attention.forward(h, h, drop.self_attention, o.rope, o.head_active,
                                      trace ? &trace->self_attention : nullptr);
      },
      self_saved);
  if (self_result) *self_result = x1;
  if (cross_attention) {
    if (trace) trace->cross_attention.emplace();
    x1 = sublayer_forward(
        norm, *ln_cross, x1, LayerDropout::mask(drop.cross_mask),
        [&](const Matrix& h) {
          return cross_attention->forward(h, *memory, drop.cross_attention, std::nullopt, nullptr,
                                          trace ? &*trace->cross_attention : nullptr);
        },
        cross_saved);
    if (cross_result) *cross_result = x1;
  }
  const bool stages = trace && !drop.on() && !o.ffn_rows;  // the lesson's stages: inference traces only
  // Training that reads only some rows of the output: the feed-forward sublayer on those rows.
  if (o.ffn_rows) x1 = gather_rows(x1, *o.ffn_rows);
  Matrix y = sublayer_forward(
      norm, ln_ffn, x1, LayerDropout::mask(drop.ffn_mask),
      [&](const Matrix& h) {
        Matrix out =
            ffn.forward(h, trace ? &trace->ffn_hidden : nullptr, LayerDropout::mask(drop.hidden_mask),
                        trace ? &trace->ffn_activation : nullptr, trace && !stages ? &trace->ffn_gelu_slope : nullptr);
        if (stages) trace->ffn_output = out;
        return out;
      },
      ffn_saved);
  if (trace) {
    trace->output = y;
    trace->self_dropout_mask = std::move(drop.self_mask);
    trace->cross_dropout_mask = std::move(drop.cross_mask);
    trace->ffn_dropout_mask = std::move(drop.ffn_mask);
    trace->ffn_hidden_dropout_mask = std::move(drop.hidden_mask);
  }
  return y;
}

Matrix TransformerLayer::backward(const Matrix& x, const Matrix* memory, const LayerTrace& t, const LayerOptions& o,
                                  const Matrix& d_output, TransformerLayer& grad, Matrix* d_memory) const {
  if (cross_attention && !memory)
    throw std::invalid_argument("decoder layer with cross-attention needs the encoder output (memory)");
  if (cross_attention && !t.cross_attention) throw std::logic_error("backward: the trace lacks the cross-attention");
  const bool pre = norm == NormPlacement::Pre;
  const Matrix* hidden_mask = LayerDropout::mask(t.ffn_hidden_dropout_mask);
  // The self-attention sublayer's result, and the feed-forward sublayer's input x1: the
  // cross-attention sublayer's result when there is one, else the same.
  const Matrix& after_self = pre ? t.after_self : t.self_norm;
  const Matrix& x1_all = !cross_attention ? after_self : pre ? t.after_cross : t.cross_norm;
  // y = sublayer(x1, FFN): pre-LN x1 + D2 ⊙ FFN(LN2 x1), post-LN LN2(x1 + D2 ⊙ FFN x1);
  // with ffn_rows, y is those rows only, and x1's other rows get no gradient from this sublayer.
  const Matrix x1_rows = o.ffn_rows ? gather_rows(x1_all, *o.ffn_rows) : Matrix();
  const Matrix& x1 = o.ffn_rows ? x1_rows : x1_all;
  const RowSubset subset{o.ffn_rows, x1_all.rows()};
  Matrix d_x1 = sublayer_backward(
      norm, ln_ffn, grad.ln_ffn, x1, pre ? t.ffn_norm : t.after_ffn, LayerDropout::mask(t.ffn_dropout_mask), d_output,
      [&](const Matrix& h, const Matrix& d_out) {
        const bool saved = t.ffn_gelu_slope.size() > 0;  // a training trace: GELU and GELU′ from the forward
        return ffn.backward(h, t.ffn_hidden, d_out, grad.ffn, hidden_mask, o.ffn_rows ? &subset : nullptr,
                            saved ? &t.ffn_activation : nullptr, saved ? &t.ffn_gelu_slope : nullptr);
      });
  if (o.ffn_rows) d_x1 = scatter_rows(d_x1, subset);
  if (cross_attention) {
    // x1 = sublayer(after_self, CrossAttn): pre-LN after_self + Dc ⊙ CrossAttn(LNc after_self, memory),
    // post-LN LNc(after_self + Dc ⊙ CrossAttn(after_self, memory)); the keys and values come from
    // memory, so its gradient is the attention's keys_from.
    d_x1 = sublayer_backward(norm, *ln_cross, *grad.ln_cross, after_self, pre ? t.cross_norm : t.after_cross,
                             LayerDropout::mask(t.cross_dropout_mask), d_x1, [&](const Matrix& h, const Matrix& d_out) {
                               auto d = cross_attention->backward(h, *memory, o.cross_attention, std::nullopt, nullptr,
                                                                  *t.cross_attention, d_out, *grad.cross_attention);
                               if (d_memory) *d_memory += d.keys_from;
                               return std::move(d.queries_from);
                             });
  }
  // x1 = sublayer(x, SelfAttn): pre-LN x + D1 ⊙ SelfAttn(LN1 x), post-LN LN1(x + D1 ⊙ SelfAttn x)
  // (the attention-weight masks are in the heads' traces)
  return sublayer_backward(norm, ln_self, grad.ln_self, x, pre ? t.self_norm : t.after_self,
                           LayerDropout::mask(t.self_dropout_mask), d_x1, [&](const Matrix& h, const Matrix& d_out) {
                             const auto d = self_attention.backward(h, h, o.self_attention, o.rope, o.head_active,
                                                                    t.self_attention, d_out, grad.self_attention);
                             return Matrix(d.queries_from + d.keys_from);
                           });
}

void TransformerLayer::order_additions(const std::function<TurnGate*()>& new_gate) {
  for (MultiHeadAttention* a : {&self_attention, cross_attention ? &*cross_attention : nullptr})
    if (a)
      for (Linear* l : {&a->wq, &a->wk, &a->wv, &a->wo}) l->turn = new_gate();
  ffn.expand.turn = new_gate();
  ffn.project.turn = new_gate();
  for (LayerNorm* n : {&ln_self, &ln_ffn, ln_cross ? &*ln_cross : nullptr})
    if (n) n->turn = new_gate();
}

void TransformerLayer::hold_transposed_weights(const TransformerLayer& model) {
  const auto hold = [](Linear& grad, const Linear& weights) { grad.weight_t = weights.weight.transpose(); };
  hold(self_attention.wq, model.self_attention.wq);
  hold(self_attention.wk, model.self_attention.wk);
  hold(self_attention.wv, model.self_attention.wv);
  hold(self_attention.wo, model.self_attention.wo);
  if (cross_attention) {  // the same config as model (Transformer::hold_transposed_weights)
    hold(cross_attention->wq, model.cross_attention->wq);
    hold(cross_attention->wk, model.cross_attention->wk);
    hold(cross_attention->wv, model.cross_attention->wv);
    hold(cross_attention->wo, model.cross_attention->wo);
  }
  hold(ffn.expand, model.ffn.expand);
  hold(ffn.project, model.ffn.project);
}

std::vector<LayerStage> layer_stages(const LayerTrace& t, const Matrix& input) {
  const bool post = t.after_ffn.size() > 0;
  const Eigen::Index n = t.output.rows();
  const Matrix& norm2 = post ? t.output : t.ffn_norm;  // post-LN: LN2's output is the layer's
  for (const Matrix* m :
       {&input, &t.self_norm, &t.self_attention.output, &t.after_self, &norm2, &t.ffn_activation, &t.ffn_output})
    if (m->rows() != n || n == 0)
      throw std::invalid_argument("layer stages: this trace lacks them (a forward without a trace, or with dropout)");
  return {{"input", &input},
          {"norm1", &t.self_norm},
          {"attention", &t.self_attention.output},
          {"residual1", &t.after_self},
          {"norm2", &norm2},
          {"ffnHidden", &t.ffn_activation},
          {"ffn", &t.ffn_output},
          {"residual2", post ? &t.after_ffn : &t.output},
          {"output", &t.output}};
}

// In double: a float's square overflows for entries above about 1.8e19, though the norm would fit.
Matrix row_norms(const Matrix& m) { return m.cast<double>().rowwise().norm().cast<float>(); }

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
