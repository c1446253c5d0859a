// matmul / matmul_add (ops/matmul.h) against the Eigen expressions they stand for, bit for bit:
// on the tile kernels where Eigen sums in their order, on Eigen itself elsewhere — over shapes
// on both sides of each limit (the coefficient-wise product below K + rows + cols = 20, GEMV
// for one row or column, C's columns against Eigen's register tile mr, K against its cache
// block), both layouts of each operand, and old values of C of either sign. The training code's
// byte-identical models rest on this. Also built to wasm (kernel_tests_wasm), where Eigen has
// no SIMD and every product runs on the tiles: there the reference is a plain loop that sums in
// the tiles' order (products_first_loop).
#include "ops/matmul.h"
#include "reference.h"

#include <sstream>
#include <string>
#include <vector>

namespace {

using testing_helpers::bit_differences;

std::string describe(Eigen::Index rows, Eigen::Index cols, Eigen::Index inner, bool ta, bool tb) {
  std::ostringstream s;
  s << rows << "×" << inner << (ta ? " (Aᵀ)" : "") << " · " << inner << "×" << cols << (tb ? " (Bᵀ)" : "")
    << (ae::matmul_runs_on_tiles(rows, cols, inner) ? ", tiles" : ", Eigen");
  return s.str();
}

#if defined(__wasm__)
// old + op(A)·op(B) as the tiles sum it where Eigen has no SIMD (ops/matmul.h): each entry's
// products from k = 0, mul then add, the old C after the first K block of 512, then the rest.
// Separate statements, so that no compiler fuses a multiply and an add.
ae::Matrix products_first_loop(const ae::Matrix* old, const ae::Matrix& a, bool ta, const ae::Matrix& b, bool tb) {
  const Eigen::Index rows = ta ? a.cols() : a.rows(), inner = ta ? a.rows() : a.cols(), cols = tb ? b.rows() : b.cols();
  ae::Matrix c(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) {
      float sum = 0.0f;
      for (Eigen::Index k = 0; k < inner; ++k) {
        if (k == 512 && old) sum = sum + (*old)(i, j);
        const float product = (ta ? a(k, i) : a(i, k)) * (tb ? b(j, k) : b(k, j));
        sum = sum + product;
      }
      if (inner <= 512 && old) sum = sum + (*old)(i, j);
      c(i, j) = sum;
    }
  return c;
}

ae::Matrix reference_product(const ae::Matrix& a, bool ta, const ae::Matrix& b, bool tb) {
  return products_first_loop(nullptr, a, ta, b, tb);
}

void reference_add_product(ae::Matrix& c, const ae::Matrix& a, bool ta, const ae::Matrix& b, bool tb) {
  c = products_first_loop(&c, a, ta, b, tb);
}
#else
// op(A)·op(B) as a new matrix, the way the code before matmul wrote it.
ae::Matrix reference_product(const ae::Matrix& a, bool ta, const ae::Matrix& b, bool tb) {
  if (ta && tb) return a.transpose() * b.transpose();
  if (ta) return a.transpose() * b;
  if (tb) return a * b.transpose();
  return a * b;
}

void reference_add_product(ae::Matrix& c, const ae::Matrix& a, bool ta, const ae::Matrix& b, bool tb) {
  if (ta && tb) c.noalias() += a.transpose() * b.transpose();
  else if (ta) c.noalias() += a.transpose() * b;
  else if (tb) c.noalias() += a * b.transpose();
  else c.noalias() += a * b;
}
#endif

void check_shape(int rows, int cols, int inner, uint64_t seed) {
  for (int t = 0; t < 4; ++t) {
    const bool ta = (t & 1) != 0, tb = (t & 2) != 0;
    const ae::Matrix a = ta ? ref::random_matrix(inner, rows, seed) : ref::random_matrix(rows, inner, seed);
    const ae::Matrix b = tb ? ref::random_matrix(cols, inner, seed + 1) : ref::random_matrix(inner, cols, seed + 1);
    CHECK_MESSAGE(bit_differences(ae::matmul(a, ta, b, tb), reference_product(a, ta, b, tb)) == 0,
                  "matmul " << describe(rows, cols, inner, ta, tb));
    // Old values of C: random, zero, and −0 (Eigen's sum starts from +0 and is added to C last).
    ae::Matrix old = ref::random_matrix(rows, cols, seed + 2);
    for (int fill = 0; fill < 3; ++fill) {
      if (fill == 1) old.setZero();
      if (fill == 2) old.setConstant(-0.0f);
      ae::Matrix want = old, got = old;
      reference_add_product(want, a, ta, b, tb);
      ae::matmul_add(got, a, ta, b, tb);
      CHECK_MESSAGE(bit_differences(got, want) == 0,
                    "matmul_add " << describe(rows, cols, inner, ta, tb) << " fill " << fill);
    }
  }
}

}  // namespace

