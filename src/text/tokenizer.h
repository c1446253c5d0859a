// Word-level pre-tokenisation shared by every model (and by the page, through the bindings):
//  - ASCII letters are lower-cased; runs of letters and digits form words;
//  - contractions split the same way every time: "didn't" → "did" "n't", "it's" → "it" "'s"
//    (the typographic apostrophe ’ counts as ');
//  - every other punctuation mark is a token of its own;
//  - CJK ideographs and CJK punctuation are one token per character ("猫追狗" → 猫 追 狗), unless
//    a lexicon is given: then each run of adjacent ideographs is cut into the longest words the
//    lexicon knows, left to right (forward maximum matching, the classic dictionary segmenter for
//    Chinese: "动物没有穿过马路" → 动物 没有 穿过 马路); a character no lexicon word starts with
//    stays a token of its own.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

// Throws std::invalid_argument when the text is not valid UTF-8 (the message gives the byte offset).
std::vector<std::string> split_words(std::string_view text);

// Whether a lexicon knows a word (for example Vocabulary::contains).
using Lexicon = std::function<bool(std::string_view)>;
// The longest word a CJK run may be cut into, in characters.
inline constexpr int kMaxLexiconWordChars = 8;

// split_words with runs of adjacent CJK ideographs segmented by `known` (see above). An empty
// `known` gives split_words(text).
std::vector<std::string> split_words(std::string_view text, const Lexicon& known);

// A stable id in [first_id, vocab_size) from the word's FNV-1a hash. Only for untrained models
// that have no vocabulary of their own; ids below first_id stay free for special tokens.
int hashed_token_id(std::string_view word, int vocab_size, int first_id = 0);

// Appends code point c to out as UTF-8 (one to four bytes; c ≤ U+10FFFF, not checked).
void append_utf8(std::string& out, char32_t c);

}  // namespace ae
