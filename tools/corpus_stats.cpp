// Prints, as JSON, what the two synthetic corpora contain with their default options (or a given
// seed): counts per split and per family, the templates, the adjective roles, the vocabulary size
// and the hash — the numbers the docs and the training metrics quote.
//
//   corpus_stats [SEED] [--extended]
//
// --extended: the coreference corpora of CorefOptions::extended (issue 34), with the sentences of
// each new kind counted per split.
//
// The generation time goes to stderr so that stdout stays the same from run to run.
#include "command_line.h"
#include "text/vocabulary.h"
#include "train/corpus.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <map>
#include <string>

namespace {

using json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

json coref_split_stats(const std::vector<ae::CorefExample>& split) {
  std::map<std::string, int> per_family, per_order;
  std::map<std::string, std::map<std::string, int>> per_template;
  int openers = 0, phrases = 0, attributives = 0, flipped = 0, polarity_pairs = 0, role_swaps = 0;
  int first = 0;
  int role0_first = 0;
  size_t max_tokens = 0;
  for (const auto& e : split) {
    ++per_family[e.family];
    ++per_template[e.family][std::to_string(e.template_id)];
    ++per_order[ae::to_string(e.order)];
    openers += e.opener;
    phrases += !e.phrase_nouns.empty();
    attributives += e.attributives > 0;
    flipped += e.flipped;
    polarity_pairs += e.polarity_pair;
    role_swaps += e.role_swap;
    if (e.referent == e.first_noun) ++first;
    const bool role0_is_first = (e.referent_role == 0) == (e.referent == e.first_noun);
    if (role0_is_first) ++role0_first;
    max_tokens = std::max(max_tokens, e.tokens.size());
  }
  const double n = split.empty() ? 1.0 : static_cast<double>(split.size());
  return {{"examples", split.size()},
          {"pairs", split.size() / 2},
          {"per_family", per_family},
          {"per_template", per_template},
          {"per_order", per_order},
          {"with_opener", openers / n},
          {"extended_kinds",
           {{"family_noun_phrase", phrases},
            {"attributive_adjective", attributives},
            {"flipped_event", flipped},
            {"in_polarity_pairs", polarity_pairs},
            {"role_swap", role_swaps}}},
          {"referent_is_first_noun", first / n},
          {"role0_is_first_noun", role0_first / n},
          {"max_tokens", max_tokens}};
}

json coref_stats(uint64_t seed, ae::CorefLanguage language, bool extended) {
  ae::CorefOptions options;
  options.seed = seed;
  options.language = language;
  options.extended = extended;
  const ae::CorefLexicon& lexicon = ae::coref_lexicon(language, extended);
  const auto t0 = Clock::now();
  const ae::CorefCorpus c = ae::make_coref_corpus(options);
  std::cerr << "coreference corpus (" << ae::to_string(language) << "): " << ms_since(t0) << " ms\n";

  json families = json::array();
  std::map<std::string, json> adjective_roles;  // adjective → [{family, role}]
  for (const auto& f : lexicon.families) {
    json templates = json::array();
    for (size_t t = 0; t < f.templates.size(); ++t)
      templates.push_back({{"id", t},
                           {"pattern", f.templates[t].pattern},
                           {"first", f.templates[t].role1_first ? f.roles[1] : f.roles[0]},
                           {"split", f.templates[t].heldout ? "heldout_templates" : "train/validation"}});
    json roles = json::array();
    for (int r = 0; r < 2; ++r) {
      roles.push_back({{"role", f.roles[r]}, {"nouns", f.nouns[r]}, {"adjectives", f.adjectives[r]}});
      for (const auto& a : f.adjectives[r]) adjective_roles[a].push_back({{"family", f.name}, {"role", f.roles[r]}});
    }
    families.push_back({{"name", f.name},
                        {"roles", roles},
                        {"shared_pool", f.shared_pool},
                        {"intensifiers", f.intensifiers},
                        {"templates", templates}});
  }
  json shared = json::object();
  for (const auto& [adjective, uses] : adjective_roles)
    if (uses.size() > 1) shared[adjective] = uses;

  json splits = {{"train", coref_split_stats(c.train)}};
  for (const auto& [name, split] : c.evaluation_splits()) splits[name] = coref_split_stats(*split);
  const auto lesson = ae::lesson_examples(language);
  return {
      {"seed", seed},
      {"language", ae::to_string(language)},
      {"hash", c.hash},
      {"vocabulary_size", ae::Vocabulary::from_words(ae::corpus_words(c)).size()},
      {"connectives", lexicon.connectives},
      {"verbs", lexicon.verbs},
      {"openers", lexicon.openers},
      {"splits", splits},
      {"families", families},
      {"adjectives_in_several_families", shared},
      {"lesson", {lesson[0].text + " → " + lesson[0].referent_word, lesson[1].text + " → " + lesson[1].referent_word}},
      {"example", c.train.size() < 3 ? json() : json(c.train[2].text + " → " + c.train[2].referent_word)}};
}

json word_order_split_stats(const std::vector<ae::WordOrderExample>& split) {
  std::map<std::string, int> agent_index;
  for (const auto& e : split) ++agent_index[std::to_string(e.agent)];
  return {{"examples", split.size()}, {"pairs", split.size() / 2}, {"agent_index", agent_index}};
}

json word_order_stats(uint64_t seed) {
  ae::WordOrderOptions options;
  options.seed = seed;
  const auto t0 = Clock::now();
  const ae::WordOrderCorpus c = ae::make_word_order_corpus(options);
  std::cerr << "word-order corpus: " << ms_since(t0) << " ms\n";
  json heldout_pairs = json::array();
  for (const auto& p : c.heldout_noun_pairs) heldout_pairs.push_back(p[0] + p[1]);
  return {{"seed", seed},
          {"hash", c.hash},
          {"vocabulary_size", ae::Vocabulary::from_words(ae::corpus_words(c)).size()},
          {"nouns", ae::word_order_nouns()},
          {"verbs", ae::word_order_verbs()},
          {"prefixes", ae::word_order_prefixes()},
          {"patterns", ae::word_order_patterns()},
          {"heldout_noun_pairs", heldout_pairs},
          {"splits",
           {{"train", word_order_split_stats(c.train)},
            {"validation", word_order_split_stats(c.validation)},
            {"heldout", word_order_split_stats(c.heldout)}}},
          {"example", c.train.empty() ? json() : json(c.train.front().text + " → " + c.train.front().agent_word)}};
}

}  // namespace

int main(int argc, char** argv) {
  constexpr const char* kUsage = "usage: corpus_stats [SEED] [--extended]";
  const bool extended = argc > 1 && std::string(argv[argc - 1]) == "--extended";
  const int positional = argc - 1 - (extended ? 1 : 0);
  if (positional > 1) {
    std::cerr << kUsage << "\n";
    return 2;
  }
  const ae_tools::CommandLine cli(argc, argv, "corpus_stats", kUsage);
  const uint64_t seed =
      positional == 1 ? static_cast<uint64_t>(cli.whole_in(argv[1], 0, 1LL << 53, "SEED")) : ae::CorefOptions{}.seed;
  try {
    const json out = {{"coreference", coref_stats(seed, ae::CorefLanguage::English, extended)},
                      {"coreference_zh", coref_stats(seed, ae::CorefLanguage::Chinese, extended)},
                      {"word_order", word_order_stats(seed)}};
    std::cout << out.dump(2) << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "corpus_stats: " << e.what() << "\n";
    return 1;
  }
}
