// GEMM: every variant of gemm_kernels() against the double-precision reference, over sizes
// below, at and above the register tile (4/5/6 × 8, 5 × 16) and the cache blocks (KC = 512,
// MC = 256, NC = 1024), both layouts of A and of B, bias, accumulate (either order), leading
// dimensions wider than the matrices, and large magnitudes; and the tiles' sums bit for bit
// across vector widths. Also built to wasm (kernel_tests_wasm) and run by ctest.
#include "ops/f32x4.h"
#include "ops/gemm.h"
#include "reference.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kSizes[] = {1, 3, 4, 5, 15, 16, 17, 63, 64, 65, 100, 257};
constexpr float kGuard = -12345.0f;  // fills C's padding columns: no kernel may touch them

struct Case {
  int m, n, k;
  bool transpose_b = false, bias = false, accumulate = false;
  int pad = 0;         // extra floats per row in every leading dimension
  double scale = 1.0;  // magnitude of the entries
  uint64_t seed = 1;
  bool transpose_a = false, products_first = false;
};

std::string describe(const Case& c) {
  std::ostringstream s;
  s << "M=" << c.m << " N=" << c.n << " K=" << c.k << (c.transpose_a ? " A^T" : "") << (c.transpose_b ? " B^T" : "")
    << (c.bias ? " +bias" : "") << (c.accumulate ? (c.products_first ? " C+=(sum)" : " C+=") : "") << " pad=" << c.pad
    << " scale=" << c.scale;
  return s.str();
}

// The operands of one case, with the expected C and a bound on each entry's rounding error.
struct Problem {
  Case c;
  int lda, ldb, ldc;
  std::vector<float> a, b, bias, c0;  // c0: C before the call (old values, guards in padding)
  std::vector<double> expected, bound;

