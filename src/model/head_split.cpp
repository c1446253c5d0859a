#include "model/head_split.h"

#include <stdexcept>
#include <string>

namespace ae {

namespace {

void check_width(const char* name, int value) {
  if (value < 1 || value > kHeadSplitMaxWidth)
    throw std::invalid_argument(std::string("head split: ") + name + " must be 1 … " +
                                std::to_string(kHeadSplitMaxWidth) + ", got " + std::to_string(value));
}

}  // namespace

HeadSplit split_heads(int d_model, int head_dim) {
  check_width("d_model", d_model);
  check_width("the head width", head_dim);
  HeadSplit s;
  s.d_model = d_model;
  s.head_dim = head_dim;
  s.divides = d_model % head_dim == 0;
  if (!s.divides) return s;
  const uint64_t d = static_cast<uint64_t>(d_model), dh = static_cast<uint64_t>(head_dim);
  s.n_heads = d_model / head_dim;
  if (s.n_heads > kMaxHeads)
    throw std::invalid_argument("head split: " + std::to_string(d_model) + " / " + std::to_string(head_dim) + " = " +
                                std::to_string(s.n_heads) + " heads; a layer has at most " + std::to_string(kMaxHeads));
  s.per_head = 3 * (d * dh + dh);
  s.output_projection = d * d + d;
  // Counted head by head (not as 4d² + 4d) so that the independence of h is a fact to test.
  s.all_heads = static_cast<uint64_t>(s.n_heads) * s.per_head;
  s.total = s.all_heads + s.output_projection;
  return s;
}

uint64_t attention_parameter_count(int d_model, int n_heads) {
  check_width("d_model", d_model);
  if (n_heads < 1 || n_heads > d_model || d_model % n_heads != 0)
    throw std::invalid_argument("attention parameter count: n_heads (" + std::to_string(n_heads) +
                                ") must divide d_model (" + std::to_string(d_model) + ")");
  return split_heads(d_model, d_model / n_heads).total;
}

}  // namespace ae
