#include "inference/trained_model.h"

#include "io/json_input.h"
#include "ops/softmax.h"
#include "util/error.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace ae {

namespace {

[[noreturn]] void input_error(const std::string& why) { throw std::invalid_argument(why); }

bool prepends_cls(Task task) { return task == Task::WordOrder; }

void check_generates(Task task) {
  if (task != Task::NextWord)
    throw InputError(ErrorCode::WrongTask, "only a next-word (decoder) model can generate text");
}

// The pronoun the coreference model resolves: its last occurrence in the sentence.
int pronoun_position(const std::vector<std::string>& tokens, const std::string& pronoun) {
  for (size_t i = tokens.size(); i-- > 0;)
    if (tokens[i] == pronoun) return static_cast<int>(i);
  throw InputError(ErrorCode::NoPronoun, "the sentence has no \"" + pronoun + "\" for the coreference model to resolve",
                   pronoun);
}

// config.json's optional "pronoun" (a coreference model's; "it" when absent), one word of the vocabulary.
std::string pronoun_of(const nlohmann::json& config, const Vocabulary& vocab) {
  const auto it = config.find("pronoun");
  if (it == config.end()) return "it";
  if (!it->is_string() || !vocab.contains(it->get<std::string>()))
    input_error("config: \"pronoun\" must be a word of vocab.txt, got " + describe_json(*it));
  return it->get<std::string>();
}

// config.json's optional "task" (json::value would throw a bare type_error.302 for "task": 5).
std::string task_name(const nlohmann::json& config) {
  const auto it = config.find("task");
  if (it == config.end()) return "none";
  if (!it->is_string())
    input_error("config: \"task\" must be a string (coreference, word-order, next-word or none), got " +
                describe_json(*it));
  return it->get<std::string>();
}

// The greedy loop of generate() and generate_cached(): append the most probable word until
// [SEP], max_new_words or max_len. hidden(ids) runs the model on the sequence so far; its last
// row predicts the next word.
template <typename Hidden>
std::vector<std::string> greedy_words(const Transformer& model, const Vocabulary& vocab, std::vector<int> ids,
                                      int max_new_words, Hidden hidden) {
  std::vector<std::string> out;
  for (int i = 0; i < max_new_words && static_cast<int>(ids.size()) < model.config().max_len; ++i) {
    Eigen::Index best = 0;
    model.logits(hidden(ids).bottomRows(1)).row(0).maxCoeff(&best);
    if (best == Vocabulary::kSep) break;
    ids.push_back(static_cast<int>(best));
    out.push_back(vocab.token(static_cast<int>(best)));
  }
  return out;
}

}  // namespace

