#include "inference/trained_model.h"

#include "ops/softmax.h"

#include <algorithm>
#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void input_error(const std::string& why) { throw std::invalid_argument(why); }

bool prepends_cls(Task task) { return task == Task::WordOrder; }

// The pronoun the coreference model resolves: the last "it" of the sentence.
int pronoun_position(const std::vector<std::string>& tokens) {
  for (size_t i = tokens.size(); i-- > 0;)
    if (tokens[i] == "it") return static_cast<int>(i);
  input_error("the sentence has no \"it\" for the coreference model to resolve");
}

}  // namespace

Task task_from_string(const std::string& name) {
  for (Task t : {Task::Coreference, Task::WordOrder, Task::NextWord, Task::None})
    if (to_string(t) == name) return t;
  input_error("unknown task \"" + name + "\" (expected coreference, word-order, next-word or none)");
}

std::string to_string(Task task) {
  switch (task) {
    case Task::Coreference: return "coreference";
    case Task::WordOrder: return "word-order";
    case Task::NextWord: return "next-word";
    case Task::None: return "none";
  }
  return "?";
}

TrainedModel::TrainedModel(Checkpoint c)
    : model_(std::move(c.model)), vocab_(Vocabulary::parse(c.vocab_text)), config_json_(std::move(c.config_json)) {
  task_ = task_from_string(config_json_.value("task", std::string("none")));
  if (vocab_.size() != model_->config().vocab_size)
    input_error("vocab.txt has " + std::to_string(vocab_.size()) + " tokens but the model expects " +
                std::to_string(model_->config().vocab_size));
}

Analysis TrainedModel::analyze(std::string_view text, const AnalysisOptions& options) const {
  Vocabulary::Encoded encoded = vocab_.encode(text, prepends_cls(task_));
  if (encoded.ids.size() == (prepends_cls(task_) ? 1u : 0u)) input_error("the sentence is empty; type a few words");
  const int n = static_cast<int>(encoded.ids.size());
  if (n > config().max_len)
    input_error("the sentence has " + std::to_string(n) + " tokens; this model reads at most " +
                std::to_string(config().max_len));

  RunOptions run = options.run;
  if (!options.knockout.empty()) {
    run.key_padding.assign(static_cast<size_t>(n), 0);
    for (int p : options.knockout) {
      if (p < 0 || p >= n)
        input_error("knockout position " + std::to_string(p) + " is outside the sentence (0.." + std::to_string(n - 1) + ")");
      run.key_padding[static_cast<size_t>(p)] = 1;
    }
  }
  Analysis a;
  a.tokens = std::move(encoded.tokens);
  a.ids = std::move(encoded.ids);
  a.unknown = std::move(encoded.unknown);
  model_->forward(a.ids, run, &a.trace);
  a.prediction = predict(a, options.top_k);
  return a;
}

std::optional<Prediction> TrainedModel::predict(const Analysis& a, int top_k) const {
  int position = -1;
  switch (task_) {
    case Task::Coreference: position = pronoun_position(a.tokens); break;
    case Task::WordOrder: position = 0; break;
    case Task::NextWord: position = static_cast<int>(a.ids.size()) - 1; break;
    case Task::None: return std::nullopt;
  }
  Matrix probabilities = model_->logits(a.trace.output.row(position));
  softmax_rows_inplace(probabilities);
  std::vector<int> order(static_cast<size_t>(probabilities.cols()));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  const int k = std::clamp(top_k, 1, static_cast<int>(order.size()));
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int x, int y) { return probabilities(0, x) > probabilities(0, y); });
  Prediction p;
  p.position = position;
  for (int i = 0; i < k; ++i) p.top.push_back({vocab_.token(order[i]), order[i], probabilities(0, order[i])});
  return p;
}

std::vector<std::string> TrainedModel::generate(std::string_view prompt, int max_new_words) const {
  if (task_ != Task::NextWord) input_error("only a next-word (decoder) model can generate text");
  Vocabulary::Encoded encoded = vocab_.encode(prompt);
  if (encoded.ids.empty()) input_error("the prompt is empty; type a few words");
  std::vector<std::string> out;
  std::vector<int> ids = encoded.ids;
  for (int i = 0; i < max_new_words && static_cast<int>(ids.size()) < config().max_len; ++i) {
    const Matrix hidden = model_->forward(ids, RunOptions{}, nullptr);
    Eigen::Index best = 0;
    model_->logits(hidden.bottomRows(1)).row(0).maxCoeff(&best);
    if (best == Vocabulary::kSep) break;
    ids.push_back(static_cast<int>(best));
    out.push_back(vocab_.token(static_cast<int>(best)));
  }
  return out;
}

}  // namespace ae
