// Vocabulary: fixed special ids, the vocab.txt round trip, errors that name the line,
// encode() reporting unknown words instead of dropping them, and nearest() against a plain
// recursive edit distance.
#include "error_of.h"
#include "text/tokenizer.h"
#include "text/vocabulary.h"

#include "util/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using ae::Vocabulary;

// The message of the std::invalid_argument that parse() throws, or "" if it does not throw.
std::string parse_error(const std::string& text) {
  return error_of<std::invalid_argument>([&] { Vocabulary::parse(text); });
}

// Code points → UTF-8 (the test's words are written as U"…" so the reference sees characters).
std::string to_utf8(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) ae::append_utf8(out, c);
  return out;
}

// The textbook recursion of the optimal-string-alignment distance, memoised: d(i, j) is the
// distance between the first i characters of a and the first j of b.
int reference_distance(const std::u32string& a, const std::u32string& b) {
  std::map<std::pair<size_t, size_t>, int> memo;
  auto d = [&](auto&& self, size_t i, size_t j) -> int {
    if (i == 0) return static_cast<int>(j);
    if (j == 0) return static_cast<int>(i);
    if (auto it = memo.find({i, j}); it != memo.end()) return it->second;
    int best = std::min({self(self, i - 1, j) + 1, self(self, i, j - 1) + 1,
                         self(self, i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1)});
    if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
      best = std::min(best, self(self, i - 2, j - 2) + 1);
    return memo[{i, j}] = best;
  };
  return d(d, a.size(), b.size());
}

// nearest() the slow way: every word's reference distance, sorted by (distance, id), filtered, cut to k.
std::vector<Vocabulary::Neighbour> reference_nearest(const std::vector<std::u32string>& words,
                                                     const std::u32string& query, int k, int max_distance) {
  std::vector<std::pair<int, size_t>> scored;  // (distance, index in words = id order)
  for (size_t i = 0; i < words.size(); ++i) scored.push_back({reference_distance(query, words[i]), i});
  std::sort(scored.begin(), scored.end());
  std::vector<Vocabulary::Neighbour> out;
  for (const auto& [distance, i] : scored)
    if ((max_distance < 0 || distance <= max_distance) && out.size() < static_cast<size_t>(k))
      out.push_back({to_utf8(words[i]), distance});
  return out;
}

const std::string kSpecials = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n";

}  // namespace

TEST_CASE("special tokens have fixed ids 0..4") {
  CHECK(Vocabulary::kPad == 0);
  CHECK(Vocabulary::kUnk == 1);
  CHECK(Vocabulary::kCls == 2);
  CHECK(Vocabulary::kSep == 3);
  CHECK(Vocabulary::kMask == 4);
  for (const Vocabulary& v :
       {Vocabulary(), Vocabulary::from_words({"cat", "[MASK]", "dog"}), Vocabulary::parse(kSpecials + "zebra\n")}) {
    CAPTURE(v.serialize());
    REQUIRE(v.size() >= 5);
    CHECK(v.token(Vocabulary::kPad) == "[PAD]");
    CHECK(v.token(Vocabulary::kUnk) == "[UNK]");
    CHECK(v.token(Vocabulary::kCls) == "[CLS]");
    CHECK(v.token(Vocabulary::kSep) == "[SEP]");
    CHECK(v.token(Vocabulary::kMask) == "[MASK]");
    CHECK(v.id("[MASK]") == Vocabulary::kMask);
  }
}

TEST_CASE("from_words keeps first-seen order and drops duplicates and specials") {
  const Vocabulary v = Vocabulary::from_words({"the", "animal", "[CLS]", "the", "street", "猫", "animal", "[PAD]"});
  CHECK(v.size() == 9);
  CHECK(v.tokens() ==
        std::vector<std::string>{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "animal", "street", "猫"});
  CHECK(v.id("the") == 5);
  CHECK(v.id("猫") == 8);
  CHECK(v.contains("street"));
  CHECK_FALSE(v.contains("zebra"));
  CHECK(v.id("zebra") == Vocabulary::kUnk);
  CHECK(v.id("The") == Vocabulary::kUnk);  // exact lookup; split_words lower-cases before
}