  explicit Problem(const Case& cs) : c(cs) {
    lda = (c.transpose_a ? c.m : c.k) + c.pad;
    ldb = (c.transpose_b ? c.k : c.n) + c.pad;
    ldc = c.n + c.pad;
    a = ref::random_values(static_cast<size_t>(c.transpose_a ? c.k : c.m) * lda, c.seed, c.scale);
    b = ref::random_values(static_cast<size_t>(c.transpose_b ? c.n : c.k) * ldb, c.seed + 1, c.scale);
    bias = ref::random_values(static_cast<size_t>(c.n), c.seed + 2, c.scale * c.scale);
    c0 = ref::random_values(static_cast<size_t>(c.m) * ldc, c.seed + 3, c.scale * c.scale);
    for (int i = 0; i < c.m; ++i)
      for (int j = c.n; j < ldc; ++j) c0[static_cast<size_t>(i) * ldc + j] = kGuard;
    // Written from the definition, independently of ae::gemm_reference. Each float variant
    // sums K products plus up to two terms in some order, so its error is at most
    // (K + 2)·u·(Σ|a·b| + |C| + |bias|) with u = 2⁻²⁴ (Higham, Accuracy and Stability, §3.1);
    // the bound below doubles that for the final rounding and any split of K into blocks.
    expected.resize(static_cast<size_t>(c.m) * c.n);
    bound.resize(expected.size());
    const double u = std::ldexp(1.0, -24);
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.n; ++j) {
        double sum = 0.0, magnitude = 0.0;
        for (int p = 0; p < c.k; ++p) {
          const double bv = c.transpose_b ? b[static_cast<size_t>(j) * ldb + p] : b[static_cast<size_t>(p) * ldb + j];
          const double av = c.transpose_a ? a[static_cast<size_t>(p) * lda + i] : a[static_cast<size_t>(i) * lda + p];
          const double term = av * bv;
          sum += term;
          magnitude += std::abs(term);
        }
        if (c.accumulate)
          sum += c0[static_cast<size_t>(i) * ldc + j], magnitude += std::abs(c0[static_cast<size_t>(i) * ldc + j]);
        if (c.bias) sum += bias[static_cast<size_t>(j)], magnitude += std::abs(bias[static_cast<size_t>(j)]);
        expected[static_cast<size_t>(i) * c.n + j] = sum;
        bound[static_cast<size_t>(i) * c.n + j] = 2.0 * (c.k + 3) * u * magnitude + std::abs(sum) * u;
      }
  }

  ae::GemmArgs args(std::vector<float>& out) const {
    ae::GemmArgs g;
    g.m = c.m, g.n = c.n, g.k = c.k;
    g.a = a.data(), g.lda = lda, g.transpose_a = c.transpose_a;
    g.b = b.data(), g.ldb = ldb, g.transpose_b = c.transpose_b;
    g.bias = c.bias ? bias.data() : nullptr;
    g.accumulate = c.accumulate, g.products_first = c.products_first;
    out = c0;
    g.c = out.data(), g.ldc = ldc;
    return g;
  }

  // Runs fn and checks every entry against the bound and every padding entry for its guard.
  void check(const char* name, ae::GemmFn fn, float* workspace = nullptr, size_t workspace_floats = 0) const {
    std::vector<float> out;
    ae::GemmArgs g = args(out);
    g.workspace = workspace, g.workspace_floats = workspace_floats;
    fn(g);
    int bad = 0, guards = 0;
    std::ostringstream first;
    first.precision(9);
    for (int i = 0; i < c.m; ++i) {
      for (int j = 0; j < c.n; ++j) {
        const double got = out[static_cast<size_t>(i) * ldc + j], want = expected[static_cast<size_t>(i) * c.n + j];
        const double err = std::abs(got - want);
        if (!(err <= bound[static_cast<size_t>(i) * c.n + j]) && bad++ < 4)
          first << "\n  C[" << i << "," << j << "] = " << got << ", expected " << want << " (error " << err
                << " > bound " << bound[static_cast<size_t>(i) * c.n + j] << ")";
      }
      for (int j = c.n; j < ldc; ++j) guards += out[static_cast<size_t>(i) * ldc + j] != kGuard;
    }
    CHECK_MESSAGE(bad == 0, name << " " << describe(c) << ": " << bad << " entries out of bounds" << first.str());
    CHECK_MESSAGE(guards == 0, name << " " << describe(c) << ": wrote " << guards << " padding entries of C");
  }
};

void check_all_variants(const Case& c) {
  const Problem p(c);
  p.check("gemm_reference", &ae::gemm_reference);
  for (const ae::GemmKernel& kernel : ae::gemm_kernels()) p.check(kernel.name, kernel.fn);
}

}  // namespace

TEST_CASE("the build has the portable, Eigen and SIMD variants, with distinct names") {
  std::vector<std::string> names;
  for (const ae::GemmKernel& k : ae::gemm_kernels()) names.emplace_back(k.name);
  MESSAGE("variants: " << [&] {
    std::string s;
    for (auto& n : names) s += n + " ";
    return s;
  }());
  CHECK(ae::find_gemm_kernel("f32_gemm__scalar") != nullptr);
  CHECK(ae::find_gemm_kernel("f32_gemm__eigen") != nullptr);
  // Each register tile in both multiply-add forms (AE_RELAXED_SIMD: the relaxed-SIMD build).
#if defined(AE_RELAXED_SIMD)
  const std::string isas[] = {"wasmsimd", "wasmrelaxedsimd"};
#elif defined(__wasm_simd128__)
  const std::string isas[] = {"wasmsimd"};
#else
  const std::string isas[] = {AE_F32X4_ISA, AE_F32X4_FMA_ISA};
#endif
  for (const std::string& isa : isas)
    for (const char* tile : {"4x8", "5x8", "6x8"})
      CHECK_MESSAGE(ae::find_gemm_kernel("f32_gemm_ukernel_" + std::string(tile) + "__" + isa) != nullptr, tile, isa);
#if defined(AE_RELAXED_SIMD)
  CHECK(names[0] == "f32_gemm_ukernel_6x8__wasmrelaxedsimd");  // gemm() runs the fused tile
#elif defined(__wasm_simd128__)
  CHECK(names[0] == "f32_gemm_ukernel_5x8__wasmsimd");
#elif AE_GEMM_HAS_AVX && !AE_F32X4_FMA_FAST
  // Natively the AVX tile is offered, and leads, only where the CPU has AVX.
  CHECK((ae::find_gemm_kernel("f32_gemm_ukernel_5x16__avx") != nullptr) == ae::gemm_avx_supported());
  if (ae::gemm_avx_supported()) CHECK(names[0] == "f32_gemm_ukernel_5x16__avx");
#endif
  CHECK(ae::find_gemm_kernel("f32_gemm__nonexistent") == nullptr);
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = i + 1; j < names.size(); ++j) CHECK(names[i] != names[j]);
}

