// One training run that a caller drives step by step: the page's "Train it yourself" panel (in
// a Web Worker, through bindings/training.cpp) and tools/train_here (natively, for comparing
// the two builds). It sets up a task as the recipes do (same corpus, vocabulary, model shape,
// initialisation and optimizer), then trains with train/trainer.h's Trainer, and can be read at
// any step: loss, accuracy, the lesson pair's attention rows in every head, the head rule, and
// the model's files in the documented format (docs/model-format.md).
#pragma once

#include "io/safetensors.h"
#include "model/transformer.h"
#include "text/vocabulary.h"
#include "train/corpus.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ae {

// "coref-encoder" (at "it", name the referent), "coref-decoder" (causal, "… . it = animal"),
// "word-order" ("[CLS] 猫 追 狗" → 猫, with the chosen positional encoding).
enum class SessionTask { CorefEncoder, CorefDecoder, WordOrder };
std::string to_string(SessionTask task);
SessionTask session_task_from_string(const std::string& name);  // throws std::invalid_argument

// What a learner may choose. Every field is checked by validate() against bounds that keep a run
// within the page's memory and a few minutes; unset fields (0, or NaN for the rate) take the
// task's recipe value (recipes.h: CorefSettings, train_word_order_models).
struct SessionSettings {
  SessionTask task = SessionTask::CorefEncoder;
  PositionalEncoding positional = PositionalEncoding::Rope;  // the recipes': rope for coreference
  bool positional_set = false;                               // false: the task's default
  uint64_t seed = 1;                                         // initialisation, shuffle, dropout
  int steps = 0, n_heads = 0, n_layers = 0, batch = 0;
  float learning_rate = 0.0f;
  // TrainOptions::batched_rows: the same bits either way; false (today's per-example loop) for
  // benchmarks only. Not a learner's setting (not in to_json).
  bool batched_rows = true;
  // TrainOptions::threads: the same bits for any number; not in to_json either. 1–kMaxThreads.
  int threads = 1;

  // Fills the task's defaults into unset fields, then throws std::invalid_argument naming the
  // setting, its bounds and the value for anything out of bounds.
  SessionSettings resolved() const;
  nlohmann::json to_json() const;
};

// Bounds of SessionSettings (inclusive).
struct SessionBounds {
  static constexpr int kMaxSteps = 20000, kMaxHeads = 8, kMaxLayers = 4, kMaxBatch = 128, kMaxThreads = 16;
  static constexpr float kMinLearningRate = 1e-5f, kMaxLearningRate = 0.05f;
  static constexpr uint64_t kMaxSeed = (uint64_t{1} << 53) - 1;
};

// Validation examples read for the accuracy and the head rule during training (the first ones
// of the validation split: whole minimal pairs), so a reading costs a fraction of a second.
inline constexpr int kSessionValidationSample = 256;

struct HeadRow {
  std::vector<float> weights;  // the query row: one weight per key token
};

// One sentence of the lesson pair: its tokens, the query row read (it, "=" or [CLS]), the two
// words the lesson is about (referent and other noun, or agent and patient), and that row in
// every head, rows[layer][head].
struct LessonRows {
  std::string text;
  std::vector<std::string> tokens;
  int query = -1, referent = -1, other = -1;
  std::vector<std::vector<HeadRow>> rows;
};

struct SessionSnapshot {
  int step = 0;
  std::vector<LessonRows> lesson;
  // The task's head rule over the validation sample (coreference: choose_coreference_head_by_pairs;
  // word order: none, layer = head = -1) and that head's mean weight on referent / other.
  HeadChoice head;
};

struct SessionFiles {
  std::string config_json, safetensors, vocab_text, metrics_json;
};

class TrainingSession {
 public:
  // Builds corpus, vocabulary and model; throws std::invalid_argument for bad settings.
  explicit TrainingSession(const SessionSettings& settings);
  TrainingSession(const TrainingSession&) = delete;
  TrainingSession& operator=(const TrainingSession&) = delete;

  // Runs up to `count` more steps (fewer at the end); returns the reports of the steps run.
  std::vector<StepReport> step(int count);
  int steps_done() const { return trainer_->steps_done(); }
  bool finished() const { return trainer_->finished(); }
  const SessionSettings& settings() const { return settings_; }
  const Transformer& model() const { return *model_; }
  const Vocabulary& vocabulary() const { return vocab_; }
  size_t training_examples() const { return train_set_.size(); }

  // Share of the validation sample whose every target is the arg-max (no dropout).
  float validation_accuracy() const;
  SessionSnapshot snapshot() const;

  // The model as the page ships models: config.json (with "task", "name" and, for coreference,
  // the head rule's "coreference_head"), weights in `dtype` (F16 as shipped, F32 for comparing
  // builds), vocab.txt and metrics.json (settings, corpus hash, the loss curve every `every`
  // steps so far, validation accuracy). The model itself is not changed.
  SessionFiles export_files(DType dtype, const std::string& name) const;

 private:
  CorefReader reader() const;

  SessionSettings settings_;
  std::string corpus_hash_;
  std::vector<CorefExample> coref_validation_;
  std::vector<WordOrderExample> word_order_validation_;
  std::vector<TrainingExample> train_set_, validation_set_;
  Vocabulary vocab_;
  std::unique_ptr<Transformer> model_;
  std::unique_ptr<Trainer> trainer_;
  std::vector<StepReport> reports_;  // every step so far, for the loss curve
};

}  // namespace ae
