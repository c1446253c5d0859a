// Embind layer for the positional-encoding panel (model/positional.h) and for judging the
// word-order models' answers (lesson/word_order_roles.h). Results leave as Float32Array
// copies, like everything in bindings/ (see bindings.cpp for the error convention).
//   sinusoidalTable(n, d)            → Float32Array n×d, row p = the encoding of position p
//   ropeRotate(vec, position, base?) → Float32Array: vec (one row, even length) rotated as RoPE
//                                      rotates a query or key at that position
//   wordOrderRoles(text)             → {agent, verb, patient} or null outside the corpus grammar
#include "js_values.h"

#include "lesson/word_order_roles.h"
#include "model/positional.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

using emscripten::val;
using namespace aejs;

namespace {

// Bounds that keep a picture's table small; the core itself has none.
constexpr int kMaxTableCells = 1 << 20;

val sinusoidal_table(const val& n_value, const val& d_value) {
  const int n = whole_number(n_value, "n"), d = whole_number(d_value, "d");
  if (n < 1 || d < 2)
    argument_error("sinusoidalTable: need n ≥ 1 and d ≥ 2, got n = " + std::to_string(n) +
                   ", d = " + std::to_string(d));
  if (static_cast<long long>(n) * d > kMaxTableCells)
    argument_error("sinusoidalTable: n·d = " + std::to_string(static_cast<long long>(n) * d) + " is more than " +
                   std::to_string(kMaxTableCells));
  return to_js(ae::sinusoidal_encoding(n, d));
}

val rope_rotate(const val& vec, const val& position_value, const val& base_value) {
  const int dh = static_cast<int>(js_length(vec, "vec"));
  ae::Matrix x = matrix_from_js(vec, 1, dh, "vec");
  const int position = whole_number(position_value, "position");
  if (!base_value.isUndefined() && !base_value.isNull() && !base_value.isNumber())
    argument_error("ropeRotate: base must be a number");
  const float base = base_value.isNumber() ? base_value.as<float>() : 10000.0f;
  if (!(base > 1.0f)) argument_error("ropeRotate: base must be more than 1");
  ae::apply_rope(x, position, base);
  return to_js(x);
}

val word_order_roles(const val& text) {
  const auto roles = ae::parse_word_order(text_from_js(text, "text"));
  if (!roles) return val::null();
  val out = val::object();
  out.set("agent", roles->agent);
  out.set("verb", roles->verb);
  out.set("patient", roles->patient);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(positional) {
  emscripten::function("sinusoidalTable", &sinusoidal_table);
  emscripten::function("ropeRotate", &rope_rotate);
  emscripten::function("wordOrderRoles", &word_order_roles);
}
