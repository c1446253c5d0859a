// Positional encodings. Self-attention alone is blind to order (permuting the input rows
// permutes the output rows); these give each position its own signature.
#pragma once

#include "tensor.h"

#include <vector>

namespace ae {

// Sinusoidal table of "Attention Is All You Need", n×d (d even):
//   PE[p, 2i] = sin(p / base^(2i/d)),  PE[p, 2i+1] = cos(p / base^(2i/d)),  base = 10000.
Matrix sinusoidal_encoding(int n, int d);

// Rotary position embedding (RoPE), in place on x (n×dh, dh even), row r at position
// first_position + r. Feature pairs (2i, 2i+1) are rotated by angle p·θ_i, θ_i = base^(−2i/dh):
//   x'_{2i} = x_{2i} cos − x_{2i+1} sin,  x'_{2i+1} = x_{2i} sin + x_{2i+1} cos.
// Applied to queries and keys (never values), so q·k depends on positions only through
// their difference. inverse = true rotates by −p·θ_i, undoing the rotation (backward pass:
// a rotation's transpose is its inverse).
void apply_rope(Matrix& x, int first_position, float base, bool inverse = false);

// apply_rope's cos(p·θ_i) and sin(p·θ_i) for positions 0 … positions − 1, computed once with the
// same expressions (so rotate() gives apply_rope's bits): a Transformer builds one for its
// max_len and reuses it in every attention call, where apply_rope would call pow, sin and cos
// for every entry of every head's Q and K (13 % of a training step's instructions).
class RopeTable {
 public:
  RopeTable(float base, int dh, int positions);
  float base() const { return base_; }
  // Rotates x (n×dh) as apply_rope(x, first_position, base, inverse); rows past the table's
  // positions, or another width, go through apply_rope itself.
  void rotate(Matrix& x, int first_position, bool inverse = false) const;

 private:
  float base_;
  int dh_, positions_;
  std::vector<float> cos_, sin_;  // positions × dh/2, row-major
};

}  // namespace ae
