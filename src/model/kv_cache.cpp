#include "model/kv_cache.h"

#include "model/positional.h"
#include "model/transformer.h"
#include "ops/attention.h"

#include <stdexcept>
#include <string>

namespace ae {

namespace {

[[noreturn]] void cache_error(const std::string& why) { throw std::invalid_argument("KV cache: " + why); }

// Multiply-adds of an (rows×inner)·(inner×cols) product.
int64_t product_work(Eigen::Index rows, Eigen::Index inner, Eigen::Index cols) {
  return static_cast<int64_t>(rows) * static_cast<int64_t>(inner) * static_cast<int64_t>(cols);
}

Matrix linear(const Linear& layer, const Matrix& x, int64_t& work) {
  work += product_work(x.rows(), layer.weight.rows(), layer.weight.cols());
  return layer.forward(x);
}

// Self-attention of the r new rows x (r×d, the sublayer's input: normalised for pre-LN) at positions
// first … first + r − 1: their keys and values go into the cache rows of that layer, and
// each new query attends over cache rows 0 … first + r − 1 (causal mask, query_offset = first).
Matrix attend_cached(const MultiHeadAttention& mha, const Matrix& x, int first, const std::optional<RopeSettings>& rope,
                     Matrix* key_rows[], Matrix* value_rows[], StepWork& work, std::vector<Matrix>* weights) {
  const Eigen::Index r = x.rows();
  const int m = first + static_cast<int>(r);
  const Matrix q_all = linear(mha.wq, x, work.projections);  // r×d
  const Matrix k_all = linear(mha.wk, x, work.projections);  // r×d
  const Matrix v_all = linear(mha.wv, x, work.projections);  // r×d
  AttentionOptions options;
  options.mask.causal = true;
  options.mask.query_offset = first;
  Matrix concat(r, mha.wo.weight.rows());
  if (weights) weights->clear();
  for (int h = 0; h < mha.n_heads; ++h) {
    const int col = h * mha.head_dim;
    Matrix q = q_all.middleCols(col, mha.head_dim);
    Matrix k = k_all.middleCols(col, mha.head_dim);
    if (rope) {
      rope->rotate(q, first);
      rope->rotate(k, first);
    }
    key_rows[h]->middleRows(first, r) = k;
    value_rows[h]->middleRows(first, r) = v_all.middleCols(col, mha.head_dim);
    const Matrix keys = key_rows[h]->topRows(m), values = value_rows[h]->topRows(m);  // m×dh
    work.scores += product_work(r, mha.head_dim, m);
    work.weighted_sums += product_work(r, m, mha.head_dim);
    if (weights) {
      AttentionTrace t = attention_traced(q, keys, values, options);
      concat.middleCols(col, mha.head_dim) = t.output;
      weights->push_back(std::move(t.weights));
    } else {
      concat.middleCols(col, mha.head_dim) = attention(q, keys, values, options);
    }
  }
  return linear(mha.wo, concat, work.projections);
}

Matrix feed_forward(const FeedForward& ffn, const Matrix& x, int64_t& work) {
  work += product_work(x.rows(), ffn.expand.weight.rows(), ffn.expand.weight.cols());
  work += product_work(x.rows(), ffn.project.weight.rows(), ffn.project.weight.cols());
  return ffn.forward(x);
}

}  // namespace

StepWork& StepWork::operator+=(const StepWork& o) {
  projections += o.projections;
  scores += o.scores;
  weighted_sums += o.weighted_sums;
  ffn += o.ffn;
  output += o.output;
  return *this;
}

StepWork step_work(const ModelConfig& c, int new_rows, int keys) {
  const int64_t L = c.n_layers, r = new_rows, m = keys, d = c.d_model, f = c.ffn_dim();
  StepWork w;
  w.projections = L * 4 * r * d * d;
  w.scores = L * r * m * d;
  w.weighted_sums = L * r * m * d;
  w.ffn = L * 2 * r * d * f;
  w.output = d * static_cast<int64_t>(c.vocab_size);
  return w;
}

KvCache::KvCache(const ModelConfig& config)
    : capacity_(config.max_len), n_layers_(config.n_layers), n_heads_(config.n_heads), head_dim_(config.head_dim()) {
  config.validate(kMaxImportedParameters);  // the cache holds activations, not parameters
  if (!config.causal)
    cache_error(
        "the model is not causal (an encoder): appending a token changes the keys and values of every earlier "
        "token from the second layer on, so cached rows would be stale");
  if (config.cross_attention) cache_error("models with cross-attention are not supported");
  const size_t count = static_cast<size_t>(n_layers_) * static_cast<size_t>(n_heads_);
  keys_.assign(count, Matrix::Zero(capacity_, head_dim_));
  values_.assign(count, Matrix::Zero(capacity_, head_dim_));
}

size_t KvCache::index(int layer, int head) const {
  if (layer < 0 || layer >= n_layers_ || head < 0 || head >= n_heads_)
    cache_error("no layer " + std::to_string(layer) + ", head " + std::to_string(head) + " in a cache of " +
                std::to_string(n_layers_) + " layers × " + std::to_string(n_heads_) + " heads");
  return static_cast<size_t>(layer) * static_cast<size_t>(n_heads_) + static_cast<size_t>(head);
}

Matrix Transformer::forward_cached(const std::vector<int>& ids, KvCache& cache, CachedTrace* trace) const {
  const ModelConfig& c = config_;
  if (!c.causal) cache_error("the model is not causal (an encoder): a cache of its keys and values would be stale");
  if (c.cross_attention) cache_error("models with cross-attention are not supported");
  if (cache.layers() != c.n_layers || cache.heads() != c.n_heads || cache.head_dim() != c.head_dim() ||
      cache.capacity() != c.max_len)
    cache_error("the cache was made for another model shape");
  const int first = cache.rows();
  const int r = static_cast<int>(ids.size());
  if (r == 0) cache_error("no new token to append");
  if (first + r > c.max_len)
    cache_error("position " + std::to_string(first + r - 1) + " is past the model's maximum length of " +
                std::to_string(c.max_len) + " tokens");

  Matrix x = embed(ids, first);  // r×d, with the positions first … first + r − 1
  StepWork work;
  if (trace) {
    trace->first_position = first;
    trace->weights.assign(layers_.size(), {});
  }
  const std::optional<RopeSettings> rope = layer_options(RunOptions{}).rope;
  std::vector<Matrix*> key_rows(static_cast<size_t>(c.n_heads)), value_rows(static_cast<size_t>(c.n_heads));
  for (size_t l = 0; l < layers_.size(); ++l) {
    const TransformerLayer& layer = layers_[l];
    for (int h = 0; h < c.n_heads; ++h) {
      key_rows[static_cast<size_t>(h)] = &cache.key_store(static_cast<int>(l), h);
      value_rows[static_cast<size_t>(h)] = &cache.value_store(static_cast<int>(l), h);
    }
    std::vector<Matrix>* weights = trace ? &trace->weights[l] : nullptr;
    // The same sublayer steps as TransformerLayer::forward, with attention over the cache.
    x = sublayer_forward(
        layer.norm, layer.ln_self, x, nullptr,
        [&](const Matrix& h) {
          return attend_cached(layer.self_attention, h, first, rope, key_rows.data(), value_rows.data(), work, weights);
        },
        nullptr);
    x = sublayer_forward(
        layer.norm, layer.ln_ffn, x, nullptr, [&](const Matrix& h) { return feed_forward(layer.ffn, h, work.ffn); },
        nullptr);
  }
  if (final_norm_) x = final_norm_->forward(x);
  cache.rows_ = first + r;  // only now: a throw above leaves the cache's visible rows as they were
  if (trace) trace->work = work;
  return x;
}

}  // namespace ae
