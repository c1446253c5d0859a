#include "ops/activation.h"

#include "ops/f32x4.h"

#include <algorithm>

namespace ae {

namespace {

using namespace simd;

struct GeluLanes {
  f32x4 y, derivative;
};

// σ(z) = 1/(1 + e^−z) for z ≥ 0 and e^z/(1 + e^z) below, so that e^(−|z|) ≤ 1 never overflows;
// 1 − σ(z) comes out of the same two numbers without a subtraction.
template <bool kDerivative>
inline GeluLanes gelu_lanes(f32x4 x) {
  const f32x4 zero = simd::zero(), one = splat(1.0f);
  const f32x4 two_k = splat(2.0f * 0.7978845608028654f), c = splat(0.044715f);
  const f32x4 x2 = mul(x, x);
  const f32x4 z = mul(two_k, add(x, mul(c, mul(x2, x))));  // 2u
  const f32x4 e = exp_nonpositive(sub(zero, max(z, sub(zero, z))));
  const f32x4 r = div(one, add(one, e));
  const f32x4 negative = less(z, zero);
  const f32x4 s = select(negative, mul(e, r), r);
  GeluLanes out{mul(x, s), zero};
  if constexpr (kDerivative) {
    const f32x4 one_minus_s = select(negative, r, mul(e, r));
    const f32x4 du = add(one, mul(splat(3.0f * 0.044715f), x2));  // u′ / √(2/π)
    out.derivative = add(s, mul(mul(mul(x, s), one_minus_s), mul(two_k, du)));
  }
  return out;
}

template <bool kDerivative>
void gelu_kernel(const float* x, float* y, float* derivative, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const GeluLanes g = gelu_lanes<kDerivative>(load(x + i));
    store(y + i, g.y);
    if constexpr (kDerivative) store(derivative + i, g.derivative);
  }
  if (i == n) return;
  // The last one to three values as one padded group: the same lanes, hence the same bits.
  float in[4] = {0.0f, 0.0f, 0.0f, 0.0f}, out[4], out_derivative[4];
  const size_t rest = n - i;
  std::copy(x + i, x + n, in);
  const GeluLanes g = gelu_lanes<kDerivative>(load(in));
  store(out, g.y);
  std::copy(out, out + rest, y + i);
  if constexpr (kDerivative) {
    store(out_derivative, g.derivative);
    std::copy(out_derivative, out_derivative + rest, derivative + i);
  }
}

// y = e^x for x ≤ 0 with one multiply-add form; the tail as one padded group, as above.
template <class Arith>
void exp_nonpositive_values(const float* x, float* y, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, exp_nonpositive<Arith>(load(x + i)));
  if (i == n) return;
  float in[4] = {0.0f, 0.0f, 0.0f, 0.0f}, out[4];
  std::copy(x + i, x + n, in);
  store(out, exp_nonpositive<Arith>(load(in)));
  std::copy(out, out + (n - i), y + i);
}

constexpr VectorKernel kExpKernels[] = {
#if AE_F32X4_FMA_FAST
    {"f32_vexp_nonpositive__" AE_F32X4_FMA_ISA, &exp_nonpositive_values<Fma>},
#endif
    {"f32_vexp_nonpositive__" AE_F32X4_ISA, &exp_nonpositive_values<MulAdd>},
#if AE_F32X4_HAS_FMA && !AE_F32X4_FMA_FAST
    {"f32_vexp_nonpositive__" AE_F32X4_FMA_ISA, &exp_nonpositive_values<Fma>},
#endif
};

}  // namespace

std::span<const VectorKernel> exp_nonpositive_kernels() { return kExpKernels; }

void gelu_values(const float* x, float* y, size_t n) { gelu_kernel<false>(x, y, nullptr, n); }

void gelu_values_and_derivative(const float* x, float* y, float* derivative, size_t n) {
  gelu_kernel<true>(x, y, derivative, n);
}

float gelu(float x) {
  float y;
  gelu_values(&x, &y, 1);
  return y;
}

Matrix gelu(const Matrix& x) {
  Matrix y(x.rows(), x.cols());
  gelu_values(x.data(), y.data(), static_cast<size_t>(x.size()));
  return y;
}

}  // namespace ae
