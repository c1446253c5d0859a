#pragma once

#include "tensor.h"

namespace ae {

// LayerNorm over each row (the feature axis): y = (x - mean) / sqrt(var + eps) * gamma + beta,
// with the biased variance (divide by d), as in the original paper and PyTorch.
// x: n×d, gamma and beta: 1×d.
Matrix layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, float eps);

// Backward of layer_norm: returns dL/dx and adds dL/dgamma, dL/dbeta (1×d) into the given
// accumulators. Mean and 1/std are recomputed from x rather than saved.
Matrix layer_norm_backward(const Matrix& x, const Matrix& gamma, float eps, const Matrix& dy, Matrix& d_gamma,
                           Matrix& d_beta);

}  // namespace ae
