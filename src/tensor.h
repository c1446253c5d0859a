// Dense tensors of the core. Dimension legend used across src/:
//   n  = sequence length (queries), m = key/value length, d = model width,
//   h  = heads, dh = head width (d / h), V = vocabulary size.
// Matrices are row-major: one row per token, one column per feature, so a
// sequence of n token vectors is an n×d Matrix and rows map 1:1 to tokens.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <string>

namespace ae {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;

// "3×4", for error messages.
std::string shape_string(const Matrix& m);

// True when every entry is finite (no NaN, no ±inf).
bool all_finite(const Matrix& m);

}  // namespace ae
