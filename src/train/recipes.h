// Recipes for the shipped models: the word-order encoders (one per positional encoding) and the
// coreference models (English and Chinese encoders, the causal decoder; seeds as the settings
// say, shipped_coref_settings by default). Each trains from
// scratch, measures what the page claims about it, and returns everything the trainer tool
// writes to disk.
#pragma once

#include "io/checkpoint.h"
#include "model/transformer.h"
#include "text/vocabulary.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace ae {

// How the coreference models are shipped: every matrix as I8 with one F32 scale per output
// feature and |q| ≤ 15 (31 values, which gzip codes in about 4.5 bits), biases and LayerNorm as
// F16. Chosen by measurement (docs/models.md, "Weight formats"): the fewest levels with which
// every shipped model keeps its criteria and its coreference head.
inline const WeightFormat kShippedCorefWeights{DType::I8, 15, ScaleRule::Outputs, DType::F16};

struct TrainedRecipe {
  std::string name;                    // directory name under web/models/
  std::unique_ptr<Transformer> model;  // the trained weights (F32; the word-order models already through F16)
  Vocabulary vocab;
  nlohmann::json extra_config;  // merged into config.json ("task", …)
  nlohmann::json metrics;       // metrics.json: measured on the model as read back from `weights`
  WeightFormat weights;         // how model.safetensors must be written for metrics.json to describe it
};

struct RecipeOptions {
  bool quick = false;                                 // a handful of steps: checks the pipeline, not the model
  WeightFormat coref_weights = kShippedCorefWeights;  // how the coreference models are saved and measured
  int threads = 1;  // TrainOptions::threads of the word-order and coreference runs: the same bits for any number
};

// "[CLS] 猫 追 狗" → agent, once per positional encoding (none, sinusoidal, learned, rope).
std::vector<TrainedRecipe> train_word_order_models(const RecipeOptions& options);

// One "key=value" of a recipe's --settings, split, with conversions whose errors name the key
// ("settings: steps must be a whole number, got 1.5"). Throws std::invalid_argument without '='.
struct SettingAssignment {
  explicit SettingAssignment(const std::string& assignment);
  std::string key, value;
  double number(double lo, double hi) const;  // a number in [lo, hi]
  int whole(int lo, int hi) const;            // a whole number in [lo, hi]
};

// The coreference models' settings; an experiment may change any (train --set key=value).
struct CorefSettings {
  int d_model = 64, n_heads = 4, n_layers = 3, d_ff = 0, max_len = 48;
  int steps = 2000, batch = 64, group = 2;  // 2000: the page's "train it yourself" default
  float learning_rate = 4e-3f, dropout = 0.1f, init_scale = 1.0f, weight_decay = 0.01f;
  // A curriculum: this share of the steps trains only on pairs whose two nouns each play both
  // roles of the family somewhere in the training set, so no noun's identity gives the answer
  // (role_ambiguous_pairs); 0 = off.
  float focus = 0.0f, focus_share = 1.0f;
  // Which pairs the focus steps train on: "ambiguous" (role_ambiguous_pairs) or "unflipped" (the
  // pairs with no flipped event in either sentence), so that a model first learns
  // to read the structure, then the polarity of the event (docs/models.md, "A curriculum").
  std::string focus_on = "ambiguous";
  // Noun relabelling: this share of the training pairs get two other nouns of the corpus in place
  // of theirs (the same two in both sentences), so that a noun's identity says nothing about its
  // role (relabel_nouns); 0 = off.
  float relabel = 0.0f;
  bool relabel_shared = false;  // relabel only the pairs of families whose roles share one noun pool
  // The extended corpus (CorefOptions::extended: issue 34's structures, learners' words and
  // held-out splits); off for every shipped model.
  bool extended = false;
  bool flip_frames = false;          // CorefOptions::flip_frames: hold out flipped frames, not lift's flips
  double flip_share = 0.3;           // CorefOptions::flip_share: the share of flippable pairs that are flipped
  double clause_first_share = 0.25;  // CorefOptions::clause_first_share
  double plain_share = 0.0;          // CorefOptions::plain_share
  PositionalEncoding positional = PositionalEncoding::Rope;
  int first_seed = 1, seeds = 3;
  // The seed study behind a shipped recipe (docs/models.md, "Seeds"): of `study_seeds` seeds trained
  // with it, `study_passing` passed every target. 0: no study (set() clears it for any setting but
  // the seeds: a changed recipe has not been studied). The page's banner says it.
  int study_passing = 0, study_seeds = 0;
  std::string language = "en";  // the corpus's: "en" (it) or "zh" (它, the encoder only)
  // "d_model=64" etc.; throws std::invalid_argument naming the key or the value.
  void set(const std::string& assignment);
  nlohmann::json to_json() const;
};

