// Synthetic, seeded training corpora for the tiny Transformers whose attention the page shows.
// Both generators are pure functions of their options: the same seed gives byte-identical texts
// in the native and the wasm build (only ae::Rng is used, with our own Fisher–Yates shuffle).
//
// (a) Coreference (Winograd-style), the lesson's example:
//       "The animal didn't cross the street because it was too tired."  → it = animal
//       "The animal didn't cross the street because it was too wide."   → it = street
//     Six families (cross, fit, break, lift, reach, overtake). Each family has two roles — role 0
//     is the subject of its active templates (the animal, the trophy, …), role 1 the other noun
//     (the street, the suitcase, …) — several interchangeable nouns per role, several adjectives
//     per role, and eight templates: four put role 0 first, four (passive or with the other noun
//     as subject) put role 1 first. A sentence is
//       template(noun0, noun1) + [" " + middle] + " " + connective + " it " + verb + " " + intensifier
//       + " " + adj + "."
//     with middle ∈ {"", "that day", "last night"} (so the distance from the nouns to "it" is not
//     fixed by the template), connective ∈ {because, since, as}, verb ∈ {was, seemed} and a
//     family's intensifiers ("too", "far too", "so" where something failed; "so", "very",
//     "really" otherwise). Only the adjective, which comes after "it", decides the referent.
//
//     Shortcuts this design removes:
//       - position: examples come in minimal pairs (same sentence, one adjective of each role),
//         so in every split exactly half of the referents are the first noun;
//       - voice: role 0 comes first in half of the templates;
//       - the adjective alone: many adjectives belong to different roles in different families
//         ("long" street vs "long" guitar, "big" trophy vs "big" piano, "weak" crane vs "weak"
//         window); the same noun can appear in two families ("box" in fit and lift).
//
//     Splits, disjoint by construction:
//       train, validation      seen templates, seen noun–adjective combinations, disjoint pairs;
//       heldout_combinations   seen templates; for each family and noun one adjective of its role
//                              is held out (every adjective is held out for some noun), and both
//                              examples of a held-out pair use a held-out (noun, adjective);
//                              no training sentence of that family contains both words;
//       heldout_templates      templates 6 (role 0 first) and 7 (role 1 first) of every family,
//                              with seen combinations; their words all occur in seen templates.
//
// (b) Word order (Chinese SVO, for positional encoding): 猫追狗 vs 狗追猫 — the same characters,
//     a different agent. Optional time prefix (今天, 昨天, 刚才) and aspect (在 before the verb,
//     了 after it), so the agent is not always at index 0 and sentences have 3–6 tokens. Every
//     example's minimal pair (agent and patient swapped) is in the same split with the same
//     pair_id. The held-out split uses noun pairs (unordered) that never occur in train/validation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ae {

// ---------------------------------------------------------------------------------------------
// Coreference
// ---------------------------------------------------------------------------------------------

struct CorefTemplate {
  std::string pattern;  // "The {0} didn't cross the {1}": {0} is the role-0 noun, {1} the role-1 noun
  bool role1_first;     // true when {1} comes before {0} (passive, or the other noun is the subject)
  bool heldout;         // true for the templates reserved for the heldout_templates split
};

struct CorefFamily {
  std::string name;                                     // "cross", "fit", …
  std::array<std::string, 2> roles;                     // what each role is, for docs: "animal", "crossing"
  std::array<std::vector<std::string>, 2> nouns;        // interchangeable nouns per role
  std::array<std::vector<std::string>, 2> adjectives;   // adjectives that make "it" the role's noun
  std::vector<std::string> intensifiers;                // "too", "far too", "so" / "so", "very", "really"
  std::vector<CorefTemplate> templates;
};

// The fixed lexicon of the coreference corpus (the same for every seed).
const std::vector<CorefFamily>& coref_families();
const std::vector<std::string>& coref_connectives();  // because, since, as
const std::vector<std::string>& coref_verbs();        // was, seemed
const std::vector<std::string>& coref_middles();      // "", "that day", "last night": before the connective

