// A word-level vocabulary: the mapping between the words that ae::split_words produces and the
// integer ids a trained model's embedding table is indexed by.
//
// Ids 0..4 are always the special tokens, in this order, so that every model and every page
// agrees on them without reading the file:
//   0 [PAD]   padding in a batch (never attended to)
//   1 [UNK]   a word the model never saw in training
//   2 [CLS]   prepended for sequence-level tasks (an encoder classifies from its output)
//   3 [SEP]   separator between segments
//   4 [MASK]  a hidden word for masked-language-model training
//
// File format (vocab.txt): UTF-8, one token per line, line k (1-based) is id k−1; the first five
// lines are the special tokens above. A final newline is optional; "\r\n" line ends are accepted.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

class Vocabulary {
 public:
  static constexpr int kPad = 0;
  static constexpr int kUnk = 1;
  static constexpr int kCls = 2;
  static constexpr int kSep = 3;
  static constexpr int kMask = 4;
  static constexpr int kNumSpecial = 5;

  // The spelling of the special tokens, indexed by id.
  static const std::vector<std::string>& special_tokens();

  // Only the special tokens.
  Vocabulary();

  // Specials first, then `words` in first-seen order; duplicates and special tokens in `words` are
  // skipped. Throws std::invalid_argument for an empty word, a word with a line break (it could
  // not be written to the one-token-per-line file) or a word that is not valid UTF-8.
  static Vocabulary from_words(const std::vector<std::string>& words);

  // Reads the file format above. Throws std::invalid_argument("vocabulary line N: …") when the
  // specials are missing or out of order, a line is empty, a token repeats or is not UTF-8.
  static Vocabulary parse(std::string_view text);

  // The file format above; parse(serialize()) gives back an equal vocabulary.
  std::string serialize() const;

  // kUnk for a word that is not in the vocabulary. Lookup is exact (split_words lower-cases).
  int id(std::string_view word) const;
  bool contains(std::string_view word) const;
  // Throws std::out_of_range naming the id and the valid range.
  const std::string& token(int id) const;
  int size() const { return static_cast<int>(tokens_.size()); }
  // All tokens, indexed by id.
  const std::vector<std::string>& tokens() const { return tokens_; }
  // The words a user can type: every token but the special ones, in id order.
  std::vector<std::string> words() const;

  struct Neighbour {
    std::string word;
    int distance = 0;  // edit distance to the query (see nearest)
  };

  // The k words (never a special token) closest to `word` by edit distance over Unicode code
  // points, counting an insertion, a deletion, a substitution or a swap of two adjacent
  // characters as one edit (optimal string alignment: "teh" → "the" is 1, "bycicle" →
  // "bicycle" is 2). Only words at distance ≤ max_distance (< 0: any); nearest first, ties in
  // id order, so the answer is the same on every build. `word` itself, if known, comes first at
  // distance 0. Throws std::invalid_argument for k < 0 or a `word` that is not valid UTF-8.
  std::vector<Neighbour> nearest(std::string_view word, int k, int max_distance = -1) const;

  struct Encoded {
    std::vector<int> ids;
    std::vector<std::string> tokens;  // the words as split ("zebra" stays "zebra" even if unknown)
    std::vector<int> unknown;         // positions in ids/tokens whose id is kUnk
  };

  // Splits `text` with ae::split_words, cutting CJK runs into the longest words of this
  // vocabulary (tokenizer.h), and looks every word up. With prepend_cls the sequence
  // starts with [CLS] and all positions (also in `unknown`) count it. Unknown words are kept as
  // [UNK] and listed, never dropped, so a caller can tell the user which words the model cannot
  // read. Throws std::invalid_argument for text that is not valid UTF-8.
  Encoded encode(std::string_view text, bool prepend_cls = false) const;

 private:
  // Appends `word` unless present; returns false if it was already there.
  bool add(std::string word);

  std::vector<std::string> tokens_;
  std::map<std::string, int, std::less<>> ids_;  // std::less<> allows lookup by string_view
};

}  // namespace ae
