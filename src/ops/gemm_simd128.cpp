// Register-blocked GEMM micro-kernels on 4-lane vectors (f32x4.h: SIMD128 in wasm, SSE
// natively). Shapes and semantics: see gemm.h.
//
// Blocking (GotoBLAS order, sized for a 48 KB L1 and a 2 MB L2):
//   for each block of NC columns of C        — bounds the packing buffer
//     for each block of KC rows of op(B)     — pack op(B)[KC×NC] into panels of 8 columns
//       for each block of MC rows of A       — A[MC×KC] stays in L2 while the panels pass
//         for each panel (8 columns)         — the panel (KC×8 floats) stays in L1
//           for each MR rows:  C[MR×8] (+)= A[MR×KC] · panel   (the micro-kernel)
// The micro-kernel keeps its MR×8 tile of C in 2·MR registers. Per step of K it loads one
// row of the panel (2 vectors), broadcasts MR values of A straight from A's rows (one
// load32_splat each, which V8 turns into one vbroadcastss), and does 2·MR multiply-adds:
// Arith::madd (f32x4.h), 2·MR multiplies and 2·MR adds with MulAdd, 2·MR fused ones with Fma.
// Without fused multiply-add that arithmetic is the bottleneck; loads are not.
// MR is limited by the xmm registers V8 allocates on x64 (15; xmm15 is its scratch):
// 2·MR accumulators + 2 panel vectors + 1 broadcast (+ 1 product temp for MulAdd) must fit,
// so 5×8 is the largest MulAdd tile that does (6×8 spills); with Fma 6×8 fits as well.
#include "ops/f32x4.h"
#include "ops/gemm.h"

#include <algorithm>
#include <cstddef>
#include <memory>

