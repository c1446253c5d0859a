#include "lesson/word_order_roles.h"

#include "text/tokenizer.h"
#include "train/corpus.h"

#include <algorithm>
#include <vector>

namespace ae {

namespace {

bool contains(const std::vector<std::string>& words, const std::string& w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

// The characters of a pattern, one UTF-8 sequence each ("S在VO" → S 在 V O). Not split_words:
// it would read the letters "VO" as one word.
std::vector<std::string> characters(const std::string& pattern) {
  std::vector<std::string> out;
  for (size_t i = 0; i < pattern.size();) {
    const auto lead = static_cast<unsigned char>(pattern[i]);
    const size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    out.push_back(pattern.substr(i, length));
    i += length;
  }
  return out;
}

// Matches tokens against one pattern ("SVO", "S在VO", …: S, V, O stand for one token each,
// any other character must appear literally) and fills the roles.
std::optional<WordOrderRoles> match(const std::vector<std::string>& tokens, const std::string& pattern) {
  const std::vector<std::string> slots = characters(pattern);
  if (slots.size() != tokens.size()) return std::nullopt;
  WordOrderRoles roles;
  for (size_t i = 0; i < slots.size(); ++i) {
    const std::string& t = tokens[i];
    if (slots[i] == "S" || slots[i] == "O") {
      if (!contains(word_order_nouns(), t)) return std::nullopt;
      (slots[i] == "S" ? roles.agent : roles.patient) = t;
    } else if (slots[i] == "V") {
      if (!contains(word_order_verbs(), t)) return std::nullopt;
      roles.verb = t;
    } else if (slots[i] != t) {
      return std::nullopt;
    }
  }
  return roles;
}

}  // namespace

std::optional<WordOrderRoles> parse_word_order(std::string_view text) {
  const std::vector<std::string> tokens = split_words(text);
  for (const std::string& prefix : word_order_prefixes()) {
    const std::vector<std::string> head = split_words(prefix);
    if (head.size() > tokens.size() || !std::equal(head.begin(), head.end(), tokens.begin())) continue;
    const std::vector<std::string> rest(tokens.begin() + static_cast<std::ptrdiff_t>(head.size()), tokens.end());
    for (const std::string& pattern : word_order_patterns())
      if (auto roles = match(rest, pattern)) return roles;
  }
  return std::nullopt;
}

}  // namespace ae
