#include "model/transformer.h"

#include "model/positional.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
#include "util/rng.h"

#include <cmath>
#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void input_error(const std::string& why) { throw std::invalid_argument("model input: " + why); }

const ModelConfig& validated(const ModelConfig& c, int64_t max_parameters) {
  c.validate(max_parameters);
  return c;
}

}  // namespace

Transformer::Transformer(const ModelConfig& config, int64_t max_parameters)
    : config_(validated(config, max_parameters)),
      token_embedding_(Matrix::Zero(config.vocab_size, config.d_model)),
      output_bias_(Matrix::Zero(1, config.vocab_size)) {
  if (config_.positional == PositionalEncoding::Learned)
    position_embedding_ = Matrix::Zero(config_.max_len, config_.d_model);
  if (!config_.tie_output) output_projection_ = Matrix::Zero(config_.d_model, config_.vocab_size);
  layers_.reserve(static_cast<size_t>(config_.n_layers));
  for (int i = 0; i < config_.n_layers; ++i) layers_.emplace_back(config_);
  if (config_.norm == NormPlacement::Pre) final_norm_.emplace(config_.d_model, config_.layer_norm_eps);
  if (config_.positional == PositionalEncoding::Rope)
    rope_table_.emplace(config_.rope_base, config_.head_dim(), config_.max_len);
}

void Transformer::init_random(uint64_t seed, float embedding_std) {
  Rng rng(seed);
  for (Eigen::Index i = 0; i < token_embedding_.size(); ++i)
    token_embedding_.data()[i] = static_cast<float>(rng.normal() * embedding_std);
  for (Eigen::Index i = 0; i < position_embedding_.size(); ++i)
    position_embedding_.data()[i] = static_cast<float>(rng.normal() * embedding_std);
  for (auto& layer : layers_) layer.init_random(rng);
  const double projection_std = 1.0 / std::sqrt(static_cast<double>(config_.d_model));
  for (Eigen::Index i = 0; i < output_projection_.size(); ++i)
    output_projection_.data()[i] = static_cast<float>(rng.normal() * projection_std);
}

Matrix Transformer::embed(const std::vector<int>& ids, int position_offset) const {
  const int n = static_cast<int>(ids.size());
  check_token_count(n, config_.max_len, "sequence");
  if (position_offset < 0 || position_offset + n > config_.max_len)
    input_error("position offset " + std::to_string(position_offset) + " puts " + std::to_string(n) +
                " tokens past the maximum length of " + std::to_string(config_.max_len));
  Matrix x(n, config_.d_model);
  for (int i = 0; i < n; ++i) {
    const int id = ids[static_cast<size_t>(i)];
    if (id < 0 || id >= config_.vocab_size)
      input_error("token id " + std::to_string(id) + " at position " + std::to_string(i) +
                  " is outside the vocabulary [0, " + std::to_string(config_.vocab_size) + ")");
    x.row(i) = token_embedding_.row(id);
  }
  if (config_.positional == PositionalEncoding::Sinusoidal)
    x += sinusoidal_encoding(position_offset + n, config_.d_model).bottomRows(n);
  if (config_.positional == PositionalEncoding::Learned) x += position_embedding_.middleRows(position_offset, n);
  return x;
}

Matrix Transformer::forward(const std::vector<int>& ids, const RunOptions& options, ForwardTrace* trace) const {
  return forward_embeddings(embed(ids, options.position_offset), options, trace);
}

