#include "text/vocabulary.h"

#include "text/tokenizer.h"

#include <algorithm>
#include <stdexcept>

namespace ae {

namespace {

// Decodes `s` into code points; returns "" when it is well-formed UTF-8 (no overlong forms, no
// surrogates, ≤ U+10FFFF), otherwise a description naming the byte offset.
std::string decode_utf8(std::string_view s, std::u32string* out = nullptr) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    int extra = 0;
    char32_t cp = 0, min = 0;
    if (b0 < 0x80) {
      if (out) out->push_back(b0);
      ++i;
      continue;
    }
    if ((b0 & 0xE0) == 0xC0) {
      extra = 1;
      cp = b0 & 0x1F;
      min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
      extra = 2;
      cp = b0 & 0x0F;
      min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
      extra = 3;
      cp = b0 & 0x07;
      min = 0x10000;
    } else return "invalid UTF-8 at byte " + std::to_string(i);
    for (int k = 1; k <= extra; ++k) {
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
        return "invalid UTF-8 at byte " + std::to_string(i);
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return "invalid UTF-8 at byte " + std::to_string(i);
    if (out) out->push_back(cp);
    i += extra + 1;
  }
  return {};
}

// Optimal-string-alignment distance (Levenshtein plus adjacent swaps), three rolling rows of
// the usual DP table: row i holds the distances from a[0, i) to every prefix of b.
int edit_distance(const std::u32string& a, const std::u32string& b) {
  const size_t m = b.size();
  std::vector<int> before(m + 1), previous(m + 1), current(m + 1);
  for (size_t j = 0; j <= m; ++j) previous[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<int>(i);
    for (size_t j = 1; j <= m; ++j) {
      const int substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
}

// Why `word` cannot be a token (empty string if it can).
std::string word_error(std::string_view word) {
  if (word.empty()) return "empty token";
  if (word.find_first_of("\n\r") != std::string_view::npos) return "token contains a line break";
  return decode_utf8(word);
}

bool is_special(std::string_view word) {
  for (const auto& s : Vocabulary::special_tokens())
    if (word == s) return true;
  return false;
}

}  // namespace

const std::vector<std::string>& Vocabulary::special_tokens() {
  static const std::vector<std::string> specials = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
  return specials;
}

Vocabulary::Vocabulary() {
  for (const auto& s : special_tokens()) add(s);
}

bool Vocabulary::add(std::string word) {
  const int next = size();
  if (!ids_.emplace(word, next).second) return false;
  tokens_.push_back(std::move(word));
  return true;
}

Vocabulary Vocabulary::from_words(const std::vector<std::string>& words) {
  Vocabulary v;
  for (size_t i = 0; i < words.size(); ++i) {
    if (const auto why = word_error(words[i]); !why.empty())
      throw std::invalid_argument("vocabulary: word " + std::to_string(i) + ": " + why);
    if (!is_special(words[i])) v.add(words[i]);
  }
  return v;
}

Vocabulary Vocabulary::parse(std::string_view text) {
  Vocabulary v;
  const auto fail = [](size_t line, const std::string& why) {
    throw std::invalid_argument("vocabulary line " + std::to_string(line) + ": " + why);
  };
  size_t line = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    ++line;
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(pos, end - pos);
    pos = end + 1;
    if (!word.empty() && word.back() == '\r') word.remove_suffix(1);
    const int id = static_cast<int>(line) - 1;
    if (id < kNumSpecial) {
      if (word != special_tokens()[id])
        fail(line, "expected the special token " + special_tokens()[id] + " (ids 0–4 are " +
                       "[PAD] [UNK] [CLS] [SEP] [MASK] in this order), found \"" + std::string(word) + "\"");
      continue;  // already present from the constructor
    }
    if (const auto why = word_error(word); !why.empty()) fail(line, why);
    if (v.contains(word))
      fail(line,
           "duplicate token \"" + std::string(word) + "\" (first on line " + std::to_string(v.id(word) + 1) + ")");
    v.add(std::string(word));
  }
  if (line < static_cast<size_t>(kNumSpecial))
    fail(line + 1, "file ends before the " + std::to_string(kNumSpecial) + " special tokens");
  return v;
}

std::string Vocabulary::serialize() const {
  std::string out;
  for (const auto& t : tokens_) {
    out += t;
    out += '\n';
  }
  return out;
}

int Vocabulary::id(std::string_view word) const {
  const auto it = ids_.find(word);
  return it == ids_.end() ? kUnk : it->second;
}

std::vector<std::string> Vocabulary::words() const { return {tokens_.begin() + kNumSpecial, tokens_.end()}; }

std::vector<Vocabulary::Neighbour> Vocabulary::nearest(std::string_view word, int k, int max_distance) const {
  if (k < 0) throw std::invalid_argument("nearest: k must be 0 or more, got " + std::to_string(k));
  std::u32string query;
  if (const auto why = decode_utf8(word, &query); !why.empty()) throw std::invalid_argument("nearest: " + why);
  std::vector<Neighbour> found;
  std::u32string candidate;
  for (size_t id = kNumSpecial; id < tokens_.size(); ++id) {
    candidate.clear();
    decode_utf8(tokens_[id], &candidate);  // every token was checked when it was added
    // The distance is at least the difference in length: skip the O(length²) table when that
    // alone is too far (a 1,000-character query against short words costs nothing then).
    const size_t longer = std::max(query.size(), candidate.size()), shorter = std::min(query.size(), candidate.size());
    if (max_distance >= 0 && longer - shorter > static_cast<size_t>(max_distance)) continue;
    const int d = edit_distance(query, candidate);
    if (max_distance < 0 || d <= max_distance) found.push_back({tokens_[id], d});
  }
  // Stable: equal distances keep id order.
  std::stable_sort(found.begin(), found.end(),
                   [](const Neighbour& a, const Neighbour& b) { return a.distance < b.distance; });
  if (found.size() > static_cast<size_t>(k)) found.resize(static_cast<size_t>(k));
  return found;
}

bool Vocabulary::contains(std::string_view word) const { return ids_.find(word) != ids_.end(); }

const std::string& Vocabulary::token(int id) const {
  if (id < 0 || id >= size())
    throw std::out_of_range("vocabulary: token id " + std::to_string(id) + " is out of range [0, " +
                            std::to_string(size()) + ")");
  return tokens_[static_cast<size_t>(id)];
}

Vocabulary::Encoded Vocabulary::encode(std::string_view text, bool prepend_cls) const {
  Encoded e;
  std::vector<std::string> words = split_words(text, [this](std::string_view w) { return contains(w); });
  e.ids.reserve(words.size() + 1);
  e.tokens.reserve(words.size() + 1);
  if (prepend_cls) {
    e.ids.push_back(kCls);
    e.tokens.push_back(special_tokens()[kCls]);
  }
  for (auto& w : words) {
    const int i = id(w);
    if (i == kUnk) e.unknown.push_back(static_cast<int>(e.ids.size()));
    e.ids.push_back(i);
    e.tokens.push_back(std::move(w));
  }
  return e;
}

}  // namespace ae
