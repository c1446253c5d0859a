// Vocabulary: fixed special ids, the vocab.txt round trip, errors that name the line, and
// encode() reporting unknown words instead of dropping them.
#include "text/vocabulary.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using ae::Vocabulary;

// The message of the std::invalid_argument that parse() throws, or "" if it does not throw.
std::string parse_error(const std::string& text) {
  try {
    Vocabulary::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const std::string kSpecials = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n";

}  // namespace

TEST_CASE("special tokens have fixed ids 0..4") {
  CHECK(Vocabulary::kPad == 0);
  CHECK(Vocabulary::kUnk == 1);
  CHECK(Vocabulary::kCls == 2);
  CHECK(Vocabulary::kSep == 3);
  CHECK(Vocabulary::kMask == 4);
  for (const Vocabulary& v : {Vocabulary(), Vocabulary::from_words({"cat", "[MASK]", "dog"}),
                              Vocabulary::parse(kSpecials + "zebra\n")}) {
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
  CHECK(v.tokens() == std::vector<std::string>{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "animal",
                                               "street", "猫"});
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
    CHECK(e.ids == std::vector<int>{v.id("the"), Vocabulary::kUnk, v.id("did"), v.id("n't"), v.id("cross"),
                                    v.id("the"), v.id("street"), v.id(".")});
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
