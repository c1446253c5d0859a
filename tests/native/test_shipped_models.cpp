// The models shipped in web/models still show what their metrics.json claims and what the
// page teaches. Everything is recomputed from the shipped files (the coreference models' I8
// weights times their scales, the word-order models' F16 weights widened to F32).
#include "inference/trained_model.h"
#include "io/checkpoint.h"
#include "train/corpus.h"
#include "train/recipes.h"
#include "train/tasks.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

using namespace ae;
using nlohmann::json;

namespace {

const std::string kModels = std::string(AE_SOURCE_DIR) + "/web/models/";

json read_metrics(const std::string& name) {
  std::ifstream f(kModels + name + "/metrics.json");
  REQUIRE_MESSAGE(f.good(), "missing " << kModels << name << "/metrics.json: run npm run train");
  return json::parse(f);
}

Checkpoint load(const std::string& name) { return load_checkpoint(kModels + name); }

template <typename Example, typename Make>
float split_accuracy(const Transformer& model, const std::vector<Example>& split, const Vocabulary& vocab, Make make) {
  std::vector<TrainingExample> examples;
  for (const auto& e : split) examples.push_back(make(e, vocab));
  return accuracy(model, examples);
}

}  // namespace

TEST_CASE("shipped word-order models: position matters only with a positional encoding") {
  const WordOrderCorpus corpus = make_word_order_corpus({});
  const auto make = [](const WordOrderExample& e, const Vocabulary& v) { return word_order_example(e, v); };
  for (const char* pe : {"none", "sinusoidal", "learned", "rope"}) {
    const std::string name = std::string("word-order-") + pe;
    CAPTURE(name);
    const Checkpoint c = load(name);
    const Vocabulary vocab = Vocabulary::parse(c.vocab_text);
    CHECK(to_string(c.config.positional) == pe);
    const float validation = split_accuracy(*c.model, corpus.validation, vocab, make);
    const float heldout = split_accuracy(*c.model, corpus.heldout, vocab, make);
    const json metrics = read_metrics(name);
    CHECK(validation == doctest::Approx(metrics["accuracy"]["f16"]["validation"].get<double>()).epsilon(1e-6));
    CHECK(heldout == doctest::Approx(metrics["accuracy"]["f16"]["heldout"].get<double>()).epsilon(1e-6));
    if (std::string(pe) == "none") {
      // 猫追狗 and 狗追猫 are the same set of tokens: the [CLS] output cannot differ, so exactly
      // one sentence of each pair can be right.
      CHECK(validation <= 0.5f);
      const TrainingExample a = word_order_example(corpus.validation[0], vocab);
      const auto& partner =
          corpus.validation[0].pair_id == corpus.validation[1].pair_id ? corpus.validation[1] : corpus.validation[0];
      const TrainingExample b = word_order_example(partner, vocab);
      const Matrix out_a = c.model->forward(a.ids, {}, nullptr), out_b = c.model->forward(b.ids, {}, nullptr);
      CHECK((out_a.row(0) - out_b.row(0)).cwiseAbs().maxCoeff() < 1e-5f);  // float summation order only
    } else {
      CHECK(validation >= 0.99f);
      CHECK(heldout >= 0.99f);
    }
  }
}

