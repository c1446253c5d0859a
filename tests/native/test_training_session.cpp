// The stepping trainer (train/trainer.h Trainer) and the page's training run (train/session.h):
// chunks of steps give the run train() gives, settings out of bounds are refused with a message
// naming them, snapshots read the lesson pair, and the export loads as a model.
#include "error_of.h"

#include "io/checkpoint.h"
#include "train/session.h"
#include "train/trainer.h"

#include <doctest/doctest.h>

using namespace ae;

namespace {

// The parameters as F32 safetensors bytes: equal bytes, equal weights bit for bit.
std::string weights_of(const TrainingSession& s) { return s.export_files(DType::F32, "x").safetensors; }

SessionSettings word_order(int steps) {
  SessionSettings s;
  s.task = SessionTask::WordOrder;
  s.seed = 5;
  s.steps = steps;
  return s;
}

}  // namespace

TEST_CASE("Trainer: stepping one step at a time gives train()'s weights bit for bit") {
  std::vector<TrainingExample> examples;
  for (int i = 0; i < 40; ++i) examples.push_back({{2, 5 + i % 7, 6 + i % 5, 7}, {0}, {5 + i % 7}});
  ModelConfig c;
  c.vocab_size = 16, c.d_model = 16, c.n_heads = 2, c.n_layers = 1, c.max_len = 8;
  TrainOptions o;
  o.steps = 12, o.batch_size = 8, o.seed = 3, o.dropout = 0.1f, o.group_size = 2;
  Transformer a(c), b(c);
  a.init_random(1), b.init_random(1);
  std::vector<float> losses;
  train(a, examples, o, [&](const StepReport& r) { losses.push_back(r.loss); });
  Trainer trainer(b, examples, o);
  for (size_t i = 0; !trainer.finished(); ++i) CHECK(trainer.step().loss == losses.at(i));
  CHECK(trainer.steps_done() == 12);
  CHECK(save_weights(a, DType::F32) == save_weights(b, DType::F32));
  CHECK(error_of([&] { trainer.step(); }) == "Trainer::step: all 12 steps are done");
}

TEST_CASE("TrainingSession: chunks of steps give one run's weights bit for bit") {
  TrainingSession whole(word_order(9)), chunks(word_order(9));
  CHECK(whole.step(9).size() == 9);
  CHECK(chunks.step(2).size() == 2);
  CHECK(chunks.step(0).empty());
  CHECK(chunks.step(4).size() == 4);
  CHECK(chunks.step(100).size() == 3);  // only what is left
  CHECK(chunks.finished());
  CHECK(weights_of(whole) == weights_of(chunks));
  SessionSettings other = word_order(9);
  other.seed = 6;
  TrainingSession different(other);
  different.step(9);
  CHECK(weights_of(different) != weights_of(whole));
}

TEST_CASE("TrainingSession: settings out of bounds are refused, naming the setting") {
  const auto refused = [](auto change) {
    SessionSettings s;
    s.task = SessionTask::WordOrder;
    change(s);
    return error_of([&] { s.resolved(); });
  };
  CHECK(refused([](SessionSettings& s) { s.steps = 20001; }) ==
        "training settings: steps must be a whole number from 1 to 20000, got 20001");
  CHECK(refused([](SessionSettings& s) { s.n_heads = 3; }) ==
        "training settings: heads must divide d_model = 32 into heads of even width (1, 2, 4, 8), got 3");
  CHECK(refused([](SessionSettings& s) { s.n_layers = 5; }) ==
        "training settings: layers must be a whole number from 1 to 4, got 5");
  CHECK(refused([](SessionSettings& s) { s.learning_rate = 0.5f; }) ==
        "training settings: learning rate must lie in [1e-05, 0.05], got 0.5");
  CHECK(refused([](SessionSettings& s) { s.task = SessionTask::CorefEncoder, s.batch = 7; }) ==
        "training settings: batch must be even for coreference (each step sees whole minimal pairs), got 7");
  CHECK(error_of([] { session_task_from_string("coref"); }) ==
        "training settings: task must be coref-encoder, coref-decoder or word-order, got \"coref\"");
  const SessionSettings defaults = SessionSettings{}.resolved();  // the coreference recipe's
  CHECK(defaults.steps == 2000);
  CHECK(defaults.n_heads == 4);
  CHECK(defaults.positional == PositionalEncoding::Rope);
}

TEST_CASE("TrainingSession: coreference snapshot and export (a few steps)") {
  SessionSettings s;
  s.steps = 3, s.batch = 4, s.n_layers = 2, s.seed = 2;
  TrainingSession session(s);
  session.step(3);
  const SessionSnapshot snap = session.snapshot();
  CHECK(snap.step == 3);
  REQUIRE(snap.lesson.size() == 2);
  for (const LessonRows& l : snap.lesson) {
    CHECK(l.tokens.at(static_cast<size_t>(l.query)) == "it");
    CHECK(l.rows.size() == 2);
    CHECK(l.rows[0].size() == 4);
    float sum = 0.0f;
    for (float w : l.rows[1][3].weights) sum += w;
    CHECK(sum == doctest::Approx(1.0f).epsilon(1e-5));
    CHECK(l.rows[1][3].weights.size() == l.tokens.size());
  }
  CHECK(snap.lesson[0].tokens[static_cast<size_t>(snap.lesson[0].referent)] == "animal");
  CHECK(snap.lesson[1].tokens[static_cast<size_t>(snap.lesson[1].referent)] == "street");
  CHECK(snap.head.layer >= 0);

  const SessionFiles files = session.export_files(DType::F16, "trained-here-1");
  const Checkpoint loaded = load_checkpoint_from_memory(files.config_json, files.safetensors, files.vocab_text);
  CHECK(loaded.config_json["task"] == "coreference");
  CHECK(loaded.config_json["name"] == "trained-here-1");
  CHECK(loaded.config_json["coreference_head"]["layer"] == snap.head.layer);
  CHECK(loaded.config.n_layers == 2);
  CHECK(nlohmann::json::parse(files.metrics_json)["steps"] == 3);
}