TEST_CASE("gemm_reference agrees with the test's own product") {
  const ae::Matrix a = ref::random_matrix(7, 5, 1), b = ref::random_matrix(5, 9, 2);
  ae::Matrix c(7, 9);
  ae::GemmArgs g;
  g.m = 7, g.n = 9, g.k = 5, g.a = a.data(), g.lda = 5, g.b = b.data(), g.ldb = 9, g.c = c.data(), g.ldc = 9;
  ae::gemm_reference(g);
  CHECK_MATRIX_NEAR(c, ref::matmul(ref::to_double(a), ref::to_double(b)), 1e-6, 1e-6);
}

TEST_CASE("every variant matches the reference over M × N, for several K, both layouts of A and of B") {
  for (int m : kSizes)
    for (int n : kSizes)
      for (int k : {1, 5, 17, 64})
        for (int t = 0; t < 4; ++t) {
          Case c{m, n, k, (t & 1) != 0, false, false, 0, 1.0, 1u + m * 7u + n * 131u + k};
          c.transpose_a = (t & 2) != 0;
          check_all_variants(c);
        }
}

TEST_CASE("every variant matches the reference over K, for several M × N") {
  const int shapes[][2] = {{1, 1}, {5, 17}, {17, 5}, {64, 64}, {65, 63}, {4, 257}};
  for (const auto& mn : shapes)
    for (int k : kSizes)
      for (bool t : {false, true}) check_all_variants({mn[0], mn[1], k, t, false, false, 0, 1.0, 7u + k});
}

TEST_CASE("bias, accumulate in either order, and wide leading dimensions") {
  for (int m : {1, 4, 5, 17, 65})
    for (int n : {1, 7, 8, 9, 16, 17})
      for (int k : {1, 3, 16})
        for (bool t : {false, true})
          for (int flags = 0; flags < 16; ++flags) {
            Case c{m, n, k, t, (flags & 1) != 0, (flags & 2) != 0, 3, 1.0, 11u + m + n + k};
            c.products_first = (flags & 4) != 0, c.transpose_a = (flags & 8) != 0;
            check_all_variants(c);
          }
}

TEST_CASE("K = 0: C = (accumulate ? C : 0) + bias; M = 0 or N = 0: nothing happens") {
  for (bool acc : {false, true})
    for (bool bias : {false, true}) check_all_variants({5, 9, 0, false, bias, acc, 2});
  check_all_variants({0, 9, 4, false, true, true, 1});
  check_all_variants({5, 0, 4, true, true, true, 1});
}

TEST_CASE("sizes that cross the cache blocks (KC = 512, MC = 256, NC = 1024)") {
  check_all_variants({260, 20, 520, false, true, true, 1});
  check_all_variants({260, 20, 520, true, false, false, 0});
  check_all_variants({9, 1030, 1030, false, true, false, 0});
  check_all_variants({9, 1030, 600, true, false, true, 2});
  Case transposed{260, 40, 520, false, true, true, 1};
  transposed.transpose_a = transposed.products_first = true;
  check_all_variants(transposed);
}

