#include "train/session.h"

#include "io/checkpoint.h"
#include "text/tokenizer.h"
#include "train/recipes.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace ae {

namespace {

using nlohmann::json;

std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A setting the session refuses: bad-config, naming the setting.
[[noreturn]] void settings_error(const std::string& why, const std::string& setting) {
  throw InputError(ErrorCode::BadConfig, "training settings: " + why, setting);
}

void check_whole(const char* name, int value, int lo, int hi) {
  if (value < lo || value > hi)
    settings_error(std::string(name) + " must be a whole number from " + std::to_string(lo) + " to " +
                       std::to_string(hi) + ", got " + std::to_string(value),
                   name);
}

// The recipes' model shapes (recipes.cpp: coref_config, train_word_order_models) with the
// learner's heads and layers.
ModelConfig session_config(const SessionSettings& s, int vocab_size) {
  ModelConfig c;
  c.vocab_size = vocab_size;
  c.n_heads = s.n_heads;
  c.n_layers = s.n_layers;
  c.positional = s.positional;
  if (s.task == SessionTask::WordOrder) {
    c.d_model = 32;
    c.max_len = 16;
  } else {
    const CorefSettings recipe;
    c.d_model = recipe.d_model;
    c.d_ff = recipe.d_ff;
    c.max_len = recipe.max_len;
    c.causal = s.task == SessionTask::CorefDecoder;
    c.tie_output = false;
  }
  return c;
}

// The word-order lesson pair, [CLS] first as word_order_example builds it.
struct WordOrderLesson {
  const char* text;
  int agent, patient;  // token indices after [CLS]
};
constexpr WordOrderLesson kWordOrderLesson[] = {{"猫追狗", 1, 3}, {"狗追猫", 1, 3}};

}  // namespace

std::string to_string(SessionTask task) {
  switch (task) {
    case SessionTask::CorefEncoder: return "coref-encoder";
    case SessionTask::CorefDecoder: return "coref-decoder";
    case SessionTask::WordOrder: return "word-order";
  }
  return "?";
}

SessionTask session_task_from_string(const std::string& name) {
  for (auto t : {SessionTask::CorefEncoder, SessionTask::CorefDecoder, SessionTask::WordOrder})
    if (to_string(t) == name) return t;
  settings_error("task must be coref-encoder, coref-decoder or word-order, got \"" + name + "\"", "task");
}

SessionSettings SessionSettings::resolved() const {
  SessionSettings s = *this;
  const bool coref = task != SessionTask::WordOrder;
  const CorefSettings recipe;
  if (!positional_set) s.positional = coref ? recipe.positional : PositionalEncoding::Rope;
  s.positional_set = true;
  if (s.steps == 0) s.steps = coref ? recipe.steps : 600;
  if (s.n_heads == 0) s.n_heads = coref ? recipe.n_heads : 2;
  if (s.n_layers == 0) s.n_layers = coref ? recipe.n_layers : 2;
  if (s.batch == 0) s.batch = coref ? recipe.batch : 32;
  if (s.learning_rate == 0.0f) s.learning_rate = coref ? recipe.learning_rate : 3e-3f;

  using B = SessionBounds;
  check_whole("steps", s.steps, 1, B::kMaxSteps);
  check_whole("heads", s.n_heads, 1, B::kMaxHeads);
  check_whole("layers", s.n_layers, 1, B::kMaxLayers);
  check_whole("threads", s.threads, 1, B::kMaxThreads);
  check_whole("batch", s.batch, coref ? 2 : 1, B::kMaxBatch);  // coreference batches hold whole pairs
  if (coref && s.batch % 2 != 0)
    settings_error(
        "batch must be even for coreference (each step sees whole minimal pairs), got " + std::to_string(s.batch),
        "batch");
  const int d_model = coref ? recipe.d_model : 32;
  if (d_model % s.n_heads != 0 || (s.positional == PositionalEncoding::Rope && (d_model / s.n_heads) % 2 != 0))
    settings_error("heads must divide d_model = " + std::to_string(d_model) +
                       " into heads of even width (1, 2, 4, 8), got " + std::to_string(s.n_heads),
                   "heads");
  if (!(s.learning_rate >= B::kMinLearningRate && s.learning_rate <= B::kMaxLearningRate))
    settings_error("learning rate must lie in [" + shortest(B::kMinLearningRate) + ", " +
                       shortest(B::kMaxLearningRate) + "], got " + shortest(s.learning_rate),
                   "learningRate");
  if (s.seed > B::kMaxSeed) settings_error("seed must be a whole number from 0 to 2^53 − 1", "seed");
  return s;
}

