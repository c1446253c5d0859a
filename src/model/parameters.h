#pragma once

#include "tensor.h"

#include <functional>
#include <string>

namespace ae {

// Visits every trainable matrix under a stable dotted name ("layers.0.self_attn.wq.weight").
// The same names serve initialisation, parameter counting, checkpoints and (later) training.
using ParameterVisitor = std::function<void(const std::string& name, Matrix& value)>;
using ConstParameterVisitor = std::function<void(const std::string& name, const Matrix& value)>;

}  // namespace ae