TEST_CASE("large and small magnitudes keep their relative accuracy, and overflow gives ±inf like the reference") {
  // Entries ~1e15: products ~1e30, sums of 257 of them stay far below FLT_MAX (3.4e38).
  for (bool t : {false, true}) {
    check_all_variants({17, 33, 257, t, true, true, 0, 1e15});
    check_all_variants({17, 33, 257, t, true, true, 0, 1e-12});
  }
  // Entries 1e20: every product overflows float; each variant must give inf, never NaN,
  // as long as all products of a row/column pair have the same sign.
  const int m = 5, n = 9, k = 16;
  std::vector<float> a(static_cast<size_t>(m) * k, 1e20f), b(static_cast<size_t>(k) * n, 1e20f);
  for (const ae::GemmKernel& kernel : ae::gemm_kernels()) {
    std::vector<float> c(static_cast<size_t>(m) * n, 0.0f);
    ae::GemmArgs g;
    g.m = m, g.n = n, g.k = k, g.a = a.data(), g.lda = k, g.b = b.data(), g.ldb = n, g.c = c.data(), g.ldc = n;
    kernel.fn(g);
    int not_inf = 0;
    for (float x : c) not_inf += x != std::numeric_limits<float>::infinity();
    CHECK_MESSAGE(not_inf == 0, kernel.name << ": " << not_inf << " entries are not +inf");
  }
}

TEST_CASE("a caller-provided workspace gives the same result, and a too small one is not used") {
  const Problem p({37, 45, 70, true, true, false, 1});
  const size_t need = ae::gemm_workspace_floats(37, 45, 70);
  CHECK(need >= 45u * 70u);
  std::vector<float> workspace(need, std::numeric_limits<float>::quiet_NaN());
  std::vector<float> small(need / 2, std::numeric_limits<float>::quiet_NaN());
  for (const ae::GemmKernel& kernel : ae::gemm_kernels()) {
    p.check(kernel.name, kernel.fn, workspace.data(), workspace.size());
    p.check(kernel.name, kernel.fn, small.data(), small.size());
  }
}

TEST_CASE("gemm() checks its arguments and names the rule that was broken") {
  std::vector<float> a(12, 1.0f), b(12, 1.0f), c(9, 0.0f);
  ae::GemmArgs g;
  g.m = 3, g.n = 3, g.k = 4, g.a = a.data(), g.lda = 4, g.b = b.data(), g.ldb = 3, g.c = c.data(), g.ldc = 3;
  ae::gemm(g);
  CHECK(c[0] == 4.0f);

  ae::GemmArgs bad = g;
  bad.lda = 3;
  CHECK_THROWS_WITH_AS(ae::gemm(bad), doctest::Contains("lda = 3 is less than K = 4"), std::invalid_argument);
  bad = g, bad.transpose_b = true;  // B stored N×K needs ldb ≥ K = 4
  CHECK_THROWS_WITH_AS(ae::gemm(bad), doctest::Contains("ldb = 3 is less than K = 4"), std::invalid_argument);
  bad = g, bad.transpose_a = true;  // A stored K×M needs lda ≥ M = 3: 4 is fine
  CHECK_NOTHROW(ae::validate_gemm_args(bad));
  bad.m = 5;
  CHECK_THROWS_WITH_AS(ae::validate_gemm_args(bad), doctest::Contains("lda = 4 is less than M = 5"),
                       std::invalid_argument);
  bad = g, bad.ldc = 2;
  CHECK_THROWS_WITH_AS(ae::gemm(bad), doctest::Contains("ldc = 2"), std::invalid_argument);
  bad = g, bad.m = -1;
  CHECK_THROWS_WITH_AS(ae::gemm(bad), doctest::Contains("must not be negative"), std::invalid_argument);
  bad = g, bad.b = nullptr;
  CHECK_THROWS_WITH_AS(ae::gemm(bad), doctest::Contains("B is null"), std::invalid_argument);
  bad = g, bad.m = 0, bad.a = nullptr, bad.c = nullptr;  // nothing to compute: null is fine
  CHECK_NOTHROW(ae::gemm(bad));
}

