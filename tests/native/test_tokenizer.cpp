// Word-level pre-tokenisation (split_words) and hashed ids (hashed_token_id).
#include "text/tokenizer.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Words = std::vector<std::string>;

struct Case {
  const char* name;
  std::string text;
  Words expected;
};

void check_split(const Case& c) {
  INFO("c.name := ", std::string(c.name));
  CAPTURE(c.text);
  CHECK(ae::split_words(c.text) == c.expected);
}

// FNV-1a, 32 bits, written out from its definition.
uint32_t fnv1a(const std::string& s) {
  uint32_t h = 0x811C9DC5u;
  for (unsigned char c : s) h = (h ^ c) * 0x01000193u;
  return h;
}

}  // namespace

TEST_CASE("the lesson sentence splits into words, clitics and punctuation") {
  const Words expected = {"the",     "animal", "did", "n't", "cross", "the", "street",
                          "because", "it",     "was", "too", "tired", "."};
  check_split({"ASCII apostrophe", "The animal didn't cross the street because it was too tired.", expected});
  check_split(
      {"typographic apostrophe", "The animal didn\u2019t cross the street because it was too tired.", expected});
}

TEST_CASE("contractions split the same way every time") {
  const Case cases[] = {
      {"It's", "It's", {"it", "'s"}},
      {"typographic It's", "It\u2019s", {"it", "'s"}},
      {"we're", "we're here", {"we", "'re", "here"}},
      {"don't", "Don't", {"do", "n't"}},
      {"can't", "can't", {"ca", "n't"}},
      {"quotes are not apostrophes inside words", "'quoted'", {"'", "quoted", "'"}},
      {"trailing apostrophe", "dogs' toys", {"dogs", "'", "toys"}},
  };
  for (const Case& c : cases) check_split(c);
}

TEST_CASE("CJK characters are one token each, and mixed scripts split at the boundary") {
  const Case cases[] = {
      {"Chinese", "猫追狗", {"猫", "追", "狗"}},
      {"mixed with full-width punctuation", "AI很强！", {"ai", "很", "强", "！"}},
      {"CJK punctuation", "你好。再见，朋友", {"你", "好", "。", "再", "见", "，", "朋", "友"}},
      {"kana", "ネコが好き", {"ネ", "コ", "が", "好", "き"}},
      {"ideographic space", "猫\u3000狗", {"猫", "狗"}},
  };
  for (const Case& c : cases) check_split(c);
}

TEST_CASE("punctuation marks are tokens of their own, and whitespace is dropped") {
  const Case cases[] = {
      {"ASCII punctuation", "Hello, world! (yes) ok?", {"hello", ",", "world", "!", "(", "yes", ")", "ok", "?"}},
      {"repeated marks", "wait...", {"wait", ".", ".", "."}},
      {"em dash and ellipsis", "wait\u2014what\u2026", {"wait", "\u2014", "what", "\u2026"}},
      {"digits stay in words", "GPT2 has 1.5B", {"gpt2", "has", "1", ".", "5b"}},
      {"tabs, newlines, no-break space", " a\tb\nc\u00A0d  ", {"a", "b", "c", "d"}},
      {"only ASCII is lower-cased", "Caf\u00E9 AND", {"caf\u00E9", "and"}},
      {"empty", "", {}},
      {"only spaces", "   ", {}},
  };
  for (const Case& c : cases) check_split(c);
}

