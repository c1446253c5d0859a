// See dropout_avx512.h. Only the functions below carry the AVX-512 target attribute, so nothing
// shared with other files is compiled for AVX-512 (as in gemm_avx.cpp).
#include "ops/dropout_avx512.h"

#if AE_DROPOUT_HAS_AVX512

// GCC 12's AVX-512 shift intrinsics start from _mm512_undefined_epi32(), which its flow analysis
// reports as "may be used uninitialized" (GCC bug 105593); every lane is written by the shift.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace ae {
namespace {

#define AE_DROPOUT_TARGET __attribute__((target("avx512f,avx512dq")))

// splitmix64's output for eight states at once, shifted to its top 53 bits (Rng::uniform's).
AE_DROPOUT_TARGET inline __m512i top53(__m512i z) {
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)),
                         _mm512_set1_epi64(static_cast<long long>(Rng::kMix1)));
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)),
                         _mm512_set1_epi64(static_cast<long long>(Rng::kMix2)));
  return _mm512_srli_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 31)), 11);
}

}  // namespace

bool dropout_avx512_supported() {
  static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return supported;
}

AE_DROPOUT_TARGET void fill_dropout_row_avx512(float* row, size_t cols, Rng& rng, uint64_t threshold, float keep) {
  // Lane k of a block of 16 holds state + (j + k + 1)·increment, the (j + k)-th draw's counter.
  const uint64_t state = rng.state();
  alignas(64) uint64_t first[8];
  for (int k = 0; k < 8; ++k) first[k] = state + static_cast<uint64_t>(k + 1) * Rng::kIncrement;
  __m512i lo = _mm512_load_si512(first);
  __m512i hi = _mm512_add_epi64(lo, _mm512_set1_epi64(static_cast<long long>(8 * Rng::kIncrement)));
  const __m512i step = _mm512_set1_epi64(static_cast<long long>(16 * Rng::kIncrement));
  const __m512i limit = _mm512_set1_epi64(static_cast<long long>(threshold));
  const __m512 kept = _mm512_set1_ps(keep), zero = _mm512_setzero_ps();
  for (size_t j = 0; j < cols; j += 16) {
    const __mmask16 dropped = static_cast<__mmask16>(_mm512_cmplt_epu64_mask(top53(lo), limit) |
                                                     (_mm512_cmplt_epu64_mask(top53(hi), limit) << 8));
    const __m512 values = _mm512_mask_blend_ps(dropped, kept, zero);
    const size_t left = cols - j;
    if (left >= 16) _mm512_storeu_ps(row + j, values);
    else _mm512_mask_storeu_ps(row + j, static_cast<__mmask16>((1u << left) - 1), values);
    lo = _mm512_add_epi64(lo, step);
    hi = _mm512_add_epi64(hi, step);
  }
  rng.discard(cols);
}

}  // namespace ae

#endif