TEST_CASE("matmul and matmul_add give the Eigen expressions' bits over a sweep of shapes") {
  // Rows: one (GEMV), a few, the model's sentence lengths, 64 and 256 (a weight gradient's).
  // Columns: multiples of 8 (SSE's mr; wasm's is smaller) and not. Inner: 1, 2 (a batch of
  // targets), 16 (a head), 20, 64, 256, 384 (the vocabulary).
  for (int rows : {1, 2, 3, 8, 17, 20, 64})
    for (int cols : {1, 7, 8, 16, 20, 24, 64, 100})
      for (int inner : {1, 2, 16, 20, 64, 384}) check_shape(rows, cols, inner, 1u + rows * 7u + cols * 31u + inner);
  check_shape(256, 64, 20, 5);
  check_shape(20, 256, 64, 6);
  check_shape(64, 384, 2, 7);
  check_shape(2, 384, 64, 8);
}

TEST_CASE("matmul takes the tiles for the training shapes and leaves the others to Eigen where it has SIMD") {
  // The products of a training step of the coreference models (d 64, FFN 256, heads of 16,
  // vocabulary 384, sentences of ~20 tokens): the tiles.
  CHECK(ae::matmul_runs_on_tiles(20, 64, 64));   // dx = dy·Wᵀ
  CHECK(ae::matmul_runs_on_tiles(64, 256, 20));  // dW += xᵀ·dy
  CHECK(ae::matmul_runs_on_tiles(256, 64, 20));
  CHECK(ae::matmul_runs_on_tiles(64, 384, 2));       // the output head's gradient
  CHECK(ae::matmul_runs_on_tiles(2, 384, 64));       // its logits
  CHECK_FALSE(ae::matmul_runs_on_tiles(20, 64, 0));  // nothing to sum
  // Eigen's other paths, natively; in wasm, where Eigen has no SIMD, the tiles take them too.
#if defined(__wasm__)
  const bool eigen_elsewhere = false;
#else
  const bool eigen_elsewhere = true;
#endif
  CHECK(ae::matmul_runs_on_tiles(2, 8, 4) != eigen_elsewhere);         // K + rows + cols < 20: coefficient-wise
  CHECK(ae::matmul_runs_on_tiles(1, 384, 64) != eigen_elsewhere);      // one row: GEMV
  CHECK(ae::matmul_runs_on_tiles(64, 1, 64) != eigen_elsewhere);       // one column: GEMV
  CHECK(ae::matmul_runs_on_tiles(20, 20, 16) != eigen_elsewhere);      // 20 columns: not whole register tiles of 8
  CHECK(ae::matmul_runs_on_tiles(16, 64, 100000) != eigen_elsewhere);  // K beyond Eigen's cache block
  check_shape(16, 64, 3000, 9);  // … summed as Eigen sums it, block by block (in wasm: the tiles' K blocks)
}

