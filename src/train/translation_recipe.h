// The translation recipe (issue 35): an encoder–decoder trained English → Chinese on the parallel
// pairs of make_translation_corpus, measured per split on the weights as they are stored, and
// the cross-attention head chosen on validation. tools/train.cpp writes it to
// web/models/translate-en-zh/: pair.json, encoder/ and decoder/ (checkpoints), metrics.json.
#pragma once

#include "io/checkpoint.h"
#include "model/transformer.h"
#include "text/vocabulary.h"
#include "train/recipes.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace ae {

inline constexpr char kTranslationModelName[] = "translate-en-zh";

struct TranslationSettings {
  int d_model = 64, n_heads = 4, encoder_layers = 2, decoder_layers = 2, max_len = 48;
  int steps = 10000, batch = 32, seed = 1;
  float learning_rate = 3e-3f, weight_decay = 0.01f;
  int max_output = 40;  // greedy decoding stops after this many words
  // One key=value (seed, steps, batch, learning_rate, weight_decay), for experiments: train
  // --only translate-en-zh --set seed=3. Throws std::invalid_argument for another key or value.
  void set(const std::string& assignment);
};

struct TrainedTranslation {
  std::unique_ptr<Transformer> encoder, decoder;  // F32, as trained
  Vocabulary source, target;
  nlohmann::json pair;     // pair.json
  nlohmann::json metrics;  // metrics.json, measured on the stored weights
  WeightFormat weights;    // how encoder/ and decoder/ are saved
};

TrainedTranslation train_translation_model(const RecipeOptions& options,
                                           const TranslationSettings& settings = TranslationSettings{});

}  // namespace ae
