// The measurements of tools/evaluate (src/inference/evaluation.h) on hand-made readings, where the
// right figures are known, and the reading of a sentence on the shipped coreference models.
#include "inference/evaluation.h"
#include "io/checkpoint.h"
#include "text/tokenizer.h"

#include <doctest/doctest.h>

using namespace ae;

namespace {

// A reading of a model with 2 layers × 2 heads in which only head 1:0 carries the given weights;
// every other head puts 0.3 on each noun.
SentenceReading reading(const std::string& category, float on_referent, float on_other, bool correct = true) {
  SentenceReading r;
  r.category = category;
  r.correct = correct;
  r.answer_in_sentence = correct;
  r.heads.assign(2, std::vector<HeadWeights>(2, HeadWeights{0.3f, 0.3f}));
  r.heads[1][0] = {on_referent, on_other};
  return r;
}

}  // namespace

TEST_CASE("evaluation: a pair flips only when both sentences are ≥ 0.5 on the referent and < 0.2 on the other") {
  CHECK(pair_flips({0.9f, 0.05f}, {0.5f, 0.19f}));
  CHECK_FALSE(pair_flips({0.9f, 0.05f}, {0.49f, 0.05f}));  // the second sentence misses the referent
  CHECK_FALSE(pair_flips({0.9f, 0.2f}, {0.9f, 0.05f}));    // the first sentence leaks 0.2 to the other noun
  CHECK_FALSE(pair_flips({0.1f, 0.8f}, {0.9f, 0.05f}));    // one sentence points the wrong way
}

TEST_CASE("evaluation: summarize counts per category and overall, pairs are consecutive lines") {
  const std::vector<SentenceReading> readings = {
      reading("a", 0.9f, 0.1f),        reading("a", 0.8f, 0.0f),  // pair flips
      reading("a", 0.9f, 0.1f, false), reading("a", 0.4f, 0.1f),  // pair does not flip; one wrong answer
      reading("b", 0.6f, 0.1f),        reading("b", 0.7f, 0.3f),  // does not flip (0.3 on the other)
      reading("b", 1.0f, 0.0f),                                   // trailing unpaired line
  };
  const std::vector<CategoryStats> s = summarize(readings, {1, 0});
  REQUIRE(s.size() == 3);
  CHECK(s[0].category == "a");
  CHECK(s[0].n == 4);
  CHECK(s[0].pairs == 2);
  CHECK(s[0].flips == 1);
  CHECK(s[0].flip_rate().value() == doctest::Approx(0.5));
  CHECK(s[0].accuracy() == doctest::Approx(0.75));
  CHECK(s[0].mean_on_referent == doctest::Approx((0.9 + 0.8 + 0.9 + 0.4) / 4));
  CHECK(s[0].mean_on_other == doctest::Approx((0.1 + 0.0 + 0.1 + 0.1) / 4));
  CHECK(s[1].category == "b");
  CHECK(s[1].n == 3);
  CHECK(s[1].pairs == 1);
  CHECK(s[1].flips == 0);
  CHECK(s[2].category == "all");
  CHECK(s[2].n == 7);
  CHECK(s[2].pairs == 3);
  CHECK(s[2].flips == 1);
  CHECK(s[2].correct == 6);
  // Another head sees 0.3 on both nouns everywhere: no flips, the same answers.
  const std::vector<CategoryStats> other_head = summarize(readings, {0, 1});
  CHECK(other_head.back().flips == 0);
  CHECK(other_head.back().mean_on_referent == doctest::Approx(0.3));
}

TEST_CASE("evaluation: a pair whose two lines have different categories is refused, naming the lines") {
  std::vector<SentenceReading> readings = {reading("a", 0.9f, 0.1f), reading("b", 0.9f, 0.1f)};
  readings[0].line = 7;
  readings[1].line = 8;
  CHECK_THROWS_WITH_AS(summarize(readings, {1, 0}), doctest::Contains("lines 7 and 8"), std::invalid_argument);
}

TEST_CASE("evaluation: the pairs rule picks the head whose worse sentence of each pair is best") {
  // Head 1:0 is great on one sentence of each pair and wrong on the other; head 0:1 is modest in
  // both. By the mean margin 1:0 wins (0.35 vs 0.3); by the worse sentence of each pair 0:1 does.
  std::vector<SentenceReading> readings = {reading("a", 1.0f, 0.0f), reading("a", 0.2f, 0.5f), reading("a", 1.0f, 0.0f),
                                           reading("a", 0.2f, 0.5f)};
  for (auto& r : readings) r.heads[0][1] = {0.5f, 0.2f};
  const HeadRef h = choose_head_by_pairs(readings);
  CHECK(h.layer == 0);
  CHECK(h.head == 1);
}

TEST_CASE("evaluation: a noun's position is its occurrence nearest before the pronoun, else after it") {
  const std::vector<std::string> t = split_words("the cat saw the dog and the cat chased it past the dog");
  const int it = 9;
  REQUIRE(t[static_cast<size_t>(it)] == "it");
  CHECK(nearest_occurrence(t, "cat", it) == 7);
  CHECK(nearest_occurrence(t, "dog", it) == 4);
  CHECK(nearest_occurrence(t, "past", it) == 10);  // only after the pronoun (clause-first)
  CHECK(nearest_occurrence(t, "zebra", it) == -1);
}

TEST_CASE("evaluation: the decoder prompt is the training format without the referent") {
  CHECK(decoder_prompt("The Animal didn't cross the street because it was too tired.") ==
        "the animal didn't cross the street because it was too tired . it =");
}

TEST_CASE("evaluation: the shipped encoder answers the lesson pair, and bad lines name their number") {
  const TrainedModel model(load_checkpoint(std::string(AE_SOURCE_DIR) + "/web/models/coref-encoder"));
  const SentenceReading tired = read_sentence(
      model, {"The animal didn't cross the street because it was too tired.", "animal", "street", "lesson", 1});
  const SentenceReading wide = read_sentence(
      model, {"The animal didn't cross the street because it was too wide.", "street", "animal", "lesson", 2});
  CHECK(tired.answer == "animal");
  CHECK(tired.correct);
  CHECK(wide.answer == "street");
  CHECK(wide.correct);
  CHECK(tired.pronoun == tired.row);
  CHECK(tired.referent == 1);
  CHECK(tired.other == 6);
  CHECK(static_cast<int>(tired.heads.size()) == model.config().n_layers);

  CHECK_THROWS_WITH_AS(read_sentence(model, {"The animal was tired.", "animal", "street", "x", 5}),
                       doctest::Contains("line 5"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(read_sentence(model, {"The animal saw it.", "animal", "street", "x", 6}),
                       doctest::Contains("\"street\" is not a word"), std::invalid_argument);
}

TEST_CASE("evaluation: the shipped decoder reads the row of \"=\" and names a word") {
  const TrainedModel model(load_checkpoint(std::string(AE_SOURCE_DIR) + "/web/models/coref-decoder"));
  const SentenceReading r = read_sentence(
      model, {"The animal didn't cross the street because it was too tired.", "animal", "street", "lesson", 1});
  // The sentence is 13 tokens (its "." at 12); the prompt goes on with "it =", so "=" is row 14.
  CHECK(r.row == 14);
  CHECK(r.pronoun == 8);
  CHECK_FALSE(r.answer.empty());
}
