// Helpers shared by the corpus generators (coref_corpus.cpp, corpus.cpp); not a public API.
#pragma once

#include "text/tokenizer.h"
#include "train/corpus.h"
#include "util/rng.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ae::corpus_detail {

// An independent stream for each (purpose, a, b), so that drawing more for one split or slot never
// shifts what another gets.
inline Rng sub_rng(uint64_t seed, uint64_t purpose, uint64_t a = 0, uint64_t b = 0) {
  Rng mixer(seed ^ (purpose * 0xD1B54A32D192ED03ull));
  uint64_t s = mixer.next_u64() ^ (a * 0x8CB92BA72F3D8DD7ull);
  s = Rng(s).next_u64() ^ (b * 0xABC98388FB8FAC03ull);
  return Rng(Rng(s).next_u64());
}

// Fisher–Yates with ae::Rng::below: the same permutation on every standard library.
template <typename T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

// How often `word` occurs in tokens; *where is set to its last index.
inline int count_of(const std::vector<std::string>& tokens, std::string_view word, int* where) {
  int n = 0;
  for (size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] == word) {
      ++n;
      *where = static_cast<int>(i);
    }
  return n;
}

using WordSet = std::set<std::string, std::less<>>;

inline void add_unique(std::vector<std::string>& out, WordSet& seen, const std::string& w) {
  if (seen.insert(w).second) out.push_back(w);
}

inline void add_words_of(std::vector<std::string>& out, WordSet& seen, std::string_view text) {
  for (const auto& w : split_words(text)) add_unique(out, seen, w);
}

// A family's templates: those whose pattern starts with {1} put role 1 first; the last two (one
// role 0 first, then one role 1 first) are held out.
inline std::vector<CorefTemplate> family_templates(std::initializer_list<const char*> patterns) {
  std::vector<CorefTemplate> out;
  const size_t n = patterns.size();
  size_t k = 0;
  for (const char* p : patterns) {
    const bool role1_first = std::string_view(p).starts_with("{1}");
    const bool heldout = k + 2 >= n;
    out.push_back({p, role1_first, heldout});
    ++k;
  }
  if (n < 4 || out[n - 2].role1_first || !out[n - 1].role1_first)
    throw std::logic_error("family_templates: the last two patterns must be role 0 first, then role 1 first");
  return out;
}

// "今天 早上 ，" → 今天, 早上, ，
inline std::vector<std::string> split_at_spaces(std::string_view text) {
  std::vector<std::string> out;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find(' ', start), text.size());
    if (end > start) out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

inline size_t pairs_for(int examples) { return examples > 0 ? static_cast<size_t>(examples / 2) : 0; }

}  // namespace ae::corpus_detail

namespace ae {
// The Chinese words of the coreference corpus (coref_lexicon_zh.cpp).
CorefLexicon chinese_coref_lexicon();

// How the English corpus's words are said in the Chinese one (coref_lexicon_zh.cpp), for the
// parallel pairs of make_translation_corpus. Indices are into the lexicons' lists; −1 = no
// Chinese word, and a pair that needs one is not made. Many English words may share one Chinese
// word (road, highway → 公路 …); no English word has two.
struct CorefDictionary {
  // Per family: English noun or adjective → Chinese word of the same role in the Chinese family.
  std::vector<std::vector<std::pair<std::string, std::string>>> nouns, adjectives;
  std::vector<std::vector<int>> templates;  // per family: English template → Chinese template
  std::vector<int> connectives, verbs, modifiers, distractors, suffixes;
  // Openers, middles and each family's intensifiers are said in the same order in both lexicons.
};
const CorefDictionary& english_to_chinese();

// A language's lexicon with the additions of CorefOptions::extended (coref_lexicon_extended.cpp).
CorefLexicon extended_coref_lexicon(const CorefLexicon& base);
}  // namespace ae
