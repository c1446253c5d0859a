// Evaluating a coreference model on a file of sentences (tools/evaluate.cpp): what the model
// answers for the pronoun, where the coreference head points, and how often that head follows the
// referent across a minimal pair. The tool parses and prints; everything measured is here, so the
// rules (which occurrence of a noun counts, when a pair "flips", how a head is chosen) have one
// source and doctest tests (tests/native/test_evaluation.cpp).
//
// Model kinds (config.json):
//   encoder, task "coreference": the sentence as typed; the answer is the prediction at the last
//     "it" (TrainedModel::analyze), the head's row is that "it".
//   decoder, causal, task "next-word": the prompt is decoder_text() without a referent
//     ("the animal didn't cross the street because it was too tired . it ="); the answer is the
//     arg-max word after "=", the head's row is "=".
#pragma once

#include "inference/trained_model.h"

#include <optional>
#include <string>
#include <vector>

namespace ae {

// One line of the evaluation file: {"text", "referent", "other", "category"}.
struct CorefItem {
  std::string text, referent, other, category;
  int line = 0;  // 1-based line number in the file, for messages
};

// Thresholds of a minimal pair that "flips": in both sentences the head puts at least
// kFlipOnReferent on the referent and less than kFlipOnOther on the other noun.
inline constexpr float kFlipOnReferent = 0.5f;
inline constexpr float kFlipOnOther = 0.2f;

struct HeadWeights {
  float referent = 0.0f, other = 0.0f;  // weight from the head's row on each noun
};

// What one sentence gives, read once for every head (the decoder's head may be chosen later).
struct SentenceReading {
  int line = 0;  // the item's line in the file
  std::string category;
  std::string answer;                           // the model's arg-max word
  bool correct = false;                         // answer == referent (as tokens: lower-cased)
  bool answer_in_sentence = false;              // answer is one of the sentence's tokens
  std::vector<std::string> unknown_words;       // sentence words the vocabulary lacks (read as [UNK])
  int pronoun = -1, referent = -1, other = -1;  // token positions in the sentence
  int row = -1;                                 // the query row read: the pronoun (encoder) or "=" (decoder)
  std::vector<std::vector<HeadWeights>> heads;  // [layer][head]
};

// Position of the occurrence of `word` nearest before `pronoun`; when it occurs only after the
// pronoun (a clause-first sentence), the nearest after it; -1 when it does not occur.
int nearest_occurrence(const std::vector<std::string>& tokens, const std::string& word, int pronoun);

// The decoder prompt for a sentence: decoder_text() (src/train/corpus.h) with no referent.
std::string decoder_prompt(const std::string& sentence);

// True for the kinds above; other tasks cannot be evaluated.
bool evaluable(const TrainedModel& model);

// Runs the model on one item. Throws std::invalid_argument naming the line when the sentence
// has no "it", the referent or other word is not one word of the sentence, or the model refuses
// the text (too long, empty).
SentenceReading read_sentence(const TrainedModel& model, const CorefItem& item);

struct HeadRef {
  int layer = -1, head = -1;
};

// config.json's "coreference_head" {layer, head} (0-based), or nullopt when absent. Throws
// std::invalid_argument when it is malformed or outside the model.
std::optional<HeadRef> configured_head(const TrainedModel& model);

// The pairs rule of choose_coreference_head_by_pairs (src/train/tasks.h) over these readings:
// the head with the largest mean over pairs (lines 2k, 2k+1) of the smaller of the pair's two
// margins (weight on referent − weight on other); a trailing unpaired line is a pair of one.
HeadRef choose_head_by_pairs(const std::vector<SentenceReading>& readings);

// Whether the pair flips in head h (both sentences ≥ kFlipOnReferent on the referent and
// < kFlipOnOther on the other noun).
bool pair_flips(const HeadWeights& first, const HeadWeights& second);

struct CategoryStats {
  std::string category;  // "all" for the total
  int n = 0;
  int pairs = 0;  // complete pairs (lines 2k, 2k+1) in this category
  int correct = 0, in_sentence = 0, flips = 0;
  int with_unknown = 0;  // sentences with at least one [UNK] word
  double mean_on_referent = 0.0, mean_on_other = 0.0;
  double accuracy() const { return n ? static_cast<double>(correct) / n : 0.0; }
  double in_sentence_rate() const { return n ? static_cast<double>(in_sentence) / n : 0.0; }
  std::optional<double> flip_rate() const {
    return pairs ? std::optional<double>(static_cast<double>(flips) / pairs) : std::nullopt;
  }
};

// Per category (in order of first appearance), then "all", for head h. Pairs are lines 2k and
// 2k+1 of the file; both must have the same category (std::invalid_argument naming the lines
// otherwise); a trailing odd line counts everywhere except in the flip rate.
std::vector<CategoryStats> summarize(const std::vector<SentenceReading>& readings, HeadRef head);

}  // namespace ae
