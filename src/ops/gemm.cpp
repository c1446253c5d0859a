// GEMM entry points, argument checks, the reference twin, the portable and Eigen variants,
// and the table of variants. The SIMD micro-kernels are in gemm_simd128.cpp.
#include "ops/gemm.h"

#include "ops/f32x4.h"
#include "tensor.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace ae {

namespace {

[[noreturn]] void fail(const std::string& why) { throw std::invalid_argument("gemm: " + why); }

// Fastest first, as measured (docs/benchmarks.md); gemm() runs the first. In wasm the 5×8
// SIMD128 tile leads: its 10 accumulators + 2 panel vectors + broadcast + product temp fit the
// 15 xmm registers V8 allocates on x64, and it loads less per flop than 4×8 (which is a few
// % slower); 6×8 needs 16 registers, spills, and loses ~25 %. Eigen 3.4 has no SIMD128 code
// (LLVM auto-vectorises some of it). A native build
// for the x86-64 baseline (SSE2) finds the 4-wide tile and Eigen within noise of each other,
// so the tile leads there as well; with AVX2 or wider (-march=native) Eigen's FMA kernels are
// ~3× faster than any 4-wide code and go first.
#if defined(__AVX2__) || defined(__ARM_NEON)
#define AE_GEMM_EIGEN_FIRST 1
#else
#define AE_GEMM_EIGEN_FIRST 0
#endif
// Where fused multiply-add is fast (the relaxed-SIMD module), its tiles lead, 6×8 first: without
// the product temporary its 12 accumulators + 2 panel vectors + 1 broadcast fit V8's 15 xmm
// registers. In Chromium it beat the 5×8 FMA tile in 9 of 12 sizes over three runs of
// tools/bench/browser.mjs on the loaded 2-core machine (docs/benchmarks.md): a small, noisy lead.
#define AE_GEMM_TILE(MR, ARITH, ISA) \
  { "f32_gemm_ukernel_" #MR "x8__" ISA, &f32_gemm_ukernel_f32x4<MR, simd::ARITH> }
#define AE_GEMM_FMA_TILES                                                         \
  AE_GEMM_TILE(6, Fma, AE_F32X4_FMA_ISA), AE_GEMM_TILE(5, Fma, AE_F32X4_FMA_ISA), \
      AE_GEMM_TILE(4, Fma, AE_F32X4_FMA_ISA),
// AVX (natively, where the CPU has it) leads: the 5×8 tile's arithmetic on twice the lanes.
constexpr GemmKernel kKernels[] = {
#if AE_GEMM_HAS_AVX && !AE_GEMM_EIGEN_FIRST && !AE_F32X4_FMA_FAST
    {"f32_gemm_ukernel_5x16__avx", &f32_gemm_ukernel_5x16__avx},
#endif
#if AE_GEMM_EIGEN_FIRST
    {"f32_gemm__eigen", &f32_gemm__eigen},
#endif
#if AE_F32X4_FMA_FAST
    AE_GEMM_FMA_TILES
#endif
        AE_GEMM_TILE(5, MulAdd, AE_F32X4_ISA),
    AE_GEMM_TILE(4, MulAdd, AE_F32X4_ISA),
    AE_GEMM_TILE(6, MulAdd, AE_F32X4_ISA),
#if !AE_GEMM_EIGEN_FIRST
    {"f32_gemm__eigen", &f32_gemm__eigen},
#endif
    {"f32_gemm__scalar", &f32_gemm__scalar},
#if AE_F32X4_HAS_FMA && !AE_F32X4_FMA_FAST
    AE_GEMM_FMA_TILES  // emulated natively: for the tests, last
#endif
};
#undef AE_GEMM_FMA_TILES
#undef AE_GEMM_TILE

bool runnable(const GemmKernel& kernel) {
#if AE_GEMM_HAS_AVX
  if (kernel.fn == &f32_gemm_ukernel_5x16__avx) return gemm_avx_supported();
#endif
  return kernel.fn != nullptr;
}

// kKernels without those this CPU cannot run, found once.
struct RunnableKernels {
  GemmKernel list[std::size(kKernels)];
  size_t count = 0;
  RunnableKernels() {
    for (const GemmKernel& kernel : kKernels)
      if (runnable(kernel)) list[count++] = kernel;
  }
};

const RunnableKernels& runnable_kernels() {
  static const RunnableKernels kernels;
  return kernels;
}

}  // namespace

std::span<const GemmKernel> gemm_kernels() {
  const RunnableKernels& k = runnable_kernels();
  return {k.list, k.count};
}

const GemmKernel* find_gemm_kernel(std::string_view name) {
  for (const GemmKernel& kernel : gemm_kernels())
    if (name == kernel.name) return &kernel;
  return nullptr;
}

bool gemm_rows_independent() { return gemm_kernels()[0].fn != &f32_gemm__eigen; }

GemmFn gemm_muladd_tile() {
#if AE_GEMM_HAS_AVX
  if (gemm_avx_supported()) return &f32_gemm_ukernel_5x16__avx;
#endif
  return &f32_gemm_ukernel_f32x4<5, simd::MulAdd>;
}

size_t gemm_workspace_floats(int m, int n, int k) {
#if AE_GEMM_HAS_AVX
  return std::max(gemm_workspace_floats_f32x4(m, n, k), gemm_workspace_floats_avx(m, n, k));
#else
  return gemm_workspace_floats_f32x4(m, n, k);
#endif
}

void validate_gemm_args(const GemmArgs& g) {
  if (g.m < 0 || g.n < 0 || g.k < 0)
    fail("sizes must not be negative, got M = " + std::to_string(g.m) + ", N = " + std::to_string(g.n) +
         ", K = " + std::to_string(g.k));
  const int b_row = g.transpose_b ? g.k : g.n;
  if (!g.transpose_a && g.lda < g.k)
    fail("lda = " + std::to_string(g.lda) + " is less than K = " + std::to_string(g.k));
  if (g.transpose_a && g.lda < g.m)
    fail("lda = " + std::to_string(g.lda) + " is less than M = " + std::to_string(g.m) + " (A is stored K×M)");
  if (g.ldb < b_row)
    fail("ldb = " + std::to_string(g.ldb) + " is less than " + (g.transpose_b ? "K = " : "N = ") +
         std::to_string(b_row) + (g.transpose_b ? " (B is stored N×K)" : " (B is stored K×N)"));
  if (g.ldc < g.n) fail("ldc = " + std::to_string(g.ldc) + " is less than N = " + std::to_string(g.n));
  if (!g.a && g.m > 0 && g.k > 0) fail("A is null");
  if (!g.b && g.k > 0 && g.n > 0) fail("B is null");
  if (!g.c && g.m > 0 && g.n > 0) fail("C is null");
}

void gemm(const GemmArgs& args) {
  validate_gemm_args(args);
  gemm_kernels()[0].fn(args);
}

Matrix gemm_product(const Matrix& a, const Matrix& b, bool transpose_b, const Matrix* bias) {
  const Eigen::Index inner = transpose_b ? b.cols() : b.rows(), cols = transpose_b ? b.rows() : b.cols();
  if (a.cols() != inner)
    throw std::invalid_argument("gemm: A is " + shape_string(a) + " and " + (transpose_b ? "Bᵀ of B " : "B ") +
                                shape_string(b) + ": the inner sizes differ");
  if (bias && (bias->rows() != 1 || bias->cols() != cols))
    throw std::invalid_argument("gemm: the bias is " + shape_string(*bias) + ", not 1×" + std::to_string(cols));
  Matrix c(a.rows(), cols);
  GemmArgs g;
  g.m = static_cast<int>(a.rows()), g.n = static_cast<int>(cols), g.k = static_cast<int>(inner);
  g.a = a.data(), g.lda = g.k;
  g.b = b.data(), g.ldb = static_cast<int>(b.cols()), g.transpose_b = transpose_b;
  g.bias = bias ? bias->data() : nullptr;
  g.c = c.data(), g.ldc = g.n;
  gemm(g);
  return c;
}

namespace {

// op(A)[i][p] and op(B)[p][j] of a GemmArgs.
float a_at(const GemmArgs& g, int i, int p) {
  return g.transpose_a ? g.a[static_cast<size_t>(p) * g.lda + i] : g.a[static_cast<size_t>(i) * g.lda + p];
}
float b_at(const GemmArgs& g, int p, int j) {
  return g.transpose_b ? g.b[static_cast<size_t>(j) * g.ldb + p] : g.b[static_cast<size_t>(p) * g.ldb + j];
}

}  // namespace

void gemm_reference(const GemmArgs& g) {
  for (int i = 0; i < g.m; ++i)
    for (int j = 0; j < g.n; ++j) {
      float& c = g.c[static_cast<size_t>(i) * g.ldc + j];
      double acc = g.accumulate ? c : 0.0;
      if (g.bias) acc += g.bias[j];
      double sum = 0.0;
      for (int p = 0; p < g.k; ++p) sum += static_cast<double>(a_at(g, i, p)) * b_at(g, p, j);
      c = static_cast<float>(acc + sum);
    }
}

void f32_gemm__scalar(const GemmArgs& g) {
  // op(A)[i][p] = a[p · a_step] with a at row i of op(A).
  const size_t a_step = g.transpose_a ? static_cast<size_t>(g.lda) : 1;
  for (int i = 0; i < g.m; ++i) {
    float* c = g.c + static_cast<size_t>(i) * g.ldc;
    const float* a = g.transpose_a ? g.a + i : g.a + static_cast<size_t>(i) * g.lda;
    for (int j = 0; j < g.n; ++j) c[j] = (g.accumulate ? c[j] : 0.0f) + (g.bias ? g.bias[j] : 0.0f);
    if (!g.transpose_b) {
      for (int p = 0; p < g.k; ++p) {
        const float x = a[p * a_step];
        const float* b = g.b + static_cast<size_t>(p) * g.ldb;
        for (int j = 0; j < g.n; ++j) c[j] += x * b[j];
      }
    } else {
      for (int j = 0; j < g.n; ++j) {
        const float* b = g.b + static_cast<size_t>(j) * g.ldb;
        float sum = 0.0f;
        for (int p = 0; p < g.k; ++p) sum += a[p * a_step] * b[p];
        c[j] += sum;
      }
    }
  }
}

void f32_gemm__eigen(const GemmArgs& g) {
  if (g.m == 0 || g.n == 0) return;
  using Stride = Eigen::OuterStride<>;
  using ConstMap = Eigen::Map<const Matrix, Eigen::Unaligned, Stride>;
  Eigen::Map<Matrix, Eigen::Unaligned, Stride> c(g.c, g.m, g.n, Stride(g.ldc));
  if (g.k == 0) {
    if (!g.accumulate) c.setZero();
  } else {
    // Eigen sums the products first and then adds them to C, whatever products_first says.
    const auto product = [&](const auto& a) {
      if (g.transpose_b) {
        const ConstMap b(g.b, g.n, g.k, Stride(g.ldb));
        if (g.accumulate) c.noalias() += a * b.transpose();
        else c.noalias() = a * b.transpose();
      } else {
        const ConstMap b(g.b, g.k, g.n, Stride(g.ldb));
        if (g.accumulate) c.noalias() += a * b;
        else c.noalias() = a * b;
      }
    };
    if (g.transpose_a) product(ConstMap(g.a, g.k, g.m, Stride(g.lda)).transpose());
    else product(ConstMap(g.a, g.m, g.k, Stride(g.lda)));
  }
  if (g.bias) c.rowwise() += Eigen::Map<const Vector>(g.bias, g.n);
}

}  // namespace ae
