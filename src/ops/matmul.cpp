#include "ops/matmul.h"

#include "ops/gemm.h"

#include <stdexcept>
#include <string>

namespace ae {

namespace {

// K past this would be split by the tile kernels' own K blocks (gemm_tile.inc: kKC).
constexpr Eigen::Index kTileDepth = 512;

void check_shapes(const char* call, Eigen::Index a_inner, Eigen::Index b_inner) {
  if (a_inner != b_inner)
    throw std::invalid_argument(std::string(call) + ": the inner sizes differ (" + std::to_string(a_inner) + " and " +
                                std::to_string(b_inner) + ")");
}

// The Eigen expression itself, for the shapes Eigen sums in another order.
template <class Assign>
void eigen_product(const Matrix& a, bool ta, const Matrix& b, bool tb, Assign assign) {
  if (ta && tb) assign(a.transpose() * b.transpose());
  else if (ta) assign(a.transpose() * b);
  else if (tb) assign(a * b.transpose());
  else assign(a * b);
}

// C (rows×cols) (+)= op(A)·op(B) on the mul + add tile, products first.
void tile_product(Matrix& c, const Matrix& a, bool ta, const Matrix& b, bool tb, bool accumulate) {
  GemmArgs g;
  g.m = static_cast<int>(c.rows()), g.n = static_cast<int>(c.cols());
  g.k = static_cast<int>(ta ? a.rows() : a.cols());
  g.a = a.data(), g.lda = static_cast<int>(a.cols()), g.transpose_a = ta;
  g.b = b.data(), g.ldb = static_cast<int>(b.cols()), g.transpose_b = tb;
  g.accumulate = accumulate, g.products_first = true;
  g.c = c.data(), g.ldc = g.n;
  validate_gemm_args(g);
  gemm_muladd_tile()(g);
}

// Whether Eigen's float GEBP has register tiles of two or three packets here (SSE, AVX, NEON),
// whose sums the tiles reproduce. Without SIMD (wasm; mr = 1) its one-float "packets" keep even
// and odd K apart, its sums depend on how many rows the product has, and it is scalar: a
// training step in wasm spent 46 % of its time there. Such a build takes the tiles for every
// product, and their order (each entry's K products from 0, then the old C) is the definition.
bool eigen_has_simd_tiles() {
  using Traits = Eigen::internal::gebp_traits<float, float>;
  return Traits::mr >= 2 * Traits::LhsProgress;
}

}  // namespace

bool matmul_runs_on_tiles(Eigen::Index rows, Eigen::Index cols, Eigen::Index inner) {
  using Traits = Eigen::internal::gebp_traits<float, float>;
  if (rows <= 0 || cols <= 0 || inner <= 0) return false;  // nothing to sum
  if (!eigen_has_simd_tiles()) return true;
  if (inner + rows + cols < EIGEN_GEMM_TO_COEFFBASED_THRESHOLD) return false;  // coefficient-wise product
  if (rows == 1 || cols == 1) return false;                                    // GEMV
  if (cols % Traits::mr != 0) return false;  // the last columns would not be in a whole register tile
  // Eigen's cache blocks for this product (a row-major C is computed as Cᵀ: m = cols, n = rows).
  Eigen::Index kc = inner, mc = cols, nc = rows;
  Eigen::internal::computeProductBlockingSizes<float, float, 1, Eigen::Index>(kc, mc, nc, 1);
  if (kc < inner) return false;                         // one sum per K block
  if (mc < cols && mc % Traits::mr != 0) return false;  // a row block not made of whole tiles
  return inner <= kTileDepth;
}

Matrix matmul(const Matrix& a, bool ta, const Matrix& b, bool tb, Eigen::Index as_rows) {
  const Eigen::Index rows = ta ? a.cols() : a.rows(), inner = ta ? a.rows() : a.cols(), cols = tb ? b.rows() : b.cols();
  check_shapes("matmul", inner, tb ? b.cols() : b.rows());
  Matrix c(rows, cols);
  if (matmul_runs_on_tiles(as_rows > 0 ? as_rows : rows, cols, inner)) {
    tile_product(c, a, ta, b, tb, /*accumulate=*/false);
  } else if (as_rows > 0 && as_rows != rows) {
    throw std::logic_error("matmul: " + std::to_string(rows) + " of the " + std::to_string(as_rows) +
                           " rows of a product whose sums Eigen takes depending on all of its rows");
  } else {
    // Constructed from the product, not assigned to c: an assignment would evaluate it into a
    // column-major temporary (Eigen assumes aliasing), another order of sums.
    eigen_product(a, ta, b, tb, [&](const auto& product) { c = Matrix(product); });
  }
  return c;
}

Matrix matmul_transposed_b(const Matrix& a, const Matrix& b, const Matrix& b_t, Eigen::Index as_rows) {
  if (b_t.size() > 0 && (b_t.rows() != b.cols() || b_t.cols() != b.rows()))
    throw std::invalid_argument("matmul_transposed_b: Bᵀ is " + shape_string(b_t) + ", B " + shape_string(b));
  check_shapes("matmul_transposed_b", a.cols(), b.cols());
  if (b_t.size() == 0 || !matmul_runs_on_tiles(as_rows > 0 ? as_rows : a.rows(), b.rows(), a.cols()))
    return matmul(a, false, b, true, as_rows);
  Matrix c(a.rows(), b.rows());
  tile_product(c, a, false, b_t, false, /*accumulate=*/false);  // the same panels' values, so the same sums
  return c;
}

void matmul_add(Matrix& c, const Matrix& a, bool ta, const Matrix& b, bool tb) {
  const Eigen::Index rows = ta ? a.cols() : a.rows(), inner = ta ? a.rows() : a.cols(), cols = tb ? b.rows() : b.cols();
  check_shapes("matmul_add", inner, tb ? b.cols() : b.rows());
  if (c.rows() != rows || c.cols() != cols)
    throw std::invalid_argument("matmul_add: C is " + shape_string(c) + ", the product " + std::to_string(rows) + "×" +
                                std::to_string(cols));
  if (matmul_runs_on_tiles(rows, cols, inner)) {
    tile_product(c, a, ta, b, tb, /*accumulate=*/true);
  } else {
    eigen_product(a, ta, b, tb, [&](const auto& product) { c.noalias() += product; });
  }
}

}  // namespace ae
