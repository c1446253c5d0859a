// How multi-head attention divides the model width, and what it costs in parameters.
//   d = d_model, h = n_heads, dh = d / h (head width)
// Each head projects the d-wide input to its own dh-wide Q, K and V (three d×dh weights and
// dh biases each); the heads' outputs, concatenated back to width d, pass through W_O (d×d
// and d biases). Summed over the h heads the Q/K/V projections are three d×d matrices, so the
// layer has 4·d² + 4·d parameters whatever h is: splitting into heads is free.
#pragma once

#include <cstdint>

namespace ae {

struct HeadSplit {
  int d_model = 0;
  int head_dim = 0;
  bool divides = false;            // head_dim divides d_model; the rest is meaningful only then
  int n_heads = 0;                 // d_model / head_dim
  uint64_t per_head = 0;           // Q, K and V projections of one head: 3·(d·dh + dh)
  uint64_t all_heads = 0;          // h·per_head: the Q, K and V projections of every head
  uint64_t output_projection = 0;  // W_O and its bias: d·d + d
  uint64_t total = 0;              // all_heads + output_projection
};

// Limits of the calculator: widths up to 1,048,576 keep every count below 2^53 (exact in JS).
constexpr int kHeadSplitMaxWidth = 1 << 20;
// The most heads a layer may have: a model's config (ModelConfig::validate) and the calculator.
constexpr int kMaxHeads = 256;

// The split of d_model into heads of head_dim. Throws std::invalid_argument when a width is
// < 1 or > kHeadSplitMaxWidth, or when head_dim divides d_model into more than kMaxHeads heads;
// a head_dim that does not divide d_model gives divides = false.
HeadSplit split_heads(int d_model, int head_dim);

// Parameters of one multi-head attention layer (W_Q, W_K, W_V, W_O with biases) with n_heads
// heads of width d_model / n_heads. Throws std::invalid_argument unless n_heads divides d_model.
uint64_t attention_parameter_count(int d_model, int n_heads);

}  // namespace ae