TEST_CASE("from_words rejects words that cannot be a line of vocab.txt") {
  CHECK_THROWS_AS(Vocabulary::from_words({"ok", ""}), std::invalid_argument);
  CHECK_THROWS_AS(Vocabulary::from_words({"two\nlines"}), std::invalid_argument);
  CHECK_THROWS_AS(Vocabulary::from_words({"cr\r"}), std::invalid_argument);
  CHECK_THROWS_AS(Vocabulary::from_words({std::string("\xE7\x8C", 2)}), std::invalid_argument);  // cut 猫
}

TEST_CASE("serialize and parse are inverse") {
  const Vocabulary v = Vocabulary::from_words({"the", "animal", "didn't", "n't", ".", "猫", "=", "it"});
  const std::string text = v.serialize();
  CHECK(text.rfind(kSpecials, 0) == 0);
  const Vocabulary back = Vocabulary::parse(text);
  CHECK(back.tokens() == v.tokens());
  CHECK(back.serialize() == text);
  for (int id = 0; id < v.size(); ++id) CHECK(back.id(v.token(id)) == id);

  // Only specials; no final newline; Windows line ends.
  CHECK(Vocabulary::parse(kSpecials).size() == 5);
  CHECK(Vocabulary::parse("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\ncat").tokens().back() == "cat");
  const Vocabulary crlf = Vocabulary::parse("[PAD]\r\n[UNK]\r\n[CLS]\r\n[SEP]\r\n[MASK]\r\ncat\r\ndog\r\n");
  CHECK(crlf.size() == 7);
  CHECK(crlf.id("dog") == 6);
}

