#include "bench/model_latency.h"

#include "ops/activation.h"
#include "ops/gemm.h"

#include <chrono>
#include <stdexcept>
#include <vector>

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

MatrixProductsTiming matrix_products_per_forward(const ModelConfig& config, int n, int reps) {
  if (reps < 1)
    throw std::invalid_argument("matrix_products_per_forward: reps must be ≥ 1, got " + std::to_string(reps));
  if (n < 1) throw std::invalid_argument("matrix_products_per_forward: n must be ≥ 1, got " + std::to_string(n));
  const int d = config.d_model, ffn = config.ffn_dim(), hd = d / config.n_heads, vocab = config.vocab_size;
  // Inputs hold small values, so no product overflows; outputs are kept apart so none is skipped.
  std::vector<float> x(static_cast<size_t>(n) * ffn, 0.01f), w(static_cast<size_t>(ffn) * std::max(ffn, vocab), 0.01f);
  std::vector<float> bias(static_cast<size_t>(std::max(ffn, vocab)), 0.0f),
      out(static_cast<size_t>(n) * std::max({ffn, vocab, n}));
  std::vector<float> workspace(gemm_workspace_floats(n, std::max({ffn, vocab, n, d}), std::max({ffn, n, d})));
  MatrixProductsTiming timing;
  const auto product = [&](int m, int k, int cols, bool transpose_b, bool with_bias) {
    GemmArgs g;
    g.m = m, g.n = cols, g.k = k;
    g.a = x.data(), g.lda = k;
    g.b = w.data(), g.ldb = transpose_b ? k : cols, g.transpose_b = transpose_b;
    g.bias = with_bias ? bias.data() : nullptr;
    g.c = out.data(), g.ldc = cols;
    g.workspace = workspace.data(), g.workspace_floats = workspace.size();
    gemm(g);
    timing.flop += 2.0 * m * k * cols;
  };
  const auto one_pass = [&] {
    for (int layer = 0; layer < config.n_layers; ++layer) {
      for (int projection = 0; projection < 4; ++projection) product(n, d, d, false, true);
      for (int h = 0; h < config.n_heads; ++h) {
        product(n, hd, n, true, false);   // Q·Kᵀ
        product(n, n, hd, false, false);  // P·V
      }
      product(n, d, ffn, false, true);
      product(n, ffn, d, false, true);
    }
    product(1, d, vocab, false, true);
  };
  one_pass();  // warm-up
  timing.flop = 0.0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) one_pass();
  timing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
  timing.flop /= reps;
  if (!(out[0] == out[0])) throw std::logic_error("matrix_products_per_forward: NaN");
  return timing;
}

}  // namespace ae
