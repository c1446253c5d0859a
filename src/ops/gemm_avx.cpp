// The tile body of gemm_tile.inc on 8-lane AVX vectors: f32_gemm_ukernel_5x16__avx, for native
// x86-64 builds, which target the x86-64 baseline (SSE2) and so cannot assume AVX; gemm.cpp
// offers it only where gemm_avx_supported() (the CPU and the OS have AVX).
//
// Only the functions below carry target("avx"): the file is compiled with the project's usual
// flags, so nothing it shares with other files (inline functions of the standard library or
// Eigen) is compiled for AVX. AVX has no fused multiply-add (that is FMA3, a separate feature
// not enabled here), so the compiler cannot contract mul + add: each entry's sum rounds as the
// 4-lane MulAdd tile's does, and the two give the same bits (tests/native/test_gemm.cpp).
//
// 5×16: 10 accumulators + 2 panel vectors + 1 broadcast + 1 product fit AVX's 16 ymm registers
// (6×16 would need 16 and spill).
#include "ops/gemm.h"

#if AE_GEMM_HAS_AVX

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace ae {
namespace {

#define AE_TILE_TARGET __attribute__((target("avx")))

using vec = __m256;
constexpr int kLanes = 8;
AE_TILE_TARGET inline vec load(const float* p) { return _mm256_loadu_ps(p); }
AE_TILE_TARGET inline void store(float* p, vec v) { _mm256_storeu_ps(p, v); }
AE_TILE_TARGET inline vec load_splat(const float* p) { return _mm256_broadcast_ss(p); }
AE_TILE_TARGET inline vec zero() { return _mm256_setzero_ps(); }
AE_TILE_TARGET inline vec add(vec a, vec b) { return _mm256_add_ps(a, b); }

// rows[r][c] ↔ rows[c][r] for an 8×8 block: pairs, then quads within each 128-bit half, then
// the halves.
AE_TILE_TARGET inline void transpose_lanes(vec* rows) {
  vec t[8], s[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_ps(rows[2 * i], rows[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_ps(rows[2 * i], rows[2 * i + 1]);
  }
  for (int i = 0; i < 2; ++i) {
    s[4 * i] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    s[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    s[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    s[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    rows[i] = _mm256_permute2f128_ps(s[i], s[i + 4], 0x20);
    rows[i + 4] = _mm256_permute2f128_ps(s[i], s[i + 4], 0x31);
  }
}

// simd::MulAdd's arithmetic: a·b rounded, then + c rounded.
struct AvxMulAdd {
  AE_TILE_TARGET static vec madd(vec a, vec b, vec c) { return _mm256_add_ps(_mm256_mul_ps(a, b), c); }
};

#include "ops/gemm_tile.inc"

#undef AE_TILE_TARGET

}  // namespace

bool gemm_avx_supported() {
  static const bool supported = __builtin_cpu_supports("avx");
  return supported;
}

__attribute__((target("avx"))) void f32_gemm_ukernel_5x16__avx(const GemmArgs& g) { gemm_tile_entry<5, AvxMulAdd>(g); }

size_t gemm_workspace_floats_avx(int m, int n, int k) { return tile_workspace_floats(m, n, k); }

}  // namespace ae

#endif
