#include "ops/activation.h"

#include <cmath>

namespace ae {

float gelu(float x) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}

Matrix gelu(const Matrix& x) {
  return x.unaryExpr([](float v) { return gelu(v); });
}

}  // namespace ae
