#include "train/recipes.h"

#include "io/checkpoint.h"
#include "train/corpus.h"
#include "train/tasks.h"

#include <chrono>
#include <ctime>
#include <cmath>
#include <map>

namespace ae {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Processor time of this (single-threaded) process: unlike wall time it does not grow when
// other work shares the machine, so it is the figure to compare against a time budget.
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }



struct TimedTraining {
  json loss_curve;
  double seconds = 0.0, cpu_seconds = 0.0;
  int steps = 0;
};

// The recipes' common schedule: batch 32, AdamW at 3e-3 with a 5 % warm-up, seeded shuffling.
TimedTraining train_timed(Transformer& model, const std::vector<TrainingExample>& examples, int steps, uint64_t seed) {
  TrainOptions t;
  t.steps = steps;
  t.batch_size = 32;
  t.seed = seed;
  t.optimizer.learning_rate = 3e-3f;
  t.optimizer.warmup_steps = steps / 20 + 1;
  const auto t0 = Clock::now();
  const double cpu0 = cpu_seconds();
  TimedTraining out;
  out.loss_curve = train_with_curve(model, examples, t, 50);
  out.seconds = seconds_since(t0);
  out.cpu_seconds = cpu_seconds() - cpu0;
  out.steps = steps;
  return out;
}

// Fraction of examples right, both before and after rounding the weights to F16.
json accuracy_with_f16(Transformer& model, const std::map<std::string, std::vector<TrainingExample>>& sets) {
  json f32 = json::object(), f16 = json::object();
  for (const auto& [name, set] : sets) f32[name] = accuracy(model, set);
  round_through_f16(model);
  for (const auto& [name, set] : sets) f16[name] = accuracy(model, set);
  return {{"f32", f32}, {"f16", f16}};
}

// --- word order -------------------------------------------------------------------------

// Share of minimal pairs (猫追狗 / 狗追猫) where both sentences get the right agent, and the
// largest difference between the two sentences' [CLS] outputs (0 when order is invisible).
json pair_report(const Transformer& model, const std::vector<WordOrderExample>& split, const Vocabulary& vocab) {
  std::map<int, std::vector<const WordOrderExample*>> pairs;
  for (const auto& e : split) pairs[e.pair_id].push_back(&e);
  int both_right = 0, total = 0;
  float largest_output_gap = 0.0f;
  for (const auto& [id, members] : pairs) {
    if (members.size() != 2) continue;
    const TrainingExample a = word_order_example(*members[0], vocab), b = word_order_example(*members[1], vocab);
    const Matrix out_a = model.forward(a.ids, RunOptions{}, nullptr), out_b = model.forward(b.ids, RunOptions{}, nullptr);
    largest_output_gap = std::max(largest_output_gap, (out_a.row(0) - out_b.row(0)).cwiseAbs().maxCoeff());
    both_right += evaluate_example(model, a, RunOptions{}).correct && evaluate_example(model, b, RunOptions{}).correct;
    ++total;
  }
  return {{"pairs", total}, {"pair_accuracy", total ? static_cast<double>(both_right) / total : 0.0},
          {"largest_cls_output_difference_within_pairs", largest_output_gap}};
}

}  // namespace

json train_with_curve(Transformer& model, const std::vector<TrainingExample>& examples, const TrainOptions& options,
                      int every) {
  json curve = json::array();
  double sum = 0.0;
  int count = 0;
  train(model, examples, options, [&](const StepReport& r) {
    sum += r.loss;
    ++count;
    if ((r.step + 1) % every == 0 || r.step + 1 == options.steps) {
      curve.push_back({{"step", r.step + 1}, {"loss", sum / count}, {"lr", r.learning_rate}});
      sum = 0.0;
      count = 0;
    }
  });
  return curve;
}

void round_through_f16(Transformer& model) { load_weights(model, parse_safetensors(save_weights(model, DType::F16))); }

std::vector<TrainedRecipe> train_word_order_models(const RecipeOptions& options) {
  const WordOrderCorpus corpus = make_word_order_corpus({});
  const Vocabulary vocab = Vocabulary::from_words(corpus_words(corpus));
  const auto make = [](const WordOrderExample& e, const Vocabulary& v) { return word_order_example(e, v); };
  const auto train_set = examples_of(corpus.train, vocab, make);
  const std::map<std::string, std::vector<TrainingExample>> eval_sets = {
      {"validation", examples_of(corpus.validation, vocab, make)}, {"heldout", examples_of(corpus.heldout, vocab, make)}};

  std::vector<TrainedRecipe> out;
  for (auto pe : {PositionalEncoding::None, PositionalEncoding::Sinusoidal, PositionalEncoding::Learned,
                  PositionalEncoding::Rope}) {
    ModelConfig c;
    c.vocab_size = vocab.size();
    c.d_model = 32;
    c.n_heads = 2;
    c.n_layers = 2;
    c.max_len = 16;
    c.positional = pe;
    auto model = std::make_unique<Transformer>(c);
    model->init_random(7, 0.1f);
    const TimedTraining run = train_timed(*model, train_set, options.quick ? 10 : 600, 7);
    const json acc = accuracy_with_f16(*model, eval_sets);
    const std::string name = "word-order-" + to_string(pe);
    json metrics = {{"model", name},
                    {"task", "word-order"},
                    {"positional", to_string(pe)},
                    {"corpus", {{"hash", corpus.hash}, {"counts", {{"train", corpus.train.size()},
                                                                   {"validation", corpus.validation.size()},
                                                                   {"heldout", corpus.heldout.size()}}}}},
                    {"train_seconds", run.seconds},
                    {"train_cpu_seconds", run.cpu_seconds},
                    {"steps", run.steps},
                    {"loss_curve", run.loss_curve},
                    {"accuracy", acc},
                    {"minimal_pairs", {{"validation", pair_report(*model, corpus.validation, vocab)},
                                       {"heldout", pair_report(*model, corpus.heldout, vocab)}}}};
    json extra = {{"task", "word-order"}, {"name", name}};
    out.push_back({name, std::move(model), vocab, extra, metrics});
  }
  return out;
}

