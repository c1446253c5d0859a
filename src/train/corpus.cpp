#include "train/corpus.h"

#include "train/corpus_util.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <utility>

namespace ae {

using namespace corpus_detail;

namespace {

enum Purpose : uint64_t { kPoolOrder = 3, kPairOrder = 5, kNounPairs = 6 };

// Index of the only occurrence of `word`; the generator's own invariant, so a logic_error.
int only_index(const std::vector<std::string>& tokens, std::string_view word, const std::string& text) {
  int where = -1;
  if (count_of(tokens, word, &where) != 1)
    throw std::logic_error("corpus: \"" + std::string(word) + "\" must occur exactly once in \"" + text + "\"");
  return where;
}

template <typename Example>
void append_hash_texts(const std::vector<Example>& split, std::vector<std::string_view>& texts) {
  for (const auto& e : split) texts.push_back(e.text);
}

}  // namespace

std::string fnv1a_hex(const std::vector<std::string_view>& texts) {
  uint64_t h = 0xcbf29ce484222325ull;
  const auto eat = [&h](unsigned char c) { h = (h ^ c) * 0x100000001b3ull; };
  for (const auto t : texts) {
    for (unsigned char c : t) eat(c);
    eat('\n');
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Word order
// ---------------------------------------------------------------------------------------------

const std::vector<std::string>& word_order_nouns() {
  static const std::vector<std::string> n = {"猫", "狗", "鸟", "鱼", "马", "牛", "羊", "鸡",
                                             "鸭", "猪", "兔", "虎", "狼", "熊", "蛇", "鼠"};
  return n;
}

const std::vector<std::string>& word_order_verbs() {
  static const std::vector<std::string> v = {"追", "咬", "看", "找", "推", "拉", "抓", "叫", "踢", "舔", "救", "帮"};
  return v;
}

const std::vector<std::string>& word_order_prefixes() {
  static const std::vector<std::string> p = {"", "今天", "昨天", "刚才"};
  return p;
}

const std::vector<std::string>& word_order_patterns() {
  static const std::vector<std::string> p = {"SVO", "S在VO", "SV了O"};
  return p;
}

namespace {

// A pair key is (noun pair, prefix, pattern, verb); its two examples are a→b and b→a.
struct WordOrderKey {
  int a, b, prefix, pattern, verb;
};

WordOrderExample make_word_order_example(const WordOrderKey& k, bool swapped, int pair_id) {
  const auto& nouns = word_order_nouns();
  const std::string& agent = nouns[static_cast<size_t>(swapped ? k.b : k.a)];
  const std::string& patient = nouns[static_cast<size_t>(swapped ? k.a : k.b)];
  const std::string& verb = word_order_verbs()[static_cast<size_t>(k.verb)];
  std::string predicate = k.pattern == 1 ? "在" + verb : k.pattern == 2 ? verb + "了" : verb;
  WordOrderExample e;
  e.text = word_order_prefixes()[static_cast<size_t>(k.prefix)] + agent + predicate + patient;
  e.tokens = split_words(e.text);
  e.agent = only_index(e.tokens, agent, e.text);
  e.patient = only_index(e.tokens, patient, e.text);
  e.agent_word = agent;
  e.patient_word = patient;
  e.verb = verb;
  e.pair_id = pair_id;
  return e;
}

}  // namespace

WordOrderCorpus make_word_order_corpus(const WordOrderOptions& options) {
  const uint64_t seed = options.seed;
  const int n = static_cast<int>(word_order_nouns().size());

  // Held-out noun pairs: a seeded order over all unordered pairs, taken greedily while each noun
  // keeps at least half of its partners in training (so every noun is still well trained).
  std::vector<std::pair<int, int>> all_pairs;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) all_pairs.emplace_back(a, b);
  Rng pick = sub_rng(seed, kNounPairs);
  shuffle(all_pairs, pick);
  std::vector<int> lost(static_cast<size_t>(n), 0);
  std::set<std::pair<int, int>> heldout_pairs;
  for (const auto& [a, b] : all_pairs) {
    if (static_cast<int>(heldout_pairs.size()) >= options.heldout_noun_pairs) break;
    if (2 * (lost[static_cast<size_t>(a)] + 1) > n - 1 || 2 * (lost[static_cast<size_t>(b)] + 1) > n - 1) continue;
    heldout_pairs.insert({a, b});
    ++lost[static_cast<size_t>(a)];
    ++lost[static_cast<size_t>(b)];
  }

  std::vector<WordOrderKey> seen, held;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      for (int p = 0; p < static_cast<int>(word_order_prefixes().size()); ++p)
        for (int q = 0; q < static_cast<int>(word_order_patterns().size()); ++q)
          for (int v = 0; v < static_cast<int>(word_order_verbs().size()); ++v)
            (heldout_pairs.count({a, b}) ? held : seen).push_back({a, b, p, q, v});
  Rng pool_order = sub_rng(seed, kPoolOrder);
  shuffle(seen, pool_order);
  shuffle(held, pool_order);

  WordOrderCorpus corpus;
  for (const auto& [a, b] : heldout_pairs)
    corpus.heldout_noun_pairs.push_back(
        {word_order_nouns()[static_cast<size_t>(a)], word_order_nouns()[static_cast<size_t>(b)]});
  int next_pair = 0;
  size_t cursor = 0;
  const auto fill = [&](const std::vector<WordOrderKey>& pool, size_t& at, int examples,
                        std::vector<WordOrderExample>& split, uint64_t split_index) {
    Rng roles = sub_rng(seed, kPairOrder, split_index);
    const size_t end = std::min(pool.size(), at + pairs_for(examples));
    split.reserve(2 * (end - at));
    for (; at < end; ++at) {
      const bool swapped_first = roles.below(2) == 1;
      split.push_back(make_word_order_example(pool[at], swapped_first, next_pair));
      split.push_back(make_word_order_example(pool[at], !swapped_first, next_pair));
      ++next_pair;
    }
  };
  fill(seen, cursor, options.train, corpus.train, 0);
  fill(seen, cursor, options.validation, corpus.validation, 1);
  size_t held_cursor = 0;
  fill(held, held_cursor, options.heldout, corpus.heldout, 2);

  std::vector<std::string_view> texts;
  for (const auto* split : {&corpus.train, &corpus.validation, &corpus.heldout}) append_hash_texts(*split, texts);
  corpus.hash = fnv1a_hex(texts);
  return corpus;
}

std::vector<std::string> corpus_words(const WordOrderCorpus& corpus) {
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;
  for (const auto& p : word_order_prefixes()) add_words_of(out, seen, p);
  add_words_of(out, seen, "在了");
  for (const auto& w : word_order_nouns()) add_words_of(out, seen, w);
  for (const auto& w : word_order_verbs()) add_words_of(out, seen, w);
  for (const auto* split : {&corpus.train, &corpus.validation, &corpus.heldout})
    for (const auto& e : *split)
      for (const auto& w : e.tokens) add_unique(out, seen, w);
  return out;
}

}  // namespace ae
