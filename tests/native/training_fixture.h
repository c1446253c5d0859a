// Shared by the bit-for-bit training tests (batched rows, training threads): a varied task and
// the bits of a model's weights.
//   varied_task(count, vocab, seed): sequences of 3–9 tokens (repeats included: a tied embedding
//     row gets several additions per example), targets at one to three positions (sometimes the
//     same one twice)
//   weight_bits(model): every parameter's bits in visiting order (a float compare would let −0
//     and +0 pass); float_bits(f): one float's
//   TrainingCase, short_run(c, steps, warmup): a configuration compared and the options of its
//     few-step run (batch 16, learning rate 3e-3)
#pragma once

#include "model/transformer.h"
#include "train/trainer.h"
#include "util/rng.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ae::test {

inline std::vector<TrainingExample> varied_task(int count, int vocab, uint64_t seed) {
  Rng rng(seed);
  std::vector<TrainingExample> out;
  for (int i = 0; i < count; ++i) {
    TrainingExample ex;
    const int n = 3 + static_cast<int>(rng.below(7));
    for (int t = 0; t < n; ++t) ex.ids.push_back(2 + static_cast<int>(rng.below(static_cast<uint64_t>(vocab - 2))));
    const int targets = 1 + static_cast<int>(rng.below(3));
    for (int k = 0; k < targets; ++k) {
      ex.positions.push_back(static_cast<int>(rng.below(static_cast<uint64_t>(n))));
      ex.targets.push_back(ex.ids[static_cast<size_t>(rng.below(static_cast<uint64_t>(n)))]);
    }
    out.push_back(ex);
  }
  return out;
}

struct TrainingCase {
  std::string name;
  ModelConfig config;
  float dropout;
  bool offsets;  // TrainOptions::random_position_offset
};

inline TrainOptions short_run(const TrainingCase& c, int steps, int warmup_steps) {
  TrainOptions o;
  o.steps = steps;
  o.batch_size = 16;
  o.dropout = c.dropout;
  o.random_position_offset = c.offsets;
  o.optimizer.learning_rate = 3e-3f;
  o.optimizer.warmup_steps = warmup_steps;
  return o;
}

inline uint32_t float_bits(float f) {
  uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

inline std::vector<uint32_t> weight_bits(Transformer& model) {
  std::vector<uint32_t> bits;
  model.visit_parameters([&](const std::string&, Matrix& m) {
    for (Eigen::Index i = 0; i < m.size(); ++i) bits.push_back(float_bits(m.data()[i]));
  });
  return bits;
}

}  // namespace ae::test