Task task_from_string(const std::string& name) {
  for (Task t : {Task::Coreference, Task::WordOrder, Task::NextWord, Task::None})
    if (to_string(t) == name) return t;
  input_error("unknown task \"" + shorten_for_message(name) +
              "\" (expected coreference, word-order, next-word or none)");
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

// Every refusal here is about the model's files: bad-model.
TrainedModel::TrainedModel(Checkpoint c) : model_(std::move(c.model)), config_json_(std::move(c.config_json)) {
  recode_input_errors(ErrorCode::BadModel, [&] {
    vocab_ = Vocabulary::parse(c.vocab_text);
    task_ = task_from_string(task_name(config_json_));
    if (task_ == Task::Coreference) pronoun_ = pronoun_of(config_json_, vocab_);
    if (vocab_.size() != model_->config().vocab_size)
      input_error("vocab.txt has " + std::to_string(vocab_.size()) + " tokens but the model expects " +
                  std::to_string(model_->config().vocab_size));
  });
}

Analysis TrainedModel::analyze(std::string_view text, const AnalysisOptions& options) const {
  Analysis a = run_traced(text, options);
  a.prediction = predict(a, options.top_k);
  return a;
}

Analysis TrainedModel::run_traced(std::string_view text, const AnalysisOptions& options) const {
  Vocabulary::Encoded encoded = vocab_.encode(text, prepends_cls(task_));
  const int n = static_cast<int>(encoded.ids.size());
  // [CLS] alone is an empty sentence.
  check_token_count(encoded.ids.size() == 1 && prepends_cls(task_) ? 0 : n, config().max_len, "sentence");

  RunOptions run = options.run;
  if (!options.knockout.empty()) {
    run.key_padding.assign(static_cast<size_t>(n), 0);
    for (int p : options.knockout) {
      if (p < 0 || p >= n)
        input_error("knockout position " + std::to_string(p) + " is outside the sentence (0.." + std::to_string(n - 1) +
                    ")");
      run.key_padding[static_cast<size_t>(p)] = 1;
    }
  }
  Analysis a;
  a.tokens = std::move(encoded.tokens);
  a.ids = std::move(encoded.ids);
  a.unknown = std::move(encoded.unknown);
  model_->forward(a.ids, run, &a.trace);
  return a;
}

int TrainedModel::answer_position(const Analysis& a) const {
  switch (task_) {
    case Task::Coreference: return pronoun_position(a.tokens, pronoun_);
    case Task::WordOrder: return 0;
    case Task::NextWord: return static_cast<int>(a.ids.size()) - 1;
    case Task::None: return -1;
  }
  return -1;
}

Matrix TrainedModel::answer_probabilities(const Analysis& a, int position) const {
  Matrix probabilities = model_->logits(a.trace.output.row(position));
  softmax_rows_inplace(probabilities);
  return probabilities;
}

WordProbabilities TrainedModel::probabilities(std::string_view text, const AnalysisOptions& options) const {
  const Analysis a = run_traced(text, options);
  WordProbabilities out;
  out.position = answer_position(a);
  if (out.position < 0) input_error("this model has no task, so no word to predict");
  const Matrix p = answer_probabilities(a, out.position);
  out.probabilities.assign(p.data(), p.data() + p.cols());
  out.best = static_cast<int>(std::max_element(out.probabilities.begin(), out.probabilities.end()) -
                              out.probabilities.begin());
  return out;
}

std::optional<Prediction> TrainedModel::predict(const Analysis& a, int top_k) const {
  const int position = answer_position(a);
  if (position < 0) return std::nullopt;
  const Matrix probabilities = answer_probabilities(a, position);
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
  Vocabulary::Encoded encoded = encode_prompt(prompt);  // a prompt over max_len is refused, not answered with []
  return greedy_words(*model_, vocab_, std::move(encoded.ids), max_new_words,
                      [&](const std::vector<int>& ids) { return model_->forward(ids, RunOptions{}, nullptr); });
}

// --- step-by-step generation, with or without a KV cache ------------------------------------

namespace {

// Multiply-adds of one full forward pass, from the shapes of the products its trace records.
StepWork forward_work(const ForwardTrace& trace, const ModelConfig& c) {
  StepWork w;
  const int64_t d = c.d_model, f = c.ffn_dim();
  for (const LayerTrace& layer : trace.layers) {
    const auto& heads = layer.self_attention.heads;
    const int64_t n = layer.self_attention.concat.rows();
    const int64_t m = heads.front().k.rows();
    w.projections += (2 * n + 2 * m) * d * d;  // W_Q and W_O on n rows, W_K and W_V on m rows
    for (const HeadTrace& h : heads) {
      w.scores += static_cast<int64_t>(h.attention.raw_scores.size()) * h.q.cols();
      w.weighted_sums += static_cast<int64_t>(h.attention.weights.size()) * h.v.cols();
    }
    w.ffn += 2 * n * d * f;
  }
  return w;
}

// The k most probable entries of a 1×V row of probabilities, most probable first.
std::vector<WordProbability> most_probable(const Matrix& probabilities, int k,
                                           const std::function<std::string(int)>& token_text) {
  std::vector<int> order(static_cast<size_t>(probabilities.cols()));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  k = std::min(k, static_cast<int>(order.size()));
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int x, int y) { return probabilities(0, x) > probabilities(0, y); });
  std::vector<WordProbability> top;
  for (int i = 0; i < k; ++i) top.push_back({token_text(order[i]), order[i], probabilities(0, order[i])});
  return top;
}

}  // namespace

Vocabulary::Encoded TrainedModel::encode_prompt(std::string_view prompt) const {
  check_generates(task_);
  Vocabulary::Encoded encoded = vocab_.encode(prompt);
  check_token_count(static_cast<int>(encoded.ids.size()), config().max_len, "prompt");
  return encoded;
}

