// Transformer::forward_batch and backward_batch (transformer.h): the per-example forward and
// backward of layers.cpp, run on a batch's rows stacked so that each linear is one product per
// batch. Every step mirrors its per-example twin in layers.cpp and transformer.cpp, and gives its
// bits: row-wise steps (LayerNorm, GELU, the residual adds, the dropout masks' products) do not
// see the other rows; the linears' products run over all rows only where each row's sums are the
// same whatever the other rows (Segment, rows_on_tiles); attention runs example by example; and
// every sum over rows into a parameter's gradient is taken example by example, in batch order.
#include "model/transformer.h"

#include "ops/activation.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
#include "util/rng.h"

#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void input_error_batch(const std::string& why) { throw std::invalid_argument("model input: " + why); }

// One example's rows in a stacked matrix: rows [offset, offset + rows). subset: these are the
// rows *subset (ascending) of a `whole`-row input (the last layer's feed-forward rows in
// training, RowSubset); nullptr: all of the example's rows (whole = rows).
struct Segment {
  Eigen::Index offset = 0, rows = 0, whole = 0;
  const std::vector<int>* subset = nullptr;
};
using Segments = std::vector<Segment>;

Matrix rows_of(const Matrix& m, const Segment& s) { return m.middleRows(s.offset, s.rows); }

// A segment's rows into its whole input's rows, zeros elsewhere (layers.cpp's scatter_rows).
Matrix scatter_segment(const Matrix& m, const Segment& s) {
  Matrix out = Matrix::Zero(s.whole, m.cols());
  for (size_t i = 0; i < s.subset->size(); ++i) out.row((*s.subset)[i]) = m.row(static_cast<Eigen::Index>(i));
  return out;
}

// y = x·W + b over every row: one product where the GEMM computes each row on its own.
Matrix linear_forward(const Linear& l, const Matrix& x, const Segments& segments) {
  if (gemm_rows_independent() || segments.size() == 1) return l.forward(x);
  Matrix y(x.rows(), l.weight.cols());
  for (const Segment& s : segments) y.middleRows(s.offset, s.rows) = l.forward(rows_of(x, s));
  return y;
}

// Linear::backward for each segment, in order: dW and db summed example by example as that loop
// sums them, and dx = dy·Wᵀ as one product when every example's own product runs on the tiles.
Matrix linear_backward(const Linear& l, const Matrix& x, const Matrix& dy, Linear& grad, const Segments& segments) {
  bool tiles = true;
  for (const Segment& s : segments) {
    const Matrix xs = rows_of(x, s), dys = rows_of(dy, s);
    matmul_add(grad.weight, xs, /*transpose_a=*/true, dys, false);
    if (s.subset) grad.bias += scatter_segment(dys, s).colwise().sum();
    else grad.bias += dys.colwise().sum();
    tiles = tiles && matmul_runs_on_tiles(s.whole, l.weight.rows(), l.weight.cols());
  }
  if (segments.size() == 1) return matmul_transposed_b(dy, l.weight, grad.weight_t, segments[0].whole);
  // as_rows = an example's whole input: it runs on the tiles, so every row does (ops/matmul.h).
  if (tiles) return matmul_transposed_b(dy, l.weight, grad.weight_t, segments[0].whole);
  Matrix dx(dy.rows(), l.weight.rows());
  for (const Segment& s : segments)
    dx.middleRows(s.offset, s.rows) =
        matmul_transposed_b(rows_of(dy, s), l.weight, grad.weight_t, s.subset ? s.whole : 0);
  return dx;
}

// FeedForward::forward, always keeping GELU′ (the same bits as the GELU alone, ops/activation.h).
Matrix ffn_forward(const FeedForward& f, const Matrix& x, const Segments& segments, Matrix& hidden,
                   const Matrix* activation_mask, Matrix& activation, Matrix& slope) {
  Matrix pre_activation = linear_forward(f.expand, x, segments);
  activation.resize(pre_activation.rows(), pre_activation.cols());
  slope.resize(pre_activation.rows(), pre_activation.cols());
  gelu_values_and_derivative(pre_activation.data(), activation.data(), slope.data(),
                             static_cast<size_t>(pre_activation.size()));
  Matrix y = activation_mask
                 ? linear_forward(f.project, (activation.array() * activation_mask->array()).matrix(), segments)
                 : linear_forward(f.project, activation, segments);
  hidden = std::move(pre_activation);
  return y;
}