json SessionSettings::to_json() const {
  return {{"task", to_string(task)},
          {"positional", to_string(positional)},
          {"seed", seed},
          {"steps", steps},
          {"heads", n_heads},
          {"layers", n_layers},
          {"batch", batch},
          {"learning_rate", learning_rate}};
}

CorefReader TrainingSession::reader() const {
  return settings_.task == SessionTask::CorefDecoder ? CorefReader::Decoder : CorefReader::Encoder;
}

TrainingSession::TrainingSession(const SessionSettings& requested) : settings_(requested.resolved()) {
  TrainOptions t;
  t.steps = settings_.steps;
  t.batch_size = settings_.batch;
  t.seed = settings_.seed;
  t.batched_rows = settings_.batched_rows;
  t.threads = settings_.threads;
  t.optimizer.learning_rate = settings_.learning_rate;
  t.optimizer.warmup_steps = settings_.steps / 20 + 1;  // the recipes' 5 % warm-up
  float init_scale = 0.1f;                              // the word-order recipe's embeddings
  if (settings_.task == SessionTask::WordOrder) {
    const WordOrderCorpus corpus = make_word_order_corpus({});
    vocab_ = Vocabulary::from_words(corpus_words(corpus));
    corpus_hash_ = corpus.hash;
    const auto make = [](const WordOrderExample& e, const Vocabulary& v) { return word_order_example(e, v); };
    train_set_ = examples_of(corpus.train, vocab_, make);
    word_order_validation_.assign(
        corpus.validation.begin(),
        corpus.validation.begin() + std::min<size_t>(corpus.validation.size(), kSessionValidationSample));
    validation_set_ = examples_of(word_order_validation_, vocab_, make);
  } else {
    const CorefSettings recipe;
    const CorefCorpus corpus = make_coref_corpus({});
    vocab_ = Vocabulary::from_words(corpus_words(corpus));
    corpus_hash_ = corpus.hash;
    const CorefReader r = reader();
    const auto make = [r](const CorefExample& e, const Vocabulary& v) { return coref_example(r, e, v); };
    train_set_ = examples_of(corpus.train, vocab_, make);
    coref_validation_.assign(
        corpus.validation.begin(),
        corpus.validation.begin() + std::min<size_t>(corpus.validation.size(), kSessionValidationSample));
    validation_set_ = examples_of(coref_validation_, vocab_, make);
    t.group_size = recipe.group;
    t.dropout = recipe.dropout;
    init_scale = recipe.init_scale;
  }
  model_ = std::make_unique<Transformer>(session_config(settings_, vocab_.size()));
  model_->init_random(settings_.seed, init_scale);
  trainer_ = std::make_unique<Trainer>(*model_, train_set_, t);
}

std::vector<StepReport> TrainingSession::step(int count) {
  if (count < 0) throw std::invalid_argument("training: steps to run must be ≥ 0, got " + std::to_string(count));
  std::vector<StepReport> out;
  while (count-- > 0 && !trainer_->finished()) out.push_back(trainer_->step());
  reports_.insert(reports_.end(), out.begin(), out.end());
  return out;
}

float TrainingSession::validation_accuracy() const { return accuracy(*model_, validation_set_); }

