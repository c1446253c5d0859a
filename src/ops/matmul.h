// The matrix products of training (the layers' backward passes) and of the output head, with
// every entry summed exactly as Eigen's product sums it in this build, so that they give the
// bits the Eigen expressions they replaced gave — `npm run train` writes the same models — on
// the project's register tiles (ops/gemm.h: AVX where the CPU has it), which are faster for
// these few-row products than Eigen's SSE kernel.
//
//   matmul(A, ta, B, tb)         = op(A)·op(B)        as Matrix(a * b) gives it
//   matmul_add(C, A, ta, B, tb):  C += op(A)·op(B)    as c.noalias() += a * b gives it
//   op(X) = Xᵀ when its flag is set (a.transpose() in the Eigen expression), else X.
// matmul reproduces a new Matrix made from the product (`Matrix c = a * b;`, `return a * b;`),
// not `c = a * b;` into an existing matrix: Eigen evaluates that into a column-major temporary
// first (c might alias a or b), whose entries it sums in another order.
//
// Why the bits agree: for a row-major C, Eigen computes Cᵀ with its GEBP kernel, whose register
// tile covers mr of C's columns (gebp_traits<float, float>::mr: 8 with SSE). For every column
// in a whole tile, each entry is K products accumulated in order from 0 (mul, then add: no FMA
// in these builds), then added to C (to 0 for a plain product). The tile kernels sum in the same
// order (GemmArgs::products_first). Eigen sums differently where that does not hold, and these
// functions then call Eigen itself: a product too small for its GEMM (K + rows + cols < 20, a
// coefficient-wise product), a single row or column of C (its GEMV), C's columns not a multiple
// of mr (the last ones go through other paths) and K longer than its cache block kc (C gets one
// sum per block). tests/native/test_matmul.cpp holds both to the Eigen expression, bit for bit, over shapes on both
// sides of each of these limits.
//
// Where Eigen has no SIMD (wasm: mr = 1, its one-float "packets" sum even and odd K apart, in an order that depends on
// the product's rows, and slowly) every product runs on the tiles, and their order is the definition: each entry's
// products from k = 0, mul then add, then the old C (matmul_add), and past the tiles' K block of 512 the later
// products added to that. The test holds the wasm build to a plain loop in that order.
#pragma once

#include "tensor.h"

namespace ae {

// as_rows: these are some of the rows of a product with as_rows rows (0: all of them), and the
// result must be those rows of it, bit for bit. The choice between tiles and Eigen is then the
// whole product's; a tile's rows do not depend on the others, Eigen's do, so if the whole product
// is Eigen's this throws std::logic_error (check matmul_runs_on_tiles first).
Matrix matmul(const Matrix& a, bool transpose_a, const Matrix& b, bool transpose_b, Eigen::Index as_rows = 0);
void matmul_add(Matrix& c, const Matrix& a, bool transpose_a, const Matrix& b, bool transpose_b);

// matmul(a, false, b, true, as_rows) — A·Bᵀ, bit for bit — given also b_t = Bᵀ stored: the tiles
// then read b_t as it is instead of transposing B into their panels in every call (dx = dy·Wᵀ of
// training, once per layer and example; Linear::weight_t). An empty b_t means none is held: then
// it is matmul itself. Throws std::invalid_argument when b_t has entries but is not shaped as Bᵀ.
Matrix matmul_transposed_b(const Matrix& a, const Matrix& b, const Matrix& b_t, Eigen::Index as_rows = 0);

// Whether a product with C rows×cols and inner size `inner` runs on the tile kernels (true) or
// on Eigen (false); for tests and benchmarks.
bool matmul_runs_on_tiles(Eigen::Index rows, Eigen::Index cols, Eigen::Index inner);

}  // namespace ae