// The training pairs (examples 2k, 2k+1 of `train`, as indices k) that the focus steps of a model
// with these settings train on (focus_on).
std::vector<size_t> focus_pairs(const CorefSettings& settings, const std::vector<CorefExample>& train);

// The corpus a model with these settings trains on (language, extended, flip_frames, flip_share,
// clause_first_share, plain_share).
CorefOptions coref_corpus_options(const CorefSettings& settings);
// The same from a model's metrics.json "settings" (keys left out take CorefSettings' defaults):
// what the checks of a shipped model rebuild its splits from.
CorefOptions coref_corpus_options(const nlohmann::json& settings);

// The shipped models' settings (what `train` uses before any --set): one seed each, every
// family's pairs partly relabelled (relabel 0.2 for the English encoder, 0.5 for the Chinese
// encoder and the decoder: 17.5 %, 14.0 % and 41.7 % of the training sentences change); the
// English encoder on the extended corpus (flipped frames held out, half the flippable pairs
// flipped) for 10000 steps, the decoder 6000, the Chinese encoder 8000, both on the first corpus.
// With 2000 steps a noun in a role it never had in training is answered from its identity (23.5 %
// right); training longer makes the model read the role from the sentence, and relabelling keeps
// the identity from telling it (docs/models.md, "Training longer", "Relabelled nouns").
CorefSettings shipped_coref_settings(CorefReader reader, CorefLanguage language);

// What a shipped coreference model must show, per split and on the lesson pair (issue targets).
struct CorefTargets {
  double accuracy = 0.97, answer_in_sentence = 0.995, head_on_referent = 0.6, head_on_other = 0.05, flip_rate = 0.8,
         lesson = 0.9;
};

// The targets of one evaluation split: CorefTargets, with flip rate ≥ 0.85 on the extended
// corpus's held-out splits (heldout_phrases, …).
CorefTargets coref_split_targets(const std::string& split);

// "coref-encoder", "coref-encoder-zh", "coref-decoder".
std::string coref_model_name(CorefReader reader, CorefLanguage language);

// The encoder names the referent at "it"; the decoder continues "… too tired . it = animal".
// Trains settings.seeds seeds, chooses each one's head by the pair rule over validation, and
// ships the best (a seed meeting every target first, then the largest worst-split flip rate).
TrainedRecipe train_coref_model(CorefReader reader, const RecipeOptions& options, const CorefSettings& settings);

// What the recipe measures on a trained coreference model — the head chosen by the pair rule over
// validation, each evaluation split's report, the lesson pair, the criteria against CorefTargets
// (and, for the decoder, the lesson facts and the decider head) — as metrics.json's per-seed
// report holds it. Evaluate the model as it will be stored (weights through their saved form).
struct CorefModelReport {
  nlohmann::json report;  // {"splits", "head_probe_validation", "chosen_head", "lesson", "criteria", …}
  HeadChoice head;
  bool ok = false, lesson_ok = false;
  double worst_flip = 1.0;  // the lowest flip rate over the splits
};
CorefModelReport report_coref_model(const Transformer& model, const CorefCorpus& corpus, const Vocabulary& vocab,
                                    CorefReader reader);

// Replaces the two nouns of about `share` of the training pairs (examples 2k, 2k + 1 of
// corpus.train, as train_set holds them) by two other nouns, drawn from every noun the training
// sentences use. Nothing a held-out split tests is created: a noun that the noun-role split shows
// in a role it never trains in is neither replaced nor drawn, and no sentence gets a noun–adjective
// combination that the combinations split holds out. Deterministic for a seed.
// `families`: only these families' pairs (empty: every family's).
std::vector<TrainingExample> relabel_nouns(const CorefCorpus& corpus, std::vector<TrainingExample> train_set,
                                           const Vocabulary& vocab, float share, uint64_t seed,
                                           const std::vector<std::string>& families = {});

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

// A copy of the model as save_weights(model, format) stores it: what a metric must be measured on.
std::unique_ptr<Transformer> as_stored(Transformer& model, const WeightFormat& format);

}  // namespace ae
