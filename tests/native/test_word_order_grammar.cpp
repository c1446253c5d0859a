// parse_word_order reads back every sentence the word-order corpus writes (agent, verb and
// patient as the generator recorded them) and rejects text outside that grammar.
#include "lesson/word_order_roles.h"
#include "train/corpus.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace {

// parse_word_order(text) finds the given agent, verb and patient.
void check_roles(const std::string& text, const std::string& agent, const std::string& verb,
                 const std::string& patient) {
  CAPTURE(text);
  const auto roles = ae::parse_word_order(text);
  REQUIRE(roles.has_value());
  CHECK(roles->agent == agent);
  CHECK(roles->verb == verb);
  CHECK(roles->patient == patient);
}

}  // namespace

TEST_CASE("parse_word_order recovers the roles of every corpus sentence") {
  ae::WordOrderOptions options;
  options.train = 400;
  options.validation = 100;
  options.heldout = 100;
  const ae::WordOrderCorpus corpus = ae::make_word_order_corpus(options);
  int checked = 0;
  for (const auto* split : {&corpus.train, &corpus.validation, &corpus.heldout})
    for (const ae::WordOrderExample& e : *split) {
      check_roles(e.text, e.agent_word, e.verb, e.patient_word);
      ++checked;
    }
  CHECK(checked == 600);
}

TEST_CASE("parse_word_order: the lesson's pair and each pattern by hand") {
  struct Case {
    const char* text;
    const char* agent;
    const char* verb;
    const char* patient;
  };
  for (const Case c :
       {Case{"猫追狗", "猫", "追", "狗"}, Case{"狗追猫", "狗", "追", "猫"}, Case{"今天鸟在看鱼", "鸟", "看", "鱼"},
        Case{"刚才马踢了牛", "马", "踢", "牛"}, Case{"昨天 猫 咬 鼠", "猫", "咬", "鼠"}})
    check_roles(c.text, c.agent, c.verb, c.patient);
}

TEST_CASE("parse_word_order rejects text outside the grammar") {
  for (const char* text : {"", "猫", "猫追", "猫狗追", "追猫狗", "猫追狗狗", "猫追狗了", "猫在追了狗", "明天猫追狗",
                           "猫追龙", "the cat chased the dog", "今天", "猫 追 dog"}) {
    CAPTURE(text);
    CHECK_FALSE(ae::parse_word_order(text).has_value());
  }
  CHECK_THROWS_AS(ae::parse_word_order("\xff\xfe"), std::invalid_argument);
}