Matrix ffn_backward(const FeedForward& f, const Matrix& x, const Matrix& dy, FeedForward& grad,
                    const Matrix* activation_mask, const Matrix& activation, const Matrix& slope,
                    const Segments& segments) {
  Matrix activated = activation;
  if (activation_mask) activated.array() *= activation_mask->array();
  Matrix d_activated = linear_backward(f.project, activated, dy, grad.project, segments);
  if (activation_mask) d_activated.array() *= activation_mask->array();
  return linear_backward(f.expand, x, (slope.array() * d_activated.array()).matrix(), grad.expand, segments);
}

// MultiHeadAttention::forward for self-attention, example e with options[e].
Matrix attention_forward(const MultiHeadAttention& a, const Matrix& x, const Segments& segments,
                         const std::vector<AttentionOptions>& options, const std::optional<RopeSettings>& rope,
                         MultiHeadTrace& trace) {
  const Matrix q_all = linear_forward(a.wq, x, segments);
  const Matrix k_all = linear_forward(a.wk, x, segments);
  const Matrix v_all = linear_forward(a.wv, x, segments);
  Matrix concat = Matrix::Zero(x.rows(), a.wo.weight.rows());
  trace.heads.clear();
  trace.heads.reserve(segments.size() * static_cast<size_t>(a.n_heads));
  for (size_t e = 0; e < segments.size(); ++e) {
    const Segment& s = segments[e];
    const bool dropout = options[e].dropout > 0.0f;
    AttentionOptions head_options;
    if (dropout) head_options = options[e];
    for (int h = 0; h < a.n_heads; ++h) {
      const int col = h * a.head_dim;
      Matrix q = q_all.block(s.offset, col, s.rows, a.head_dim);
      Matrix k = k_all.block(s.offset, col, s.rows, a.head_dim);
      Matrix v = v_all.block(s.offset, col, s.rows, a.head_dim);
      if (rope) {
        rope->rotate(q, options[e].mask.query_offset);
        rope->rotate(k, 0);
      }
      if (dropout) head_options.dropout_seed = derive_seed(options[e].dropout_seed, static_cast<uint64_t>(h));
      AttentionTrace step = attention_traced(q, k, v, dropout ? head_options : options[e]);
      concat.block(s.offset, col, s.rows, a.head_dim) = step.output;
      trace.heads.push_back(HeadTrace{std::move(q), std::move(k), std::move(v), std::move(step)});
    }
  }
  Matrix out = linear_forward(a.wo, concat, segments);
  trace.concat = std::move(concat);
  return out;
}

// MultiHeadAttention::backward for self-attention: dL/dx (queries' and keys' sides added).
Matrix attention_backward_batch(const MultiHeadAttention& a, const Matrix& x, const Segments& segments,
                                const AttentionOptions& options, const std::optional<RopeSettings>& rope,
                                const MultiHeadTrace& trace, const Matrix& d_output, MultiHeadAttention& grad) {
  const Matrix d_concat = linear_backward(a.wo, trace.concat, d_output, grad.wo, segments);
  Matrix dq_all = Matrix::Zero(x.rows(), a.wq.weight.cols());
  Matrix dk_all = Matrix::Zero(x.rows(), a.wk.weight.cols());
  Matrix dv_all = Matrix::Zero(x.rows(), a.wv.weight.cols());
  for (size_t e = 0; e < segments.size(); ++e) {
    const Segment& s = segments[e];
    for (int h = 0; h < a.n_heads; ++h) {
      const int col = h * a.head_dim;
      const HeadTrace& t = trace.heads[e * static_cast<size_t>(a.n_heads) + static_cast<size_t>(h)];
      const Matrix d_head = d_concat.block(s.offset, col, s.rows, a.head_dim);
      AttentionGradients g = attention_backward(t.q, t.k, t.v, t.attention, options, d_head);
      if (rope) {
        rope->rotate(g.q, options.mask.query_offset, /*inverse=*/true);
        rope->rotate(g.k, 0, /*inverse=*/true);
      }
      dq_all.block(s.offset, col, s.rows, a.head_dim) = g.q;
      dk_all.block(s.offset, col, s.rows, a.head_dim) = g.k;
      dv_all.block(s.offset, col, s.rows, a.head_dim) = g.v;
    }
  }
  const Matrix dq = linear_backward(a.wq, x, dq_all, grad.wq, segments);
  const Matrix dkv =
      linear_backward(a.wk, x, dk_all, grad.wk, segments) + linear_backward(a.wv, x, dv_all, grad.wv, segments);
  return dq + dkv;
}

