// AdamW (Loshchilov & Hutter) with a warm-up + cosine learning-rate schedule.
#pragma once

#include "model/transformer.h"

#include <string>
#include <vector>

namespace ae {

struct AdamWOptions {
  float learning_rate = 3e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.98f;
  float epsilon = 1e-8f;
  float weight_decay = 0.01f;  // applied to projection weights only (names ending in ".weight")
  int warmup_steps = 100;
  int total_steps = 1000;
  float min_learning_rate_ratio = 0.1f;  // the cosine ends at this fraction of the peak
  float clip_norm = 1.0f;                // global gradient-norm clip; 0 disables it
};

// Learning rate at step t (0-based): linear warm-up to the peak, then cosine decay.
float scheduled_learning_rate(const AdamWOptions& options, int step);

class AdamW {
 public:
  AdamW(Transformer& model, const AdamWOptions& options);

  // One update from the gradients accumulated in grads; returns the gradient norm before clipping.
  float step(Transformer& model, Transformer& grads);
  int steps_taken() const { return step_; }

 private:
  AdamWOptions options_;
  std::vector<Matrix> first_moment_, second_moment_;
  std::vector<bool> decays_;
  int step_ = 0;
};

// Zeroes every parameter of grads.
void zero_parameters(Transformer& grads);
// A gradient accumulator for a model of this config: every entry zero (a fresh Transformer
// would start its LayerNorm gains at one).
Transformer gradient_buffer(const ModelConfig& config);

}  // namespace ae
