#include "train/recipes.h"

#include "io/checkpoint.h"
#include "train/corpus.h"
#include "train/tasks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

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
TimedTraining train_timed(Transformer& model, const std::vector<TrainingExample>& examples, int steps, uint64_t seed,
                          int threads) {
  TrainOptions t;
  t.steps = steps;
  t.threads = threads;
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
    const Matrix out_a = model.forward(a.ids, RunOptions{}, nullptr),
                 out_b = model.forward(b.ids, RunOptions{}, nullptr);
    largest_output_gap = std::max(largest_output_gap, (out_a.row(0) - out_b.row(0)).cwiseAbs().maxCoeff());
    both_right += evaluate_example(model, a, RunOptions{}).correct && evaluate_example(model, b, RunOptions{}).correct;
    ++total;
  }
  return {{"pairs", total},
          {"pair_accuracy", total ? static_cast<double>(both_right) / total : 0.0},
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

void round_through_f16(Transformer& model) { round_trip_weights(model, WeightFormat{DType::F16}); }

std::unique_ptr<Transformer> as_stored(Transformer& model, const WeightFormat& format) {
  auto stored = std::make_unique<Transformer>(model.config());
  load_weights(*stored, parse_safetensors(save_weights(model, format)));
  return stored;
}

std::vector<TrainedRecipe> train_word_order_models(const RecipeOptions& options) {
  const WordOrderCorpus corpus = make_word_order_corpus({});
  const Vocabulary vocab = Vocabulary::from_words(corpus_words(corpus));
  const auto make = [](const WordOrderExample& e, const Vocabulary& v) { return word_order_example(e, v); };
  const auto train_set = examples_of(corpus.train, vocab, make);
  const std::map<std::string, std::vector<TrainingExample>> eval_sets = {
      {"validation", examples_of(corpus.validation, vocab, make)},
      {"heldout", examples_of(corpus.heldout, vocab, make)}};

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
    const TimedTraining run = train_timed(*model, train_set, options.quick ? 10 : 600, 7, options.threads);
    const json acc = accuracy_with_f16(*model, eval_sets);
    const std::string name = "word-order-" + to_string(pe);
    json metrics = {{"model", name},
                    {"task", "word-order"},
                    {"positional", to_string(pe)},
                    {"corpus",
                     {{"hash", corpus.hash},
                      {"counts",
                       {{"train", corpus.train.size()},
                        {"validation", corpus.validation.size()},
                        {"heldout", corpus.heldout.size()}}}}},
                    {"train_seconds", run.seconds},
                    {"train_cpu_seconds", run.cpu_seconds},
                    {"steps", run.steps},
                    {"loss_curve", run.loss_curve},
                    {"accuracy", acc},
                    {"minimal_pairs",
                     {{"validation", pair_report(*model, corpus.validation, vocab)},
                      {"heldout", pair_report(*model, corpus.heldout, vocab)}}}};
    json extra = {{"task", "word-order"}, {"name", name}};
    out.push_back({name, std::move(model), vocab, extra, metrics, WeightFormat{DType::F16}});
  }
  return out;
}

// --- coreference ------------------------------------------------------------------------

namespace {

std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A focus_on value, checked: the pairs a focus phase trains on (focus_pairs).
const std::string& focus_kind(const std::string& value) {
  if (value != "ambiguous" && value != "unflipped")
    throw std::invalid_argument("settings: focus_on must be \"ambiguous\" or \"unflipped\", got \"" + value + "\"");
  return value;
}

}  // namespace

SettingAssignment::SettingAssignment(const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) throw std::invalid_argument("settings: expected key=value, got \"" + assignment + "\"");
  key = assignment.substr(0, eq);
  value = assignment.substr(eq + 1);
}

double SettingAssignment::number(double lo, double hi) const {
  size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || !(v >= lo && v <= hi))
    throw std::invalid_argument("settings: " + key + " must be a number in [" + shortest(lo) + ", " + shortest(hi) +
                                "], got \"" + value + "\"");
  return v;
}

