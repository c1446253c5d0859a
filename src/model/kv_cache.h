// Key/value cache for incremental decoding with a causal Transformer, and the count of the
// work one decoding step does with and without it.
//
// Why a cache is valid: in a causal stack, row i of every layer depends only on tokens 0…i.
// Appending token p therefore leaves the keys and values of positions 0…p−1 in every layer
// unchanged, and a step only has to compute row p: its Q, K, V, its scores against the p+1
// cached keys, its weighted sum of the p+1 cached values, and its feed-forward. In an encoder
// (bidirectional attention) every earlier row from layer 1 on changes when a token is
// appended, so cached rows would be stale: the cache refuses non-causal models.
//
// Dimensions (see tensor.h): L layers, h heads, dh = d/h, f = d_ff, V vocabulary, r new rows
// of one call, m = rows in the cache after the call (keys each new query is scored against).
#pragma once

#include "model/config.h"
#include "tensor.h"

#include <cstdint>
#include <vector>

namespace ae {

// Multiply-adds of the matrix products of one pass (LayerNorm, softmax, GELU, RoPE and the
// embedding lookup are O(r·d) or less per layer and are not counted). For r new rows scored
// against m keys (the closed form the tests check; a full pass over n tokens is r = m = n):
//   projections   = L · 4 · r · d²      (W_Q, W_K, W_V and W_O on the new rows)
//   scores        = L · r · m · d       (h heads × r queries × m keys × dh)
//   weighted_sums = L · r · m · d       (h heads × r rows × m values × dh)
//   ffn           = L · 2 · r · d · f   (expand and project)
//   output        = d · V               (logits of the one row that is read)
// A cached decoding step at position p is r = 1, m = p + 1; recomputing everything is
// r = m = p + 1, so the cache saves a factor of ≈ p + 1 on all but the output head.
struct StepWork {
  int64_t projections = 0;
  int64_t scores = 0;
  int64_t weighted_sums = 0;
  int64_t ffn = 0;
  int64_t output = 0;

  int64_t total() const { return projections + scores + weighted_sums + ffn + output; }
  StepWork& operator+=(const StepWork& o);
  bool operator==(const StepWork&) const = default;
};

// The closed form above, for a model of this config.
StepWork step_work(const ModelConfig& config, int new_rows, int keys);

// Keys and values of every layer and head for positions 0 … rows()−1 of one sequence.
// Rows are written once, by Transformer::forward_cached, and never change afterwards.
class KvCache {
 public:
  // Throws std::invalid_argument unless the config is causal and has no cross-attention.
  explicit KvCache(const ModelConfig& config);

  int rows() const { return rows_; }          // positions cached so far
  int capacity() const { return capacity_; }  // max_len of the model
  int layers() const { return n_layers_; }
  int heads() const { return n_heads_; }
  int head_dim() const { return head_dim_; }

  // rows()×dh views of one head's keys (after RoPE, when the model uses it) and values.
  auto keys(int layer, int head) const { return keys_[index(layer, head)].topRows(rows_); }
  auto values(int layer, int head) const { return values_[index(layer, head)].topRows(rows_); }

  void clear() { rows_ = 0; }

 private:
  friend class Transformer;  // the only writer (forward_cached)
  size_t index(int layer, int head) const;
  Matrix& key_store(int layer, int head) { return keys_[index(layer, head)]; }
  Matrix& value_store(int layer, int head) { return values_[index(layer, head)]; }

  int capacity_, n_layers_, n_heads_, head_dim_;
  int rows_ = 0;
  std::vector<Matrix> keys_, values_;  // [layer·h + head], capacity×dh each
};

// What forward_cached saw: the new rows' attention over the cache.
struct CachedTrace {
  int first_position = 0;                    // position of the first new row
  std::vector<std::vector<Matrix>> weights;  // [layer][head]: r×m softmax weights
  StepWork work;                             // multiply-adds this call performed
};

}  // namespace ae