TEST_CASE("gemm_product: whole matrices through gemm(), A·B and A·Bᵀ with a bias row, and shape errors") {
  for (int m : {1, 5, 13}) {
    for (int k : {1, 8, 33}) {
      const ae::Matrix a = ref::random_matrix(m, k, 10 + m, 1.0), b = ref::random_matrix(k, 7, 20 + k, 1.0);
      const ae::Matrix bt = b.transpose(), bias = ref::random_matrix(1, 7, 30, 1.0);
      ref::DMat expected = ref::matmul(ref::to_double(a), ref::to_double(b));
      CAPTURE(m);
      CAPTURE(k);
      CHECK_MATRIX_NEAR(ae::gemm_product(a, b), expected, 1e-5, 1e-5);
      CHECK_MATRIX_NEAR(ae::gemm_product(a, bt, /*transpose_b=*/true), expected, 1e-5, 1e-5);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < 7; ++j) expected(i, j) += bias(0, j);
      CHECK_MATRIX_NEAR(ae::gemm_product(a, b, false, &bias), expected, 1e-5, 1e-5);
    }
  }
  const ae::Matrix a = ae::Matrix::Ones(2, 3), b = ae::Matrix::Ones(4, 5), bias = ae::Matrix::Ones(1, 4);
  CHECK_THROWS_WITH_AS(ae::gemm_product(a, b), doctest::Contains("inner sizes differ"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::gemm_product(a, ae::Matrix::Ones(3, 5), false, &bias), doctest::Contains("not 1×5"),
                       std::invalid_argument);
}

namespace {

// C from one tile kernel for a case (with its old values when accumulating).
std::vector<float> tile_result(const Problem& p, ae::GemmFn fn) {
  std::vector<float> out;
  const ae::GemmArgs g = p.args(out);
  fn(g);
  return out;
}

int bit_differences(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  int differ = 0;
  for (size_t i = 0; i < a.size(); ++i) differ += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
  return differ;
}

}  // namespace

TEST_CASE("the mul + add tiles give the same bits at every tile height and vector width") {
  // Each entry is summed in order of K whatever the tile: 4, 5, 6 rows of 8 columns (4-lane
  // vectors) and, natively with AVX, 5 rows of 16 (8 lanes). So training gives the same model
  // on any CPU (gemm_muladd_tile picks the widest one the CPU has).
  std::vector<ae::GemmFn> tiles = {&ae::f32_gemm_ukernel_f32x4<4, ae::simd::MulAdd>,
                                   &ae::f32_gemm_ukernel_f32x4<5, ae::simd::MulAdd>,
                                   &ae::f32_gemm_ukernel_f32x4<6, ae::simd::MulAdd>};
#if AE_GEMM_HAS_AVX
  if (ae::gemm_avx_supported()) tiles.push_back(&ae::f32_gemm_ukernel_5x16__avx);
  MESSAGE("AVX tile " << std::string(ae::gemm_avx_supported() ? "compared" : "not run: this CPU has no AVX"));
#endif
  // The tile training uses: AVX's where the CPU has it, else 5 rows of 4 lanes (6 spill in V8).
  ae::GemmFn training_tile = &ae::f32_gemm_ukernel_f32x4<5, ae::simd::MulAdd>;
#if AE_GEMM_HAS_AVX
  if (ae::gemm_avx_supported()) training_tile = &ae::f32_gemm_ukernel_5x16__avx;
#endif
  CHECK((ae::gemm_muladd_tile() == training_tile));
  for (int m : {1, 5, 16, 17, 33})
    for (int n : {1, 7, 8, 15, 16, 17, 40, 64})
      for (int k : {1, 8, 20, 600})
        for (int flags = 0; flags < 32; ++flags) {
          Case c{m,
                 n,
                 k,
                 (flags & 1) != 0,
                 (flags & 2) != 0,
                 (flags & 4) != 0,
                 (flags & 16) ? 3 : 0,
                 1.0,
                 5u + m + n * 3u + k};
          c.transpose_a = (flags & 8) != 0, c.products_first = c.accumulate;
          const Problem p(c);
          const std::vector<float> first = tile_result(p, tiles[0]);
          for (size_t t = 1; t < tiles.size(); ++t)
            CHECK_MESSAGE(bit_differences(tile_result(p, tiles[t]), first) == 0, "tile " << t << " " << describe(c));
        }
}