int SettingAssignment::whole(int lo, int hi) const {
  const double v = number(lo, hi);
  if (v != std::floor(v)) throw std::invalid_argument("settings: " + key + " must be a whole number, got " + value);
  return static_cast<int>(v);
}

void CorefSettings::set(const std::string& assignment) {
  const SettingAssignment a(assignment);
  const std::string &key = a.key, &value = a.value;
  const auto number = [&](double lo, double hi) { return a.number(lo, hi); };
  const auto whole = [&](int lo, int hi) { return a.whole(lo, hi); };
  if (key == "d_model") d_model = whole(4, 1024);
  else if (key == "n_heads") n_heads = whole(1, 64);
  else if (key == "n_layers") n_layers = whole(1, 24);
  else if (key == "d_ff") d_ff = whole(0, 8192);
  else if (key == "max_len") max_len = whole(8, 512);
  else if (key == "steps") steps = whole(1, 1000000);
  else if (key == "batch") batch = whole(1, 4096);
  else if (key == "group") group = whole(1, 2);
  else if (key == "learning_rate") learning_rate = static_cast<float>(number(1e-6, 1.0));
  else if (key == "dropout") dropout = static_cast<float>(number(0.0, 0.9));
  else if (key == "weight_decay") weight_decay = static_cast<float>(number(0.0, 10.0));
  else if (key == "focus") focus = static_cast<float>(number(0.0, 1.0));
  else if (key == "focus_share") focus_share = static_cast<float>(number(0.0, 1.0));
  else if (key == "focus_on") focus_on = focus_kind(value);
  else if (key == "relabel") relabel = static_cast<float>(number(0.0, 1.0));
  else if (key == "relabel_shared") relabel_shared = whole(0, 1) == 1;
  else if (key == "extended") extended = whole(0, 1) == 1;
  else if (key == "flip_frames") flip_frames = whole(0, 1) == 1;
  else if (key == "flip_share") flip_share = number(0.0, 1.0);
  else if (key == "clause_first_share") clause_first_share = number(0.0, 0.8);
  else if (key == "plain_share") plain_share = number(0.0, 0.9);
  else if (key == "init_scale") init_scale = static_cast<float>(number(1e-4, 10.0));
  else if (key == "positional") positional = positional_encoding_from_string(value);
  else if (key == "first_seed") first_seed = whole(1, 1000000);
  else if (key == "seeds") seeds = whole(1, 1000);
  else if (key == "language") language = to_string(coref_language(value));
  else
    throw std::invalid_argument(
        "settings: unknown key \"" + key +
        "\" (d_model, n_heads, n_layers, d_ff, max_len, steps, batch, group, "
        "learning_rate, dropout, weight_decay, focus, focus_share, focus_on, relabel, relabel_shared, "
        "extended, flip_frames, flip_share, clause_first_share, plain_share, init_scale, "
        "positional, first_seed, seeds, language)");
  if (key != "first_seed" && key != "seeds") study_passing = study_seeds = 0;  // a recipe not studied
}