// One example's dropout in one layer (layers.cpp's LayerDropout, without cross-attention).
struct ExampleDropout {
  AttentionOptions attention;
  Matrix self_mask, hidden_mask, ffn_mask;
};

ExampleDropout example_dropout(const LayerOptions& o, float p, uint64_t seed, Eigen::Index n, Eigen::Index d,
                               Eigen::Index d_ff, const std::vector<int>* ffn_rows) {
  ExampleDropout out{o.self_attention, {}, {}, {}};
  if (!(p > 0.0f)) return out;
  out.attention.dropout = p;
  out.attention.dropout_seed = derive_seed(seed, 0);
  out.self_mask = dropout_mask(n, d, p, derive_seed(seed, 1));
  if (ffn_rows) {
    out.hidden_mask = dropout_mask_rows(*ffn_rows, d_ff, p, derive_seed(seed, 2));
    out.ffn_mask = dropout_mask_rows(*ffn_rows, d, p, derive_seed(seed, 3));
  } else {
    out.hidden_mask = dropout_mask(n, d_ff, p, derive_seed(seed, 2));
    out.ffn_mask = dropout_mask(n, d, p, derive_seed(seed, 3));
  }
  return out;
}

const Matrix* mask_of(const Matrix& m) { return m.size() > 0 ? &m : nullptr; }

// The feed-forward sublayer's segments: each example's ffn_rows (the last layer in training), or all its rows.
Segments ffn_segments(const Segments& segments, const std::vector<const std::vector<int>*>& ffn_rows) {
  Segments out;
  Eigen::Index offset = 0;
  for (size_t e = 0; e < segments.size(); ++e) {
    const std::vector<int>* rows = ffn_rows.empty() ? nullptr : ffn_rows[e];
    const Eigen::Index count = rows ? static_cast<Eigen::Index>(rows->size()) : segments[e].rows;
    out.push_back({offset, count, segments[e].rows, rows});
    offset += count;
  }
  return out;
}

Matrix gather_segments(const Matrix& m, const Segments& from, const Segments& to) {
  Matrix out(to.empty() ? 0 : to.back().offset + to.back().rows, m.cols());
  for (size_t e = 0; e < to.size(); ++e) {
    if (!to[e].subset) {
      out.middleRows(to[e].offset, to[e].rows) = m.middleRows(from[e].offset, from[e].rows);
      continue;
    }
    for (size_t i = 0; i < to[e].subset->size(); ++i)
      out.row(to[e].offset + static_cast<Eigen::Index>(i)) = m.row(from[e].offset + (*to[e].subset)[i]);
  }
  return out;
}

Matrix scatter_segments(const Matrix& m, const Segments& from, const Segments& to) {
  Matrix out(to.empty() ? 0 : to.back().offset + to.back().rows, m.cols());
  for (size_t e = 0; e < from.size(); ++e)
    out.middleRows(to[e].offset, to[e].rows) =
        from[e].subset ? scatter_segment(rows_of(m, from[e]), from[e]) : rows_of(m, from[e]);
  return out;
}

Matrix stack(const std::vector<Matrix>& parts, Eigen::Index cols) {
  Eigen::Index rows = 0;
  for (const Matrix& p : parts) rows += p.rows();
  Matrix out(rows, cols);
  Eigen::Index at = 0;
  for (const Matrix& p : parts) {
    out.middleRows(at, p.rows()) = p;
    at += p.rows();
  }
  return out;
}