struct CorefExample {
  std::string text;                 // "The animal didn't cross the street because it was too tired."
  std::vector<std::string> tokens;  // ae::split_words(text)
  int pronoun = -1;                 // token index of "it"
  int first_noun = -1, second_noun = -1;  // token indices of the two nouns, first_noun < second_noun
  int referent = -1;                // token index of the noun "it" refers to (first_noun or second_noun)
  std::string referent_word, other_word;
  std::string family;
  std::string decider;              // the adjective that decides the referent (the last word)
  int template_id = -1;             // index into the family's templates
  int pair_id = -1;                 // the two examples with this id differ only in `decider`
  int referent_role = -1;           // 0 or 1: the family role of the referent
};

struct CorefOptions {
  uint64_t seed = 1;
  // Sizes in examples; each is rounded down to an even number (examples come in pairs) and
  // capped by what the pools hold (the actual counts are the vectors' sizes).
  int train = 60000;
  int validation = 2000;
  int heldout_combinations = 2000;
  int heldout_templates = 2000;
};

struct CorefCorpus {
  std::vector<CorefExample> train, validation, heldout_combinations, heldout_templates;
  std::string hash;  // 16 hex digits: FNV-1a 64 of every text + "\n", splits in the order above
};

// Families are balanced (the pairs of a split are taken round-robin over the families). The two
// lesson sentences are always a training pair. The two examples of a pair are adjacent (in random
// order); a trainer should shuffle.
CorefCorpus make_coref_corpus(const CorefOptions& options = {});

// The two sentences of the lesson (pair_id 0), built exactly as in the corpus.
std::vector<CorefExample> lesson_examples();

// Completion format for a causal decoder: "the animal didn't cross the street because it was
// too tired . it = animal" (the sentence lower-cased, " . it = ", the referent word).
std::string decoder_text(const CorefExample& example);

// Every word the corpus can contain — the whole lexicon (templates, tails, nouns, adjectives, and
// "=" of decoder_text), then any word of the examples not yet listed — in a fixed first-seen order,
// so Vocabulary::from_words(corpus_words(c)) is the same for every seed and covers every split.
std::vector<std::string> corpus_words(const CorefCorpus& corpus);

// ---------------------------------------------------------------------------------------------
// Word order
// ---------------------------------------------------------------------------------------------

const std::vector<std::string>& word_order_nouns();     // 猫 狗 鸟 …, one character each
const std::vector<std::string>& word_order_verbs();     // 追 咬 看 …, one character each
const std::vector<std::string>& word_order_prefixes();  // "", 今天, 昨天, 刚才
const std::vector<std::string>& word_order_patterns();  // "SVO", "S在VO", "SV了O"

struct WordOrderExample {
  std::string text;                 // "今天猫追狗"
  std::vector<std::string> tokens;  // one per character
  int agent = -1;                   // token index of the agent (the subject)
  int patient = -1;                 // token index of the patient (the object)
  std::string agent_word, patient_word, verb;
  int pair_id = -1;                 // shared with the example that swaps agent and patient
};

struct WordOrderOptions {
  uint64_t seed = 1;
  int train = 20000;       // examples, rounded down to even and capped by the pool
  int validation = 2000;
  int heldout = 2000;
  int heldout_noun_pairs = 18;  // of the C(16,2) = 120 unordered noun pairs
};

struct WordOrderCorpus {
  std::vector<WordOrderExample> train, validation, heldout;
  std::vector<std::array<std::string, 2>> heldout_noun_pairs;  // never together in train/validation
  std::string hash;
};

WordOrderCorpus make_word_order_corpus(const WordOrderOptions& options = {});

// As for the coreference corpus: the whole lexicon first, then any further word of the examples.
std::vector<std::string> corpus_words(const WordOrderCorpus& corpus);

// 16 hex digits of FNV-1a 64 over each text followed by "\n".
std::string fnv1a_hex(const std::vector<std::string_view>& texts);

}  // namespace ae