CorefSettings shipped_coref_settings(CorefReader reader, CorefLanguage language) {
  // Every family's pairs partly given two other nouns, so that no noun's identity tells its role
  // (docs/models.md, "Relabelled nouns"); the seed is, of the five trained, one that passes every
  // criterion with the largest worst-split flip rate.
  CorefSettings s;
  s.language = to_string(language);
  s.seeds = 1;
  s.study_seeds = 5;
  if (reader == CorefReader::Decoder) {  // 3 of 5 seeds pass (2, 4, 5); with a fifth relabelled 2 of 5
    s.study_passing = 3;
    s.steps = 6000;
    s.relabel = 0.5f;
    s.first_seed = 4;
  } else if (language == CorefLanguage::English) {
    // The extended corpus (issue 34: a family noun in a phrase, role adjectives before nouns,
    // flipped events, the learners' words), half the flippable pairs flipped, flipped frames held
    // out: 3 of 5 seeds pass (2, 4, 5; docs/models.md). On the first corpus, 6000 steps: 5 of 5.
    s.study_passing = 3;
    s.extended = true;
    s.flip_frames = true;
    s.flip_share = 0.5;
    s.steps = 10000;
    s.relabel = 0.2f;
    s.first_seed = 4;
  } else {
    // Chinese: the extended corpus (issue 34, with role swaps and the 2026-12-07 lexicon, where
    // verbs, adverbs and intensifiers come in both orders and polarities, and the learners' 没法,
    // 走不过, 放不到), flipped frames held out: 3 of 5 seeds pass (1, 2, 3; docs/models.md; at
    // 10000 steps 1 of 5). On the first corpus, 8000 steps: 4 of 5.
    s.study_passing = 3;
    s.extended = true;
    s.flip_frames = true;
    s.flip_share = 0.3;
    s.steps = 14000;
    s.relabel = 0.5f;
    s.first_seed = 1;
  }
  return s;
}

CorefOptions coref_corpus_options(const CorefSettings& settings) {
  CorefOptions o;
  o.language = coref_language(settings.language);
  o.extended = settings.extended;
  o.flip_frames = settings.flip_frames;
  o.flip_share = settings.flip_share;
  o.clause_first_share = settings.clause_first_share;
  o.plain_share = settings.plain_share;
  return o;
}

CorefOptions coref_corpus_options(const json& settings) {
  CorefSettings s;
  s.language = settings.value("language", s.language);
  s.extended = settings.value("extended", s.extended);
  s.flip_frames = settings.value("flip_frames", s.flip_frames);
  s.flip_share = settings.value("flip_share", s.flip_share);
  s.clause_first_share = settings.value("clause_first_share", s.clause_first_share);
  s.plain_share = settings.value("plain_share", s.plain_share);
  return coref_corpus_options(s);
}

json CorefSettings::to_json() const {
  json j = {{"d_model", d_model},
            {"n_heads", n_heads},
            {"n_layers", n_layers},
            {"d_ff", d_ff},
            {"max_len", max_len},
            {"steps", steps},
            {"batch", batch},
            {"group", group},
            {"learning_rate", learning_rate},
            {"dropout", dropout},
            {"weight_decay", weight_decay},
            {"focus", focus},
            {"focus_share", focus_share},
            {"init_scale", init_scale},
            {"positional", ae::to_string(positional)},
            {"first_seed", first_seed},
            {"seeds", seeds},
            {"language", language}};
  if (relabel > 0.0f) {  // only when on: the shipped metrics.json stay as they were
    j["relabel"] = relabel;
    j["relabel_shared"] = relabel_shared;
  }
  if (extended) j["extended"] = true;  // likewise
  if (flip_frames) j["flip_frames"] = true;
  if (flip_share != 0.3) j["flip_share"] = flip_share;
  if (clause_first_share != 0.25) j["clause_first_share"] = clause_first_share;
  if (plain_share != 0.0) j["plain_share"] = plain_share;
  if (focus_on != "ambiguous") j["focus_on"] = focus_on;
  if (study_seeds > 0) j["seed_study"] = {{"passing", study_passing}, {"trained", study_seeds}};
  return j;
}