TEST_CASE("B stored N×K (transpose_b) gives the same bits as the same B stored K×N, on every tile") {
  // Bᵀ is packed in vector blocks transposed in registers (gemm_tile.inc, pack_b): only the
  // copy differs, so every entry must be the same float. K and N below and past whole blocks
  // and panels, with padding between B's rows.
  std::vector<ae::GemmFn> tiles = {&ae::f32_gemm_ukernel_f32x4<4, ae::simd::MulAdd>,
                                   &ae::f32_gemm_ukernel_f32x4<5, ae::simd::MulAdd>};
#if AE_GEMM_HAS_AVX
  if (ae::gemm_avx_supported()) tiles.push_back(&ae::f32_gemm_ukernel_5x16__avx);
#endif
  for (int m : {1, 7, 16})
    for (int n : {1, 8, 15, 16, 17, 40, 64})
      for (int k : {1, 4, 7, 8, 9, 20, 64, 600})
        for (int pad : {0, 3}) {
          Case stored_t{m, n, k, true, true, false, pad, 1.0, 11u + m + n * 5u + k * 7u};
          const Problem p(stored_t);
          std::vector<float> b_kn(static_cast<size_t>(k) * n);  // the same B, stored K×N
          for (int p_ = 0; p_ < k; ++p_)
            for (int j = 0; j < n; ++j)
              b_kn[static_cast<size_t>(p_) * n + j] = p.b[static_cast<size_t>(j) * p.ldb + p_];
          for (ae::GemmFn tile : tiles) {
            std::vector<float> from_t, from_kn;
            tile(p.args(from_t));
            ae::GemmArgs g = p.args(from_kn);
            g.b = b_kn.data(), g.ldb = n, g.transpose_b = false;
            tile(g);
            CHECK_MESSAGE(bit_differences(from_t, from_kn) == 0, describe(stored_t));
          }
        }
}

TEST_CASE("products_first adds the old C to the products' sum: C + (0 + a0·b0 + a1·b1 + …)") {
  // The order of Eigen's C += A·B (ops/matmul.h): the same bits as summing into a zeroed C and
  // adding the old C afterwards; and not, in general, those of adding each product to C.
  for (int m : {3, 17})
    for (int n : {8, 19})
      for (int k : {5, 64, 600}) {
        Case c{m, n, k, false, false, true, 0, 1.0, 77u + k};
        c.products_first = true;
        const Problem p(c);
        std::vector<float> sum_only(p.c0.size(), 0.0f), products_first;
        ae::GemmArgs g = p.args(products_first);
        ae::gemm_muladd_tile()(g);
        g.c = sum_only.data(), g.accumulate = false;
        ae::gemm_muladd_tile()(g);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            const size_t at = static_cast<size_t>(i) * p.ldc + j;
            sum_only[at] = p.c0[at] + sum_only[at];
          }
        // Past K = 512 the tiles sum in blocks of K (KC), each block's sum added to C in turn.
        if (k <= 512) CHECK_MESSAGE(bit_differences(products_first, sum_only) == 0, describe(c));
      }
}
