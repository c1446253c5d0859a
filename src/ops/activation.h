#pragma once

#include "tensor.h"

namespace ae {

// GELU, tanh approximation (as in GPT-2 and BERT's reference code):
// gelu(x) = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
float gelu(float x);
Matrix gelu(const Matrix& x);
// dL/dx = gelu'(x) · dL/dy, for the same tanh approximation.
Matrix gelu_backward(const Matrix& x, const Matrix& dy);

}  // namespace ae