namespace {

ModelConfig coref_config(CorefReader reader, const CorefSettings& s, int vocab_size) {
  ModelConfig c;
  c.vocab_size = vocab_size;
  c.d_model = s.d_model;
  c.n_heads = s.n_heads;
  c.n_layers = s.n_layers;
  c.d_ff = s.d_ff;
  c.max_len = s.max_len;
  c.positional = s.positional;
  c.causal = reader == CorefReader::Decoder;
  c.tie_output = false;  // with a tied head, layer 0 kept doing the work (docs/models.md)
  return c;
}

// metrics.json's "weights": the stored form the figures were measured on.
json weight_format_json(const WeightFormat& f) {
  if (f.dtype != DType::I8) return {{"dtype", to_string(f.dtype)}};
  const char* scales = f.scales == ScaleRule::Rows ? "rows" : f.scales == ScaleRule::Columns ? "columns" : "outputs";
  return {{"dtype", "I8"}, {"levels", f.levels}, {"scales", scales}, {"vectors", to_string(f.vectors)}};
}

json split_report_json(const CorefSplitReport& r) {
  return {{"examples", r.examples},
          {"pairs", r.pairs},
          {"accuracy", r.accuracy},
          {"answer_in_sentence", r.answer_in_sentence},
          {"weight_on_referent", r.weight_on_referent},
          {"weight_on_other", r.weight_on_other},
          {"flip_rate", r.flip_rate}};
}

json probe_json(const std::vector<std::vector<PronounAttention>>& probe) {
  json layers = json::array();
  for (const auto& layer : probe) {
    json heads = json::array();
    for (const auto& h : layer)
      heads.push_back({{"referent", h.referent}, {"other", h.other}, {"pair_min_margin", h.pair_min_margin}});
    layers.push_back(heads);
  }
  return layers;
}

// The lesson pair in the chosen head, and the model's answer for each sentence.
json lesson_report(const Transformer& model, const Vocabulary& vocab, CorefReader reader, CorefLanguage language,
                   const HeadChoice& head, const CorefTargets& targets, bool* ok) {
  json out = json::array();
  *ok = true;
  for (const auto& e : lesson_examples(language)) {
    const CorefSplitReport r = coref_split_report(model, {e}, vocab, reader, head.layer, head.head);
    *ok = *ok && r.weight_on_referent >= targets.lesson && r.accuracy == 1.0;
    out.push_back({{"text", e.text},
                   {"referent", e.referent_word},
                   {"weight_on_referent", r.weight_on_referent},
                   {"weight_on_other", r.weight_on_other},
                   {"predicted_correctly", r.accuracy == 1.0}});
  }
  return out;
}

// The decoder's lesson facts the causal-mask panel teaches: the rows of "it" are bit-identical
// for tired and wide in every head ("tired"/"wide" lie in its future), and generation names the
// referent.
json decoder_lesson_facts(const Transformer& model, const Vocabulary& vocab) {
  const auto lesson = lesson_examples();
  std::vector<ForwardTrace> traces(lesson.size());
  json generated = json::array();
  for (size_t i = 0; i < lesson.size(); ++i) {
    const TrainingExample ex = coref_decoder_example(lesson[i], vocab);
    model.forward(ex.ids, RunOptions{}, &traces[i]);
    const int answer = decoder_answer_position(lesson[i]);
    const std::vector<int> prompt(ex.ids.begin(), ex.ids.begin() + answer + 1);
    const Matrix hidden = model.forward(prompt, RunOptions{}, nullptr);
    Eigen::Index best = 0;
    model.logits(hidden.bottomRows(1)).row(0).maxCoeff(&best);
    generated.push_back({{"text", decoder_text(lesson[i])},
                         {"generated", vocab.token(static_cast<int>(best))},
                         {"expected", lesson[i].referent_word}});
  }
  const int it = lesson[0].pronoun;
  float it_row_gap = 0.0f;
  for (size_t l = 0; l < traces[0].layers.size(); ++l)
    for (size_t h = 0; h < traces[0].layers[l].self_attention.heads.size(); ++h) {
      const Matrix& a = traces[0].layers[l].self_attention.heads[h].attention.weights;
      const Matrix& b = traces[1].layers[l].self_attention.heads[h].attention.weights;
      it_row_gap = std::max(it_row_gap, (a.row(it) - b.row(it)).cwiseAbs().maxCoeff());
    }
  return {{"generated", generated}, {"it_row_largest_difference", it_row_gap}};
}

}  // namespace

