#include "inference/latency.h"

#include "ops/activation.h"

#include <chrono>
#include <stdexcept>

namespace ae {

double analyze_seconds_per_call(const TrainedModel& model, std::string_view text, const AnalysisOptions& options,
                                int reps) {
  if (reps < 1) throw std::invalid_argument("analyze_seconds_per_call: reps must be ≥ 1, got " + std::to_string(reps));
  model.analyze(text, options);  // warm-up: first-call allocations and the text's errors
  const auto start = std::chrono::steady_clock::now();
  size_t sink = 0;  // keeps the optimiser from dropping the calls
  for (int i = 0; i < reps; ++i) sink += model.analyze(text, options).tokens.size();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (sink == 0) throw std::logic_error("analyze_seconds_per_call: analyze returned no tokens");
  return seconds / reps;
}

double gelu_seconds_per_forward(const Analysis& analysis, int reps) {
  if (reps < 1) throw std::invalid_argument("gelu_seconds_per_forward: reps must be ≥ 1, got " + std::to_string(reps));
  float sink = 0.0f;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i)
    for (const auto& layer : analysis.trace.layers)
      if (layer.ffn_hidden.size() > 0) sink += gelu(layer.ffn_hidden)(0, 0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!(sink == sink)) throw std::logic_error("gelu_seconds_per_forward: NaN");  // keeps the calls
  return seconds / reps;
}

}  // namespace ae
