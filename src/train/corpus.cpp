#include "train/corpus.h"

#include "text/tokenizer.h"
#include "util/rng.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <utility>

namespace ae {

namespace {

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

// An independent stream for each (purpose, a, b), so that drawing more for one split or slot never
// shifts what another gets.
Rng sub_rng(uint64_t seed, uint64_t purpose, uint64_t a = 0, uint64_t b = 0) {
  Rng mixer(seed ^ (purpose * 0xD1B54A32D192ED03ull));
  uint64_t s = mixer.next_u64() ^ (a * 0x8CB92BA72F3D8DD7ull);
  s = Rng(s).next_u64() ^ (b * 0xABC98388FB8FAC03ull);
  return Rng(Rng(s).next_u64());
}

enum Purpose : uint64_t { kHoldOut = 1, kPairing, kPoolOrder, kSplitOrder, kPairOrder, kNounPairs };

// Fisher–Yates with ae::Rng::below: the same permutation on every standard library.
template <typename T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

// pattern with {0} and {1} replaced (each occurs once).
std::string fill_pattern(const std::string& pattern, std::string_view noun0, std::string_view noun1) {
  const size_t p0 = pattern.find("{0}");
  const size_t p1 = pattern.find("{1}");
  if (p0 == std::string::npos || p1 == std::string::npos)
    throw std::logic_error("corpus: template \"" + pattern + "\" lacks {0} or {1}");
  const bool zero_first = p0 < p1;
  const size_t a = zero_first ? p0 : p1, b = zero_first ? p1 : p0;
  std::string out;
  out.reserve(pattern.size() + noun0.size() + noun1.size());
  out.append(pattern, 0, a);
  out.append(zero_first ? noun0 : noun1);
  out.append(pattern, a + 3, b - a - 3);
  out.append(zero_first ? noun1 : noun0);
  out.append(pattern, b + 3, std::string::npos);
  return out;
}

int count_of(const std::vector<std::string>& tokens, std::string_view word, int* where) {
  int n = 0;
  for (size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] == word) {
      ++n;
      *where = static_cast<int>(i);
    }
  return n;
}

// Index of the only occurrence of `word`; the generator's own invariant, so a logic_error.
int only_index(const std::vector<std::string>& tokens, std::string_view word, const std::string& text) {
  int where = -1;
  if (count_of(tokens, word, &where) != 1)
    throw std::logic_error("corpus: \"" + std::string(word) + "\" must occur exactly once in \"" + text + "\"");
  return where;
}

void add_unique(std::vector<std::string>& out, std::set<std::string, std::less<>>& seen, const std::string& w) {
  if (seen.insert(w).second) out.push_back(w);
}

void add_words_of(std::vector<std::string>& out, std::set<std::string, std::less<>>& seen, std::string_view text) {
  for (const auto& w : split_words(text)) add_unique(out, seen, w);
}

// Takes up to n items round-robin over the pools (one per family), so families stay balanced.
template <typename Item>
std::vector<std::pair<int, Item>> take_round_robin(const std::vector<std::vector<Item>>& pools,
                                                   std::vector<size_t>& cursors, size_t n) {
  std::vector<std::pair<int, Item>> out;
  bool any = true;
  while (out.size() < n && any) {
    any = false;
    for (size_t f = 0; f < pools.size() && out.size() < n; ++f)
      if (cursors[f] < pools[f].size()) {
        out.emplace_back(static_cast<int>(f), pools[f][cursors[f]++]);
        any = true;
      }
  }
  return out;
}

size_t pairs_for(int examples) { return examples > 0 ? static_cast<size_t>(examples / 2) : 0; }

// ---------------------------------------------------------------------------------------------
// Coreference
// ---------------------------------------------------------------------------------------------

// Templates 0–2 and 6 put role 0 first, 3–5 and 7 role 1; 6 and 7 are held out.
std::vector<CorefTemplate> templates(std::initializer_list<const char*> patterns) {
  std::vector<CorefTemplate> out;
  int k = 0;
  for (const char* p : patterns) {
    out.push_back({p, k >= 3 && k != 6, k >= 6});
    ++k;
  }
  return out;
}

std::vector<CorefFamily> build_families() {
  const std::vector<std::string> failed = {"too", "far too", "so"};  // something did not happen
  const std::vector<std::string> happened = {"so", "very", "really"};
  std::vector<CorefFamily> f;
  f.push_back({"cross",
               {"animal", "crossing"},
               {{{"animal", "dog", "cat", "horse", "cow", "deer"},
                 {"street", "road", "highway", "avenue", "lane", "boulevard"}}},
               {{{"tired", "exhausted", "sleepy", "scared", "weak", "lazy"},
                 {"wide", "busy", "long", "dangerous", "crowded", "noisy"}}},
               failed,
               templates({"The {0} didn't cross the {1}", "The {0} did not cross the {1}",
                          "The {0} refused to cross the {1}", "The {1} wasn't crossed by the {0}",
                          "The {1} was not crossed by the {0}", "The {1} was never crossed by the {0}",
                          "The {0} never crossed the {1}", "The {1} could not be crossed by the {0}"})});
  f.push_back({"fit",
               {"object", "container"},
               {{{"trophy", "statue", "lamp", "guitar", "painting", "telescope"},
                 {"suitcase", "box", "bag", "drawer", "backpack", "trunk"}}},
               {{{"big", "large", "tall", "wide", "long", "bulky"},
                 {"small", "narrow", "full", "tiny", "short", "compact"}}},
               failed,
               templates({"The {0} didn't fit in the {1}", "The {0} did not fit into the {1}",
                          "The {0} would not fit in the {1}", "The {1} couldn't hold the {0}",
                          "The {1} could not hold the {0}", "The {1} had no room for the {0}",
                          "The {0} never fit into the {1}", "The {1} would not hold the {0}"})});
  f.push_back({"break",
               {"projectile", "breakable"},
               {{{"ball", "rock", "stone", "brick", "hammer", "axe"},
                 {"window", "vase", "mirror", "plate", "jar", "screen"}}},
               {{{"hard", "heavy", "solid", "sharp", "fast", "big"},
                 {"fragile", "thin", "weak", "brittle", "old", "delicate"}}},
               happened,
               templates({"The {0} broke the {1}", "The {0} smashed the {1}", "The {0} cracked the {1}",
                          "The {1} was broken by the {0}", "The {1} was smashed by the {0}",
                          "The {1} got cracked by the {0}", "The {0} easily broke the {1}",
                          "The {1} got smashed by the {0}"})});
  f.push_back({"lift",
               {"lifter", "load"},
               {{{"crane", "robot", "forklift", "machine", "helicopter", "hoist"},
                 {"crate", "piano", "boulder", "container", "tank", "box"}}},
               {{{"weak", "small", "old", "tiny", "flimsy", "feeble"},
                 {"heavy", "big", "large", "bulky", "massive", "awkward"}}},
               failed,
               templates({"The {0} couldn't lift the {1}", "The {0} could not lift the {1}",
                          "The {0} failed to lift the {1}", "The {1} couldn't be lifted by the {0}",
                          "The {1} wasn't lifted by the {0}", "The {1} could not be lifted by the {0}",
                          "The {0} did not lift the {1}", "The {1} was never lifted by the {0}"})});
  f.push_back({"reach",
               {"reacher", "target"},
               {{{"kitten", "puppy", "rabbit", "mouse", "hamster", "duckling"},
                 {"shelf", "table", "fence", "roof", "branch", "ledge"}}},
               {{{"short", "small", "tiny", "young", "little", "clumsy"},
                 {"high", "tall", "elevated", "distant", "lofty", "steep"}}},
               failed,
               templates({"The {0} couldn't reach the {1}", "The {0} could not reach the {1}",
                          "The {0} failed to reach the {1}", "The {1} couldn't be reached by the {0}",
                          "The {1} wasn't reached by the {0}", "The {1} was never reached by the {0}",
                          "The {0} did not reach the {1}", "The {1} could not be reached by the {0}"})});
  f.push_back({"overtake",
               {"faster vehicle", "slower vehicle"},
               {{{"truck", "bus", "van", "motorbike", "car", "taxi"},
                 {"tractor", "cart", "bicycle", "wagon", "scooter", "carriage"}}},
               {{{"fast", "quick", "powerful", "speedy", "nimble", "swift"},
                 {"slow", "old", "heavy", "sluggish", "overloaded", "rusty"}}},
               happened,
               templates({"The {0} overtook the {1}", "The {0} passed the {1}", "The {0} easily overtook the {1}",
                          "The {1} was overtaken by the {0}", "The {1} was passed by the {0}",
                          "The {1} got overtaken by the {0}", "The {0} easily passed the {1}",
                          "The {1} was easily overtaken by the {0}"})});
  return f;
}

// A family's sentences are indexed by slot = (template, tail, noun0, noun1) and, within a slot,
// by the role-0 adjective j; its partner in the minimal pair is the role-1 adjective sigma[j].
// Because sigma is a bijection every sentence belongs to exactly one pair, so disjoint pair keys
// give disjoint texts.
struct FamilyShape {
  int n_templates, n_tails, n0, n1, m;  // m adjectives per role (the same for both roles)
  uint32_t slot(int t, int tail, int i0, int i1) const {
    return static_cast<uint32_t>(((t * n_tails + tail) * n0 + i0) * n1 + i1);
  }
};

FamilyShape shape_of(const CorefFamily& f) {
  if (f.adjectives[0].size() != f.adjectives[1].size())
    throw std::logic_error("corpus: family " + f.name + " needs as many adjectives per role");
  return {static_cast<int>(f.templates.size()),
          static_cast<int>(coref_middles().size() * coref_connectives().size() * coref_verbs().size() *
                           f.intensifiers.size()),
          static_cast<int>(f.nouns[0].size()), static_cast<int>(f.nouns[1].size()),
          static_cast<int>(f.adjectives[0].size())};
}

// held[role][noun] = the adjective index of that role never combined with that noun outside the
// heldout_combinations split. A shuffled cycle, so every adjective is held out for some noun
// (when there are at least as many nouns); noun 0 never loses adjective 0, which keeps the
// lesson's (animal, tired) and (street, wide) in the seen pool.
std::array<std::vector<int>, 2> held_adjectives(uint64_t seed, int family, const CorefFamily& f) {
  std::array<std::vector<int>, 2> held;
  for (int role = 0; role < 2; ++role) {
    const int m = static_cast<int>(f.adjectives[role].size());
    std::vector<int> perm(static_cast<size_t>(m));
    for (int j = 0; j < m; ++j) perm[static_cast<size_t>(j)] = j;
    Rng rng = sub_rng(seed, kHoldOut, static_cast<uint64_t>(family), static_cast<uint64_t>(role));
    shuffle(perm, rng);
    const int shift = perm[0] == 0 ? 1 : 0;
    for (size_t i = 0; i < f.nouns[role].size(); ++i)
      held[role].push_back(perm[(i + static_cast<size_t>(shift)) % static_cast<size_t>(m)]);
  }
  return held;
}

// The pairing of role-0 and role-1 adjectives in one slot: held-out adjective with held-out
// adjective (so a held-out pair is held out on both sides), and in slot 0 adjective 0 with
// adjective 0 (the lesson's tired / wide); the rest at random.
std::vector<int> pairing(uint64_t seed, int family, uint32_t slot, int held0, int held1, int m) {
  std::vector<int> sigma(static_cast<size_t>(m), -1);
  sigma[static_cast<size_t>(held0)] = held1;
  if (slot == 0) sigma[0] = 0;
  std::vector<int> free0, free1;
  std::vector<bool> used1(static_cast<size_t>(m), false);
  for (int j = 0; j < m; ++j)
    if (sigma[static_cast<size_t>(j)] >= 0) used1[static_cast<size_t>(sigma[static_cast<size_t>(j)])] = true;
  for (int j = 0; j < m; ++j) {
    if (sigma[static_cast<size_t>(j)] < 0) free0.push_back(j);
    if (!used1[static_cast<size_t>(j)]) free1.push_back(j);
  }
  Rng rng = sub_rng(seed, kPairing, static_cast<uint64_t>(family), slot);
  shuffle(free1, rng);
  for (size_t k = 0; k < free0.size(); ++k) sigma[static_cast<size_t>(free0[k])] = free1[k];
  return sigma;
}

CorefExample make_example(const CorefFamily& f, int t, const std::string& tail, const std::string& noun0,
                          const std::string& noun1, int role, const std::string& adjective, int pair_id) {
  const std::string body = fill_pattern(f.templates[static_cast<size_t>(t)].pattern, noun0, noun1);
  CorefExample e;
  e.text = body + tail + adjective + ".";
  e.tokens = split_words(e.text);
  const int i0 = only_index(e.tokens, noun0, e.text);
  const int i1 = only_index(e.tokens, noun1, e.text);
  e.pronoun = only_index(e.tokens, "it", e.text);
  e.first_noun = std::min(i0, i1);
  e.second_noun = std::max(i0, i1);
  e.referent = role == 0 ? i0 : i1;
  e.referent_word = role == 0 ? noun0 : noun1;
  e.other_word = role == 0 ? noun1 : noun0;
  e.family = f.name;
  e.decider = adjective;
  e.template_id = t;
  e.pair_id = pair_id;
  e.referent_role = role;
  if (e.tokens.size() < 2 || e.tokens[e.tokens.size() - 2] != adjective || e.pronoun < e.second_noun)
    throw std::logic_error("corpus: the decider must be the last word, after \"it\" and both nouns: " + e.text);
  return e;
}

std::string tail_text(const CorefFamily& f, int tail) {
  const auto& conns = coref_connectives();
  const auto& verbs = coref_verbs();
  const size_t k = static_cast<size_t>(tail) % f.intensifiers.size();
  const size_t rest = static_cast<size_t>(tail) / f.intensifiers.size();
  const size_t v = rest % verbs.size();
  const size_t c = (rest / verbs.size()) % conns.size();
  const std::string& middle = coref_middles()[rest / verbs.size() / conns.size()];
  return (middle.empty() ? "" : " " + middle) + " " + conns[c] + " it " + verbs[v] + " " + f.intensifiers[k] + " ";
}

// Both examples of the pair (family, key); `first_role` says which comes first in the split.
void emit_pair(uint64_t seed, int family, uint32_t key, const std::array<std::vector<int>, 2>& held, int pair_id,
               int first_role, std::vector<CorefExample>& out) {
  const CorefFamily& f = coref_families()[static_cast<size_t>(family)];
  const FamilyShape s = shape_of(f);
  const uint32_t slot = key / static_cast<uint32_t>(s.m);
  const int j = static_cast<int>(key % static_cast<uint32_t>(s.m));
  const int i1 = static_cast<int>(slot % static_cast<uint32_t>(s.n1));
  const int i0 = static_cast<int>((slot / static_cast<uint32_t>(s.n1)) % static_cast<uint32_t>(s.n0));
  const int tail = static_cast<int>((slot / static_cast<uint32_t>(s.n1 * s.n0)) % static_cast<uint32_t>(s.n_tails));
  const int t = static_cast<int>(slot / static_cast<uint32_t>(s.n1 * s.n0 * s.n_tails));
  const auto sigma = pairing(seed, family, slot, held[0][static_cast<size_t>(i0)], held[1][static_cast<size_t>(i1)], s.m);
  const std::string& noun0 = f.nouns[0][static_cast<size_t>(i0)];
  const std::string& noun1 = f.nouns[1][static_cast<size_t>(i1)];
  const std::string tail_str = tail_text(f, tail);
  const std::array<std::string, 2> adjective = {f.adjectives[0][static_cast<size_t>(j)],
                                                f.adjectives[1][static_cast<size_t>(sigma[static_cast<size_t>(j)])]};
  for (int r : {first_role, 1 - first_role}) out.push_back(make_example(f, t, tail_str, noun0, noun1, r, adjective[static_cast<size_t>(r)], pair_id));
}

template <typename Example>
void append_hash_texts(const std::vector<Example>& split, std::vector<std::string_view>& texts) {
  for (const auto& e : split) texts.push_back(e.text);
}

}  // namespace