SessionSnapshot TrainingSession::snapshot() const {
  SessionSnapshot s;
  s.step = steps_done();
  const auto rows_of = [&](LessonRows& lesson, const std::vector<int>& ids) {
    ForwardTrace trace;
    model_->forward(ids, RunOptions{}, &trace);
    for (int id : ids) lesson.tokens.push_back(vocab_.token(id));
    for (const auto& layer : trace.layers) {
      std::vector<HeadRow> heads;
      for (const auto& head : layer.self_attention.heads) {
        const Matrix& w = head.attention.weights;
        HeadRow row;
        row.weights.assign(w.cols(), 0.0f);
        for (Eigen::Index j = 0; j < w.cols(); ++j) row.weights[static_cast<size_t>(j)] = w(lesson.query, j);
        heads.push_back(std::move(row));
      }
      lesson.rows.push_back(std::move(heads));
    }
  };
  if (settings_.task == SessionTask::WordOrder) {
    for (const auto& pair : kWordOrderLesson) {
      LessonRows lesson;
      lesson.text = pair.text;
      lesson.query = 0, lesson.referent = pair.agent, lesson.other = pair.patient;
      std::vector<int> ids = {Vocabulary::kCls};
      for (const auto& w : split_words(pair.text)) ids.push_back(vocab_.id(w));
      rows_of(lesson, ids);
      s.lesson.push_back(std::move(lesson));
    }
    return s;
  }
  const CorefReader r = reader();
  for (const auto& e : lesson_examples()) {
    LessonRows lesson;
    lesson.text = e.text;
    lesson.query = coref_query_row(r, e);
    lesson.referent = e.referent;
    lesson.other = e.referent == e.first_noun ? e.second_noun : e.first_noun;
    rows_of(lesson, coref_example(r, e, vocab_).ids);
    s.lesson.push_back(std::move(lesson));
  }
  s.head = choose_coreference_head_by_pairs(probe_pronoun_heads(*model_, coref_validation_, vocab_, r));
  return s;
}

SessionFiles TrainingSession::export_files(DType dtype, const std::string& name) const {
  json extra = {{"name", name}, {"trained_here", true}};
  if (settings_.task == SessionTask::WordOrder) {
    extra["task"] = "word-order";
  } else {
    const HeadChoice head = snapshot().head;
    extra["task"] = settings_.task == SessionTask::CorefDecoder ? "next-word" : "coreference";
    extra["coreference_head"] = {{"layer", head.layer},
                                 {"head", head.head},
                                 {"mean_on_referent", head.mean.referent},
                                 {"mean_on_other", head.mean.other},
                                 {"pair_min_margin", head.mean.pair_min_margin}};
    extra["coreference_row"] = settings_.task == SessionTask::CorefDecoder ? "=" : "it";
  }
  json config = config_to_json(model_->config());
  for (const auto& [key, value] : extra.items()) config[key] = value;

  json curve = json::array();
  constexpr int kEvery = 10;
  double sum = 0.0;
  int count = 0;
  for (const StepReport& r : reports_) {
    sum += r.loss;
    ++count;
    if ((r.step + 1) % kEvery == 0 || r.step + 1 == steps_done()) {
      curve.push_back({{"step", r.step + 1}, {"loss", sum / count}, {"lr", r.learning_rate}});
      sum = 0.0, count = 0;
    }
  }
  const json metrics = {{"model", name},
                        {"task", extra["task"]},
                        {"trained_here", true},
                        {"settings", settings_.to_json()},
                        {"corpus", {{"hash", corpus_hash_}, {"train", train_set_.size()}}},
                        {"steps", steps_done()},
                        {"loss_curve", curve},
                        {"validation_sample", validation_set_.size()},
                        {"validation_accuracy", validation_accuracy()}};
  // save_weights takes the model by non-const reference (it visits every parameter) but only reads it.
  return {config.dump(2) + "\n", save_weights(*model_, dtype), vocab_.serialize(), metrics.dump(2) + "\n"};
}

}  // namespace ae
