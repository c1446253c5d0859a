// Synthetic, seeded training corpora for the tiny Transformers whose attention the page shows.
// Both generators are pure functions of their options: the same seed gives byte-identical texts
// in the native and the wasm build (only ae::Rng is used, with our own Fisher–Yates shuffle).
//
// (a) Coreference (Winograd-style), the lesson's example:
//       "The animal didn't cross the street because it was too tired."  → it = animal
//       "The animal didn't cross the street because it was too wide."   → it = street
//     Six families (cross, fit, break, lift, reach, overtake). Each has two roles — role 0 is
//     the subject of its active templates (the animal, the trophy, …), role 1 the other noun
//     (the street, the suitcase, …) — a noun pool per role, adjectives per role and eight
//     templates (four put role 0 first, four role 1; two are held out). Only an adjective that
//     comes after "it" decides the referent; the corpus is built so that the answer can only be
//     read from the sentence, never recalled:
//       - nouns: ≥ 20 per role; lift and overtake draw both roles from one shared pool (either
//         vehicle can overtake the other), and many nouns occur in several families, in the
//         same or the other role ("window" is broken in one family and reached in another);
//         so no noun predicts the answer by itself and the model must copy it;
//       - positions: an optional opener ("Yesterday,", "Last night", …), three orders (the
//         main clause first; the clause first: "Because it was too tired, the animal didn't
//         cross the street."; two sentences: "… the street. It was too tired."), optional
//         colour words before a noun ("the brown dog"), a prepositional distractor noun ("the
//         street near the farm"), a phrase before the connective ("that day") and one after
//         the adjective ("at the time"), so no noun sits at a fixed index or offset;
//       - the adjective alone: many adjectives decide different roles in different families;
//       - examples come in minimal pairs (one sentence, one adjective of each role), so half
//         of the referents are the first noun in every split.
//
//     Splits, each a property no training sentence has (checked in that order):
//       heldout_templates     the last two templates of every family (one role 0 first, one
//                             role 1 first), whose words training has in the same word order;
//       heldout_structures    a structure never trained for that family: the clause first for
//                             fit and lift, two sentences for reach, any opener for overtake;
//       heldout_noun_roles    lift and overtake: a noun in the role it never has in training
//                             (three nouns of each pool are trained only as role 0, three
//                             only as role 1);
//       heldout_combinations  for each family, role and noun one adjective that never decides
//                             that noun in training (never animal + tired or street + wide);
//       train, validation     everything else; disjoint texts.
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
#include <utility>
#include <vector>