const std::vector<std::string>& coref_connectives() {
  static const std::vector<std::string> c = {"because", "since", "as"};
  return c;
}

const std::vector<std::string>& coref_middles() {
  static const std::vector<std::string> m = {"", "that day", "last night"};
  return m;
}

const std::vector<std::string>& coref_verbs() {
  static const std::vector<std::string> v = {"was", "seemed"};
  return v;
}

const std::vector<CorefFamily>& coref_families() {
  static const std::vector<CorefFamily> families = build_families();
  return families;
}

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

CorefCorpus make_coref_corpus(const CorefOptions& options) {
  const uint64_t seed = options.seed;
  const auto& families = coref_families();
  const size_t nf = families.size();

  // Pools of pair keys per family, each in its own seeded order.
  std::vector<std::vector<uint32_t>> seen(nf), combos(nf), held_templates(nf);
  std::vector<std::array<std::vector<int>, 2>> held(nf);
  for (size_t fi = 0; fi < nf; ++fi) {
    const CorefFamily& f = families[fi];
    const FamilyShape s = shape_of(f);
    held[fi] = held_adjectives(seed, static_cast<int>(fi), f);
    for (int t = 0; t < s.n_templates; ++t)
      for (int tail = 0; tail < s.n_tails; ++tail)
        for (int i0 = 0; i0 < s.n0; ++i0)
          for (int i1 = 0; i1 < s.n1; ++i1)
            for (int j = 0; j < s.m; ++j) {
              const uint32_t key = s.slot(t, tail, i0, i1) * static_cast<uint32_t>(s.m) + static_cast<uint32_t>(j);
              const bool held_combo = j == held[fi][0][static_cast<size_t>(i0)];
              if (f.templates[static_cast<size_t>(t)].heldout) {
                if (!held_combo) held_templates[fi].push_back(key);
              } else if (held_combo) {
                combos[fi].push_back(key);
              } else if (!(fi == 0 && key == 0)) {  // key 0 of "cross" is the lesson pair, placed below
                seen[fi].push_back(key);
              }
            }
    Rng rng = sub_rng(seed, kPoolOrder, fi);
    shuffle(seen[fi], rng);
    shuffle(combos[fi], rng);
    shuffle(held_templates[fi], rng);
  }

  CorefCorpus corpus;
  int next_pair = 0;
  std::vector<size_t> cursors(nf, 0);
  const auto fill = [&](std::vector<std::pair<int, uint32_t>> picked, std::vector<CorefExample>& split,
                        uint64_t split_index) {
    Rng order = sub_rng(seed, kSplitOrder, split_index);
    shuffle(picked, order);
    Rng roles = sub_rng(seed, kPairOrder, split_index);
    split.reserve(picked.size() * 2);
    for (const auto& [family, key] : picked)
      emit_pair(seed, family, key, held[static_cast<size_t>(family)], next_pair++, static_cast<int>(roles.below(2)), split);
  };

  // train and validation share the seen pool; the cursors make them disjoint.
  const size_t train_pairs = pairs_for(options.train);
  std::vector<std::pair<int, uint32_t>> train_keys;
  if (train_pairs > 0) train_keys.emplace_back(0, 0u);
  for (auto& p : take_round_robin(seen, cursors, train_pairs > 0 ? train_pairs - 1 : 0)) train_keys.push_back(p);
  fill(std::move(train_keys), corpus.train, 0);
  fill(take_round_robin(seen, cursors, pairs_for(options.validation)), corpus.validation, 1);
  std::fill(cursors.begin(), cursors.end(), 0);
  fill(take_round_robin(combos, cursors, pairs_for(options.heldout_combinations)), corpus.heldout_combinations, 2);
  std::fill(cursors.begin(), cursors.end(), 0);
  fill(take_round_robin(held_templates, cursors, pairs_for(options.heldout_templates)), corpus.heldout_templates, 3);

  std::vector<std::string_view> texts;
  for (const auto* split : {&corpus.train, &corpus.validation, &corpus.heldout_combinations, &corpus.heldout_templates})
    append_hash_texts(*split, texts);
  corpus.hash = fnv1a_hex(texts);
  return corpus;
}