TEST_CASE("invalid UTF-8 throws std::invalid_argument naming the byte") {
  struct Bad {
    const char* name;
    std::string text;
    const char* byte;
  };
  const Bad cases[] = {
      {"stray continuation byte", "abc\x80", "byte 3"},
      {"invalid lead byte 0xFF", "\xFF", "byte 0"},
      {"5-byte lead", "ab\xF8\x88\x80\x80\x80", "byte 2"},
      {"truncated 3-byte sequence", "x\xE7\x8C", "byte 1"},
      {"bad continuation", "\xC3(", "byte 0"},
      {"overlong '/'", "a\xC0\xAF", "byte 1"},
      {"overlong apostrophe", "it\xC0\xA7s", "byte 2"},
      {"overlong 3-byte NUL", "\xE0\x80\x80", "byte 0"},
      {"UTF-16 surrogate", "\xED\xA0\x80", "byte 0"},
      {"beyond U+10FFFF", "\xF4\x90\x80\x80", "byte 0"},
  };
  for (const Bad& c : cases) {
    INFO("c.name := ", std::string(c.name));
    CHECK_THROWS_WITH_AS(ae::split_words(c.text), doctest::Contains("UTF-8"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(ae::split_words(c.text), doctest::Contains(c.byte), std::invalid_argument);
  }
  // The largest code points of each length are still accepted.
  CHECK(ae::split_words("\xF4\x8F\xBF\xBF").size() == 1);  // U+10FFFF
  CHECK(ae::split_words("\xEF\xBF\xBD").size() == 1);      // U+FFFD
}

TEST_CASE("hashed_token_id is the FNV-1a hash folded into the range first_id to vocab_size - 1") {
  // Published FNV-1a (32-bit) test vectors pin the hash across builds and platforms.
  CHECK(fnv1a("") == 0x811C9DC5u);
  CHECK(fnv1a("a") == 0xE40C292Cu);
  CHECK(fnv1a("foobar") == 0xBF9CF968u);
  for (int vocab : {1, 2, 64, 1000, 50257})
    for (int first : {0, 1, 4}) {
      if (vocab <= first) continue;
      CAPTURE(vocab);
      CAPTURE(first);
      for (const std::string word : {"", "a", "foobar", "the", "n't", "猫", "！"}) {
        CAPTURE(word);
        const int id = ae::hashed_token_id(word, vocab, first);
        CHECK(id == first + static_cast<int>(fnv1a(word) % static_cast<uint32_t>(vocab - first)));
        CHECK(id >= first);
        CHECK(id < vocab);
        CHECK(ae::hashed_token_id(word, vocab, first) == id);  // stable
      }
    }
}

TEST_CASE("hashed_token_id spreads words over the range and rejects vocab_size <= first_id") {
  std::set<int> seen;
  for (int i = 0; i < 2000; ++i) {
    const int id = ae::hashed_token_id("word" + std::to_string(i), 100, 3);
    CHECK(id >= 3);
    CHECK(id < 100);
    seen.insert(id);
  }
  CHECK(seen.size() == 97);  // 2000 words over 97 slots leave none empty (expected empty: 97·e^−20.6 ≈ 0)
  CHECK_THROWS_WITH_AS(ae::hashed_token_id("x", 4, 4), doctest::Contains("vocab_size"), std::invalid_argument);
  CHECK_THROWS_AS(ae::hashed_token_id("x", 2, 5), std::invalid_argument);
}

TEST_CASE("with a lexicon, a run of CJK characters is cut into the longest known words, left to right") {
  const std::set<std::string, std::less<>> words = {"动物", "没有", "穿过", "马路", "马", "路口", "十字路口", "它"};
  const ae::Lexicon known = [&](std::string_view w) { return words.count(w) > 0; };
  using V = std::vector<std::string>;
  CHECK(ae::split_words("那只动物没有穿过马路，因为它太累了。", known) ==
        V{"那", "只", "动物", "没有", "穿过", "马路", "，", "因", "为", "它", "太", "累", "了", "。"});
  CHECK(ae::split_words("马路", known) == V{"马路"});      // the longest word wins over 马
  CHECK(ae::split_words("马跑", known) == V{"马", "跑"});  // a one-character word, then an unknown one
  CHECK(ae::split_words("十字路口", known) == V{"十字路口"});
  CHECK(ae::split_words("字路口", known) == V{"字", "路口"});  // left to right: 字 is not a word, then 路口
  CHECK(ae::split_words("马 路", known) == V{"马", "路"});     // a space ends the run: no word across it
  CHECK(ae::split_words("它's 动物 OK", known) == V{"它", "'", "s", "动物", "ok"});
  // Without a lexicon (or with an empty one) every character stays a token, as before.
  CHECK(ae::split_words("马路", ae::Lexicon{}) == V{"马", "路"});
  CHECK(ae::split_words("马路") == V{"马", "路"});
  // Words longer than kMaxLexiconWordChars are never looked up, so a run costs O(n · 8) lookups.
  const std::string long_word = "一二三四五六七八九";
  const ae::Lexicon only_long = [&](std::string_view w) { return w == long_word; };
  CHECK(ae::split_words(long_word, only_long).size() == 9);
}
