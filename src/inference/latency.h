// Forward latency of a trained model, timed inside the core (std::chrono::steady_clock), so
// that the wasm figure excludes the JS boundary and the building of JS objects. Used by the
// benchmarks (bindings/bench.cpp in wasm, tools/bench_model.cpp natively).
#pragma once

#include "inference/trained_model.h"

#include <string_view>

namespace ae {

// Runs model.analyze(text, options) — the forward pass with its full trace and the
// prediction — `reps` times after one untimed call, and returns the mean seconds per call.
// Throws std::invalid_argument for reps < 1 and whatever analyze throws for the text.
double analyze_seconds_per_call(const TrainedModel& model, std::string_view text, const AnalysisOptions& options,
                                int reps);

// The GELU part of that forward pass: ae::gelu applied to every layer's feed-forward
// expansion of `analysis` (LayerTrace::ffn_hidden, the values the forward pass fed it),
// `reps` times; mean seconds per forward pass. For the profile note of the benchmarks.
double gelu_seconds_per_forward(const Analysis& analysis, int reps);

}  // namespace ae