namespace ae {

// ---------------------------------------------------------------------------------------------
// Coreference
// ---------------------------------------------------------------------------------------------

struct CorefTemplate {
  std::string pattern;  // "{0} didn't cross {1}": {0} is the role-0 noun phrase, {1} the role-1 one
  bool role1_first;     // true when {1} comes before {0} (passive, or the other noun is the subject)
  bool heldout;         // true for the templates reserved for the heldout_templates split
};

// Where the pronoun clause goes relative to the main clause.
enum class CorefOrder { MainFirst, ClauseFirst, TwoSentences };
const char* to_string(CorefOrder order);  // "main-first", "clause-first", "two-sentences"

struct CorefFamily {
  std::string name;                                    // "cross", "fit", …
  std::array<std::string, 2> roles;                    // what each role is, for docs: "animal", "crossing"
  std::array<std::vector<std::string>, 2> nouns;       // noun pool per role (the same pool when shared)
  std::array<std::vector<std::string>, 2> adjectives;  // adjectives that make "it" the role's noun
  std::vector<std::string> intensifiers;               // "too", "far too", "so" / "so", "very", "really"
  std::vector<CorefTemplate> templates;
  bool shared_pool = false;  // both roles draw from nouns[0]
  // The structure this family never trains on (heldout_structures): an order, or any opener.
  bool heldout_opener = false;
  bool has_heldout_order = false;
  CorefOrder heldout_order = CorefOrder::MainFirst;
  // The extended corpus only (CorefOptions::extended, coref_lexicon_extended.cpp):
  //   flipped[t]: template t with the event's polarity flipped ("{0} fit in {1}" for "{0} didn't fit
  //   in {1}"), "" when it has none; flip_adjectives[r]: adjectives that make "it" role r's noun in
  //   the templates and role 1 - r's in the flipped ones ("too big" → the trophy, "so big" → the
  //   suitcase), said with flipped_intensifiers;
  //   heldout_*: the new structure this family never trains on (its own held-out split).
  std::vector<std::string> flipped = {};
  std::array<std::vector<std::string>, 2> flip_adjectives = {};
  std::vector<std::string> flipped_intensifiers = {};
  bool heldout_phrase = false, heldout_attributive = false, heldout_flip = false, heldout_swap = false;
};

// The corpus in English ("it") or in Chinese ("它"): the same families, roles, held-out rules and
// sentence shapes, each language with its own words. Chinese has no spaces; its sentences are
// cut into words by the vocabulary (split_words with a lexicon, text/tokenizer.h), and the
// generator checks that this gives exactly the words it put together.
enum class CorefLanguage { English, Chinese };
const char* to_string(CorefLanguage language);  // "en", "zh"
// Throws std::invalid_argument for anything but "en" and "zh".
CorefLanguage coref_language(std::string_view code);

// Everything a language brings to the corpus. Chinese entries are written with a space between
// their words ("今天 早上 ，"); templates have a {m} slot for the middle phrase ("that day"
// stands before the verb in Chinese) and intensifiers a {} slot for the adjective ("太 {} 了").
struct CorefLexicon {
  CorefLanguage language = CorefLanguage::English;
  std::string pronoun;  // "it", "它"
  std::vector<CorefFamily> families;
  std::vector<std::string> connectives, verbs, openers, middles, suffixes, modifiers, distractors;
  std::vector<std::pair<std::string, std::string>> measure_words;  // Chinese: noun → 只, 条, 辆, …
  // The extended corpus only: "near the {}" / "{} 旁边 的" (a phrase whose noun is one of the
  // family's own nouns), how an adjective stands before a noun ("{}" / "{} 的"), and whether the
  // two nouns of a family may exchange their slots (Chinese: 那条马路没有穿过那只动物).
  bool extended = false;
  std::vector<std::string> family_phrases;
  std::string attributive = "{}";
  bool role_swaps = false;
};
// extended: the lexicon of CorefOptions::extended (more templates with learners' verbs, more
// nouns and adjectives, flipped events); the default one is what every shipped model read.
const CorefLexicon& coref_lexicon(CorefLanguage language, bool extended = false);

// The fixed English lexicon of the coreference corpus (the same for every seed).
const std::vector<CorefFamily>& coref_families();
const std::vector<std::string>& coref_connectives();  // because, since, as
const std::vector<std::string>& coref_verbs();        // was, seemed
const std::vector<std::string>& coref_openers();      // "Yesterday,", "Last night", …
const std::vector<std::string>& coref_middles();      // "that day", …: before the connective
const std::vector<std::string>& coref_suffixes();     // "at the time", …: after the adjective
const std::vector<std::string>& coref_modifiers();    // colour words before a noun
const std::vector<std::string>& coref_distractors();  // "near the farm", …: a third noun after a noun

struct CorefExample {
  std::string text;                       // "The animal didn't cross the street because it was too tired."
  std::vector<std::string> tokens;        // ae::split_words(text)
  int pronoun = -1;                       // token index of "it"
  int first_noun = -1, second_noun = -1;  // token indices of the two nouns, first_noun < second_noun
  int referent = -1;                      // token index of the noun "it" refers to (first_noun or second_noun)
  std::string referent_word, other_word;
  std::string family;
  std::string decider;     // the adjective that decides the referent (after "it")
  int template_id = -1;    // index into the family's templates
  int pair_id = -1;        // the two examples with this id differ only in `decider`
  int referent_role = -1;  // 0 or 1: the family role of the referent
  CorefOrder order = CorefOrder::MainFirst;
  bool opener = false;  // the sentence starts with an opener
  // The extended corpus's structures (all false / empty in the default corpus):
  std::vector<std::string> phrase_nouns;  // nouns of the family inside "near the X" phrases (never the answer)
  int attributives = 0;                   // role adjectives before a noun ("the tired animal")
  bool flipped = false;                   // the event's polarity is flipped (decider means the other role)
  bool polarity_pair = false;             // the pair differs in polarity, not in the adjective
  bool role_swap = false;                 // the nouns sit in each other's slots
};

struct CorefOptions {
  uint64_t seed = 1;
  CorefLanguage language = CorefLanguage::English;
  // Sizes in examples; each is rounded down to an even number (examples come in pairs).
  int train = 60000;
  int validation = 1000;
  int heldout = 1000;  // each held-out split
  // The structures of issue 34 (a family noun in a phrase, role adjectives before nouns, flipped
  // events, Chinese role swaps), the extended lexicon, and a held-out split for each structure.
  // Off: exactly the corpus every shipped model was trained on.
  bool extended = false;
  // Extended corpus only: heldout_flipped holds out flipped *frames* instead of one family's flipped
  // events. In every family with flipped events the flipped frames of two trained templates (the
  // last with role 0 first and the last with role 1 first whose every word training has in another
  // template or flipped frame) are never trained; every other flipped frame of every family is. So
  // the model sees a flipped event in every family and must read the polarity of a new frame, not
  // the flip of a family. Off: lift's flipped events are the split (heldout_flip).
  bool flip_frames = false;
  // Extended corpus only: the share of the pairs of a family with flipped events that are flipped
  // (half of them polarity pairs).
  double flip_share = 0.3;
  // The share of pairs whose clause comes first ("Because it was too tired, the animal didn't …"),
  // taken from the main-first share; the two-sentence share stays 0.2. A causal reader's `it`
  // comes before both nouns in this order, so it is the order a decoder finds hardest to carry
  // to a family that never trains it (heldout_structures).
  double clause_first_share = 0.25;
  // Extended corpus only: the share of training (and validation) pairs drawn as the first corpus
  // draws them, with no phrase, attributive adjective or flipped event. Held-out splits keep their
  // structures. 0 leaves every corpus as it was.
  double plain_share = 0.0;
};

struct CorefCorpus {
  std::vector<CorefExample> train, validation, heldout_templates, heldout_structures, heldout_noun_roles,
      heldout_combinations;
  // Extended corpus only (empty otherwise, and then not among evaluation_splits()):
  //   heldout_phrases      a family noun in a phrase, in families that never train it (fit, overtake);
  //   heldout_attributive  role adjectives before nouns, in families that never train them (break, reach);
  //   heldout_flipped      flipped events in lift, which never trains them (flip_frames: flipped
  //                        frames of every family that training never has);
  //   heldout_role_swaps   Chinese: nouns in each other's slots in break, which never trains them.
  std::vector<CorefExample> heldout_phrases, heldout_attributive, heldout_flipped, heldout_role_swaps;
  CorefLanguage language = CorefLanguage::English;
  bool extended = false;
  std::string hash;  // 16 hex digits: FNV-1a 64 of every text + "\n", splits in the order above
  // Every split but train, with its name, in the order above (the extended ones when not empty).
  std::vector<std::pair<std::string, const std::vector<CorefExample>*>> evaluation_splits() const;
  // The four extended held-out splits, empty or not.
  std::vector<std::pair<std::string, const std::vector<CorefExample>*>> extended_splits() const;
};

// Families are balanced (pairs are drawn round-robin over the families that can have the
// split's property). The two lesson sentences are always the first training pair. The two
// examples of a pair are adjacent (in random order); a trainer should shuffle.
CorefCorpus make_coref_corpus(const CorefOptions& options = {});

// The two sentences of the lesson (pair_id 0), built exactly as in the corpus.
std::vector<CorefExample> lesson_examples(CorefLanguage language = CorefLanguage::English);

// Completion format for a causal decoder: "the animal didn't cross the street because it was
// too tired . it = animal" (the sentence lower-cased without its final ".", " . it = ", the
// referent word).
std::string decoder_text(const CorefExample& example);

// Every word the corpus can contain — the whole lexicon (templates, nouns, adjectives, openers,
// …, and "=" of decoder_text), then any word of the examples not yet listed — in a fixed
// first-seen order, so Vocabulary::from_words(corpus_words(c)) is the same for every seed and
// covers every split.
std::vector<std::string> corpus_words(const CorefCorpus& corpus);

// ---------------------------------------------------------------------------------------------
// Translation, English → Chinese (for an encoder–decoder)
// ---------------------------------------------------------------------------------------------

// An English sentence of the coreference corpus and the same sentence in the Chinese corpus's
// words and shapes (the dictionary of coref_lexicon_zh.cpp): the family, template, nouns,
// adjectives and optional parts said in Chinese, role 0 with 那 + its measure word. Two Chinese
// renderings: `resolved` names the referent in place of 它, `literal` keeps 它. The lesson pair:
//   "The animal didn't cross the street because it was too tired."
//   → 那只动物没有穿过马路，因为动物太累了。 (resolved) / 那只动物没有穿过马路，因为它太累了。 (literal)
struct TranslationPair {
  CorefExample english;  // as the English corpus makes it: tokens, referent, pair_id, …
  std::string resolved_text, literal_text;
  std::vector<std::string> resolved, literal;  // their words (the Chinese vocabulary's segmentation)
  int pronoun = -1;      // index of 它 in literal, and of the referent that replaces it in resolved
  std::string referent;  // that Chinese noun
};

struct TranslationCorpus {
  // The coreference corpus's splits, by the English sentence's held-out properties (corpus.h).
  std::vector<TranslationPair> train, validation, heldout_templates, heldout_structures, heldout_noun_roles,
      heldout_combinations;
  std::string hash;  // FNV-1a 64 of each pair's English and resolved Chinese text, each + "\n"
  std::vector<std::pair<std::string, const std::vector<TranslationPair>*>> evaluation_splits() const;
};

// Parallel pairs drawn as the English coreference corpus draws its sentences (the same splits,
// minimal pairs adjacent, the lesson pair first), keeping only sentences whose every word has a
// Chinese one: no people (它 is not said of them), no suffix ("at the time"), a few nouns and
// adjectives left out. options.language is not read.
TranslationCorpus make_translation_corpus(const CorefOptions& options = {});

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
  int pair_id = -1;  // shared with the example that swaps agent and patient
};

struct WordOrderOptions {
  uint64_t seed = 1;
  int train = 20000;  // examples, rounded down to even and capped by the pool
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