// TransformerLayer::forward over the batch (no cross-attention): per-example dropout seeds and ffn_rows.
Matrix layer_forward(const TransformerLayer& layer, const Matrix& x, const Segments& segments, const LayerOptions& o,
                     float p, const std::vector<uint64_t>& seeds, const std::vector<const std::vector<int>*>& ffn_rows,
                     LayerTrace& trace) {
  const Eigen::Index d = x.cols(), d_ff = layer.ffn.expand.weight.cols();
  std::vector<AttentionOptions> attention(segments.size());
  std::vector<Matrix> self_masks, hidden_masks, ffn_masks;
  for (size_t e = 0; e < segments.size(); ++e) {
    ExampleDropout drop = example_dropout(o, p, p > 0.0f ? seeds[e] : 0, segments[e].rows, d, d_ff,
                                          ffn_rows.empty() ? nullptr : ffn_rows[e]);
    attention[e] = drop.attention;
    self_masks.push_back(std::move(drop.self_mask));
    hidden_masks.push_back(std::move(drop.hidden_mask));
    ffn_masks.push_back(std::move(drop.ffn_mask));
  }
  trace = LayerTrace{};
  if (p > 0.0f) {
    trace.self_dropout_mask = stack(self_masks, d);
    trace.ffn_hidden_dropout_mask = stack(hidden_masks, d_ff);
    trace.ffn_dropout_mask = stack(ffn_masks, d);
  }
  const bool pre = layer.norm == NormPlacement::Pre;
  Matrix x1 = sublayer_forward(
      layer.norm, layer.ln_self, x, mask_of(trace.self_dropout_mask),
      [&](const Matrix& h) {
        return attention_forward(layer.self_attention, h, segments, attention, o.rope, trace.self_attention);
      },
      pre ? &trace.self_norm : &trace.after_self);
  (pre ? trace.after_self : trace.self_norm) = x1;
  const Segments ffn = ffn_segments(segments, ffn_rows);
  if (!ffn_rows.empty()) x1 = gather_segments(x1, segments, ffn);
  Matrix y = sublayer_forward(
      layer.norm, layer.ln_ffn, x1, mask_of(trace.ffn_dropout_mask),
      [&](const Matrix& h) {
        return ffn_forward(layer.ffn, h, ffn, trace.ffn_hidden, mask_of(trace.ffn_hidden_dropout_mask),
                           trace.ffn_activation, trace.ffn_gelu_slope);
      },
      pre ? &trace.ffn_norm : &trace.after_ffn);
  trace.output = y;
  return y;
}

Matrix layer_backward(const TransformerLayer& layer, const Matrix& x, const Segments& segments, const LayerOptions& o,
                      const std::vector<const std::vector<int>*>& ffn_rows, const LayerTrace& t, const Matrix& d_output,
                      TransformerLayer& grad) {
  const bool pre = layer.norm == NormPlacement::Pre;
  const Matrix& x1_all = pre ? t.after_self : t.self_norm;
  const Segments ffn = ffn_segments(segments, ffn_rows);
  const Matrix x1_rows = ffn_rows.empty() ? Matrix() : gather_segments(x1_all, segments, ffn);
  const Matrix& x1 = ffn_rows.empty() ? x1_all : x1_rows;
  Matrix d_x1 =
      sublayer_backward(layer.norm, layer.ln_ffn, grad.ln_ffn, x1, pre ? t.ffn_norm : t.after_ffn,
                        mask_of(t.ffn_dropout_mask), d_output, [&](const Matrix& h, const Matrix& d_out) {
                          return ffn_backward(layer.ffn, h, d_out, grad.ffn, mask_of(t.ffn_hidden_dropout_mask),
                                              t.ffn_activation, t.ffn_gelu_slope, ffn);
                        });
  if (!ffn_rows.empty()) d_x1 = scatter_segments(d_x1, ffn, segments);
  return sublayer_backward(layer.norm, layer.ln_self, grad.ln_self, x, pre ? t.self_norm : t.after_self,
                           mask_of(t.self_dropout_mask), d_x1, [&](const Matrix& h, const Matrix& d_out) {
                             return attention_backward_batch(layer.self_attention, h, segments, o.self_attention,
                                                             o.rope, t.self_attention, d_out, grad.self_attention);
                           });
}

Segments input_segments(const std::vector<Eigen::Index>& offsets) {
  Segments s;
  for (size_t e = 0; e + 1 < offsets.size(); ++e) {
    const Eigen::Index rows = offsets[e + 1] - offsets[e];
    s.push_back({offsets[e], rows, rows, nullptr});
  }
  return s;
}

// Each example's output_rows for the last layer (nullptr: all rows); empty when no example has any.
std::vector<const std::vector<int>*> last_layer_rows(const std::vector<Transformer::BatchExample>& batch) {
  std::vector<const std::vector<int>*> rows;
  bool any = false;
  for (const auto& b : batch) {
    rows.push_back(b.options.output_rows.empty() ? nullptr : &b.options.output_rows);
    any = any || !b.options.output_rows.empty();
  }
  if (!any) rows.clear();
  return rows;
}

}  // namespace

