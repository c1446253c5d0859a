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

// A floor under the forward pass: only its matrix products, for a sequence of n tokens through a
// model of this shape — per layer Q, K, V, O and the two feed-forward projections (with bias),
// QKᵀ and P·V per head, then one row of logits — each one ae::gemm call on buffers allocated
// beforehand, with nothing else in between. `reps` times; mean seconds and the flop per pass.
struct MatrixProductsTiming {
  double seconds = 0.0;
  double flop = 0.0;
};
MatrixProductsTiming matrix_products_per_forward(const ModelConfig& config, int n, int reps);

}  // namespace ae
