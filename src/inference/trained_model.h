// A trained model ready to answer questions about a sentence: tokenise with its vocabulary,
// run with the full trace, read the prediction its task defines, optionally with heads
// ablated or tokens knocked out, and (for a decoder) generate a completion. The inspect tool,
// the bindings and the page all go through this one class.
#pragma once

#include "io/checkpoint.h"
#include "model/transformer.h"
#include "text/vocabulary.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

// What the model was trained to predict, from config.json's "task".
enum class Task {
  Coreference,  // "coreference": at the pronoun "it", name the word it refers to
  WordOrder,    // "word-order": at a prepended [CLS], name the agent of the sentence
  NextWord,     // "next-word": a causal decoder predicting the following word
  None,         // no task: attention only
};

Task task_from_string(const std::string& name);  // throws std::invalid_argument for unknown names
std::string to_string(Task task);

struct WordProbability {
  std::string word;
  int id = 0;
  float probability = 0.0f;
};

struct Prediction {
  int position = -1;                  // the token whose output is read
  std::vector<WordProbability> top;   // most probable words first
};

struct AnalysisOptions {
  RunOptions run;               // causal override, scale, temperature, head ablation (run.head_active)
  std::vector<int> knockout;    // token positions hidden from every query (their keys are masked)
  int top_k = 5;
};

struct Analysis {
  std::vector<std::string> tokens;  // as the model sees them ([CLS] included when the task adds it)
  std::vector<int> ids;
  std::vector<int> unknown;         // positions that became [UNK]
  ForwardTrace trace;
  std::optional<Prediction> prediction;
};

class TrainedModel {
 public:
  explicit TrainedModel(Checkpoint checkpoint);

  const ModelConfig& config() const { return model_->config(); }
  const Vocabulary& vocabulary() const { return vocab_; }
  Task task() const { return task_; }
  const nlohmann::json& config_json() const { return config_json_; }
  size_t parameter_count() const { return model_->parameter_count(); }

  // Throws std::invalid_argument for an empty text, one longer than max_len, text that is
  // not UTF-8, a coreference sentence without "it", or knockout positions out of range.
  Analysis analyze(std::string_view text, const AnalysisOptions& options = {}) const;

  // Greedy completion for a next-word model: appends the most probable word until [SEP],
  // max_new_words words, or max_len. Returns the new words.
  std::vector<std::string> generate(std::string_view prompt, int max_new_words) const;

 private:
  std::optional<Prediction> predict(const Analysis& analysis, int top_k) const;

  std::unique_ptr<Transformer> model_;
  Vocabulary vocab_;
  Task task_;
  nlohmann::json config_json_;
};

}  // namespace ae