Matrix Transformer::forward_batch(const std::vector<BatchExample>& batch, BatchTrace& trace) const {
  if (batch.empty()) throw std::invalid_argument("forward_batch: no examples");
  const RunOptions& first = batch.front().options;
  if (config_.cross_attention) throw std::invalid_argument("forward_batch: a model with cross-attention");
  std::vector<Matrix> inputs;
  trace.input_offsets.assign(1, 0);
  trace.output_offsets.assign(1, 0);
  for (const BatchExample& b : batch) {
    const RunOptions& o = b.options;
    if (o.memory || !o.head_active.empty() || !o.traced_layers.empty() || o.dropout != first.dropout)
      throw std::invalid_argument("forward_batch: options that differ by more than seeds, offsets and output rows");
    if (!(o.dropout >= 0.0f && o.dropout < 1.0f)) input_error_batch("dropout must lie in [0, 1)");
    inputs.push_back(embed(*b.ids, o.position_offset));
    const int n = static_cast<int>(b.ids->size());
    for (size_t i = 0; i < o.output_rows.size(); ++i)
      if (o.output_rows[i] < 0 || o.output_rows[i] >= n || (i > 0 && o.output_rows[i] <= o.output_rows[i - 1]))
        input_error_batch("output_rows must be ascending positions below " + std::to_string(n));
    trace.input_offsets.push_back(trace.input_offsets.back() + n);
    trace.output_offsets.push_back(trace.output_offsets.back() +
                                   (o.output_rows.empty() ? n : static_cast<Eigen::Index>(o.output_rows.size())));
  }
  Matrix x = stack(inputs, config_.d_model);
  if (!all_finite(x)) input_error_batch("embeddings contain NaN or infinity");
  const Segments segments = input_segments(trace.input_offsets);
  const std::vector<const std::vector<int>*> output_rows = last_layer_rows(batch);
  LayerOptions lo = layer_options(first);
  ForwardTrace& t = trace.stacked;
  t.embeddings = x;
  t.layers.assign(layers_.size(), LayerTrace{});
  std::vector<uint64_t> seeds(batch.size());
  for (size_t l = 0; l < layers_.size(); ++l) {
    for (size_t e = 0; e < batch.size(); ++e) seeds[e] = derive_seed(batch[e].options.dropout_seed, l);
    const bool last = l + 1 == layers_.size();
    x = layer_forward(layers_[l], x, segments, lo, first.dropout, seeds, last ? output_rows : decltype(output_rows){},
                      t.layers[l]);
  }
  if (final_norm_) x = final_norm_->forward(x);
  t.output = x;
  return x;
}

void Transformer::backward_batch(const std::vector<BatchExample>& batch, const BatchTrace& trace,
                                 const Matrix& d_output, Transformer& grads,
                                 const std::function<void(size_t)>& before_embedding) const {
  const ForwardTrace& t = trace.stacked;
  if (t.layers.size() != layers_.size()) throw std::logic_error("backward_batch: the trace is from another model");
  const Segments segments = input_segments(trace.input_offsets);
  const std::vector<const std::vector<int>*> output_rows = last_layer_rows(batch);
  const LayerOptions lo = layer_options(batch.front().options);
  Matrix dx = d_output;
  if (final_norm_) dx = final_norm_->backward(t.layers.back().output, dx, *grads.final_norm_);
  for (size_t l = layers_.size(); l-- > 0;) {
    const bool last = l + 1 == layers_.size();
    dx = layer_backward(layers_[l], t.layer_input(l), segments, lo, last ? output_rows : decltype(output_rows){},
                        t.layers[l], dx, grads.layers_[l]);
  }
  for (size_t e = 0; e < batch.size(); ++e) {
    if (before_embedding) before_embedding(e);
    const std::vector<int>& ids = *batch[e].ids;
    const Eigen::Index offset = trace.input_offsets[e];
    for (size_t i = 0; i < ids.size(); ++i)
      grads.token_embedding_.row(ids[i]) += dx.row(offset + static_cast<Eigen::Index>(i));
    if (config_.positional == PositionalEncoding::Learned) {
      const Eigen::Index n = static_cast<Eigen::Index>(ids.size());
      grads.position_embedding_.middleRows(batch[e].options.position_offset, n) += dx.middleRows(offset, n);
    }
  }
}

}  // namespace ae