CorefModelReport report_coref_model(const Transformer& model, const CorefCorpus& corpus, const Vocabulary& vocab,
                                    CorefReader reader) {
  const CorefTargets targets;
  CorefModelReport out;
  const auto probe = probe_pronoun_heads(model, corpus.validation, vocab, reader);
  const HeadChoice head = choose_coreference_head_by_pairs(probe);
  json splits = json::object();
  bool accuracy_ok = true, in_sentence_ok = true, flip_ok = true;
  for (const auto& [split_name, split] : corpus.evaluation_splits()) {
    const CorefSplitReport r = coref_split_report(model, *split, vocab, reader, head.layer, head.head);
    const CorefTargets split_targets = coref_split_targets(split_name);
    splits[split_name] = split_report_json(r);
    accuracy_ok = accuracy_ok && r.accuracy >= split_targets.accuracy;
    in_sentence_ok = in_sentence_ok && r.answer_in_sentence >= split_targets.answer_in_sentence;
    flip_ok = flip_ok && r.flip_rate >= split_targets.flip_rate;
    out.worst_flip = std::min(out.worst_flip, r.flip_rate);
  }
  const bool head_ok = head.mean.referent >= targets.head_on_referent && head.mean.other <= targets.head_on_other;
  const json lesson = lesson_report(model, vocab, reader, corpus.language, head, targets, &out.lesson_ok);
  out.ok = accuracy_ok && in_sentence_ok && head_ok && flip_ok && out.lesson_ok;
  out.head = head;
  out.report = {{"splits", splits},
                {"head_probe_validation", probe_json(probe)},
                {"chosen_head",
                 {{"layer", head.layer},
                  {"head", head.head},
                  {"mean_on_referent", head.mean.referent},
                  {"mean_on_other", head.mean.other},
                  {"pair_min_margin", head.mean.pair_min_margin}}},
                {"lesson", lesson},
                {"criteria",
                 {{"accuracy", accuracy_ok},
                  {"answer_in_sentence", in_sentence_ok},
                  {"head", head_ok},
                  {"flip_rate", flip_ok},
                  {"lesson", out.lesson_ok},
                  {"all", out.ok}}}};
  if (reader == CorefReader::Decoder) {
    out.report["lesson_facts"] = decoder_lesson_facts(model, vocab);
    const DeciderHead d = choose_decider_head(model, corpus.validation, vocab, reader);
    out.report["decider_head"] = {{"layer", d.layer}, {"head", d.head}, {"mean_on_decider", d.mean_on_decider}};
  }
  return out;
}

CorefTargets coref_split_targets(const std::string& split) {
  CorefTargets t;
  for (const auto& [name, examples] : CorefCorpus{}.extended_splits())
    if (name == split) t.flip_rate = 0.85;  // issue 34: the new structures' flip target
  return t;
}

std::string coref_model_name(CorefReader reader, CorefLanguage language) {
  if (reader == CorefReader::Decoder) return "coref-decoder";
  return language == CorefLanguage::Chinese ? "coref-encoder-zh" : "coref-encoder";
}

namespace {

using TrainedRoles = std::map<std::pair<std::string, std::string>, int>;  // (family, noun) → bit per role

// The roles each noun of each family plays somewhere in the training set.
TrainedRoles trained_roles(const std::vector<CorefExample>& train) {
  TrainedRoles roles;
  for (const auto& e : train) {
    roles[{e.family, e.referent_word}] |= 1 << e.referent_role;
    roles[{e.family, e.other_word}] |= 1 << (1 - e.referent_role);
  }
  return roles;
}

// Indices of the training pairs (examples 2k, 2k+1) in which both nouns play both of the family's
// roles somewhere in the training set: in these, only the sentence says which noun is meant.
std::vector<size_t> role_ambiguous_pairs(const std::vector<CorefExample>& train) {
  TrainedRoles roles = trained_roles(train);
  std::vector<size_t> pairs;
  for (size_t k = 0; k + 1 < train.size(); k += 2) {
    const CorefExample& e = train[k];
    if (roles[{e.family, e.referent_word}] == 3 && roles[{e.family, e.other_word}] == 3) pairs.push_back(k / 2);
  }
  return pairs;
}

}  // namespace