Matrix Transformer::forward_embeddings(const Matrix& x_in, const RunOptions& o, ForwardTrace* trace) const {
  const int n = static_cast<int>(x_in.rows());
  check_token_count(n, config_.max_len, "sequence");
  if (x_in.cols() != config_.d_model)
    input_error("embeddings are " + shape_string(x_in) + " but the model width is " + std::to_string(config_.d_model));
  if (!all_finite(x_in)) input_error("embeddings contain NaN or infinity");
  if (config_.cross_attention && !o.memory) input_error("this decoder cross-attends, so it needs an encoder output");
  if (o.memory && o.memory->cols() != config_.d_model)
    input_error("memory is " + shape_string(*o.memory) + " but the model width is " + std::to_string(config_.d_model));
  if (!o.head_active.empty() && o.head_active.size() != layers_.size())
    input_error("head_active has " + std::to_string(o.head_active.size()) + " layers, the model has " +
                std::to_string(layers_.size()));
  if (!(o.dropout >= 0.0f && o.dropout < 1.0f)) input_error("dropout must lie in [0, 1)");
  if (!o.traced_layers.empty() && o.traced_layers.size() != layers_.size())
    input_error("traced_layers has " + std::to_string(o.traced_layers.size()) + " layers, the model has " +
                std::to_string(layers_.size()));
  for (size_t i = 0; i < o.output_rows.size(); ++i)
    if (o.output_rows[i] < 0 || o.output_rows[i] >= n || (i > 0 && o.output_rows[i] <= o.output_rows[i - 1]))
      input_error("output_rows must be ascending positions below " + std::to_string(n) + ", got " +
                  std::to_string(o.output_rows[i]) + " at index " + std::to_string(i));

  LayerOptions lo = layer_options(o);
  if (trace) {
    trace->embeddings = x_in;
    trace->layers.assign(layers_.size(), LayerTrace{});
  }
  Matrix x = x_in;
  for (size_t l = 0; l < layers_.size(); ++l) {
    lo.head_active = o.head_active.empty() ? nullptr : &o.head_active[l];
    if (o.dropout > 0.0f) lo.dropout_seed = derive_seed(o.dropout_seed, l);
    const bool traced = trace && (o.traced_layers.empty() || o.traced_layers[l] != 0);
    lo.ffn_rows = !o.output_rows.empty() && l + 1 == layers_.size() ? &o.output_rows : nullptr;
    x = layers_[l].forward(x, o.memory, lo, traced ? &trace->layers[l] : nullptr);
    if (trace && !traced) trace->layers[l].output = x;  // the next traced layer's input
  }
  if (final_norm_) x = final_norm_->forward(x);
  if (trace) trace->output = x;
  return x;
}

LayerOptions Transformer::layer_options(const RunOptions& o) const {
  LayerOptions lo;
  lo.self_attention.mask.causal = o.causal.value_or(config_.causal);
  lo.self_attention.mask.window = o.window;
  lo.self_attention.mask.key_padding = o.key_padding;
  lo.self_attention.scale = o.scale;
  lo.self_attention.score_multiplier = o.score_multiplier;
  lo.cross_attention.scale = o.scale;
  lo.cross_attention.score_multiplier = o.score_multiplier;
  if (config_.positional == PositionalEncoding::Rope) lo.rope = RopeSettings{config_.rope_base, &*rope_table_};
  lo.dropout = o.dropout;
  lo.dropout_seed = o.dropout_seed;
  return lo;
}

Matrix Transformer::logits(const Matrix& hidden) const {
  if (hidden.cols() != config_.d_model)
    throw std::invalid_argument("logits: hidden rows are " + shape_string(hidden) + ", the model width is " +
                                std::to_string(config_.d_model));
  // matmul: the sums of Eigen's product (ops/matmul.h), on the faster tiles.
  Matrix out = config_.tie_output ? matmul(hidden, false, token_embedding_, /*transpose_b=*/true)
                                  : matmul(hidden, false, output_projection_, false);
  out.rowwise() += output_bias_.row(0);
  return out;
}

Matrix Transformer::logits_backward(const Matrix& hidden, const Matrix& d_logits, Transformer& grads) const {
  logits_backward_parameters(hidden, d_logits, grads);
  return logits_backward_input(d_logits, grads);
}

void Transformer::logits_backward_parameters(const Matrix& hidden, const Matrix& d_logits, Transformer& grads) const {
  grads.output_bias_ += d_logits.colwise().sum();
  if (!config_.tie_output) matmul_add(grads.output_projection_, hidden, /*transpose_a=*/true, d_logits, false);
  else matmul_add(grads.token_embedding_, d_logits, /*transpose_a=*/true, hidden, false);
}