TEST_CASE("parse errors name the line and the rule") {
  struct Case {
    std::string text, expected;  // expected: a fragment of the message
  };
  const std::vector<Case> cases = {
      {"", "line 1: file ends before the 5 special tokens"},
      {"[PAD]\n[UNK]\n", "line 3: file ends before"},
      {"[PAD]\n[CLS]\n[UNK]\n[SEP]\n[MASK]\n", "line 2: expected the special token [UNK]"},
      {"cat\n[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n", "line 1: expected the special token [PAD]"},
      {kSpecials + "cat\ndog\ncat\n", "line 8: duplicate token \"cat\" (first on line 6)"},
      {kSpecials + "cat\n[UNK]\n", "line 7: duplicate token \"[UNK]\" (first on line 2)"},
      {kSpecials + "cat\n\ndog\n", "line 7: empty token"},
      {kSpecials + "ok\n" + std::string("\xFF") + "\n", "line 7: invalid UTF-8"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const std::string message = parse_error(c.text);
    CAPTURE(message);
    CHECK(message.rfind("vocabulary ", 0) == 0);
    CHECK(message.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("token() throws out_of_range naming the id and the range") {
  const Vocabulary v = Vocabulary::from_words({"cat"});
  for (int bad : {-1, 6, 1000}) {
    CAPTURE(bad);
    try {
      (void)v.token(bad);
      FAIL("no exception");
    } catch (const std::out_of_range& e) {
      const std::string m = e.what();
      CHECK(m.find(std::to_string(bad)) != std::string::npos);
      CHECK(m.find("[0, 6)") != std::string::npos);
    }
  }
}

TEST_CASE("encode keeps unknown words and reports their positions") {
  const Vocabulary v = Vocabulary::from_words({"the", "animal", "didn", "did", "n't", "cross", "street", "."});

  SUBCASE("without [CLS]") {
    const auto e = v.encode("The zebra didn't cross the Street.");
    CHECK(e.tokens == std::vector<std::string>{"the", "zebra", "did", "n't", "cross", "the", "street", "."});
    CHECK(e.ids == std::vector<int>{v.id("the"), Vocabulary::kUnk, v.id("did"), v.id("n't"), v.id("cross"), v.id("the"),
                                    v.id("street"), v.id(".")});
    CHECK(e.unknown == std::vector<int>{1});
  }
  SUBCASE("with [CLS] positions count it") {
    const auto e = v.encode("zebra and the animal", true);
    CHECK(e.tokens == std::vector<std::string>{"[CLS]", "zebra", "and", "the", "animal"});
    CHECK(e.ids == std::vector<int>{Vocabulary::kCls, Vocabulary::kUnk, Vocabulary::kUnk, v.id("the"), v.id("animal")});
    CHECK(e.unknown == std::vector<int>{1, 2});
  }
  SUBCASE("nothing unknown, nothing dropped") {
    const auto e = v.encode("the animal");
    CHECK(e.ids.size() == 2);
    CHECK(e.unknown.empty());
    CHECK(v.encode("", true).ids == std::vector<int>{Vocabulary::kCls});
  }
  SUBCASE("bracketed text cannot inject a special token") {
    const auto e = v.encode("[MASK]");
    CHECK(e.tokens == std::vector<std::string>{"[", "mask", "]"});
    CHECK(e.unknown == std::vector<int>{0, 1, 2});
  }
  SUBCASE("invalid UTF-8 throws") { CHECK_THROWS_AS(v.encode("bad \xC3"), std::invalid_argument); }
}

TEST_CASE("words() lists every token but the special ones, in id order") {
  const Vocabulary v = Vocabulary::from_words({"cat", "[UNK]", "dog", "猫"});
  CHECK(v.words() == std::vector<std::string>{"cat", "dog", "猫"});
  CHECK(Vocabulary().words().empty());
}

TEST_CASE("nearest: distances a learner's typos give") {
  const Vocabulary v = Vocabulary::from_words({"the", "bicycle", "animal", "street", "猫", "狗"});
  const auto first = [&](std::string_view word) { return v.nearest(word, 1).at(0); };
  CHECK(first("teh").word == "the");  // an adjacent swap is one edit
  CHECK(first("teh").distance == 1);
  CHECK(first("bycicle").word == "bicycle");
  CHECK(first("bycicle").distance == 2);
  CHECK(first("animal").distance == 0);  // a known word is its own nearest
  CHECK(first("狗").word == "狗");
  CHECK(first("猪").distance == 1);         // one character, not three bytes
  CHECK(v.nearest("strit", 3, 1).empty());  // "street" is 2 away
  CHECK(v.nearest("strit", 3, 2).at(0).word == "street");
}

TEST_CASE("nearest: a 1,000-character word within a third of its length skips every short word") {
  // The distance is at least the difference in length, so no edit-distance table is filled:
  // 50 calls against 3,000 words take microseconds (filling the tables took ~10 ms a call).
  std::vector<std::string> words;
  for (int i = 0; i < 3000; ++i) words.push_back("word" + std::to_string(i));
  const Vocabulary v = Vocabulary::from_words(words);
  const std::string long_word(1000, 'w');
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) CHECK(v.nearest(long_word, 3, 334).empty());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 0.1);
  CHECK(v.nearest("word12x", 1, 1).at(0).word == "word12");  // short words still compared
}

TEST_CASE("nearest agrees with the plain recursive reference") {
  // Short words over a tiny alphabet (with a CJK character) so that distances tie often.
  const std::u32string alphabet = U"abc猫";
  ae::Rng rng(7);
  const auto random_word = [&](size_t max_len) {
    std::u32string w;
    const size_t len = rng.below(max_len + 1);
    for (size_t i = 0; i < len; ++i) w += alphabet[rng.below(alphabet.size())];
    return w;
  };
  std::vector<std::u32string> words;
  std::vector<std::string> utf8;
  while (words.size() < 40) {
    const std::u32string w = random_word(5);
    if (w.empty() || std::find(words.begin(), words.end(), w) != words.end()) continue;
    words.push_back(w);
    utf8.push_back(to_utf8(w));
  }
  const Vocabulary v = Vocabulary::from_words(utf8);
  for (int trial = 0; trial < 60; ++trial) {
    const std::u32string query = random_word(6);
    for (int k : {0, 1, 3, 40})
      for (int max_distance : {-1, 0, 1, 2}) {
        CAPTURE(to_utf8(query));
        CAPTURE(k);
        CAPTURE(max_distance);
        const auto got = v.nearest(to_utf8(query), k, max_distance);
        const auto want = reference_nearest(words, query, k, max_distance);
        REQUIRE(got.size() == want.size());
        for (size_t i = 0; i < got.size(); ++i) {
          CHECK(got[i].word == want[i].word);
          CHECK(got[i].distance == want[i].distance);
        }
      }
  }
}

TEST_CASE("nearest never offers a special token and refuses bad input") {
  const Vocabulary v = Vocabulary::from_words({"unk", "pad"});
  for (const auto& n : v.nearest("[UNK]", 10)) CHECK(n.word.front() != '[');
  CHECK(v.nearest("[UNK]", 10).size() == 2);
  CHECK_THROWS_AS(v.nearest("bad \xC3", 1), std::invalid_argument);
  CHECK_THROWS_AS(v.nearest("cat", -1), std::invalid_argument);
}