std::vector<size_t> focus_pairs(const CorefSettings& settings, const std::vector<CorefExample>& train) {
  if (focus_kind(settings.focus_on) == "ambiguous") return role_ambiguous_pairs(train);
  std::vector<size_t> pairs;
  for (size_t k = 0; k + 1 < train.size(); k += 2) {
    const auto plain = [](const CorefExample& e) { return !e.flipped && !e.polarity_pair; };
    if (plain(train[k]) && plain(train[k + 1])) pairs.push_back(k / 2);
  }
  return pairs;
}

std::vector<TrainingExample> relabel_nouns(const CorefCorpus& corpus, std::vector<TrainingExample> train_set,
                                           const Vocabulary& vocab, float share, uint64_t seed,
                                           const std::vector<std::string>& families) {
  const auto& train = corpus.train;
  if (train_set.size() != train.size()) throw std::invalid_argument("relabel_nouns: train_set is not corpus.train");
  TrainedRoles roles = trained_roles(train);
  std::set<std::string> held;  // nouns the noun-role split shows in an untrained role
  for (const auto& e : corpus.heldout_noun_roles) {
    if (!(roles[{e.family, e.referent_word}] & (1 << e.referent_role))) held.insert(e.referent_word);
    if (!(roles[{e.family, e.other_word}] & (1 << (1 - e.referent_role)))) held.insert(e.other_word);
  }
  std::set<std::tuple<std::string, int, std::string, std::string>> combos;  // (family, role, noun, decider)
  for (const auto& e : corpus.heldout_combinations)
    combos.insert({e.family, e.referent_role, e.referent_word, e.decider});
  std::vector<std::string> pool;
  for (const auto& [key, bits] : roles)
    if (!held.count(key.second) && std::find(pool.begin(), pool.end(), key.second) == pool.end())
      pool.push_back(key.second);
  std::sort(pool.begin(), pool.end());

  // Chinese: a noun keeps its measure word (那只动物, 那辆卡车), so a replacement must share it.
  std::map<std::string, std::string> measure;
  for (const auto& [noun, word] : coref_lexicon(corpus.language, corpus.extended).measure_words) measure[noun] = word;
  const auto same_measure = [&](const std::string& u, const std::string& v) {
    const auto mu = measure.find(u), mv = measure.find(v);
    return (mu == measure.end() ? "" : mu->second) == (mv == measure.end() ? "" : mv->second);
  };

  Rng rng(seed ^ 0x72656c6162656c00ull);  // "relabel"
  for (size_t k = 0; k + 1 < train.size(); k += 2) {
    if (rng.uniform() >= share) continue;
    const CorefExample& a = train[k];
    const CorefExample& b = train[k + 1];
    if (!families.empty() && std::find(families.begin(), families.end(), a.family) == families.end()) continue;
    if (held.count(a.referent_word) || held.count(a.other_word)) continue;
    // a's referent is b's other noun: map a.referent → x, a.other → y in both sentences.
    for (int attempt = 0; attempt < 50; ++attempt) {
      const std::string& x = pool[rng.below(pool.size())];
      const std::string& y = pool[rng.below(pool.size())];
      if (x == y || std::find(a.tokens.begin(), a.tokens.end(), x) != a.tokens.end() ||
          std::find(a.tokens.begin(), a.tokens.end(), y) != a.tokens.end())
        continue;
      if (combos.count({a.family, a.referent_role, x, a.decider}) ||
          combos.count({b.family, b.referent_role, y, b.decider}))
        continue;
      if (!same_measure(x, a.referent_word) || !same_measure(y, a.other_word)) continue;
      const int from_x = vocab.id(a.referent_word), from_y = vocab.id(a.other_word);
      const int to_x = vocab.id(x), to_y = vocab.id(y);
      for (size_t i = k; i < k + 2; ++i) {
        const auto map = [&](int& id) { id = id == from_x ? to_x : id == from_y ? to_y : id; };
        for (int& id : train_set[i].ids) map(id);
        for (int& id : train_set[i].targets) map(id);
      }
      break;
    }
  }
  return train_set;
}