// Both coreference models: every split's figures in metrics.json are what the files give, the
// criteria flags say what the numbers say, and the lesson pair flips in the named head.
TEST_CASE("shipped coreference models: metrics.json's split reports, head and criteria are what the files give") {
  const std::pair<CorefReader, CorefLanguage> models[] = {{CorefReader::Encoder, CorefLanguage::English},
                                                          {CorefReader::Encoder, CorefLanguage::Chinese},
                                                          {CorefReader::Decoder, CorefLanguage::English}};
  for (const auto& model : models) {
    const CorefReader reader = model.first;  // not a structured binding: clang 14 cannot capture those
    const CorefLanguage language = model.second;
    const std::string name = coref_model_name(reader, language);
    CAPTURE(name);
    const json metrics = read_metrics(name);
    const CorefCorpus corpus = make_coref_corpus(coref_corpus_options(metrics["settings"]));  // the model's own
    REQUIRE(corpus.language == language);
    const Checkpoint c = load(name);
    const Vocabulary vocab = Vocabulary::parse(c.vocab_text);
    const json& shipped = metrics["shipped"];
    const json& targets = metrics["targets"];

    // The head named in config.json is the rule's choice over validation.
    const int layer = c.config_json["coreference_head"]["layer"], head = c.config_json["coreference_head"]["head"];
    const HeadChoice choice =
        choose_coreference_head_by_pairs(probe_pronoun_heads(*c.model, corpus.validation, vocab, reader));
    CHECK(choice.layer == layer);
    CHECK(choice.head == head);
    CHECK(choice.mean.referent ==
          doctest::Approx(shipped["chosen_head"]["mean_on_referent"].get<double>()).epsilon(1e-5));
    CHECK(choice.mean.other == doctest::Approx(shipped["chosen_head"]["mean_on_other"].get<double>()).epsilon(1e-5));

    bool accuracy_ok = true, in_sentence_ok = true, flip_ok = true;
    for (const auto& [split_name, split] : corpus.evaluation_splits()) {
      const auto& split_name_ = split_name;  // clang 14 cannot capture a structured binding
      CAPTURE(split_name_);
      const CorefSplitReport r = coref_split_report(*c.model, *split, vocab, reader, layer, head);
      const json& m = shipped["splits"][split_name];
      CHECK(r.examples == m["examples"].get<int>());
      CHECK(r.accuracy == doctest::Approx(m["accuracy"].get<double>()).epsilon(1e-6));
      CHECK(r.answer_in_sentence == doctest::Approx(m["answer_in_sentence"].get<double>()).epsilon(1e-6));
      CHECK(r.weight_on_referent == doctest::Approx(m["weight_on_referent"].get<double>()).epsilon(1e-5));
      CHECK(r.weight_on_other == doctest::Approx(m["weight_on_other"].get<double>()).epsilon(1e-4));
      CHECK(r.flip_rate == doctest::Approx(m["flip_rate"].get<double>()).epsilon(1e-6));
      accuracy_ok = accuracy_ok && r.accuracy >= targets["accuracy"].get<double>();
      in_sentence_ok = in_sentence_ok && r.answer_in_sentence >= targets["answer_in_sentence"].get<double>();
      // The extended corpus's held-out splits have a stricter flip target (coref_split_targets).
      flip_ok = flip_ok &&
                r.flip_rate >= std::max(targets["flip_rate"].get<double>(), coref_split_targets(split_name).flip_rate);
      if (split_name == "validation") CHECK(r.accuracy >= 0.9);  // a floor the shipped models keep
    }
    // The criteria flags must say what the numbers say: a model cannot claim what it lacks.
    CHECK(shipped["criteria"]["accuracy"].get<bool>() == accuracy_ok);
    CHECK(shipped["criteria"]["answer_in_sentence"].get<bool>() == in_sentence_ok);
    CHECK(shipped["criteria"]["flip_rate"].get<bool>() == flip_ok);
    CHECK(shipped["criteria"]["head"].get<bool>() ==
          (choice.mean.referent >= targets["head_on_referent"].get<double>() &&
           choice.mean.other <= targets["head_on_other"].get<double>()));

    // The lesson pair: right answers, and the head puts most of the row's weight on the referent.
    const auto lesson = lesson_examples(language);
    for (size_t i = 0; i < lesson.size(); ++i) CHECK(c.config_json["lesson"][i] == lesson[i].text);  // the page's pair
    CHECK(c.config_json["pronoun"] == coref_lexicon(language).pronoun);
    bool lesson_ok = true;
    for (size_t i = 0; i < lesson.size(); ++i) {
      CAPTURE(lesson[i].text);
      const CorefSplitReport r = coref_split_report(*c.model, {lesson[i]}, vocab, reader, layer, head);
      CHECK(r.accuracy == 1.0);
      CHECK(r.weight_on_referent ==
            doctest::Approx(shipped["lesson"][i]["weight_on_referent"].get<double>()).epsilon(1e-5));
      if (reader == CorefReader::Encoder) CHECK(r.weight_on_referent >= 0.9);  // the page's lesson: it flips
      lesson_ok = lesson_ok && r.accuracy == 1.0 && r.weight_on_referent >= targets["lesson"].get<double>();
    }
    CHECK(shipped["criteria"]["lesson"].get<bool>() == lesson_ok);

    // "k of n seeds": what config.json shows the page is what metrics.json lists seed by seed.
    int passing = 0;
    for (const auto& s : metrics["seeds"]) passing += s["criteria"]["all"].get<bool>();
    // The seeds listed are the recipe's (train's shipped_coref_settings, unless --set changed them).
    const auto& settings = metrics["settings"];
    REQUIRE(metrics["seeds"].size() == settings["seeds"].get<size_t>());
    for (size_t i = 0; i < metrics["seeds"].size(); ++i)
      CHECK(metrics["seeds"][i]["seed"].get<int>() == settings["first_seed"].get<int>() + static_cast<int>(i));
    CHECK(metrics["seeds_passing"].get<int>() == passing);
    CHECK(metrics["seeds_trained"].get<size_t>() == metrics["seeds"].size());
    CHECK(c.config_json["seeds_passing"] == metrics["seeds_passing"]);
    CHECK(c.config_json["seeds_trained"] == metrics["seeds_trained"]);
    // The seed study the page's banner quotes is the recipe's, as the trainer states it.
    const CorefSettings recipe = shipped_coref_settings(reader, language);
    REQUIRE(c.config_json.contains("seed_study"));
    CHECK(c.config_json["seed_study"] ==
          nlohmann::json{{"passing", recipe.study_passing}, {"trained", recipe.study_seeds}});
    CHECK(settings["seed_study"] == c.config_json["seed_study"]);
  }
}