void decode_greedily(const Transformer& model, Generation& g, int max_new, bool use_cache, int end_id,
                     const std::function<std::string(int)>& token_text) {
  const ModelConfig& c = model.config();
  g.cached = use_cache;
  std::optional<KvCache> cache;
  if (use_cache) cache.emplace(c);
  ForwardTrace full;
  for (int i = 0; i < max_new && static_cast<int>(g.ids.size()) < c.max_len; ++i) {
    const int p = static_cast<int>(g.ids.size()) - 1;
    GenerationStep s;
    s.position = p;
    s.input_token = g.tokens[static_cast<size_t>(p)];
    s.attention.assign(static_cast<size_t>(c.n_layers), Matrix(c.n_heads, p + 1));
    Matrix hidden;
    if (cache) {
      const std::vector<int> fresh(g.ids.begin() + cache->rows(), g.ids.end());  // rows not cached yet
      s.rows_reused = cache->rows();
      s.rows_new = static_cast<int>(fresh.size());
      CachedTrace t;
      hidden = model.forward_cached(fresh, *cache, &t).bottomRows(1);
      s.cache_rows = cache->rows();
      s.work = t.work;
      for (int l = 0; l < c.n_layers; ++l)
        for (int h = 0; h < c.n_heads; ++h)
          s.attention[static_cast<size_t>(l)].row(h) =
              t.weights[static_cast<size_t>(l)][static_cast<size_t>(h)].bottomRows(1);
    } else {
      hidden = model.forward(g.ids, RunOptions{}, &full).bottomRows(1);
      s.rows_new = p + 1;
      s.work = forward_work(full, c);
      for (int l = 0; l < c.n_layers; ++l)
        for (int h = 0; h < c.n_heads; ++h)
          s.attention[static_cast<size_t>(l)].row(h) =
              full.layers[static_cast<size_t>(l)].self_attention.heads[static_cast<size_t>(h)].attention.weights.row(p);
    }
    const Matrix logits = model.logits(hidden);  // 1×V
    s.work.output = static_cast<int64_t>(hidden.cols()) * logits.cols();
    s.logits.assign(logits.data(), logits.data() + logits.size());
    Matrix probabilities = logits;
    softmax_rows_inplace(probabilities);
    Eigen::Index best = 0;
    logits.row(0).maxCoeff(&best);  // as generate(): the largest logit
    s.id = static_cast<int>(best);
    s.token = token_text(s.id);
    s.probability = probabilities(0, best);
    s.top = most_probable(probabilities, kStepTop, token_text);
    s.end = best == end_id;
    g.steps.push_back(std::move(s));
    if (g.steps.back().end) break;
    g.ids.push_back(static_cast<int>(best));
    g.tokens.push_back(g.steps.back().token);
  }
  if (!g.steps.empty()) {
    g.keys.assign(static_cast<size_t>(c.n_layers), std::vector<Matrix>(static_cast<size_t>(c.n_heads)));
    g.values = g.keys;
    for (int l = 0; l < c.n_layers; ++l)
      for (int h = 0; h < c.n_heads; ++h) {
        const size_t li = static_cast<size_t>(l), hi = static_cast<size_t>(h);
        if (cache) {
          g.keys[li][hi] = cache->keys(l, h);
          g.values[li][hi] = cache->values(l, h);
        } else {
          g.keys[li][hi] = full.layers[li].self_attention.heads[hi].k;
          g.values[li][hi] = full.layers[li].self_attention.heads[hi].v;
        }
      }
  }
}

Generation TrainedModel::generate_steps(std::string_view prompt, int max_new_words, bool use_cache) const {
  if (max_new_words < 0) input_error("the number of new words must be ≥ 0, got " + std::to_string(max_new_words));
  Vocabulary::Encoded encoded = encode_prompt(prompt);
  Generation g;
  g.tokens = std::move(encoded.tokens);
  g.ids = std::move(encoded.ids);
  g.unknown = std::move(encoded.unknown);
  g.prompt_length = static_cast<int>(g.ids.size());
  decode_greedily(*model_, g, max_new_words, use_cache, Vocabulary::kSep, [this](int id) { return vocab_.token(id); });
  return g;
}

std::vector<std::string> TrainedModel::generate_cached(std::string_view prompt, int max_new_words) const {
  Vocabulary::Encoded encoded = encode_prompt(prompt);
  KvCache cache(config());
  return greedy_words(*model_, vocab_, std::move(encoded.ids), max_new_words, [&](const std::vector<int>& ids) {
    // Only the rows the cache does not hold yet: the prompt, then one new word a step.
    return model_->forward_cached(std::vector<int>(ids.begin() + cache.rows(), ids.end()), cache, nullptr);
  });
}

}  // namespace ae