TrainedRecipe train_coref_model(CorefReader reader, const RecipeOptions& options, const CorefSettings& settings) {
  const bool decoder = reader == CorefReader::Decoder;
  const CorefLanguage language = coref_language(settings.language);
  const CorefLexicon& lexicon = coref_lexicon(language, settings.extended);
  if (decoder && language != CorefLanguage::English)
    throw std::invalid_argument("settings: the decoder's prompt (\"… . it =\") is English; train it with language=en");
  const std::string name = coref_model_name(reader, language);
  const CorefTargets targets;
  const auto t_corpus = Clock::now();
  const CorefCorpus corpus = make_coref_corpus(coref_corpus_options(settings));
  const Vocabulary vocab = Vocabulary::from_words(corpus_words(corpus));
  const auto make = [reader](const CorefExample& e, const Vocabulary& v) { return coref_example(reader, e, v); };
  const auto natural_set = examples_of(corpus.train, vocab, make);
  std::vector<std::string> relabel_families;  // the families relabel_nouns may change (empty: all)
  if (settings.relabel_shared)
    for (const auto& f : lexicon.families)
      if (f.shared_pool) relabel_families.push_back(f.name);
  const double corpus_seconds = seconds_since(t_corpus);

  json seeds = json::array();
  std::unique_ptr<Transformer> best;
  json best_report;
  double best_score = -1e9;
  int passing = 0;
  for (int seed = settings.first_seed; seed < settings.first_seed + settings.seeds; ++seed) {
    auto model = std::make_unique<Transformer>(coref_config(reader, settings, vocab.size()));
    // Unit-variance embeddings (rather than the 0.1 the word-order models start from): with them
    // the routing moves out of layer 0 and a later head learns to point (see docs/models.md).
    model->init_random(static_cast<uint64_t>(seed), settings.init_scale);
    TrainOptions t;
    t.steps = options.quick ? 20 : settings.steps;
    t.threads = options.threads;
    t.batch_size = settings.batch;
    t.group_size = settings.group;
    t.seed = static_cast<uint64_t>(seed);
    t.dropout = settings.dropout;
    t.optimizer.learning_rate = settings.learning_rate;
    t.optimizer.weight_decay = settings.weight_decay;
    t.optimizer.warmup_steps = t.steps / 20 + 1;
    if (settings.focus > 0.0f) {
      if (settings.group != 2) throw std::invalid_argument("settings: focus needs group=2 (minimal pairs)");
      t.focus_groups = focus_pairs(settings, corpus.train);
      t.focus_steps = static_cast<int>(settings.focus * static_cast<float>(t.steps));
      t.focus_share = settings.focus_share;
      std::fprintf(stderr, "%s: the first %d steps on %zu of %zu pairs\n", name.c_str(), t.focus_steps,
                   t.focus_groups.size(), corpus.train.size() / 2);
    }
    const bool relabel = settings.relabel > 0.0f;
    std::vector<TrainingExample> relabelled_set;  // stays empty (no copy of natural_set) when relabel is off
    if (relabel) relabelled_set = relabel_nouns(corpus, natural_set, vocab, settings.relabel, t.seed, relabel_families);
    const std::vector<TrainingExample>& train_set = relabel ? relabelled_set : natural_set;
    const auto t0 = Clock::now();  // the corpus and its relabelling are not training time
    const double cpu0 = cpu_seconds();
    const json curve = train_with_curve(*model, train_set, t, 50);
    const double train_seconds = seconds_since(t0), train_cpu = cpu_seconds() - cpu0;
    // Everything below is measured on the weights as they will be stored, not on the F32 ones.
    const std::unique_ptr<Transformer> stored = as_stored(*model, options.coref_weights);
    const CorefModelReport measured = report_coref_model(*stored, corpus, vocab, reader);
    const bool ok = measured.ok, lesson_ok = measured.lesson_ok;
    const HeadChoice& head = measured.head;
    passing += ok;
    json report = measured.report;
    report["seed"] = seed;
    report["train_seconds"] = train_seconds;
    report["train_cpu_seconds"] = train_cpu;
    report["steps"] = t.steps;
    report["loss_curve"] = curve;
    const json& splits = report["splits"];
    std::fprintf(stderr, "%s seed %d: %.0f CPU-s, head L%dH%d %.3f/%.3f, lesson %s, %s\n", name.c_str(), seed,
                 train_cpu, head.layer + 1, head.head + 1, head.mean.referent, head.mean.other, lesson_ok ? "ok" : "no",
                 ok ? "PASS" : "fail");
    for (const auto& [split_name, r] : splits.items())
      std::fprintf(stderr, "  %-22s acc %.3f  in-sentence %.3f  head %.3f/%.3f  flip %.3f\n", split_name.c_str(),
                   r["accuracy"].get<double>(), r["answer_in_sentence"].get<double>(),
                   r["weight_on_referent"].get<double>(), r["weight_on_other"].get<double>(),
                   r["flip_rate"].get<double>());
    const double score = (ok ? 10.0 : 0.0) + measured.worst_flip + (lesson_ok ? 1.0 : 0.0);
    if (score > best_score) {
      best_score = score;
      best = std::move(model);
      best_report = report;
    }
    seeds.push_back(std::move(report));
  }
  json counts = {{"train", corpus.train.size()}};
  for (const auto& [split_name, split] : corpus.evaluation_splits()) counts[split_name] = split->size();
  const json metrics = {
      {"model", name},
      {"task", decoder ? "next-word" : "coreference"},
      {"corpus", {{"hash", corpus.hash}, {"seconds", corpus_seconds}, {"counts", counts}}},
      {"settings", settings.to_json()},
      {"weights", weight_format_json(options.coref_weights)},
      {"targets",
       {{"accuracy", targets.accuracy},
        {"answer_in_sentence", targets.answer_in_sentence},
        {"head_on_referent", targets.head_on_referent},
        {"head_on_other", targets.head_on_other},
        {"flip_rate", targets.flip_rate},
        {"lesson", targets.lesson}}},
      {"head_rule", std::string("over the validation split's minimal pairs, the head with the largest mean of min over "
                                "the pair's two sentences of (weight from the ") +
                        (decoder ? "'=' row" : "'it' row") +
                        " to the referent - weight to the other noun); ties: later layer, then lower head index"},
      {"seeds_passing", passing},
      {"seeds_trained", settings.seeds},
      {"shipped", best_report},
      {"seeds", seeds}};
  // The page's model facts: per split, answer accuracy and the head's flip rate.
  json facts = json::object();
  for (const auto& [split_name, r] : best_report["splits"].items())
    facts[split_name] = {{"accuracy", r["accuracy"]}, {"flip_rate", r["flip_rate"]}};
  std::vector<std::string> lesson_texts;  // the page's first sentence and its swap
  for (const auto& e : lesson_examples(language)) lesson_texts.push_back(e.text);
  json extra = {{"task", decoder ? "next-word" : "coreference"},
                {"name", name},
                {"splits", facts},
                {"coreference_head", best_report["chosen_head"]},
                {"coreference_row", decoder ? "=" : lexicon.pronoun},
                {"pronoun", lexicon.pronoun},
                {"language", to_string(language)},
                {"lesson", {lesson_texts[0], lesson_texts[1]}},
                {"seeds_passing", passing},
                {"seeds_trained", settings.seeds}};
  if (settings.study_seeds > 0) extra["seed_study"] = settings.to_json()["seed_study"];  // the banner's
  if (decoder) extra["decider_head"] = best_report["decider_head"];  // the causal-mask panel's default view
  return {name, std::move(best), vocab, extra, metrics, options.coref_weights};
}

}  // namespace ae
