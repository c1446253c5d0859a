// Positional encodings. Self-attention alone is blind to order (permuting the input rows
// permutes the output rows); these give each position its own signature.
#pragma once

#include "tensor.h"

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

}  // namespace ae
