// Register-blocked GEMM micro-kernels on 4-lane vectors (f32x4.h: SIMD128 in wasm, SSE
// natively): tiles of MR×8; the body is gemm_tile.inc. Shapes and semantics: see gemm.h.
// MR is limited by the xmm registers V8 allocates on x64 (15; xmm15 is its scratch):
// 2·MR accumulators + 2 panel vectors + 1 broadcast (+ 1 product temp for MulAdd) must fit,
// so 5×8 is the largest MulAdd tile that does (6×8 spills); with Fma 6×8 fits as well.
#include "ops/f32x4.h"
#include "ops/gemm.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace ae {
namespace {

using namespace simd;
using vec = f32x4;
constexpr int kLanes = 4;
inline void transpose_lanes(vec* rows) { transpose4(rows[0], rows[1], rows[2], rows[3]); }
#define AE_TILE_TARGET
#include "ops/gemm_tile.inc"
#undef AE_TILE_TARGET

}  // namespace

template <int MR, class Arith>
void f32_gemm_ukernel_f32x4(const GemmArgs& g) {
  gemm_tile_entry<MR, Arith>(g);
}

size_t gemm_workspace_floats_f32x4(int m, int n, int k) { return tile_workspace_floats(m, n, k); }

// The variants gemm.cpp lists: 4, 5 and 6 rows, with each multiply-add form of this build.
template void f32_gemm_ukernel_f32x4<4, MulAdd>(const GemmArgs&);
template void f32_gemm_ukernel_f32x4<5, MulAdd>(const GemmArgs&);
template void f32_gemm_ukernel_f32x4<6, MulAdd>(const GemmArgs&);
#if AE_F32X4_HAS_FMA
template void f32_gemm_ukernel_f32x4<4, Fma>(const GemmArgs&);
template void f32_gemm_ukernel_f32x4<5, Fma>(const GemmArgs&);
template void f32_gemm_ukernel_f32x4<6, Fma>(const GemmArgs&);
#endif

}  // namespace ae