// --- causal decoder ---------------------------------------------------------------------

TrainedRecipe train_coref_decoder(const RecipeOptions& options) {
  const CorefCorpus corpus = make_coref_corpus({});
  const Vocabulary vocab = Vocabulary::from_words(corpus_words(corpus));
  const auto make = [](const CorefExample& e, const Vocabulary& v) { return coref_decoder_example(e, v); };
  const auto train_set = examples_of(corpus.train, vocab, make);

  ModelConfig c;
  c.vocab_size = vocab.size();
  c.d_model = 32;
  c.n_heads = 4;
  c.n_layers = 3;
  c.max_len = 32;
  c.positional = PositionalEncoding::Learned;
  c.causal = true;
  auto model = std::make_unique<Transformer>(c);
  model->init_random(11, 0.1f);
  const TimedTraining run = train_timed(*model, train_set, options.quick ? 10 : 1200, 11);
  round_through_f16(*model);

  // The answer: the arg-max word after "=", per split.
  auto answer_accuracy = [&](const std::vector<CorefExample>& split) {
    int right = 0;
    for (const auto& e : split) {
      const TrainingExample ex = make(e, vocab);
      const Matrix hidden = model->forward(ex.ids, RunOptions{}, nullptr);
      Eigen::Index best = 0;
      model->logits(hidden.row(decoder_answer_position(e))).row(0).maxCoeff(&best);
      right += best == vocab.id(e.referent_word);
    }
    return split.empty() ? 0.0 : static_cast<double>(right) / static_cast<double>(split.size());
  };
  const json accuracy = {{"validation", answer_accuracy(corpus.validation)},
                         {"heldout_combinations", answer_accuracy(corpus.heldout_combinations)},
                         {"heldout_templates", answer_accuracy(corpus.heldout_templates)}};

  // The lesson pair: generated answer, the "it" rows (identical: "tired"/"wide" lie in the
  // future), and the "=" rows (they differ and point at the referent).
  const auto lesson = lesson_examples();
  std::vector<ForwardTrace> traces(lesson.size());
  json sentences = json::array();
  for (size_t i = 0; i < lesson.size(); ++i) {
    const TrainingExample ex = make(lesson[i], vocab);
    model->forward(ex.ids, RunOptions{}, &traces[i]);
    const int answer = decoder_answer_position(lesson[i]);
    std::vector<int> prompt(ex.ids.begin(), ex.ids.begin() + answer + 1);
    const Matrix hidden = model->forward(prompt, RunOptions{}, nullptr);
    Eigen::Index best = 0;
    model->logits(hidden.bottomRows(1)).row(0).maxCoeff(&best);
    sentences.push_back({{"text", decoder_text(lesson[i])}, {"generated", vocab.token(static_cast<int>(best))},
                         {"expected", lesson[i].referent_word}});
  }
  const int it = lesson[0].pronoun, answer = decoder_answer_position(lesson[0]);
  float it_row_gap = 0.0f, answer_row_gap = 0.0f;
  json answer_heads = json::array();
  for (int l = 0; l < c.n_layers; ++l)
    for (int h = 0; h < c.n_heads; ++h) {
      const Matrix& a = traces[0].layers[l].self_attention.heads[h].attention.weights;
      const Matrix& b = traces[1].layers[l].self_attention.heads[h].attention.weights;
      it_row_gap = std::max(it_row_gap, (a.row(it) - b.row(it)).cwiseAbs().maxCoeff());
      answer_row_gap = std::max(answer_row_gap, (a.row(answer) - b.row(answer)).cwiseAbs().maxCoeff());
      answer_heads.push_back({{"layer", l}, {"head", h},
                              {"tired_on_animal", a(answer, lesson[0].referent)}, {"tired_on_street", a(answer, lesson[1].referent)},
                              {"wide_on_animal", b(answer, lesson[0].referent)}, {"wide_on_street", b(answer, lesson[1].referent)}});
    }
  json metrics = {{"model", "coref-decoder"},
                  {"task", "next-word"},
                  {"corpus", {{"hash", corpus.hash}}},
                  {"train_seconds", run.seconds},
                  {"train_cpu_seconds", run.cpu_seconds},
                  {"steps", run.steps},
                  {"loss_curve", run.loss_curve},
                  {"answer_accuracy", accuracy},
                  {"lesson", sentences},
                  {"it_row_largest_difference", it_row_gap},
                  {"answer_row_largest_difference", answer_row_gap},
                  {"answer_row_heads", answer_heads}};
  json extra = {{"task", "next-word"}, {"name", "coref-decoder"}};
  return {"coref-decoder", std::move(model), vocab, extra, metrics};
}

}  // namespace ae
