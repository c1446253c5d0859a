#pragma once

#include "tensor.h"

namespace ae {

// Row-wise softmax in place, four entries at a time with the vector exp of ops/f32x4.h (≤ 3 ulp).
// Each row's maximum is subtracted before exp so that large logits cannot overflow. Entries
// equal to -inf (masked) become exactly 0. A row whose entries are all -inf has no defined softmax: the
// caller must prevent it (attention reports it as an error).
void softmax_rows_inplace(Matrix& x);

// Shannon entropy (natural log) of each row of a probability matrix; 0·log 0 = 0.
Vector row_entropy(const Matrix& p);

// The entropy of one row of attention weights given from outside (the lesson's rowEntropy):
// throws std::invalid_argument unless the row is non-empty, finite, ≥ 0 and sums to 1 within
// kDistributionSumTolerance — for other rows the formula gives no entropy (−4.68 for [2, 3]).
inline constexpr double kDistributionSumTolerance = 1e-3;
float distribution_entropy(const Matrix& row);

}  // namespace ae
