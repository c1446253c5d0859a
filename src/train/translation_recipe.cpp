#include "train/translation_recipe.h"

#include "train/corpus.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace ae {

namespace {

using nlohmann::json;

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

json weight_format_json(const WeightFormat& f) {
  if (f.dtype != DType::I8) return {{"dtype", to_string(f.dtype)}};
  const char* scales = f.scales == ScaleRule::Rows ? "rows" : f.scales == ScaleRule::Columns ? "columns" : "outputs";
  return {{"dtype", "I8"}, {"levels", f.levels}, {"scales", scales}, {"vectors", to_string(f.vectors)}};
}

// One pair decoded greedily, and what the split report counts of it.
struct Decoded {
  GreedyDecoding decoding;
  std::vector<int> reference;  // the resolved Chinese ids + [SEP]
  int referent = -1;           // the referent's target id
  bool exact = false, noun = false;
};

Decoded decode(const EncoderDecoder& pair, const TranslationPair& p, const TranslationVocabularies& vocab,
               int max_output) {
  const TranslationExample ex = translation_example(p, vocab);
  Decoded d{greedy_decode(pair, ex.source, Vocabulary::kCls, Vocabulary::kSep, max_output), ex.target.targets,
            vocab.target.id(p.referent)};
  d.exact = d.decoding.tokens == d.reference;
  // The resolved noun: the output names the referent as often as the reference does (its
  // antecedent and in place of 它). Counted, not read at a position, so that a held-out template
  // — whose Chinese wording never appears in training — is judged on the noun alone.
  const auto count = [&](const std::vector<int>& ids) { return std::count(ids.begin(), ids.end(), d.referent); };
  d.noun = count(d.decoding.tokens) == count(d.reference);
  return d;
}

// The head's arg-max over the source at the step that writes the referent in place of 它 (the
// reference's position `pronoun`), if the output got that far.
int argmax_at(const Decoded& d, int step, int layer, int head) {
  if (step < 0 || step >= static_cast<int>(d.decoding.cross_attention.size())) return -1;
  const std::vector<float>& w = d.decoding.cross_attention[step][layer][head];
  return static_cast<int>(std::max_element(w.begin(), w.end()) - w.begin());
}

}  // namespace

void TranslationSettings::set(const std::string& assignment) {
  const SettingAssignment a(assignment);
  const std::string& key = a.key;
  const auto number = [&](double lo, double hi) { return a.number(lo, hi); };
  const auto whole = [&](int lo, int hi) { return a.whole(lo, hi); };
  if (key == "seed") seed = whole(1, 1000000);
  else if (key == "steps") steps = whole(1, 1000000);
  else if (key == "batch") batch = whole(2, 4096);
  else if (key == "learning_rate") learning_rate = static_cast<float>(number(1e-6, 1.0));
  else if (key == "weight_decay") weight_decay = static_cast<float>(number(0.0, 10.0));
  else throw std::invalid_argument("settings: translate-en-zh has no setting \"" + key + "\"");
}

