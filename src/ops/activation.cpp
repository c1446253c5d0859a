#include "ops/activation.h"

#include <cmath>

namespace ae {

namespace {
constexpr float kSqrt2OverPi = 0.7978845608028654f;

float gelu_derivative(float x) {
  const float u = kSqrt2OverPi * (x + 0.044715f * x * x * x);
  const float t = std::tanh(u);
  const float du = kSqrt2OverPi * (1.0f + 3.0f * 0.044715f * x * x);
  return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * du;
}
}  // namespace

Matrix gelu_backward(const Matrix& x, const Matrix& dy) {
  return (x.unaryExpr([](float v) { return gelu_derivative(v); }).array() * dy.array()).matrix();
}

float gelu(float x) {
  return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}

Matrix gelu(const Matrix& x) {
  return x.unaryExpr([](float v) { return gelu(v); });
}

}  // namespace ae
