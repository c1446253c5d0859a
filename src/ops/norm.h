#pragma once

#include "tensor.h"

namespace ae {

// LayerNorm over each row (the feature axis): y = (x - mean) / sqrt(var + eps) * gamma + beta,
// with the biased variance (divide by d), as in the original paper and PyTorch.
// x: n×d, gamma and beta: 1×d.
Matrix layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, float eps);

}  // namespace ae
