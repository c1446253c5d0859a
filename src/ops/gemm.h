// Single-precision GEMM for the shapes a Transformer uses: projections (X·W + b), scores
// (Q·Kᵀ), weighted sums (P·V), and gradient accumulation (C += …).
//
//   C (M×N) = [C +] op(A) (M×K) · op(B) [+ bias]
//     op(A) = A    with A stored M×K (transpose_a = false), or
//     op(A) = Aᵀ   with A stored K×M (transpose_a = true, e.g. Xᵀ·dY of a weight gradient);
//     op(B) = B    with B stored K×N (transpose_b = false), or
//     op(B) = Bᵀ   with B stored N×K (transpose_b = true, e.g. B = K of attention);
//     bias: length N, added to every row of C; accumulate: keep C's old value and add to it.
// Every matrix is row-major with a leading dimension (the distance between two rows, in
// floats): lda ≥ K (or ≥ M when transposed), ldb ≥ N (or ≥ K when transposed), ldc ≥ N. So a
// kernel can work on a block of columns of a wider matrix (one head of a multi-head
// projection) without copies.
//
// Variants are named in XNNPACK's order, f32_gemm[_ukernel_<MR>x<NR>]__<isa>, MR×NR being the
// register tile of C: f32_gemm_ukernel_5x8__wasmsimd (mul + add), f32_gemm_ukernel_5x8__wasmrelaxedsimd
// (fused multiply-add), f32_gemm_ukernel_5x16__avx (8-lane AVX, natively where the CPU has it),
// f32_gemm__eigen, f32_gemm__scalar. That string is each variant's one
// name (gemm_kernels(), the bindings, tests and benchmarks); the C++ side has one template per
// kind. They share one function type, so tests and benchmarks enumerate them through
// gemm_kernels(). None of them keeps state between calls.
#pragma once

#include "tensor.h"

#include <cstddef>
#include <span>
#include <string_view>

namespace ae {

namespace simd {
struct MulAdd;  // the multiply-add forms of ops/f32x4.h
struct Fma;
}  // namespace simd

struct GemmArgs {
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int lda = 0;
  bool transpose_a = false;
  const float* b = nullptr;
  int ldb = 0;
  bool transpose_b = false;
  const float* bias = nullptr;  // N values, or null for none
  bool accumulate = false;      // C += op(A)·op(B) (+ bias) instead of C = …
  // With accumulate, the order of each entry's sum: false adds every product to C in turn
  // ((C + a₀b₀) + a₁b₁ …); true sums the products from 0 and adds the sum to C last
  // (C + ((a₀b₀ + a₁b₁) …)), the order of Eigen's C += A·B (matmul_add, ops/matmul.h). The
  // tile kernels honour it exactly; the others only bound their error.
  bool products_first = false;
  float* c = nullptr;
  int ldc = 0;
  // Optional scratch for the kernels that pack B: gemm_workspace_floats(…) floats. When it
  // is null or smaller, such a kernel allocates its own for the call.
  float* workspace = nullptr;
  size_t workspace_floats = 0;
};

// Kernels assume valid arguments (see validate_gemm_args); gemm() checks them itself.
using GemmFn = void (*)(const GemmArgs&);

struct GemmKernel {
  const char* name;
  GemmFn fn;
};

// Every variant compiled into this build that this CPU can run, fastest first (gemm() uses
// the first one).
std::span<const GemmKernel> gemm_kernels();

// The variant with this name, or null.
const GemmKernel* find_gemm_kernel(std::string_view name);

// Throws std::invalid_argument (message starting "gemm: ") on negative sizes, leading
// dimensions too small for the shapes, or a null pointer to a matrix that has entries.
void validate_gemm_args(const GemmArgs& args);

// Checks the arguments, then runs the fastest variant of this build.
void gemm(const GemmArgs& args);

// C = A·B (or A·Bᵀ with transpose_b) [+ bias, a 1×N row], through gemm(): how the model's
// layers and attention call the kernel on whole matrices. Throws std::invalid_argument when the
// inner sizes (or the bias width) do not match.
Matrix gemm_product(const Matrix& a, const Matrix& b, bool transpose_b = false, const Matrix* bias = nullptr);

// The reference twin: plain loops, products summed in double, C + bias + Σ in that order.
// For tests; also the definition of what every variant computes.
void gemm_reference(const GemmArgs& args);

// Scratch (in floats) that the packing kernels use for these sizes (enough for every tile of
// the build); 0 for the others.
size_t gemm_workspace_floats(int m, int n, int k);

// --- the variants, also reachable through gemm_kernels() ---------------------------------

// Portable loops (no intrinsics), i-k-j order so that the compiler can vectorise along N.
void f32_gemm__scalar(const GemmArgs& args);
// Eigen's product (in wasm, Eigen 3.4 has no SIMD128 packets: it runs on what LLVM
// auto-vectorises).
void f32_gemm__eigen(const GemmArgs& args);
// Register-blocked 4-lane SIMD micro-kernels over packed panels of B (gemm_simd128.cpp):
// MR rows × 8 columns of C live in 2·MR vector registers while K runs; MR = 4, 5, 6. Arith is
// simd::MulAdd ("f32_gemm_ukernel_<MR>x8__wasmsimd" in wasm, "…__sse" natively) or, where the
// build has it, simd::Fma ("…__wasmrelaxedsimd" in the relaxed module, "…__fma3" or "…__fmaemu"
// natively).
template <int MR, class Arith>
void f32_gemm_ukernel_f32x4(const GemmArgs& args);
size_t gemm_workspace_floats_f32x4(int m, int n, int k);

// The same tile body on 8-lane AVX vectors, MR×16, mul + add (gemm_avx.cpp): the same bits as
// f32_gemm_ukernel_<MR>x8 with MulAdd (each entry's sum is built in the same order; only the
// lanes side by side double). Native x86-64 builds only; runnable where gemm_avx_supported().
#if defined(__x86_64__) && !defined(__wasm__) && (defined(__GNUC__) || defined(__clang__))
#define AE_GEMM_HAS_AVX 1
bool gemm_avx_supported();
void f32_gemm_ukernel_5x16__avx(const GemmArgs& args);
size_t gemm_workspace_floats_avx(int m, int n, int k);
#else
#define AE_GEMM_HAS_AVX 0
#endif

// Whether gemm() computes each row of C on its own, whatever the other rows (true for every
// tile kernel; not for Eigen's product, which builds with AVX2 run first and whose last
// columns' sums depend on the number of rows).
bool gemm_rows_independent();

// The widest mul + add tile this CPU runs (f32_gemm_ukernel_5x16__avx where there is AVX, else
// f32_gemm_ukernel_5x8 with simd::MulAdd): every entry summed as the tile body does, so the
// result does not depend on which one runs. What matmul (ops/matmul.h) calls.
GemmFn gemm_muladd_tile();

}  // namespace ae
