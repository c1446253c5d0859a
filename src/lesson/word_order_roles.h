// Reads a sentence of the word-order corpus's grammar back into its roles, so that a page can
// say whether a model's answer is right for a sentence the reader typed. The grammar is the
// one make_word_order_corpus writes: an optional time prefix (今天, 昨天, 刚才), then
// subject-verb-object in one of the patterns SVO, S在VO, SV了O, with one-character nouns
// and verbs from word_order_nouns() / word_order_verbs(). The agent is the subject.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ae {

struct WordOrderRoles {
  std::string agent, verb, patient;
};

// The roles of text, or nullopt when text is not a sentence of that grammar (unknown
// characters, wrong order, extra or missing words). Throws std::invalid_argument only for
// text that is not UTF-8 (from split_words).
std::optional<WordOrderRoles> parse_word_order(std::string_view text);

}  // namespace ae