TrainedTranslation train_translation_model(const RecipeOptions& options, const TranslationSettings& s) {
  const TranslationCorpus corpus = make_translation_corpus();
  const TranslationVocabularies vocab = translation_vocabularies(corpus);
  std::vector<TranslationExample> train_set;
  for (const auto& p : corpus.train) train_set.push_back(translation_example(p, vocab));

  ModelConfig ec;
  ec.vocab_size = vocab.source.size();
  ec.d_model = s.d_model;
  ec.n_heads = s.n_heads;
  ec.n_layers = s.encoder_layers;
  ec.max_len = s.max_len;
  ec.positional = PositionalEncoding::Rope;
  ec.tie_output = false;
  ModelConfig dc = ec;
  dc.vocab_size = vocab.target.size();
  dc.n_layers = s.decoder_layers;
  dc.causal = true;
  dc.cross_attention = true;
  auto encoder = std::make_unique<Transformer>(ec);
  auto decoder = std::make_unique<Transformer>(dc);
  encoder->init_random(static_cast<uint64_t>(s.seed), 1.0f);
  decoder->init_random(static_cast<uint64_t>(s.seed) + 1000, 1.0f);

  TrainOptions t;
  t.steps = options.quick ? 20 : s.steps;
  t.batch_size = s.batch;
  t.group_size = 2;  // minimal pairs in one batch
  t.seed = static_cast<uint64_t>(s.seed);
  t.optimizer.learning_rate = s.learning_rate;
  t.optimizer.weight_decay = s.weight_decay;
  t.optimizer.warmup_steps = t.steps / 20 + 1;
  const double cpu0 = cpu_seconds();
  EncoderDecoderTrainer trainer(*encoder, *decoder, train_set, t);
  json curve = json::array();
  double loss_sum = 0.0;
  while (!trainer.finished()) {
    const StepReport r = trainer.step();
    loss_sum += r.loss;
    if ((r.step + 1) % 250 == 0 || trainer.finished()) {
      curve.push_back({{"step", r.step + 1}, {"loss", loss_sum / ((r.step % 250) + 1)}});
      loss_sum = 0.0;
    }
  }
  const double train_cpu = cpu_seconds() - cpu0;

  // Everything below is measured on the weights as they will be stored.
  const WeightFormat format = options.coref_weights;
  const std::unique_ptr<Transformer> enc = as_stored(*encoder, format), dec = as_stored(*decoder, format);
  const EncoderDecoder pair{*enc, *dec};

  // The head: over validation, the one whose arg-max at the resolving step lands on the referent
  // most often (ties: the earlier layer, then the lower head).
  std::vector<Decoded> validation;
  for (const auto& p : corpus.validation) validation.push_back(decode(pair, p, vocab, s.max_output));
  json probe = json::array();
  int best_layer = 0, best_head = 0, best_hits = -1;
  for (int l = 0; l < dc.n_layers; ++l) {
    json row = json::array();
    for (int h = 0; h < dc.n_heads; ++h) {
      int hits = 0;
      for (size_t i = 0; i < validation.size(); ++i)
        hits += argmax_at(validation[i], corpus.validation[i].pronoun, l, h) == corpus.validation[i].english.referent;
      row.push_back(static_cast<double>(hits) / static_cast<double>(validation.size()));
      if (hits > best_hits) best_hits = hits, best_layer = l, best_head = h;
    }
    probe.push_back(row);
  }

  json splits = json::object();
  std::vector<std::pair<std::string, const std::vector<TranslationPair>*>> all = corpus.evaluation_splits();
  for (const auto& [name, split] : all) {
    int exact = 0, noun = 0, on_referent = 0, on_it_or_referent = 0;
    for (const auto& p : *split) {
      const Decoded d = name == "validation" ? validation[static_cast<size_t>(&p - split->data())]
                                             : decode(pair, p, vocab, s.max_output);
      exact += d.exact;
      noun += d.noun;
      const int j = argmax_at(d, p.pronoun, best_layer, best_head);
      on_referent += j == p.english.referent;
      on_it_or_referent += j == p.english.referent || j == p.english.pronoun;
    }
    const double n = static_cast<double>(split->size());
    splits[name] = {{"examples", split->size()},
                    {"exact_match", exact / n},
                    {"resolved_noun", noun / n},
                    {"head_on_referent", on_referent / n},
                    {"head_on_it_or_referent", on_it_or_referent / n}};
    std::fprintf(stderr, "  %-22s exact %.3f  noun %.3f  head on referent %.3f (it or referent %.3f)\n", name.c_str(),
                 exact / n, noun / n, on_referent / n, on_it_or_referent / n);
  }

  // The lesson pair (the first training pair).
  json lesson = json::array();
  for (size_t i = 0; i < 2 && i < corpus.train.size(); ++i) {
    const TranslationPair& p = corpus.train[i];
    const Decoded d = decode(pair, p, vocab, s.max_output);
    std::string text;
    for (int id : d.decoding.tokens)
      if (id != Vocabulary::kSep) text += vocab.target.token(id);
    const int step = p.pronoun;
    const bool has = step < static_cast<int>(d.decoding.tokens.size());
    lesson.push_back(
        {{"english", p.english.text},
         {"output", text},
         {"exact", d.exact},
         {"referent", p.referent},
         {"written", has ? vocab.target.token(d.decoding.tokens[static_cast<size_t>(step)]) : ""},
         {"probability", has ? d.decoding.probabilities[static_cast<size_t>(step)] : 0.0f},
         {"head_argmax", has ? p.english.tokens[static_cast<size_t>(argmax_at(d, step, best_layer, best_head))] : ""}});
  }

  json counts = {{"train", corpus.train.size()}};
  for (const auto& [name, split] : all) counts[name] = split->size();
  const json head = {{"layer", best_layer}, {"head", best_head}};
  json metrics = {
      {"model", kTranslationModelName},
      {"task", "translation"},
      {"corpus", {{"hash", corpus.hash}, {"counts", counts}}},
      {"settings",
       {{"d_model", s.d_model},
        {"n_heads", s.n_heads},
        {"encoder_layers", s.encoder_layers},
        {"decoder_layers", s.decoder_layers},
        {"steps", t.steps},
        {"batch", s.batch},
        {"seed", s.seed},
        {"learning_rate", s.learning_rate},
        {"weight_decay", s.weight_decay}}},
      {"weights", weight_format_json(format)},
      {"train_cpu_seconds", train_cpu},
      {"loss_curve", curve},
      {"resolved_noun_rule",
       "the output names the referent as many times as the resolved reference does (counted, not read at a position: "
       "a held-out template's Chinese wording never appears in training, so exact match is not its measure)"},
      {"head_rule",
       "over the validation split, the decoder cross-attention head whose arg-max over the English words at the step "
       "that writes the referent in place of 它 lands on the referent most often; ties: earlier layer, then lower "
       "head"},
      {"head_probe_validation", probe},
      {"cross_attention_head", head},
      {"splits", splits},
      {"lesson", lesson}};
  std::fprintf(stderr, "%s: %.0f CPU-s, head L%dH%d (%.3f on validation)\n", kTranslationModelName, train_cpu,
               best_layer + 1, best_head + 1, static_cast<double>(best_hits) / static_cast<double>(validation.size()));
  json pair_json = {{"format", "attention-explorer/encoder-decoder/1"},
                    {"task", "translation"},
                    {"name", kTranslationModelName},
                    {"source_language", "en"},
                    {"target_language", "zh"},
                    {"encoder", "encoder"},
                    {"decoder", "decoder"},
                    {"start", Vocabulary::kCls},
                    {"end", Vocabulary::kSep},
                    {"max_output", s.max_output},
                    {"cross_attention_head", head},
                    {"lesson", {corpus.train[0].english.text, corpus.train[1].english.text}}};
  return {std::move(encoder), std::move(decoder), vocab.source, vocab.target, pair_json, metrics, format};
}

}  // namespace ae