std::vector<CorefExample> lesson_examples() {
  // Slot 0 of "cross" (template 0, "because it was too", animal, street) pairs tired with wide
  // for every seed, and neither combination is ever held out, so the seed does not matter here.
  const auto& f = coref_families()[0];
  const std::string tail = tail_text(f, 0);
  return {make_example(f, 0, tail, f.nouns[0][0], f.nouns[1][0], 0, f.adjectives[0][0], 0),
          make_example(f, 0, tail, f.nouns[0][0], f.nouns[1][0], 1, f.adjectives[1][0], 0)};
}

std::string decoder_text(const CorefExample& example) {
  std::string s = example.text;
  if (!s.empty() && s.back() == '.') s.pop_back();
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s + " . it = " + example.referent_word;
}

std::vector<std::string> corpus_words(const CorefCorpus& corpus) {
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;
  for (const auto& f : coref_families()) {
    for (const auto& t : f.templates) {
      add_words_of(out, seen, fill_pattern(t.pattern, " ", " "));
    }
    for (int role = 0; role < 2; ++role) {
      for (const auto& n : f.nouns[static_cast<size_t>(role)]) add_words_of(out, seen, n);
      for (const auto& a : f.adjectives[static_cast<size_t>(role)]) add_words_of(out, seen, a);
    }
    for (const auto& i : f.intensifiers) add_words_of(out, seen, i);
  }
  for (const auto& c : coref_connectives()) add_words_of(out, seen, c);
  for (const auto& v : coref_verbs()) add_words_of(out, seen, v);
  for (const auto& m : coref_middles()) add_words_of(out, seen, m);
  add_words_of(out, seen, "it . =");
  for (const auto* split : {&corpus.train, &corpus.validation, &corpus.heldout_combinations, &corpus.heldout_templates})
    for (const auto& e : *split)
      for (const auto& w : e.tokens) add_unique(out, seen, w);
  return out;
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
    corpus.heldout_noun_pairs.push_back({word_order_nouns()[static_cast<size_t>(a)], word_order_nouns()[static_cast<size_t>(b)]});
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