// The coreference models are stored as the trainer stores them (kShippedCorefWeights): every
// matrix I8 within ±levels, each scale group reaching ±levels (absmax quantization), its F32 scale
// per output feature; every vector F16; and metrics.json says which format it measured.
TEST_CASE("shipped coreference models: the file is in the shipped weight format") {
  const WeightFormat& format = kShippedCorefWeights;
  for (const char* name : {"coref-encoder", "coref-encoder-zh", "coref-decoder"}) {
    CAPTURE(name);
    std::ifstream in(kModels + name + "/model.safetensors", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    const SafetensorsFile file = parse_safetensors(bytes);
    const Checkpoint c = load(name);
    size_t parameters = 0, matrices = 0;
    c.model->visit_parameters([&](const std::string& parameter, Matrix& value) {
      CAPTURE(parameter);
      ++parameters;
      const StoredTensor& t = file.tensors.at(parameter);
      if (stored_shape(parameter, value).size() == 1) {
        CHECK(t.dtype == format.vectors);
        return;
      }
      ++matrices;
      REQUIRE(t.dtype == DType::I8);
      const ScaleAxis axis = scale_axis(parameter, format.scales);
      const StoredTensor& scale = file.tensors.at(parameter + "_scale");
      CHECK(scale.dtype == DType::F32);
      const int64_t rows = t.shape[0], cols = t.shape[1];
      CHECK(scale.shape == (axis == ScaleAxis::Rows ? std::vector<int64_t>{rows, 1} : std::vector<int64_t>{1, cols}));
      std::vector<float> largest(scale.values.size(), 0.0f);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t col = 0; col < cols; ++col) {
          const float q = std::fabs(t.values[static_cast<size_t>(r * cols + col)]);
          float& l = largest[static_cast<size_t>(axis == ScaleAxis::Rows ? r : col)];
          l = std::max(l, q);
        }
      for (size_t k = 0; k < largest.size(); ++k)
        CHECK(largest[k] == (scale.values[k] == 0.0f ? 0.0f : static_cast<float>(format.levels)));
    });
    CHECK(file.tensors.size() == parameters + matrices);  // one scale tensor per matrix, nothing else
    const json weights = read_metrics(name)["weights"];
    CHECK(weights == json{{"dtype", "I8"}, {"levels", format.levels}, {"scales", "outputs"}, {"vectors", "F16"}});
  }
}

TEST_CASE("shipped decoder: completes the lesson pair, and its row at 'it' cannot see the deciding word") {
  const TrainedModel model(load("coref-decoder"));
  const auto lesson = lesson_examples();
  std::vector<Analysis> runs;
  for (const auto& e : lesson) {
    const std::string text = decoder_text(e);
    runs.push_back(model.analyze(text));
    CHECK(model.generate(text.substr(0, text.rfind(" it =")) + " .", 3) ==
          std::vector<std::string>{"it", "=", e.referent_word});
  }
  const int it = lesson[0].pronoun;
  for (size_t l = 0; l < runs[0].trace.layers.size(); ++l)
    for (size_t h = 0; h < runs[0].trace.layers[l].self_attention.heads.size(); ++h) {
      const Matrix& a = runs[0].trace.layers[l].self_attention.heads[h].attention.weights;
      const Matrix& b = runs[1].trace.layers[l].self_attention.heads[h].attention.weights;
      CHECK(a.row(it) == b.row(it));  // bit-identical: the prefix up to "it" is the same
    }
}
