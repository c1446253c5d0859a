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

  // 64-bit positions: query_offset + i must not overflow for any valid offset.
  bool allows(int64_t query_pos, int64_t key) const;
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
// key_padding of the wrong length, a query_offset that puts a query beyond position 2³¹ − 1,
// and on a query row whose every key is masked — such a row has no softmax, and silently
// returning zeros would hide a bug in the caller's mask.
// Numerics: every finite input either gives finite weights or an error, never NaN. Softmax
// subtracts each row's maximum, so any finite scores are safe; but Q·Kᵀ·s can overflow float
// (q = k = [1e20, …] gives 1e40; score_multiplier 3e38 turns 2 into inf), and inf − inf in the
// softmax would be NaN. Such a score is reported as an error naming the query and key
// (check_scores_finite) rather than clamped: a clamped score would show the learner a number
// the formula does not give. attention_traced also refuses a trace above kMaxTraceBytes
// (ops/attention_memory.h) before allocating it.
Matrix attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);
AttentionTrace attention_traced(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);

struct AttentionGradients {
  Matrix q, k, v;  // dL/dQ (n×dk), dL/dK (m×dk), dL/dV (m×dv)
};

// Backward of attention_traced given what it saved and dL/d(output). Masked entries have
// weight 0, so no gradient flows through them.
AttentionGradients attention_backward(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionTrace& trace,
                                      const AttentionOptions& options, const Matrix& d_output);

// Inverted-dropout mask (rows×cols): each entry is 0 with probability p, else 1/(1 − p), drawn
// from Rng(seed) in row-major order. p must lie in [0, 1).
Matrix dropout_mask(Eigen::Index rows, Eigen::Index cols, float p, uint64_t seed);
// The rows `rows` of dropout_mask(·, cols, p, seed), in that order, drawn directly (row r is
// the generator's draws r·cols …): for training that needs only some rows of a mask.
Matrix dropout_mask_rows(const std::vector<int>& rows, Eigen::Index cols, float p, uint64_t seed);
// A well-mixed seed for the index-th independent stream derived from seed (per layer, head, …).
uint64_t derive_seed(uint64_t seed, uint64_t index);

// The factor s applied to Q·Kᵀ for a key width dk.
float attention_score_scale(int dk, const AttentionOptions& options);

// Checks shared with the fused kernel (ops/attention_fused.h), so that both give the same
// errors: Q, K and V of shapes that go together (rows, widths dk) …
void check_attention_shapes(const Matrix& q, const Matrix& k, const Matrix& v);
// … the last of n queries at a position below 2³¹ …
void check_query_positions(const AttentionMask& mask, int64_t n);
// … and the error for a score Q·Kᵀ·s that overflowed float.
[[noreturn]] void throw_score_overflow(int64_t query, int64_t key);

}  // namespace ae
