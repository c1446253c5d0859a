#pragma once

#include "tensor.h"

#include <cstddef>
#include <span>

namespace ae {

// GELU, tanh approximation (as in GPT-2 and BERT's reference code):
//   gelu(x) = 0.5·x·(1 + tanh(u)),  u = √(2/π)·(x + 0.044715·x³).
// Computed as x·σ(2u), the same function (0.5·(1 + tanh u) = σ(2u)), with one e^(−|2u|) from the
// softmax's exp kernel (simd::exp_nonpositive) and one division, four lanes at a time on every
// target. Unlike 1 + tanh u, σ has no cancellation for negative x, so the result stays accurate to a
// few ulp there, and it is exactly x for x ≳ 10 and exactly 0 for x ≲ −10.7. Every entry point
// below runs this one kernel (a lone value or a tail as a padded group of four), so a value's GELU
// is the same bits whichever function computed it, natively and in wasm.
float gelu(float x);
Matrix gelu(const Matrix& x);
// y[i] = gelu(x[i]) for i < n (x and y may be the same array).
void gelu_values(const float* x, float* y, size_t n);
// Also d gelu/dx = σ(2u) + 2·x·σ(2u)·(1 − σ(2u))·u′, for the backward pass.
void gelu_values_and_derivative(const float* x, float* y, float* derivative, size_t n);

// The vector exp that GELU and the softmaxes use (simd::exp_nonpositive: e^x for x ≤ 0, 0 below
// −87.336 and at −∞), on n values, once per multiply-add form of this build, fastest first (the
// one the kernels use): "f32_vexp_nonpositive__wasmsimd", "…__wasmrelaxedsimd" (natively "…__sse",
// "…__fma3" or "…__fmaemu"). For the tests and benchmarks that compare the forms.
struct VectorKernel {
  const char* name;
  void (*fn)(const float* x, float* y, size_t n);
};
std::span<const VectorKernel> exp_nonpositive_kernels();

}  // namespace ae
