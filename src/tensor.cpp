#include "tensor.h"

namespace ae {

std::string shape_string(const Matrix& m) { return std::to_string(m.rows()) + "×" + std::to_string(m.cols()); }

bool all_finite(const Matrix& m) { return m.allFinite(); }

}  // namespace ae
