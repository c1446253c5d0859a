#include "text/tokenizer.h"

#include <cstdint>
#include <stdexcept>

namespace ae {

namespace {

// Decodes the code point at text[i], advancing i; throws on malformed UTF-8.
char32_t next_code_point(std::string_view text, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const size_t start = i;
  const unsigned char b0 = byte(i);
  int extra = 0;
  char32_t cp = 0;
  if (b0 < 0x80) {
    cp = b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    cp = b0 & 0x1F;
    extra = 1;
  } else if ((b0 & 0xF0) == 0xE0) {
    cp = b0 & 0x0F;
    extra = 2;
  } else if ((b0 & 0xF8) == 0xF0) {
    cp = b0 & 0x07;
    extra = 3;
  } else throw std::invalid_argument("text is not valid UTF-8 (byte " + std::to_string(start) + ")");
  ++i;
  for (int k = 0; k < extra; ++k, ++i) {
    if (i >= text.size() || (byte(i) & 0xC0) != 0x80)
      throw std::invalid_argument("text is not valid UTF-8 (byte " + std::to_string(start) + ")");
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  // Overlong forms (e.g. C0 A7 for an apostrophe), UTF-16 surrogates and values past U+10FFFF
  // are well-formed bit patterns but not UTF-8.
  constexpr char32_t kSmallest[] = {0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[extra] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
    throw std::invalid_argument("text is not valid UTF-8 (byte " + std::to_string(start) + ")");
  return cp;
}

bool is_space(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0x00A0 || c == 0x3000;
}

bool is_apostrophe(char32_t c) { return c == '\'' || c == 0x2019; }

// Characters written without spaces between words: each becomes its own token.
bool is_cjk(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x3000 && c <= 0x303F) ||  // CJK punctuation 。、「」
         (c >= 0xFF00 && c <= 0xFFEF) ||  // full-width forms ，！？
         (c >= 0x3040 && c <= 0x30FF) ||  // kana
         (c >= 0x20000 && c <= 0x2FFFF);
}

bool is_word_char(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return !is_space(c) && !is_cjk(c) && !is_apostrophe(c) && !(c >= 0x2000 && c <= 0x206F);  // general punctuation
}

// Splits a word with an inner apostrophe into stem and clitic: did|n't, it|'s, we|'re.
void push_word(std::string word, std::vector<std::string>& out) {
  const size_t apos = word.find('\'');
  if (apos == std::string::npos) {
    out.push_back(std::move(word));
    return;
  }
  const bool negation = word.size() >= 3 && word.compare(word.size() - 3, 3, "n't") == 0 && apos == word.size() - 2;
  const size_t cut = negation ? word.size() - 3 : apos;
  if (cut > 0) out.push_back(word.substr(0, cut));
  out.push_back(word.substr(cut));
}

// CJK characters that write words (not punctuation, full-width forms or kana).
bool is_ideograph(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x20000 && c <= 0x2FFFF);
}

// Appends the longest lexicon word of ideographs starting at cps[start] (one character if none
// is known) and returns the index after it.
size_t push_longest_word(const std::vector<char32_t>& cps, size_t start, const Lexicon& known,
                         std::vector<std::string>& out) {
  size_t end = start + 1;
  while (end < cps.size() && end - start < static_cast<size_t>(kMaxLexiconWordChars) && is_ideograph(cps[end])) ++end;
  for (; end > start + 1; --end) {
    std::string candidate;
    for (size_t k = start; k < end; ++k) append_utf8(candidate, cps[k]);
    if (known(candidate)) {
      out.push_back(std::move(candidate));
      return end;
    }
  }
  std::string single;
  append_utf8(single, cps[start]);
  out.push_back(std::move(single));
  return start + 1;
}

}  // namespace

void append_utf8(std::string& s, char32_t c) {
  if (c < 0x80) s += static_cast<char>(c);
  else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::vector<std::string> split_words(std::string_view text) { return split_words(text, Lexicon{}); }

std::vector<std::string> split_words(std::string_view text, const Lexicon& known) {
  // Decode once so that apostrophes can look ahead at the next character.
  std::vector<char32_t> cps;
  for (size_t i = 0; i < text.size();) cps.push_back(next_code_point(text, i));

  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) push_word(std::move(word), out);
    word.clear();
  };
  for (size_t i = 0; i < cps.size(); ++i) {
    char32_t c = cps[i];
    if (is_word_char(c)) {
      if (c >= 'A' && c <= 'Z') c = c - 'A' + 'a';
      append_utf8(word, c);
    } else if (known && is_ideograph(c)) {
      flush();
      i = push_longest_word(cps, i, known, out) - 1;
    } else if (is_apostrophe(c) && !word.empty() && i + 1 < cps.size() && is_word_char(cps[i + 1])) {
      word += '\'';  // inner apostrophe: part of a contraction
    } else {
      flush();
      if (!is_space(c)) {
        std::string symbol;
        append_utf8(symbol, is_apostrophe(c) ? U'\'' : c);
        out.push_back(std::move(symbol));
      }
    }
  }
  flush();
  return out;
}

int hashed_token_id(std::string_view word, int vocab_size, int first_id) {
  if (vocab_size <= first_id) throw std::invalid_argument("hashed_token_id: vocab_size must exceed first_id");
  uint32_t h = 2166136261u;
  for (unsigned char c : word) h = (h ^ c) * 16777619u;
  return first_id + static_cast<int>(h % static_cast<uint32_t>(vocab_size - first_id));
}

}  // namespace ae
