#pragma once

#include "tensor.h"

#include <vector>

namespace ae {

// Mean cross-entropy of rows of logits (k×V) against target ids (k), computed through a
// max-subtracted log-softmax. When d_logits is given it receives dL/dlogits = (softmax − onehot)/k.
float cross_entropy(const Matrix& logits, const std::vector<int>& targets, Matrix* d_logits);

}  // namespace ae
