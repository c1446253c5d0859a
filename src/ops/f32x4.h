// A 4-lane float vector for the kernels in src/ops/, so that one kernel body serves every
// target (the way ggml maps its vector macros onto each ISA):
//   - wasm with -msimd128:  <wasm_simd128.h>  (ISA name "wasmsimd")
//   - x86-64 native:        SSE2 intrinsics    (ISA name "sse"; with -march=native the same
//                                               instructions get the VEX encoding)
//   - anything else:        four plain floats  (ISA name "scalar")
// and a multiply-add a·b + c in two forms, chosen per kernel by a template parameter, so that
// one kernel body gives both variants (see "Multiply-add" below):
//   - MulAdd: mul then add, two roundings, on every target
//   - Fma:    one fused rounding: wasm relaxed SIMD's f32x4.relaxed_madd (ISA name
//             "wasmrelaxedsimd", when compiled with -mrelaxed-simd), FMA3 natively with -mfma
//             ("fma3"), else per-lane std::fma ("fmaemu": slow, for the native tests only).
// Only the operations the kernels need are here. Every one maps to one instruction on
// wasmsimd and SSE, which is why max/min are the "pseudo" forms (a < b ? b : a): the IEEE
// f32x4.max of wasm costs V8 several instructions to get NaN and −0 right, and the kernels
// never see NaN (inputs are checked finite before any kernel runs).
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define AE_F32X4_ISA "wasmsimd"
#elif defined(__SSE2__) || defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define AE_F32X4_ISA "sse"
#else
#define AE_F32X4_ISA "scalar"
#endif

// AE_F32X4_HAS_FMA: this build has the Fma form; AE_F32X4_FMA_FAST: it is also the faster one,
// so the kernels' default entry points use it (the relaxed wasm module, -mfma natively).
#if defined(__wasm_simd128__)
#if defined(__wasm_relaxed_simd__)
#define AE_F32X4_HAS_FMA 1
#define AE_F32X4_FMA_FAST 1
#define AE_F32X4_FMA_ISA "wasmrelaxedsimd"
#else
#define AE_F32X4_HAS_FMA 0
#define AE_F32X4_FMA_FAST 0
#endif
#elif defined(__FMA__)
#include <immintrin.h>
#define AE_F32X4_HAS_FMA 1
#define AE_F32X4_FMA_FAST 1
#define AE_F32X4_FMA_ISA "fma3"
#else
#define AE_F32X4_HAS_FMA 1
#define AE_F32X4_FMA_FAST 0
#define AE_F32X4_FMA_ISA "fmaemu"
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

