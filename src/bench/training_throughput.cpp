#include "bench/training_throughput.h"

#include "model/transformer.h"
#include "train/corpus.h"
#include "train/recipes.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace ae {

TrainingThroughput coref_encoder_training_throughput(const ModelConfig& config, const Vocabulary& vocab, int steps,
                                                     int batch_size, int examples, uint64_t seed) {
  if (steps < 1 || batch_size < 1 || examples < 2)
    throw std::invalid_argument("training throughput: steps ≥ 1, batch_size ≥ 1 and examples ≥ 2 (got " +
                                std::to_string(steps) + ", " + std::to_string(batch_size) + ", " +
                                std::to_string(examples) + ")");
  CorefOptions corpus_options;
  corpus_options.seed = seed;
  corpus_options.train = examples;
  corpus_options.validation = corpus_options.heldout = 0;
  const CorefCorpus corpus = make_coref_corpus(corpus_options);
  const auto make = [](const CorefExample& e, const Vocabulary& v) { return coref_encoder_example(e, v); };
  const std::vector<TrainingExample> train_set = examples_of(corpus.train, vocab, make);

  Transformer model(config);
  model.init_random(seed, 1.0f);  // as the recipe: unit-variance embeddings
  TrainOptions options;           // the recipe's options, tools/train.cpp
  options.steps = steps;
  options.batch_size = batch_size;
  options.seed = seed;
  options.dropout = 0.1f;
  options.optimizer.learning_rate = 3e-3f;
  options.optimizer.warmup_steps = steps / 20 + 1;

  TrainingThroughput out;
  out.steps = steps, out.batch_size = batch_size, out.examples = static_cast<int>(train_set.size());
  int seen = 0;
  const auto start = std::chrono::steady_clock::now();
  train(model, train_set, options, [&](const StepReport& r) {
    if (seen++ == 0) out.first_loss = r.loss;
    out.last_loss = r.loss;
  });
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (seen != steps)
    throw std::logic_error("training throughput: trainer ran " + std::to_string(seen) + " steps, asked " +
                           std::to_string(steps));
  out.steps_per_second = steps / out.seconds;
  return out;
}

}  // namespace ae
