// Training speed of the coreference-encoder recipe (tools/train.cpp): steps per second of the
// core trainer (train/trainer.h) with the recipe's options, on a small generated corpus, timed
// inside the core with std::chrono::steady_clock. For the benchmarks: the same call runs in
// wasm (bindings/bench.cpp) and natively (tools/bench_model.cpp).
#pragma once

#include "model/config.h"
#include "text/vocabulary.h"

#include <cstdint>

namespace ae {

struct TrainingThroughput {
  int steps = 0;
  int batch_size = 0;
  int examples = 0;      // size of the generated training set the batches are drawn from
  double seconds = 0.0;  // train() alone: forward, loss, backward and AdamW for every step
  double steps_per_second = 0.0;
  float first_loss = 0.0f, last_loss = 0.0f;  // batch losses of the first and last step
};

// A fresh model of `config` (embeddings initialised as the recipe does, from `seed`) trained
// for `steps` steps of `batch_size` examples of the coreference corpus (make_coref_corpus
// with `examples` training sentences and the same seed), with the recipe's dropout 0.1,
// AdamW learning rate 3e-3 and warm-up. Words missing from `vocab` become [UNK].
// Throws std::invalid_argument for steps < 1, batch_size < 1 or examples < 2.
TrainingThroughput coref_encoder_training_throughput(const ModelConfig& config, const Vocabulary& vocab, int steps,
                                                     int batch_size, int examples = 256, uint64_t seed = 1);

}  // namespace ae
