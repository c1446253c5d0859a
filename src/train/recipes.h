// Recipes for the shipped models that need no search over seeds: the word-order encoders
// (one per positional encoding) and the causal decoder. Each trains from scratch, measures
// what the page claims about it, and returns everything the trainer tool writes to disk.
#pragma once

#include "model/transformer.h"
#include "text/vocabulary.h"
#include "train/trainer.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace ae {

struct TrainedRecipe {
  std::string name;                      // directory name under web/models/
  std::unique_ptr<Transformer> model;    // weights already rounded through F16, as shipped
  Vocabulary vocab;
  nlohmann::json extra_config;           // merged into config.json ("task", …)
  nlohmann::json metrics;                // metrics.json
};

struct RecipeOptions {
  bool quick = false;  // a handful of steps: checks the pipeline, not the model
};

// "[CLS] 猫 追 狗" → agent, once per positional encoding (none, sinusoidal, learned, rope).
std::vector<TrainedRecipe> train_word_order_models(const RecipeOptions& options);

// GPT-style decoder on "… too tired . it = animal".
TrainedRecipe train_coref_decoder(const RecipeOptions& options);

// Builds the TrainingExamples of a corpus split with make(example, vocab).
template <typename Example, typename Make>
std::vector<TrainingExample> examples_of(const std::vector<Example>& split, const Vocabulary& vocab, Make make) {
  std::vector<TrainingExample> out;
  out.reserve(split.size());
  for (const auto& e : split) out.push_back(make(e, vocab));
  return out;
}

// Trains and returns the loss curve: {step, loss, lr}, the loss averaged over every `every` steps.
nlohmann::json train_with_curve(Transformer& model, const std::vector<TrainingExample>& examples,
                                const TrainOptions& options, int every);

// Rounds every parameter through F16 and back: evaluate what the page will load.
void round_through_f16(Transformer& model);

}  // namespace ae