TEST_CASE("matmul with as_rows: some rows of a product, bit for bit those rows of the whole product") {
  // Training's last layer on the loss's rows (RunOptions::output_rows): dx = dy·Wᵀ for t of the
  // n rows. On its own a one-row product is Eigen's GEMV; as rows of the whole it takes the
  // whole product's path (the tiles). Where the whole product is Eigen's, whose rows depend on
  // the others, it is refused.
  const int n = 30, inner = 256, cols = 64;
  const ae::Matrix a = ref::random_matrix(n, inner, 21), b = ref::random_matrix(cols, inner, 22);
  const ae::Matrix whole = ae::matmul(a, false, b, true);
  for (const std::vector<int>& rows : {std::vector<int>{0, 7, 8, 29}, std::vector<int>{17}}) {
    CAPTURE(rows.size());
    ae::Matrix some_a(static_cast<Eigen::Index>(rows.size()), inner), expected(some_a.rows(), cols);
    for (size_t i = 0; i < rows.size(); ++i) {
      some_a.row(static_cast<Eigen::Index>(i)) = a.row(rows[i]);
      expected.row(static_cast<Eigen::Index>(i)) = whole.row(rows[i]);
    }
    if (ae::matmul_runs_on_tiles(n, cols, inner))
      CHECK(bit_differences(ae::matmul(some_a, false, b, true, n), expected) == 0);
    else CHECK_THROWS_AS(ae::matmul(some_a, false, b, true, n), std::logic_error);
  }
  CHECK(bit_differences(ae::matmul(a, false, b, true, n), whole) == 0);  // all the rows: the product
}

TEST_CASE("matmul_transposed_b: A·Bᵀ from a held Bᵀ, bit for bit matmul(A, false, B, true), as_rows too") {
  // Training's dx = dy·Wᵀ with Wᵀ held (Linear::weight_t): on the tiles the panels get the same
  // values from Bᵀ read in place as from B transposed; elsewhere it is matmul itself.
  for (int rows : {1, 2, 17, 20, 64})
    for (int cols : {1, 8, 20, 64, 256})
      for (int inner : {1, 16, 64, 256, 387}) {
        const ae::Matrix a = ref::random_matrix(rows, inner, 31u + rows),
                         b = ref::random_matrix(cols, inner, 32u + cols);
        const ae::Matrix b_t = b.transpose();
        CHECK_MESSAGE(bit_differences(ae::matmul_transposed_b(a, b, b_t), ae::matmul(a, false, b, true)) == 0,
                      describe(rows, cols, inner, false, true));
        CHECK(bit_differences(ae::matmul_transposed_b(a, b, ae::Matrix()), ae::matmul(a, false, b, true)) == 0);
        if (ae::matmul_runs_on_tiles(rows + 9, cols, inner))  // as some rows of a longer product
          CHECK(bit_differences(ae::matmul_transposed_b(a, b, b_t, rows + 9),
                                ae::matmul(a, false, b, true, rows + 9)) == 0);
      }
  const ae::Matrix a = ae::Matrix::Ones(3, 4), b = ae::Matrix::Ones(5, 4);
  CHECK_THROWS_WITH_AS(ae::matmul_transposed_b(a, b, b), doctest::Contains("Bᵀ is 5×4, B 5×4"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ae::matmul_transposed_b(ae::Matrix::Ones(3, 2), b, b.transpose()),
                       doctest::Contains("inner sizes differ (2 and 4)"), std::invalid_argument);
}

TEST_CASE("matmul and matmul_add refuse operands whose sizes do not go together") {
  const ae::Matrix a = ae::Matrix::Ones(3, 4), b = ae::Matrix::Ones(5, 6);
  CHECK_THROWS_WITH_AS(ae::matmul(a, false, b, false), doctest::Contains("inner sizes differ (4 and 5)"),
                       std::invalid_argument);
  ae::Matrix c = ae::Matrix::Zero(3, 6);
  CHECK_THROWS_WITH_AS(ae::matmul_add(c, a, false, b, false), doctest::Contains("inner sizes"), std::invalid_argument);
  ae::Matrix wrong = ae::Matrix::Zero(2, 6);
  CHECK_THROWS_WITH_AS(ae::matmul_add(wrong, a, false, ae::Matrix::Ones(4, 6), false),
                       doctest::Contains("C is 2×6, the product 3×6"), std::invalid_argument);
}