namespace ae::simd {

#if defined(__wasm_simd128__)

using f32x4 = v128_t;
inline f32x4 load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, f32x4 v) { wasm_v128_store(p, v); }
inline f32x4 splat(float x) { return wasm_f32x4_splat(x); }
inline f32x4 load_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline f32x4 zero() { return wasm_f32x4_const_splat(0.0f); }
inline f32x4 add(f32x4 a, f32x4 b) { return wasm_f32x4_add(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return wasm_f32x4_sub(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return wasm_f32x4_mul(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return wasm_f32x4_div(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return wasm_f32x4_pmax(a, b); }
// All-ones lanes where a < b.
inline f32x4 less(f32x4 a, f32x4 b) { return wasm_f32x4_lt(a, b); }
inline f32x4 equal(f32x4 a, f32x4 b) { return wasm_f32x4_eq(a, b); }
// a with the lanes selected by mask cleared.
inline f32x4 clear_where(f32x4 mask, f32x4 a) { return wasm_v128_andnot(a, mask); }
// a in the lanes selected by mask, b in the others.
inline f32x4 select(f32x4 mask, f32x4 a, f32x4 b) { return wasm_v128_bitselect(a, b, mask); }
// Integer view: (bits(a) << 23) reinterpreted as float.
inline f32x4 shift_bits_left_23(f32x4 a) { return wasm_i32x4_shl(a, 23); }
// (a, b, c, d) as the rows of a 4×4 block ↔ its columns.
inline void transpose4(f32x4& a, f32x4& b, f32x4& c, f32x4& d) {
  const f32x4 ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
  const f32x4 cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
  a = wasm_i64x2_shuffle(ab_lo, cd_lo, 0, 2), b = wasm_i64x2_shuffle(ab_lo, cd_lo, 1, 3);
  c = wasm_i64x2_shuffle(ab_hi, cd_hi, 0, 2), d = wasm_i64x2_shuffle(ab_hi, cd_hi, 1, 3);
}

#elif defined(__SSE2__) || defined(__x86_64__) || defined(_M_X64)

using f32x4 = __m128;
inline f32x4 load(const float* p) { return _mm_loadu_ps(p); }
inline void store(float* p, f32x4 v) { _mm_storeu_ps(p, v); }
inline f32x4 splat(float x) { return _mm_set1_ps(x); }
inline f32x4 load_splat(const float* p) { return _mm_load_ps1(p); }
inline f32x4 zero() { return _mm_setzero_ps(); }
inline f32x4 add(f32x4 a, f32x4 b) { return _mm_add_ps(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return _mm_sub_ps(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return _mm_mul_ps(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return _mm_div_ps(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return _mm_max_ps(b, a); }  // a < b ? b : a, as wasm pmax
inline f32x4 less(f32x4 a, f32x4 b) { return _mm_cmplt_ps(a, b); }
inline f32x4 equal(f32x4 a, f32x4 b) { return _mm_cmpeq_ps(a, b); }
inline f32x4 clear_where(f32x4 mask, f32x4 a) { return _mm_andnot_ps(mask, a); }
inline f32x4 select(f32x4 mask, f32x4 a, f32x4 b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }
inline f32x4 shift_bits_left_23(f32x4 a) { return _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(a), 23)); }
inline void transpose4(f32x4& a, f32x4& b, f32x4& c, f32x4& d) { _MM_TRANSPOSE4_PS(a, b, c, d); }

#else

struct f32x4 {
  float v[4];
};
inline f32x4 load(const float* p) {
  f32x4 r;
  std::memcpy(r.v, p, sizeof r.v);
  return r;
}
inline void store(float* p, f32x4 a) { std::memcpy(p, a.v, sizeof a.v); }
inline f32x4 splat(float x) { return {{x, x, x, x}}; }
inline f32x4 load_splat(const float* p) { return splat(*p); }
inline f32x4 zero() { return splat(0.0f); }
#define AE_F32X4_LANEWISE(expr)                \
  f32x4 r;                                     \
  for (int i = 0; i < 4; ++i) r.v[i] = (expr); \
  return r
inline f32x4 add(f32x4 a, f32x4 b) { AE_F32X4_LANEWISE(a.v[i] + b.v[i]); }
inline f32x4 sub(f32x4 a, f32x4 b) { AE_F32X4_LANEWISE(a.v[i] - b.v[i]); }
inline f32x4 mul(f32x4 a, f32x4 b) { AE_F32X4_LANEWISE(a.v[i] * b.v[i]); }
inline f32x4 div(f32x4 a, f32x4 b) { AE_F32X4_LANEWISE(a.v[i] / b.v[i]); }
inline f32x4 max(f32x4 a, f32x4 b) { AE_F32X4_LANEWISE(a.v[i] < b.v[i] ? b.v[i] : a.v[i]); }
inline float lane_bits(bool all) {
  uint32_t u = all ? 0xFFFFFFFFu : 0u;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline f32x4 less(f32x4 a, f32x4 b) { AE_F32X4_LANEWISE(lane_bits(a.v[i] < b.v[i])); }
inline f32x4 equal(f32x4 a, f32x4 b) { AE_F32X4_LANEWISE(lane_bits(a.v[i] == b.v[i])); }
inline f32x4 clear_where(f32x4 mask, f32x4 a) {
  f32x4 r;
  for (int i = 0; i < 4; ++i) {
    uint32_t m, x;
    std::memcpy(&m, &mask.v[i], 4), std::memcpy(&x, &a.v[i], 4);
    x &= ~m;
    std::memcpy(&r.v[i], &x, 4);
  }
  return r;
}
inline f32x4 select(f32x4 mask, f32x4 a, f32x4 b) {
  f32x4 r;
  for (int i = 0; i < 4; ++i) {
    uint32_t m;
    std::memcpy(&m, &mask.v[i], 4);
    r.v[i] = m ? a.v[i] : b.v[i];
  }
  return r;
}
inline f32x4 shift_bits_left_23(f32x4 a) {
  f32x4 r;
  for (int i = 0; i < 4; ++i) {
    uint32_t x;
    std::memcpy(&x, &a.v[i], 4);
    x <<= 23;
    std::memcpy(&r.v[i], &x, 4);
  }
  return r;
}
inline void transpose4(f32x4& a, f32x4& b, f32x4& c, f32x4& d) {
  f32x4* rows[4] = {&a, &b, &c, &d};
  for (int r = 0; r < 4; ++r)
    for (int col = r + 1; col < 4; ++col) std::swap(rows[r]->v[col], rows[col]->v[r]);
}
#undef AE_F32X4_LANEWISE

#endif

// --- Multiply-add ------------------------------------------------------------------------
// The kernels take one of these as a template parameter (`template <class Arith>`) and write
// every a·b + c as Arith::madd(a, b, c): the one source of truth for both variants. Fma rounds
// once, so its results differ from MulAdd's in the last bits (tests bound both against the
// same reference). wasm's relaxed_madd may also round twice where the CPU has no FMA; V8 on
// x86-64 with FMA3 (and every ARM64) fuses it.
struct MulAdd {
  static constexpr const char* isa = AE_F32X4_ISA;
  static f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return add(mul(a, b), c); }
};

#if AE_F32X4_HAS_FMA
struct Fma {
  static constexpr const char* isa = AE_F32X4_FMA_ISA;
#if defined(__wasm_relaxed_simd__)
  static f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return wasm_f32x4_relaxed_madd(a, b, c); }
#elif defined(__FMA__)
  static f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return _mm_fmadd_ps(a, b, c); }
#else
  static f32x4 madd(f32x4 a, f32x4 b, f32x4 c) {
    float x[4], y[4], z[4];
    store(x, a), store(y, b), store(z, c);
    for (int i = 0; i < 4; ++i) z[i] = std::fma(x[i], y[i], z[i]);
    return load(z);
  }
#endif
};
#endif

// What the kernels' default entry points (gemm(), softmax, GELU, attention_fused) run.
#if AE_F32X4_FMA_FAST
using FastestArith = Fma;
#else
using FastestArith = MulAdd;
#endif

// e^x for x ≤ 0, the only range softmax needs (x = score − running max). Lanes with
// x < −87.336 (where e^x is below the smallest normal float), and x = −∞ (masked), give
// exactly 0. Error ≤ 3 ulp on the rest (2.2 measured, tests/native/test_attention_fused.cpp). Method (XNNPACK's
// "rr2_p5"):
//   n = round(x·log2 e),  t = x − n·ln2 (ln2 split in two for an exact product),
//   e^t ≈ 1 + t·(c1 + t·(c2 + t·(c3 + t·(c4 + t·c5)))) on |t| ≤ ln2/2,  e^x = 2ⁿ·e^t.
// The rounding uses a "magic bias" whose low mantissa bits then hold n + 127, so 2ⁿ is built
// by one shift into the exponent field, with no float→int conversion.
// Arith: the multiply-add form of every step (MulAdd or Fma, see above).
template <class Arith = FastestArith>
inline f32x4 exp_nonpositive(f32x4 x) {
  const f32x4 magic_bias = splat(0x1.8000FEp23f);  // 1.5·2²³ + 127
  const f32x4 log2e = splat(0x1.715476p+0f);
  const f32x4 minus_ln2_hi = splat(-0x1.62E400p-1f);
  const f32x4 minus_ln2_lo = splat(-0x1.7F7D1Cp-20f);
  const f32x4 c5 = splat(0x1.0F9F9Cp-7f), c4 = splat(0x1.573A1Ap-5f), c3 = splat(0x1.555A80p-3f),
              c2 = splat(0x1.FFFDC6p-2f), c1 = splat(0x1.FFFFF6p-1f);
  const f32x4 cutoff = splat(-0x1.5D589Ep6f);  // −87.336: below it e^x is not a normal float

  f32x4 n = Arith::madd(x, log2e, magic_bias);
  const f32x4 two_n = shift_bits_left_23(n);
  n = sub(n, magic_bias);
  f32x4 t = Arith::madd(n, minus_ln2_hi, x);
  t = Arith::madd(n, minus_ln2_lo, t);
  f32x4 p = Arith::madd(c5, t, c4);
  p = Arith::madd(p, t, c3);
  p = Arith::madd(p, t, c2);
  p = Arith::madd(p, t, c1);
  t = mul(t, two_n);
  const f32x4 e = Arith::madd(t, p, two_n);
  // x = −∞ makes n and t NaN above; the mask clears those lanes along with the underflowing ones.
  return clear_where(less(x, cutoff), e);
}

}  // namespace ae::simd
