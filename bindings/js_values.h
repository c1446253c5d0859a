// Conversions between JS values and the core's types, shared by every Embind file in
// bindings/. Reading: options objects, whole numbers, typed arrays with shapes, each
// failing with ae::InputError (bad-input) whose message and field name the argument. Writing:
// matrices as Float32Array copies, one attention call's trace as a plain object (a forward
// pass's trace crosses in the packed form, packed.h).
#pragma once

#include "model/config.h"
#include "model/transformer.h"
#include "ops/attention.h"
#include "tensor.h"

#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

namespace aejs {

using emscripten::val;

// Throws ae::InputError bad-input; field: the argument or option at fault, when there is one.
[[noreturn]] void argument_error(const std::string& why, const std::string& field = {});

int whole_number(const val& v, const std::string& name);

int int_option(const val& options, const char* name, int fallback);

// Seeds cross as JS numbers: whole, non-negative and exactly representable (< 2^53).
uint64_t seed_option(const val& options);

std::string string_option(const val& options, const char* name, const std::string& fallback);

// A JS string as UTF-8. Bound functions take text as a val and convert it here, in C++, rather
// than as a std::string parameter: Embind copies a std::string argument into a malloc'd buffer
// that its JS invoker frees only when the call returns, so every call that threw leaked the
// copy (100 kB per failed analyze() of a 100,000-character text). A conversion inside the
// call is freed by the unwinding like any other local.
std::string text_from_js(const val& text, const char* name);

size_t js_length(const val& array, const char* name);

ae::Matrix matrix_from_js(const val& array, int rows, int cols, const char* name);

std::vector<uint8_t> flags_from_js(const val& options, const char* name);

val to_js(const ae::Matrix& m);

val to_js(const std::vector<std::string>& strings);

val trace_to_js(const ae::AttentionTrace& t);

ae::AttentionOptions attention_options_from_js(const val& o);

ae::ModelConfig config_from_js(const val& o);

val config_to_js(const ae::ModelConfig& c);

// ablate: [[layer, head], …] → RunOptions::head_active for a model of config c (1 = on);
// throws naming a pair that is not a head of the model.
std::vector<std::vector<uint8_t>> head_mask_from_js(const val& pairs, const ae::ModelConfig& c);

// {causal, window, scale, scoreMultiplier} → RunOptions; causal only when given.
ae::RunOptions run_options_from_js(const val& o);

std::string bytes_from_js(const val& array, const char* name);

// options[name] as T, or fallback when options or the member is undefined or null.
template <typename T>
T option(const val& options, const char* name, T fallback) {
  if (options.isUndefined() || options.isNull()) return fallback;
  const val v = options[name];
  if (v.isUndefined() || v.isNull()) return fallback;
  return v.as<T>();
}

}  // namespace aejs