Matrix Transformer::logits_backward_input(const Matrix& d_logits, const Transformer& grads) const {
  if (!config_.tie_output)
    return matmul_transposed_b(d_logits, output_projection_, grads.output_projection_t_);  // Wᵀ if held
  return matmul(d_logits, false, token_embedding_, false);
}

Matrix Transformer::backward(const std::vector<int>& ids, const RunOptions& options, const ForwardTrace& trace,
                             const Matrix& d_output, Transformer& grads,
                             const std::function<void()>& before_embedding) const {
  if (trace.layers.size() != layers_.size()) throw std::logic_error("backward: the trace is from another model");
  if (config_.cross_attention && !options.memory)
    input_error("this decoder cross-attends, so its backward needs the forward's encoder output");
  LayerOptions lo = layer_options(options);
  // Every layer's cross-attention reads the same memory: its gradient is their sum.
  Matrix d_memory = config_.cross_attention ? Matrix::Zero(options.memory->rows(), options.memory->cols()) : Matrix();
  Matrix dx = d_output;
  // output = final_norm(x) (pre-LN)
  if (final_norm_) dx = final_norm_->backward(trace.layers.back().output, dx, *grads.final_norm_);
  // x = layers_[l].forward(x, memory, …) for every l
  for (size_t l = layers_.size(); l-- > 0;) {
    lo.head_active = options.head_active.empty() ? nullptr : &options.head_active[l];
    lo.ffn_rows = !options.output_rows.empty() && l + 1 == layers_.size() ? &options.output_rows : nullptr;
    dx =
        layers_[l].backward(trace.layer_input(l), options.memory, trace.layers[l], lo, dx, grads.layers_[l], &d_memory);
  }
  // x = embed(ids, position_offset)
  const InTurn turn(grads.embedding_turn_);
  if (before_embedding) before_embedding();
  for (size_t i = 0; i < ids.size(); ++i) grads.token_embedding_.row(ids[i]) += dx.row(static_cast<Eigen::Index>(i));
  if (config_.positional == PositionalEncoding::Learned)
    grads.position_embedding_.middleRows(options.position_offset, dx.rows()) += dx;
  return d_memory;
}

void Transformer::order_additions(const std::function<TurnGate*()>& new_gate) {
  embedding_turn_ = new_gate();
  for (TransformerLayer& layer : layers_) layer.order_additions(new_gate);
  if (final_norm_) final_norm_->turn = new_gate();
}

void Transformer::hold_transposed_weights(const Transformer& model) {
  if (!(model.config_ == config_))
    throw std::invalid_argument("hold_transposed_weights: the model's shape is not this buffer's");
  for (size_t l = 0; l < layers_.size(); ++l) layers_[l].hold_transposed_weights(model.layers_[l]);
  if (!config_.tie_output) output_projection_t_ = model.output_projection_.transpose();
}

bool Transformer::output_rows_exact(int n, int t) const {
  // The forward's products (gemm) must compute each row on its own, and the backward's sums
  // over rows must leave zero terms out without a trace (FeedForward::rows_exact).
  return !layers_.empty() && gemm_rows_independent() && layers_.back().ffn.rows_exact(n, t);
}

void Transformer::visit_parameters(const ParameterVisitor& f) {
  f("token_embedding", token_embedding_);
  f("output_bias", output_bias_);
  if (position_embedding_.size() > 0) f("position_embedding", position_embedding_);
  for (size_t l = 0; l < layers_.size(); ++l) layers_[l].visit("layers." + std::to_string(l), f);
  if (final_norm_) final_norm_->visit("final_norm", f);
  if (!config_.tie_output) f("output_projection.weight", output_projection_);
}

size_t Transformer::parameter_count() const {
  size_t count = 0;
  // visit_parameters only reads here; the cast avoids a second, const copy of every visitor.
  const_cast<Transformer*>(this)->visit_parameters(
      [&](const std::string&, Matrix& m) { count += static_cast<size_t>(m.size()); });
  return count;
}

}  // namespace ae
