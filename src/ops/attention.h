// Scaled dot-product attention with an optional trace of every step.
//   Q: n×dk (one query per row), K: m×dk, V: m×dv  →  output n×dv
//   output = softmax(mask(Q·Kᵀ · s)) · V,  s = score_multiplier / √dk  (or score_multiplier alone
//   when scaling is switched off, for teaching why the scale is there).
#pragma once

#include "tensor.h"

#include <cstdint>
#include <vector>

namespace ae {

struct AttentionMask {
  // Query i may not see keys after its own position (query_offset + i).
  bool causal = false;
  // Sliding window: when > 0, query at position p sees key j only if |p − j| < window
  // (with causal: p − window < j ≤ p). window = 1 leaves each query only itself.
  int window = 0;
  // Absolute position of query row 0, so that a block of new queries can attend to a
  // longer cache of keys (KV cache). 0 for ordinary self-attention.
  int query_offset = 0;
  // One flag per key; a nonzero flag hides that key from every query (padding).
  std::vector<uint8_t> key_padding;

  bool allows(int query_pos, int key) const;
  bool empty() const { return !causal && window <= 0 && key_padding.empty(); }
};

struct AttentionOptions {
  AttentionMask mask;
  bool scale = true;              // divide scores by √dk
  float score_multiplier = 1.0f;  // extra factor on the scores (softmax temperature = 1/multiplier)
  // Training only: inverted dropout on the weights after softmax. Each weight is zeroed with
  // probability `dropout` and the rest scaled by 1/(1 − dropout); the mask is drawn from
  // Rng(dropout_seed), so a seed gives the same mask every time. 0 = off (inference).
  float dropout = 0.0f;
  uint64_t dropout_seed = 0;
};

// Every intermediate of one attention call, named after the four steps of the lesson.
struct AttentionTrace {
  Matrix raw_scores;     // n×m  Q·Kᵀ
  Matrix scaled_scores;  // n×m  raw · s
  Matrix masked_scores;  // n×m  scaled, −∞ where the mask forbids
  Matrix weights;        // n×m  softmax of masked; rows sum to 1, masked entries exactly 0
  Matrix output;         // n×dv weights·V  (with dropout: (weights ⊙ dropout_mask)·V)
  Matrix dropout_mask;   // n×m  0 or 1/(1 − p) per weight; empty when dropout is off
};

// Throws std::invalid_argument on empty inputs, mismatched shapes, non-finite values, a
// key_padding of the wrong length, and on a query row whose every key is masked — such a
// row has no softmax, and silently returning zeros would hide a bug in the caller's mask.
Matrix attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);
AttentionTrace attention_traced(const Matrix& q, const Matrix& k, const Matrix& v,
                                const AttentionOptions& options);

struct AttentionGradients {
  Matrix q, k, v;  // dL/dQ (n×dk), dL/dK (m×dk), dL/dV (m×dv)
};

// Backward of attention_traced given what it saved and dL/d(output). Masked entries have
// weight 0, so no gradient flows through them.
AttentionGradients attention_backward(const Matrix& q, const Matrix& k, const Matrix& v,
                                      const AttentionTrace& trace, const AttentionOptions& options,
                                      const Matrix& d_output);

// Inverted-dropout mask (rows×cols): each entry is 0 with probability p, else 1/(1 − p), drawn
// from Rng(seed) in row-major order. p must lie in [0, 1).
Matrix dropout_mask(Eigen::Index rows, Eigen::Index cols, float p, uint64_t seed);
// A well-mixed seed for the index-th independent stream derived from seed (per layer, head, …).
uint64_t derive_seed(uint64_t seed, uint64_t index);

// The factor s applied to Q·Kᵀ for a key width dk.
float attention_score_scale(int dk, const AttentionOptions& options);

}  // namespace ae