namespace ae {
namespace {

using namespace simd;

constexpr int kNR = 8;     // columns of C per micro-kernel (two vectors)
constexpr int kKC = 512;   // rows of op(B) per packed block: a panel is kKC·8·4 B = 16 KB
constexpr int kMC = 256;   // rows of A per block: 256·512·4 B = 512 KB, in L2
constexpr int kNC = 1024;  // columns per packed block: the buffer is at most 2 MB

int round_up(int x, int to) { return (x + to - 1) / to * to; }

// Copies rows [p0, p0+kc) × columns [j0, j0+nc) of op(B) into panels of 8 columns, one after
// the other: panel q holds kc rows of 8 floats, columns past the end of op(B) set to 0.
void pack_b(const GemmArgs& g, int p0, int kc, int j0, int nc, float* out) {
  const size_t ldb = static_cast<size_t>(g.ldb);
  for (int jp = 0; jp < nc; jp += kNR) {
    const int nr = std::min(kNR, nc - jp);
    float* panel = out + static_cast<size_t>(jp) * kc;
    if (!g.transpose_b) {
      const float* src = g.b + static_cast<size_t>(p0) * ldb + j0 + jp;
      if (nr == kNR) {
        for (int p = 0; p < kc; ++p, src += ldb) {
          store(panel + p * kNR, load(src));
          store(panel + p * kNR + 4, load(src + 4));
        }
      } else {
        for (int p = 0; p < kc; ++p, src += ldb)
          for (int j = 0; j < kNR; ++j) panel[p * kNR + j] = j < nr ? src[j] : 0.0f;
      }
    } else {
      // op(B)[p][j] = B[j][p]: read each of the 8 rows of B along K, write with stride 8.
      for (int j = 0; j < kNR; ++j) {
        if (j < nr) {
          const float* src = g.b + static_cast<size_t>(j0 + jp + j) * ldb + p0;
          for (int p = 0; p < kc; ++p) panel[p * kNR + j] = src[p];
        } else {
          for (int p = 0; p < kc; ++p) panel[p * kNR + j] = 0.0f;
        }
      }
    }
  }
}

// C[MR×nr] = (load_c ? C : 0) + A[MR×kc] · panel[kc×8] (+ bias), nr ≤ 8 valid columns.
template <int MR, class Arith>
inline void micro_kernel(int kc, const float* a, size_t lda, const float* panel, float* c, size_t ldc, int nr,
                         const float* bias, bool load_c) {
  f32x4 lo[MR], hi[MR];  // columns 0–3 and 4–7 of each row of the tile
  float edge[kNR];       // staging for a tile cut by the right edge of C
  for (int r = 0; r < MR; ++r) {
    if (!load_c) {
      lo[r] = hi[r] = zero();
    } else if (nr == kNR) {
      lo[r] = load(c + r * ldc);
      hi[r] = load(c + r * ldc + 4);
    } else {
      for (int j = 0; j < kNR; ++j) edge[j] = j < nr ? c[r * ldc + j] : 0.0f;
      lo[r] = load(edge);
      hi[r] = load(edge + 4);
    }
  }
  const float* row[MR];
  for (int r = 0; r < MR; ++r) row[r] = a + r * lda;
  for (int p = 0; p < kc; ++p) {
    const f32x4 b_lo = load(panel), b_hi = load(panel + 4);
    panel += kNR;
    for (int r = 0; r < MR; ++r) {
      const f32x4 x = load_splat(row[r] + p);
      lo[r] = Arith::madd(x, b_lo, lo[r]);
      hi[r] = Arith::madd(x, b_hi, hi[r]);
    }
  }
  if (bias) {
    f32x4 bias_lo, bias_hi;
    if (nr == kNR) {
      bias_lo = load(bias), bias_hi = load(bias + 4);
    } else {
      for (int j = 0; j < kNR; ++j) edge[j] = j < nr ? bias[j] : 0.0f;
      bias_lo = load(edge), bias_hi = load(edge + 4);
    }
    for (int r = 0; r < MR; ++r) lo[r] = add(lo[r], bias_lo), hi[r] = add(hi[r], bias_hi);
  }
  for (int r = 0; r < MR; ++r) {
    if (nr == kNR) {
      store(c + r * ldc, lo[r]);
      store(c + r * ldc + 4, hi[r]);
    } else {
      store(edge, lo[r]);
      store(edge + 4, hi[r]);
      for (int j = 0; j < nr; ++j) c[r * ldc + j] = edge[j];
    }
  }
}

// The micro-kernel for the last `rows` < MR rows of a block.
template <int MR, class Arith>
void micro_kernel_rows(int rows, int kc, const float* a, size_t lda, const float* panel, float* c, size_t ldc, int nr,
                       const float* bias, bool load_c) {
  if constexpr (MR > 1) {
    if (rows == MR - 1) return micro_kernel<MR - 1, Arith>(kc, a, lda, panel, c, ldc, nr, bias, load_c);
    return micro_kernel_rows<MR - 1, Arith>(rows, kc, a, lda, panel, c, ldc, nr, bias, load_c);
  }
}

// K = 0: C = (accumulate ? C : 0) + bias.
void gemm_without_k(const GemmArgs& g) {
  for (int i = 0; i < g.m; ++i) {
    float* c = g.c + static_cast<size_t>(i) * g.ldc;
    for (int j = 0; j < g.n; ++j) c[j] = (g.accumulate ? c[j] : 0.0f) + (g.bias ? g.bias[j] : 0.0f);
  }
}

}  // namespace

template <int MR, class Arith>
void f32_gemm_ukernel_f32x4(const GemmArgs& g) {
  if (g.m == 0 || g.n == 0) return;
  if (g.k == 0) return gemm_without_k(g);

  const size_t need = gemm_workspace_floats(g.m, g.n, g.k);
  std::unique_ptr<float[]> own;
  float* packed = g.workspace;
  if (!packed || g.workspace_floats < need) {
    own.reset(new float[need]);  // no value-initialisation: pack_b writes every entry
    packed = own.get();
  }
  const size_t lda = static_cast<size_t>(g.lda), ldc = static_cast<size_t>(g.ldc);

  for (int jc = 0; jc < g.n; jc += kNC) {
    const int nc = std::min(kNC, g.n - jc);
    for (int pc = 0; pc < g.k; pc += kKC) {
      const int kc = std::min(kKC, g.k - pc);
      const bool first = pc == 0;  // the first K block brings the old C (or 0) and the bias
      const bool load_c = !first || g.accumulate;
      pack_b(g, pc, kc, jc, nc, packed);
      for (int ic = 0; ic < g.m; ic += kMC) {
        const int mc = std::min(kMC, g.m - ic);
        for (int jr = 0; jr < nc; jr += kNR) {
          const int nr = std::min(kNR, nc - jr);
          const float* panel = packed + static_cast<size_t>(jr) * kc;
          const float* bias = first && g.bias ? g.bias + jc + jr : nullptr;
          for (int ir = 0; ir < mc; ir += MR) {
            const float* a = g.a + (ic + ir) * lda + pc;
            float* c = g.c + (ic + ir) * ldc + jc + jr;
            const int rows = std::min(MR, mc - ir);
            if (rows == MR) micro_kernel<MR, Arith>(kc, a, lda, panel, c, ldc, nr, bias, load_c);
            else micro_kernel_rows<MR, Arith>(rows, kc, a, lda, panel, c, ldc, nr, bias, load_c);
          }
        }
      }
    }
  }
}

size_t gemm_workspace_floats(int m, int n, int k) {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  return static_cast<size_t>(std::min(k, kKC)) * static_cast<size_t>(round_up(std::min(n, kNC), kNR));
}

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
