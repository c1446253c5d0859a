// The coreference corpus (corpus.h explains its design). A pair of examples is drawn as a
// PairSpec — family, template, two nouns, one adjective per role and the sentence's shape —
// and then classified: the first held-out property it has names its split. Each split is
// filled by drawing specs that can have its property and keeping those classified into it,
// so the splits are disjoint by construction; texts are also kept unique across all splits.
#include "train/corpus.h"

#include "train/corpus_util.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <type_traits>

namespace ae {

using namespace corpus_detail;

namespace {

enum Purpose : uint64_t { kHeldCombos = 11, kHeldNounRoles = 12, kDraw = 13, kPairOrder = 14 };

std::vector<CorefFamily> build_families() {
  const std::vector<std::string> failed = {"too", "far too", "so", "really"};  // something did not happen
  const std::vector<std::string> happened = {"so", "very", "really", "quite"};
  std::vector<CorefFamily> f;

  CorefFamily cross{
      "cross",
      {"animal", "crossing"},
      {{{"animal", "dog", "cat",    "horse", "cow",   "deer",    "fox",  "goat",
         "sheep",  "pig", "rabbit", "wolf",  "bear",  "donkey",  "mule", "camel",
         "child",  "boy", "girl",   "man",   "woman", "chicken", "duck", "squirrel"},
        {"street",   "road",    "highway", "avenue", "lane",   "boulevard", "river",        "bridge",
         "field",    "track",   "path",    "canal",  "stream", "square",    "valley",       "desert",
         "motorway", "railway", "trail",   "creek",  "meadow", "swamp",     "intersection", "junction"}}},
      {{{"tired", "exhausted", "sleepy", "scared", "weak", "lazy", "nervous", "frightened", "injured", "afraid",
         "slow"},
        {"wide", "busy", "long", "dangerous", "crowded", "noisy", "deep", "icy", "flooded", "muddy", "broad"}}},
      failed,
      family_templates({"{0} didn't cross {1}", "{0} did not cross {1}", "{0} refused to cross {1}",
                        "{1} wasn't crossed by {0}", "{1} was not crossed by {0}", "{1} was never crossed by {0}",
                        "{0} had not crossed {1}", "{1} had not been crossed by {0}",  //
                        "{0} never crossed {1}", "{1} could not be crossed by {0}"})};
  f.push_back(cross);

  CorefFamily fit{
      "fit",
      {"object", "container"},
      {{{"trophy",  "statue", "lamp",   "guitar",   "painting", "telescope", "piano", "cake",
         "sofa",    "mirror", "bottle", "umbrella", "violin",   "chair",     "table", "helmet",
         "pumpkin", "carpet", "ladder", "poster",   "kettle",   "blanket",   "laptop"},
        {"suitcase", "box",    "bag",     "drawer", "backpack", "trunk",    "cupboard", "basket",
         "bucket",   "crate",  "cabinet", "closet", "locker",   "car",      "van",      "fridge",
         "oven",     "garage", "room",    "pocket", "tent",     "wardrobe", "bin"}}},
      {{{"big", "large", "tall", "wide", "long", "bulky", "huge", "thick", "enormous", "heavy"},
        {"small", "narrow", "full", "tiny", "short", "compact", "cramped", "crowded", "little", "shallow"}}},
      failed,
      family_templates({"{0} didn't fit in {1}", "{0} did not fit into {1}", "{0} would not fit in {1}",
                        "{1} couldn't hold {0}", "{1} could not hold {0}", "{1} had no room for {0}",
                        "{0} would never fit in {1}", "{1} would not have room for {0}",  //
                        "{0} never fit into {1}", "{1} would not hold {0}"})};
  fit.has_heldout_order = true;
  fit.heldout_order = CorefOrder::ClauseFirst;
  f.push_back(fit);

  CorefFamily brk{
      "break",
      {"projectile", "breakable"},
      {{{"ball",   "rock",   "stone", "brick",   "hammer", "axe",    "bat",    "club", "log", "anvil", "boulder",
         "shovel", "wrench", "pipe",  "crowbar", "mallet", "pebble", "weight", "iron", "pan", "bolt",  "hailstone"},
        {"window", "vase", "mirror", "plate", "jar",      "screen",   "glass", "cup",   "bowl",  "bottle", "lamp",
         "tile",   "egg",  "teapot", "mug",   "ornament", "figurine", "lens",  "phone", "clock", "watch",  "dish"}}},
      {{{"hard", "heavy", "solid", "sharp", "fast", "big", "dense", "strong", "massive", "pointed"},
        {"fragile", "thin", "weak", "brittle", "old", "delicate", "cracked", "flimsy", "cheap", "frail"}}},
      happened,
      family_templates({"{0} broke {1}", "{0} smashed {1}", "{0} cracked {1}", "{1} was broken by {0}",
                        "{1} was smashed by {0}", "{1} got cracked by {0}", "{0} shattered {1}",
                        "{1} was easily broken by {0}", "{0} easily broke {1}", "{1} got smashed by {0}"})};
  f.push_back(brk);

  // Machines that lift and are lifted: either can be the lifter.
  const std::vector<std::string> machines = {"crane",   "robot",   "forklift",  "machine",   "helicopter", "hoist",
                                             "tractor", "truck",   "excavator", "bulldozer", "winch",      "drone",
                                             "tank",    "jeep",    "lorry",     "boat",      "plane",      "digger",
                                             "van",     "trailer", "loader",    "elevator"};
  CorefFamily lift{
      "lift",
      {"lifter", "load"},
      {{machines, machines}},
      {{{"weak", "small", "old", "tiny", "flimsy", "feeble", "light", "underpowered", "broken", "damaged"},
        {"heavy", "big", "large", "bulky", "massive", "awkward", "huge", "enormous", "loaded", "wide"}}},
      failed,
      family_templates({"{0} couldn't lift {1}", "{0} could not lift {1}", "{0} failed to lift {1}",
                        "{1} couldn't be lifted by {0}", "{1} wasn't lifted by {0}", "{1} could not be lifted by {0}",
                        "{0} did not lift {1}", "{1} was never lifted by {0}"})};
  lift.shared_pool = true;
  lift.has_heldout_order = true;
  lift.heldout_order = CorefOrder::ClauseFirst;
  f.push_back(lift);

  CorefFamily reach{
      "reach",
      {"reacher", "target"},
      {{{"kitten", "puppy", "rabbit", "mouse", "hamster", "duckling", "child", "toddler",
         "boy",    "girl",  "monkey", "cat",   "dog",     "squirrel", "goat",  "baby",
         "chick",  "lamb",  "piglet", "frog",  "turtle",  "tortoise"},
        {"shelf",    "table",   "fence", "roof",       "branch",   "ledge",   "window", "counter",
         "cupboard", "ceiling", "wall",  "tree",       "platform", "balcony", "rope",   "hook",
         "nest",     "chimney", "cliff", "windowsill", "bench",    "sink"}}},
      {{{"short", "small", "tiny", "young", "little", "clumsy", "weak", "tired", "slow", "lazy"},
        {"high", "tall", "elevated", "distant", "lofty", "steep", "remote", "raised", "slippery", "narrow"}}},
      failed,
      family_templates({"{0} couldn't reach {1}", "{0} could not reach {1}", "{0} failed to reach {1}",
                        "{1} couldn't be reached by {0}", "{1} wasn't reached by {0}", "{1} was never reached by {0}",
                        "{0} never reached {1}", "{1} was not reached by {0}",  //
                        "{0} did not reach {1}", "{1} could not be reached by {0}"})};
  reach.has_heldout_order = true;
  reach.heldout_order = CorefOrder::TwoSentences;
  f.push_back(reach);

  const std::vector<std::string> vehicles = {"truck",     "bus",       "van",     "motorbike", "car",     "taxi",
                                             "tractor",   "cart",      "bicycle", "wagon",     "scooter", "carriage",
                                             "lorry",     "jeep",      "train",   "tram",      "coach",   "minibus",
                                             "ambulance", "limousine", "moped",   "caravan"};
  CorefFamily overtake{
      "overtake",
      {"faster vehicle", "slower vehicle"},
      {{vehicles, vehicles}},
      {{{"fast", "quick", "powerful", "speedy", "nimble", "swift", "new", "light", "strong", "rapid"},
        {"slow", "old", "heavy", "sluggish", "overloaded", "rusty", "tired", "broken", "loaded", "weak"}}},
      happened,
      family_templates({"{0} overtook {1}", "{0} passed {1}", "{0} easily overtook {1}", "{1} was overtaken by {0}",
                        "{1} was passed by {0}", "{1} got overtaken by {0}", "{0} easily passed {1}",
                        "{1} was easily overtaken by {0}"})};
  overtake.shared_pool = true;
  overtake.heldout_opener = true;
  f.push_back(overtake);
  return f;
}

// Everything that makes one minimal pair; -1 means "absent" for the optional parts.
struct PairSpec {
  int family = 0, templ = 0;
  std::array<int, 2> noun = {0, 0};          // per role, into the role's pool
  std::array<int, 2> adjective = {0, 0};     // per role
  std::array<int, 2> modifier = {-1, -1};    // colour word before each role's noun
  std::array<int, 2> determiner = {-1, -1};  // Chinese only: 那 / 这 + the noun's measure word
  int distractor = -1, distractor_role = 0;
  CorefOrder order = CorefOrder::MainFirst;
  int opener = -1, middle = -1, suffix = -1;
  int connective = 0, verb = 0, intensifier = 0;
  // The extended corpus (CorefOptions::extended); -1 / 0 / false = absent.
  std::array<int, 2> phrase = {-1, -1};                // per slot: a family phrase ("near the {}")
  std::array<std::array<int, 2>, 2> phrase_noun = {};  // per slot: {role pool, index} of the phrase's noun
  std::array<int, 2> attributive = {-1, -1};           // per slot: an adjective of the noun's role before it
  int flip = 0;                                        // 1: both sentences flipped; 2: the pair differs in polarity
  std::array<int, 2> flip_adjective = {0, 0};          // per role, into flip_adjectives
  int flip_role = 0;                                   // flip 2: the role the unflipped sentence refers to
  bool swap = false;                                   // the nouns exchange slots
};

// Discarded: a pair no split takes (flip_frames: a held-out flipped frame with another held-out structure).
enum class Split {
  Train,
  Templates,
  Structures,
  NounRoles,
  Combinations,
  Phrases,
  Attributive,
  Flipped,
  RoleSwaps,
  Discarded
};

// Seeded hold-outs, fixed for a corpus.
struct HeldOut {
  // combo[family][role][noun] = the adjective index never combined with that noun in that role.
  std::vector<std::array<std::vector<int>, 2>> combo;
  // noun_role[family][role][noun]: the noun is never trained in that role (shared pools only).
  std::vector<std::array<std::vector<bool>, 2>> noun_role;
  // CorefOptions::flip_frames: flip_frame[family][template], the template's flipped frame is never
  // trained (heldout_flipped); empty when off (then a family's heldout_flip holds out its flips).
  std::vector<std::vector<bool>> flip_frame;
  double flip_share = 0.3;           // CorefOptions::flip_share
  double clause_first_share = 0.25;  // CorefOptions::clause_first_share
  double plain_share = 0.0;          // CorefOptions::plain_share
};

const std::string& pick(const std::vector<std::string>& v, int i) { return v[static_cast<size_t>(i)]; }

int index_of(const std::vector<std::string>& v, std::string_view word) {
  const auto it = std::find(v.begin(), v.end(), word);
  if (it == v.end()) throw std::logic_error("corpus: no word \"" + std::string(word) + "\"");
  return static_cast<int>(it - v.begin());
}

// The words of a template or flipped frame, without its slots.
std::vector<std::string> pattern_words(const std::string& pattern) {
  std::vector<std::string> out;
  for (auto& w : split_at_spaces(pattern))
    if (w != "{0}" && w != "{1}" && w != "{m}") out.push_back(std::move(w));
  return out;
}

// CorefOptions::flip_frames: in every family with flipped events, the flipped frames of the last
// trained template with role 0 first and the last with role 1 first whose every word some trained
// template or trained flipped frame (of any family) has; the held-out split then asks for a new
// frame's polarity, never for a word training lacks.
std::vector<std::vector<bool>> held_flip_frames(const CorefLexicon& lx) {
  std::vector<std::vector<bool>> held;
  for (const auto& f : lx.families) held.emplace_back(f.templates.size(), false);
  const auto trained_words = [&] {
    WordSet words;
    for (size_t fi = 0; fi < lx.families.size(); ++fi) {
      const CorefFamily& f = lx.families[fi];
      for (size_t t = 0; t < f.templates.size(); ++t) {
        if (f.templates[t].heldout) continue;
        for (auto& w : pattern_words(f.templates[t].pattern)) words.insert(std::move(w));
        if (!f.flipped.empty() && !f.flipped[t].empty() && !held[fi][t])
          for (auto& w : pattern_words(f.flipped[t])) words.insert(std::move(w));
      }
    }
    return words;
  };
  for (size_t fi = 0; fi < lx.families.size(); ++fi) {
    const CorefFamily& f = lx.families[fi];
    if (f.flipped.empty()) continue;
    for (const bool role1_first : {false, true})
      for (size_t t = f.templates.size(); t-- > 0;) {
        if (f.templates[t].heldout || f.templates[t].role1_first != role1_first || f.flipped[t].empty()) continue;
        held[fi][t] = true;
        const WordSet words = trained_words();
        const auto known = pattern_words(f.flipped[t]);
        if (std::all_of(known.begin(), known.end(), [&](const std::string& w) { return words.count(w) > 0; })) break;
        held[fi][t] = false;
      }
  }
  return held;
}

// A shuffled cycle per (family, role), so every adjective is held out for some noun; the
// lesson's animal + tired and street + wide (index 0 of cross) always stay trained.
HeldOut make_held_out(const CorefLexicon& lx, uint64_t seed, bool flip_frames) {
  const auto& families = lx.families;
  HeldOut h;
  for (size_t fi = 0; fi < families.size(); ++fi) {
    const CorefFamily& f = families[fi];
    std::array<std::vector<int>, 2> combo;
    std::array<std::vector<bool>, 2> noun_role;
    for (int role = 0; role < 2; ++role) {
      const auto& nouns = f.nouns[static_cast<size_t>(role)];
      const int m = static_cast<int>(f.adjectives[static_cast<size_t>(role)].size());
      std::vector<int> perm(static_cast<size_t>(m));
      for (int j = 0; j < m; ++j) perm[static_cast<size_t>(j)] = j;
      Rng rng = sub_rng(seed, kHeldCombos, fi, static_cast<uint64_t>(role));
      shuffle(perm, rng);
      for (size_t i = 0; i < nouns.size(); ++i) {
        int held = perm[i % static_cast<size_t>(m)];
        if (fi == 0 && i == 0 && held == 0) held = perm[(i + 1) % static_cast<size_t>(m)];
        combo[static_cast<size_t>(role)].push_back(held);
      }
      noun_role[static_cast<size_t>(role)].assign(nouns.size(), false);
    }
    if (f.shared_pool) {
      // Three nouns of the pool never trained as role 0, three others never as role 1.
      std::vector<int> order(f.nouns[0].size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
      Rng rng = sub_rng(seed, kHeldNounRoles, fi);
      shuffle(order, rng);
      const size_t q = 3;
      for (size_t i = 0; i < 2 * q; ++i) noun_role[i < q ? 0 : 1][static_cast<size_t>(order[i])] = true;
    }
    h.combo.push_back(combo);
    h.noun_role.push_back(noun_role);
  }
  if (flip_frames) h.flip_frame = held_flip_frames(lx);
  return h;
}

bool has_heldout_structure(const CorefFamily& f, const PairSpec& s) {
  return (f.heldout_opener && s.opener >= 0) || (f.has_heldout_order && s.order == f.heldout_order);
}

// Is the pair's flipped event held out: a held-out flipped frame (flip_frames), or any flip of a
// family that never trains them?
bool heldout_flip(const CorefFamily& f, const PairSpec& s, const HeldOut& h) {
  if (s.flip == 0) return false;
  if (h.flip_frame.empty()) return f.heldout_flip;
  return h.flip_frame[static_cast<size_t>(s.family)][static_cast<size_t>(s.templ)];
}

// The extended corpus's held-out structure the pair has for its family, or Train.
Split heldout_new_structure(const CorefFamily& f, const PairSpec& s, const HeldOut& h) {
  // With flip_frames every family has held-out flips, so the other splits would get some: a pair
  // with two new structures is in no split, so that each split tests one.
  if (!h.flip_frame.empty() && heldout_flip(f, s, h) &&
      ((f.heldout_phrase && (s.phrase[0] >= 0 || s.phrase[1] >= 0)) ||
       (f.heldout_attributive && (s.attributive[0] >= 0 || s.attributive[1] >= 0)) || (f.heldout_swap && s.swap)))
    return Split::Discarded;
  if (f.heldout_phrase && (s.phrase[0] >= 0 || s.phrase[1] >= 0)) return Split::Phrases;
  if (f.heldout_attributive && (s.attributive[0] >= 0 || s.attributive[1] >= 0)) return Split::Attributive;
  if (heldout_flip(f, s, h)) return Split::Flipped;
  if (f.heldout_swap && s.swap) return Split::RoleSwaps;
  return Split::Train;
}

// The first held-out property the pair has, in the order of corpus.h.
Split classify(const CorefLexicon& lx, const PairSpec& s, const HeldOut& h) {
  const CorefFamily& f = lx.families[static_cast<size_t>(s.family)];
  if (f.templates[static_cast<size_t>(s.templ)].heldout) return Split::Templates;
  const bool frame = !h.flip_frame.empty() && heldout_flip(f, s, h);  // see heldout_new_structure
  if (has_heldout_structure(f, s)) return frame ? Split::Discarded : Split::Structures;
  const auto& nr = h.noun_role[static_cast<size_t>(s.family)];
  if (nr[0][static_cast<size_t>(s.noun[0])] || nr[1][static_cast<size_t>(s.noun[1])])
    return frame ? Split::Discarded : Split::NounRoles;
  if (const Split other = heldout_new_structure(f, s, h); other != Split::Train) return other;
  // A swapped or flipped pair is decided by other words than the noun's own role adjectives.
  if (s.swap || s.flip > 0) return Split::Train;
  const auto& combo = h.combo[static_cast<size_t>(s.family)];
  for (size_t role = 0; role < 2; ++role)
    if (combo[role][static_cast<size_t>(s.noun[role])] == s.adjective[role]) return Split::Combinations;
  return Split::Train;
}

// Can a pair of this family have the split's property at all?
bool family_can_have(const CorefFamily& f, size_t family, Split split, const HeldOut& h) {
  if (split == Split::Flipped && !h.flip_frame.empty())
    return std::find(h.flip_frame[family].begin(), h.flip_frame[family].end(), true) != h.flip_frame[family].end();
  if (split == Split::Structures) return f.heldout_opener || f.has_heldout_order;
  if (split == Split::NounRoles) return f.shared_pool;
  if (split == Split::Phrases) return f.heldout_phrase;
  if (split == Split::Attributive) return f.heldout_attributive;
  if (split == Split::Flipped) return f.heldout_flip;
  if (split == Split::RoleSwaps) return f.heldout_swap;
  return true;
}

int draw(Rng& rng, size_t n) { return static_cast<int>(rng.below(n)); }
int draw_optional(Rng& rng, double p, size_t n) { return rng.uniform() < p ? draw(rng, n) : -1; }

// The extended corpus's structures, drawn after everything else (so a default corpus draws
// exactly what it always drew). A held-out split's structure is forced.
void draw_extended(const CorefLexicon& lx, const CorefFamily& f, Split split, const std::vector<int>& templ_pool,
                   double flip_share, PairSpec& s, Rng& rng) {
  for (size_t slot = 0; slot < 2; ++slot) {
    s.phrase[slot] = draw_optional(rng, 0.2, lx.family_phrases.size());
    const size_t pool = rng.below(2);
    s.phrase_noun[slot] = {static_cast<int>(pool), draw(rng, f.nouns[pool].size())};
    s.attributive[slot] = draw_optional(rng, 0.25, f.adjectives[slot].size());  // the slot's role's adjectives
  }
  if (split == Split::Phrases && s.phrase[0] < 0 && s.phrase[1] < 0)
    s.phrase[rng.below(2)] = draw(rng, lx.family_phrases.size());
  if (split == Split::Attributive && s.attributive[0] < 0 && s.attributive[1] < 0) {
    const size_t slot = rng.below(2);
    s.attributive[slot] = draw(rng, f.adjectives[slot].size());
  }
  for (size_t slot = 0; slot < 2; ++slot) {
    if (s.phrase[slot] >= 0 && s.distractor_role == static_cast<int>(slot)) s.distractor = -1;  // one phrase a noun
    if (s.attributive[slot] >= 0) s.modifier[slot] = -1;  // "the tired animal", not "the tired brown animal"
  }
  std::vector<int> flippable;
  for (int t : templ_pool)
    if (!f.flipped.empty() && !f.flipped[static_cast<size_t>(t)].empty()) flippable.push_back(t);
  const double u = rng.uniform();
  if (!flippable.empty() && (u < flip_share || split == Split::Flipped)) {
    s.flip = u < flip_share / 2 ? 1 : 2;
    s.templ = flippable[rng.below(flippable.size())];
    for (size_t role = 0; role < 2; ++role) s.flip_adjective[role] = draw(rng, f.flip_adjectives[role].size());
    s.flip_role = draw(rng, 2);
  }
  s.swap = lx.role_swaps && !f.shared_pool && (rng.uniform() < 0.2 || split == Split::RoleSwaps);
}

// A random pair of the family, nudged towards the split's property (classify() decides).
PairSpec draw_spec(const CorefLexicon& lx, int family, Split split, const HeldOut& h, Rng& rng) {
  const CorefFamily& f = lx.families[static_cast<size_t>(family)];
  PairSpec s;
  s.family = family;
  std::vector<int> seen_templates, held_templates;
  for (size_t t = 0; t < f.templates.size(); ++t)
    (f.templates[t].heldout ? held_templates : seen_templates).push_back(static_cast<int>(t));
  const std::vector<int>& templ_pool = split == Split::Templates ? held_templates : seen_templates;
  s.templ = templ_pool[rng.below(templ_pool.size())];
  for (size_t role = 0; role < 2; ++role) {
    s.noun[role] = draw(rng, f.nouns[role].size());
    s.adjective[role] = draw(rng, f.adjectives[role].size());
    s.modifier[role] = draw_optional(rng, 0.2, lx.modifiers.size());
  }
  if (split == Split::NounRoles) {  // put a noun in the role it never trains in
    const size_t role = rng.below(2);
    std::vector<int> held;
    for (size_t i = 0; i < f.nouns[role].size(); ++i)
      if (h.noun_role[static_cast<size_t>(family)][role][i]) held.push_back(static_cast<int>(i));
    if (!held.empty()) s.noun[role] = held[rng.below(held.size())];
  }
  if (split == Split::Combinations) {  // use a held-out adjective for one role's noun
    const size_t role = rng.below(2);
    s.adjective[role] = h.combo[static_cast<size_t>(family)][role][static_cast<size_t>(s.noun[role])];
  }
  if (rng.uniform() < 0.25) {
    s.distractor = draw(rng, lx.distractors.size());
    s.distractor_role = draw(rng, 2);
  }
  const double u = rng.uniform();
  const double main_first = 0.55 + (0.25 - h.clause_first_share);  // exactly 0.55 by default: the stream stays
  s.order = u < main_first ? CorefOrder::MainFirst : u < 0.8 ? CorefOrder::ClauseFirst : CorefOrder::TwoSentences;
  s.opener = draw_optional(rng, 0.3, lx.openers.size());
  if (split == Split::Structures) {  // force the family's held-out structure
    if (f.heldout_opener && s.opener < 0) s.opener = draw(rng, lx.openers.size());
    if (f.has_heldout_order && !f.heldout_opener) s.order = f.heldout_order;
  }
  if (s.order == CorefOrder::MainFirst) s.middle = draw_optional(rng, 0.2, lx.middles.size());
  s.suffix = draw_optional(rng, 0.2, lx.suffixes.size());
  s.connective = draw(rng, lx.connectives.size());
  s.verb = draw(rng, lx.verbs.size());
  s.intensifier = draw(rng, f.intensifiers.size());
  if (lx.language == CorefLanguage::Chinese) {  // drawn last: the English stream stays as it was
    const double p[2] = {0.75, 0.4};            // the lesson's "那只动物 … 马路": a determiner mostly on role 0
    for (size_t role = 0; role < 2; ++role) s.determiner[role] = rng.uniform() < p[role] ? draw(rng, 2) : -1;
  }
  if (!lx.extended) return s;
  // A plain pair draws nothing more; the draw is skipped at 0 so that the stream stays as it was.
  const bool plain = split == Split::Train && h.plain_share > 0 && rng.uniform() < h.plain_share;
  if (!plain) draw_extended(lx, f, split, templ_pool, h.flip_share, s, rng);
  return s;
}

const std::string& measure_word(const CorefLexicon& lx, std::string_view noun) {
  for (const auto& [word, measure] : lx.measure_words)
    if (word == noun) return measure;
  throw std::logic_error("corpus: no measure word for \"" + std::string(noun) + "\"");
}

// pattern with `marker` replaced by value, or removed with the space before it when value is "".
std::string fill_middle(const std::string& pattern, std::string_view value, std::string_view marker = "{m}") {
  const size_t at = pattern.find(marker);
  if (at == std::string::npos) return pattern;
  if (!value.empty()) return pattern.substr(0, at) + std::string(value) + pattern.substr(at + marker.size());
  const size_t from = at > 0 && pattern[at - 1] == ' ' ? at - 1 : at;
  return pattern.substr(0, from) + pattern.substr(at + marker.size());
}

// A rendered Chinese sentence as written: no spaces.
std::string chinese_text(std::string_view rendered) {
  std::string text;
  for (char c : rendered)
    if (c != ' ') text += c;
  return text;
}

// Every word a lexicon can put in a sentence, split at its spaces.
WordSet lexicon_words(const CorefLexicon& lx);

// The Chinese lexicon's words: what a Chinese model's vocabulary segments its sentences into.
const WordSet& chinese_words() {
  static const WordSet known = lexicon_words(coref_lexicon(CorefLanguage::Chinese));
  return known;
}

// The Chinese tokens of `text`: segmented as a model's vocabulary will segment it, which must
// give the words the sentence was rendered from (a lexicon whose words run into each other
// would teach the model sentences it can never be given).
// The extended lexicon's new structures may put two words together that run into a longer
// word ("小" + "马"): such a sentence is skipped (nothing); the default lexicon never may.
std::optional<std::vector<std::string>> segment_as_rendered(const CorefLexicon& lx, std::string_view rendered,
                                                            std::string_view text) {
  static const WordSet known_extended = lexicon_words(coref_lexicon(CorefLanguage::Chinese, true));
  const WordSet& words = lx.extended ? known_extended : chinese_words();
  std::vector<std::string> tokens = split_words(text, [&](std::string_view w) { return words.count(w) > 0; });
  if (tokens == split_at_spaces(rendered)) return tokens;
  if (lx.extended) return std::nullopt;
  throw std::logic_error("corpus: \"" + std::string(text) + "\" segments otherwise than it was written: \"" +
                         std::string(rendered) + "\"");
}

// The role whose pool the noun in `slot` comes from: the slot's own unless the nouns are swapped.
size_t pool_of(const PairSpec& s, size_t slot) { return s.swap ? 1 - slot : slot; }

// The noun in a slot ({0} or {1} of the template).
const std::string& slot_noun(const CorefFamily& f, const PairSpec& s, size_t slot) {
  const size_t pool = pool_of(s, slot);
  return pick(f.nouns[pool], s.noun[pool]);
}

// "{}" of pattern replaced by value.
std::string fill_slot(const std::string& pattern, std::string_view value) {
  const size_t at = pattern.find("{}");
  return pattern.substr(0, at) + std::string(value) + pattern.substr(at + 2);
}

std::string noun_phrase(const CorefLexicon& lx, const PairSpec& s, size_t slot) {
  const CorefFamily& f = lx.families[static_cast<size_t>(s.family)];
  const std::string& noun = slot_noun(f, s, slot);
  const size_t role = slot;  // colour words, determiners and distractors belong to the slot
  const bool distractor = s.distractor >= 0 && static_cast<size_t>(s.distractor_role) == role;
  const std::string phrase =
      s.phrase[slot] < 0
          ? ""
          : fill_slot(pick(lx.family_phrases, s.phrase[slot]),
                      pick(f.nouns[static_cast<size_t>(s.phrase_noun[slot][0])], s.phrase_noun[slot][1]));
  const std::string attributive =
      s.attributive[slot] < 0 ? "" : fill_slot(lx.attributive, pick(f.adjectives[slot], s.attributive[slot]));
  if (lx.language == CorefLanguage::Chinese) {  // 学校 旁边 的 那 条 红色 的 马路: modifiers come first
    std::string np = distractor ? pick(lx.distractors, s.distractor) + " " : "";
    if (!phrase.empty()) np += phrase + " ";
    if (s.determiner[role] >= 0) np += (s.determiner[role] == 0 ? "那 " : "这 ") + measure_word(lx, noun) + " ";
    if (!attributive.empty()) np += attributive + " ";
    if (s.modifier[role] >= 0) np += pick(lx.modifiers, s.modifier[role]) + " ";
    return np + noun;
  }
  std::string np = "the ";
  if (!attributive.empty()) np += attributive + " ";
  if (s.modifier[role] >= 0) np += pick(lx.modifiers, s.modifier[role]) + " ";
  np += noun;
  if (distractor) np += " " + pick(lx.distractors, s.distractor);
  if (!phrase.empty()) np += " " + phrase;
  return np;
}

// What decides the sentence whose "it" refers to the noun in slot `role`: its template (the
// family's or the flipped one), its adjective and the intensifiers that go with that template.
struct Decision {
  const std::string* pattern;
  const std::string* adjective;
  const std::vector<std::string>* intensifiers;
  bool flipped;
};

Decision decide(const CorefFamily& f, const PairSpec& s, size_t role) {
  const size_t t = static_cast<size_t>(s.templ);
  const Decision plain{&f.templates[t].pattern, &pick(f.adjectives[role], s.adjective[role]), &f.intensifiers, false};
  if (s.flip == 0) return plain;
  // Flipped, an adjective of role r's flip list refers to the other role's noun.
  const size_t r = s.flip == 1 ? 1 - role : static_cast<size_t>(s.flip_role);
  const std::string* adjective = &pick(f.flip_adjectives[r], s.flip_adjective[r]);
  if (s.flip == 2 && role == r) return {plain.pattern, adjective, &f.intensifiers, false};
  return {&f.flipped[t], adjective, &f.flipped_intensifiers, true};
}

// pattern with {0} and {1} replaced (each occurs once).
std::string fill_pattern(const std::string& pattern, std::string_view a, std::string_view b) {
  const size_t p0 = pattern.find("{0}");
  const size_t p1 = pattern.find("{1}");
  if (p0 == std::string::npos || p1 == std::string::npos)
    throw std::logic_error("corpus: template \"" + pattern + "\" lacks {0} or {1}");
  const bool zero_first = p0 < p1;
  const size_t x = zero_first ? p0 : p1, y = zero_first ? p1 : p0;
  std::string out;
  out.append(pattern, 0, x);
  out.append(zero_first ? a : b);
  out.append(pattern, x + 3, y - x - 3);
  out.append(zero_first ? b : a);
  out.append(pattern, y + 3, std::string::npos);
  return out;
}

// The sentence whose pronoun refers to the noun of `role`. Chinese is rendered with a space
// between words (the tokens it must segment into), which chinese_text() then removes.
std::string render(const CorefLexicon& lx, const PairSpec& s, size_t role) {
  const CorefFamily& f = lx.families[static_cast<size_t>(s.family)];
  const bool zh = lx.language == CorefLanguage::Chinese;
  const Decision d = decide(f, s, role);
  std::string pattern = *d.pattern;
  if (zh) pattern = fill_middle(pattern, s.middle >= 0 ? pick(lx.middles, s.middle) : "");
  const std::string main = fill_pattern(pattern, noun_phrase(lx, s, 0), noun_phrase(lx, s, 1));
  const std::string& adjective = *d.adjective;
  const std::string& verb = pick(lx.verbs, s.verb);
  const std::string& intensifier = pick(*d.intensifiers, s.intensifier % static_cast<int>(d.intensifiers->size()));
  std::string clause = lx.pronoun + (verb.empty() ? "" : " " + verb) + " " +
                       (zh ? fill_middle(intensifier, adjective, "{}") : intensifier + " " + adjective);
  if (s.suffix >= 0) clause += " " + pick(lx.suffixes, s.suffix);
  const std::string& connective = pick(lx.connectives, s.connective);
  std::string text = s.opener >= 0 ? pick(lx.openers, s.opener) + " " : "";
  if (zh) {
    switch (s.order) {
      case CorefOrder::MainFirst: text += main + " ， " + connective + " " + clause; break;
      case CorefOrder::ClauseFirst: text += connective + " " + clause + " ， " + main; break;
      case CorefOrder::TwoSentences: text += main + " 。 " + clause; break;
    }
    return text + " 。";
  }
  switch (s.order) {
    case CorefOrder::MainFirst:
      text += main + (s.middle >= 0 ? " " + pick(lx.middles, s.middle) : "") + " " + connective + " " + clause;
      break;
    case CorefOrder::ClauseFirst: text += connective + " " + clause + ", " + main; break;
    case CorefOrder::TwoSentences: text += main + ". I" + clause.substr(1); break;
  }
  text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text + ".";
}

// The example, or nothing when a word the pair needs to find is not unique in the sentence
// (a distractor or a modifier that repeats a noun).
bool make_example(const CorefLexicon& lx, const PairSpec& s, size_t role, int pair_id, CorefExample& e) {
  const CorefFamily& f = lx.families[static_cast<size_t>(s.family)];
  const std::string& noun0 = slot_noun(f, s, 0);
  const std::string& noun1 = slot_noun(f, s, 1);
  const std::string rendered = render(lx, s, role);
  if (lx.language == CorefLanguage::Chinese) {
    e.text = chinese_text(rendered);
    auto tokens = segment_as_rendered(lx, rendered, e.text);
    if (!tokens) return false;  // only the extended lexicon may skip (see segment_as_rendered)
    e.tokens = std::move(*tokens);
  } else {
    e.text = rendered;
    e.tokens = split_words(e.text);
  }
  int i0 = -1, i1 = -1;
  if (noun0 == noun1 || count_of(e.tokens, noun0, &i0) != 1 || count_of(e.tokens, noun1, &i1) != 1 ||
      count_of(e.tokens, lx.pronoun, &e.pronoun) != 1)
    return false;
  e.first_noun = std::min(i0, i1);
  e.second_noun = std::max(i0, i1);
  e.referent = role == 0 ? i0 : i1;
  e.referent_word = role == 0 ? noun0 : noun1;
  e.other_word = role == 0 ? noun1 : noun0;
  e.family = f.name;
  const Decision d = decide(f, s, role);
  e.decider = *d.adjective;
  e.template_id = s.templ;
  e.pair_id = pair_id;
  e.referent_role = static_cast<int>(role);
  e.order = s.order;
  e.opener = s.opener >= 0;
  for (size_t slot = 0; slot < 2; ++slot) {
    if (s.phrase[slot] >= 0)
      e.phrase_nouns.push_back(pick(f.nouns[static_cast<size_t>(s.phrase_noun[slot][0])], s.phrase_noun[slot][1]));
    e.attributives += s.attributive[slot] >= 0;
  }
  e.flipped = d.flipped;
  e.polarity_pair = s.flip == 2;
  e.role_swap = s.swap;
  return true;
}

// Both examples of the pair, first_role first; false if either cannot be made or a text is
// already in the corpus.
bool emit_pair(const CorefLexicon& lx, const PairSpec& s, int pair_id, size_t first_role, WordSet& texts,
               std::vector<CorefExample>& out) {
  CorefExample a, b;
  if (!make_example(lx, s, first_role, pair_id, a) || !make_example(lx, s, 1 - first_role, pair_id, b)) return false;
  if (texts.count(a.text) || texts.count(b.text)) return false;
  texts.insert(a.text);
  texts.insert(b.text);
  out.push_back(std::move(a));
  out.push_back(std::move(b));
  return true;
}

// The lesson pair: cross, template 0, animal / street, tired / wide, nothing optional; in
// Chinese 那只动物没有穿过马路，因为它太累了 / 太宽了.
PairSpec lesson_spec(const CorefLexicon& lx) {
  const CorefFamily& cross = lx.families[0];
  const bool zh = lx.language == CorefLanguage::Chinese;
  PairSpec s;
  s.noun = {index_of(cross.nouns[0], zh ? "动物" : "animal"), index_of(cross.nouns[1], zh ? "马路" : "street")};
  s.adjective = {index_of(cross.adjectives[0], zh ? "累" : "tired"), index_of(cross.adjectives[1], zh ? "宽" : "wide")};
  s.connective = index_of(lx.connectives, zh ? "因为" : "because");
  s.verb = index_of(lx.verbs, zh ? "" : "was");
  s.intensifier = index_of(cross.intensifiers, zh ? "太 {} 了" : "too");
  if (zh) s.determiner = {0, -1};
  return s;
}

// Draws pairs of the split round-robin over the families that can have its property; emit(spec,
// pair_id, first_role, out) makes a pair into out, or returns false (emit_pair, or a translation).
template <class T, class Emit>
void fill_split(const CorefLexicon& lx, uint64_t seed, Split split, size_t pairs, const HeldOut& h, int& next_pair,
                std::vector<T>& out, Emit& emit) {
  const auto& families = lx.families;
  std::vector<int> eligible;
  for (size_t fi = 0; fi < families.size(); ++fi)
    if (family_can_have(families[fi], fi, split, h)) eligible.push_back(static_cast<int>(fi));
  Rng rng = sub_rng(seed, kDraw, static_cast<uint64_t>(split), out.size());
  Rng roles = sub_rng(seed, kPairOrder, static_cast<uint64_t>(split), out.size());
  out.reserve(out.size() + 2 * pairs);
  size_t made = 0, misses = 0;
  while (made < pairs) {  // the family advances only with a pair made, so families stay balanced
    const PairSpec s = draw_spec(lx, eligible[made % eligible.size()], split, h, rng);
    if (classify(lx, s, h) == split && emit(s, next_pair, roles.below(2), out)) {
      ++next_pair;
      ++made;
      misses = 0;
    } else if (++misses > 100000) {
      throw std::logic_error("corpus: cannot draw more pairs for a split (asked for too many?)");
    }
  }
}

// Every split of a corpus, in corpus.h's order (train, validation, then the held-out ones), the
// lesson pair first in train: the one recipe of the coreference and the translation corpus.
// splits: train, validation, the four held-out splits of every corpus, then the extended corpus's
// four (phrases, attributive, flipped, role swaps), each null where the corpus has no such split.
template <class T, class Emit>
void fill_splits(const CorefLexicon& lx, const CorefOptions& options, const std::array<std::vector<T>*, 10>& splits,
                 Emit&& emit) {
  const uint64_t seed = options.seed;
  HeldOut held = make_held_out(lx, seed, options.extended && options.flip_frames);
  held.flip_share = options.flip_share;
  held.clause_first_share = options.clause_first_share;
  held.plain_share = options.plain_share;
  int next_pair = 0;
  const size_t train_pairs = pairs_for(options.train);
  if (train_pairs > 0) {
    if (!emit(lesson_spec(lx), next_pair++, 0, *splits[0]))
      throw std::logic_error("corpus: the lesson pair cannot be made");
    fill_split(lx, seed, Split::Train, train_pairs - 1, held, next_pair, *splits[0], emit);
  }
  fill_split(lx, seed, Split::Train, pairs_for(options.validation), held, next_pair, *splits[1], emit);
  const size_t heldout_pairs = pairs_for(options.heldout);
  const Split heldout[] = {Split::Templates, Split::Structures,  Split::NounRoles, Split::Combinations,
                           Split::Phrases,   Split::Attributive, Split::Flipped,   Split::RoleSwaps};
  for (size_t i = 0; i < std::size(heldout); ++i)
    if (splits[i + 2]) fill_split(lx, seed, heldout[i], heldout_pairs, held, next_pair, *splits[i + 2], emit);
}

// --- translation ---------------------------------------------------------------------------

const std::string* chinese_for(const std::vector<std::pair<std::string, std::string>>& dictionary,
                               std::string_view english) {
  for (const auto& [en, zh] : dictionary)
    if (en == english) return &zh;
  return nullptr;
}

// Index i of a list said as to[i] (−1: not said), for an optional index (−1: absent).
bool said_as(const std::vector<int>& to, int index, int& out) {
  out = index < 0 ? -1 : to[static_cast<size_t>(index)];
  return index < 0 || out >= 0;
}

// The Chinese spec that says the English pair s, or false when a word of it has no Chinese.
// Everything the dictionary does not list is said in the same order (family, roles, order,
// opener, middle, intensifier); role 0 takes 那 + its measure word, as in the lesson.
bool translate(const PairSpec& s, PairSpec& zh) {
  const CorefDictionary& d = english_to_chinese();
  const auto f = static_cast<size_t>(s.family);
  const CorefFamily& en = coref_lexicon(CorefLanguage::English).families[f];
  const CorefFamily& cn = coref_lexicon(CorefLanguage::Chinese).families[f];
  zh = s;
  zh.templ = d.templates[f][static_cast<size_t>(s.templ)];
  for (size_t role = 0; role < 2; ++role) {
    const std::string* noun = chinese_for(d.nouns[f], pick(en.nouns[role], s.noun[role]));
    const std::string* adjective = chinese_for(d.adjectives[f], pick(en.adjectives[role], s.adjective[role]));
    if (!noun || !adjective || !said_as(d.modifiers, s.modifier[role], zh.modifier[role])) return false;
    zh.noun[role] = index_of(cn.nouns[role], *noun);  // throws for a dictionary word of another role
    zh.adjective[role] = index_of(cn.adjectives[role], *adjective);
    zh.determiner[role] = role == 0 ? 0 : -1;
  }
  zh.connective = d.connectives[static_cast<size_t>(s.connective)];
  zh.verb = d.verbs[static_cast<size_t>(s.verb)];
  return said_as(d.distractors, s.distractor, zh.distractor) && said_as(d.suffixes, s.suffix, zh.suffix);
}

// The Chinese example of zh for `role`, as a translation: the literal words (它 kept) and the
// resolved ones (the referent in its place), which must segment back into the same words.
bool make_translation(const PairSpec& zh, size_t role, int pair_id, TranslationPair& t) {
  const CorefLexicon& cn = coref_lexicon(CorefLanguage::Chinese);
  CorefExample e;
  if (!make_example(cn, zh, role, pair_id, e)) return false;
  t.literal_text = e.text;
  t.literal = e.tokens;
  t.pronoun = e.pronoun;
  t.referent = e.referent_word;
  t.resolved = e.tokens;
  t.resolved[static_cast<size_t>(e.pronoun)] = e.referent_word;
  t.resolved_text.clear();
  for (const auto& w : t.resolved) t.resolved_text += w;
  return split_words(t.resolved_text, [](std::string_view w) { return chinese_words().count(w) > 0; }) == t.resolved;
}

// The English pair of s and its Chinese (emit_pair's order and checks), or false.
bool emit_translation_pair(const PairSpec& s, int pair_id, size_t first_role, WordSet& texts,
                           std::vector<TranslationPair>& out) {
  PairSpec zh;
  TranslationPair a, b;
  if (!translate(s, zh) || !make_translation(zh, first_role, pair_id, a) ||
      !make_translation(zh, 1 - first_role, pair_id, b))
    return false;
  std::vector<CorefExample> english;
  if (!emit_pair(coref_lexicon(CorefLanguage::English), s, pair_id, first_role, texts, english)) return false;
  a.english = std::move(english[0]);
  b.english = std::move(english[1]);
  out.push_back(std::move(a));
  out.push_back(std::move(b));
  return true;
}

}  // namespace

const char* to_string(CorefOrder order) {
  switch (order) {
    case CorefOrder::MainFirst: return "main-first";
    case CorefOrder::ClauseFirst: return "clause-first";
    case CorefOrder::TwoSentences: return "two-sentences";
  }
  return "?";
}

const std::vector<std::string>& coref_connectives() {
  static const std::vector<std::string> c = {"because", "since", "as"};
  return c;
}

const std::vector<std::string>& coref_verbs() {
  static const std::vector<std::string> v = {"was", "seemed"};
  return v;
}

const std::vector<std::string>& coref_openers() {
  static const std::vector<std::string> o = {"Yesterday,", "In the end,", "Last night",  "This morning,",
                                             "At first,",  "Sadly,",      "Once again,", "That evening"};
  return o;
}

const std::vector<std::string>& coref_middles() {
  static const std::vector<std::string> m = {"that day", "again", "at noon"};
  return m;
}

const std::vector<std::string>& coref_suffixes() {
  static const std::vector<std::string> s = {"at the time", "after all", "that day", "this time"};
  return s;
}

const std::vector<std::string>& coref_modifiers() {
  static const std::vector<std::string> m = {"brown", "black", "white", "grey", "red", "blue", "green", "yellow"};
  return m;
}

const std::vector<std::string>& coref_distractors() {
  static const std::vector<std::string> d = {
      "near the farm",   "by the park",   "behind the house", "near the village", "by the school", "behind the station",
      "near the market", "by the lake",   "behind the hill",  "near the town",    "by the garden", "behind the shop",
      "near the church", "by the forest", "behind the beach", "near the city"};
  return d;
}

const std::vector<CorefFamily>& coref_families() {
  static const std::vector<CorefFamily> families = build_families();
  return families;
}

namespace {

// Every split but train, with its name: the coreference and the translation corpus have the same.
template <class Corpus>
auto named_evaluation_splits(const Corpus& c) {
  using Split = std::remove_cvref_t<decltype(c.validation)>;
  return std::vector<std::pair<std::string, const Split*>>{{"validation", &c.validation},
                                                           {"heldout_templates", &c.heldout_templates},
                                                           {"heldout_structures", &c.heldout_structures},
                                                           {"heldout_noun_roles", &c.heldout_noun_roles},
                                                           {"heldout_combinations", &c.heldout_combinations}};
}

}  // namespace

std::vector<std::pair<std::string, const std::vector<CorefExample>*>> CorefCorpus::evaluation_splits() const {
  std::vector<std::pair<std::string, const std::vector<CorefExample>*>> out = {
      {"validation", &validation},
      {"heldout_templates", &heldout_templates},
      {"heldout_structures", &heldout_structures},
      {"heldout_noun_roles", &heldout_noun_roles},
      {"heldout_combinations", &heldout_combinations}};
  for (const auto& [name, split] : extended_splits())
    if (!split->empty()) out.emplace_back(name, split);
  return out;
}

std::vector<std::pair<std::string, const std::vector<CorefExample>*>> CorefCorpus::extended_splits() const {
  return {{"heldout_phrases", &heldout_phrases},
          {"heldout_attributive", &heldout_attributive},
          {"heldout_flipped", &heldout_flipped},
          {"heldout_role_swaps", &heldout_role_swaps}};
}

CorefCorpus make_coref_corpus(const CorefOptions& options) {
  const CorefLexicon& lx = coref_lexicon(options.language, options.extended);
  CorefCorpus corpus;
  corpus.language = options.language;
  corpus.extended = options.extended;
  const auto extended = [&](std::vector<CorefExample>& split, bool made = true) {
    return options.extended && made ? &split : nullptr;
  };
  WordSet texts;
  fill_splits<CorefExample>(lx, options,
                            {&corpus.train, &corpus.validation, &corpus.heldout_templates, &corpus.heldout_structures,
                             &corpus.heldout_noun_roles, &corpus.heldout_combinations, extended(corpus.heldout_phrases),
                             extended(corpus.heldout_attributive), extended(corpus.heldout_flipped),
                             extended(corpus.heldout_role_swaps, lx.role_swaps)},
                            [&](const PairSpec& s, int pair_id, size_t first_role, std::vector<CorefExample>& out) {
                              return emit_pair(lx, s, pair_id, first_role, texts, out);
                            });

  std::vector<std::string_view> hashed;
  for (const auto& e : corpus.train) hashed.push_back(e.text);
  for (const auto& [name, split] : corpus.evaluation_splits())
    for (const auto& e : *split) hashed.push_back(e.text);
  corpus.hash = fnv1a_hex(hashed);
  return corpus;
}

std::vector<std::pair<std::string, const std::vector<TranslationPair>*>> TranslationCorpus::evaluation_splits() const {
  return named_evaluation_splits(*this);
}

TranslationCorpus make_translation_corpus(const CorefOptions& options) {
  TranslationCorpus corpus;
  WordSet texts;
  fill_splits<TranslationPair>(
      coref_lexicon(CorefLanguage::English), options,
      {&corpus.train, &corpus.validation, &corpus.heldout_templates, &corpus.heldout_structures,
       &corpus.heldout_noun_roles, &corpus.heldout_combinations, nullptr, nullptr, nullptr, nullptr},
      [&](const PairSpec& s, int pair_id, size_t first_role, std::vector<TranslationPair>& out) {
        return emit_translation_pair(s, pair_id, first_role, texts, out);
      });
  // Both sides of every pair, each followed by "\n".
  std::vector<std::string_view> hashed;
  const auto add = [&](const std::vector<TranslationPair>& split) {
    for (const auto& t : split) {
      hashed.push_back(t.english.text);
      hashed.push_back(t.resolved_text);
    }
  };
  add(corpus.train);
  for (const auto& [name, split] : corpus.evaluation_splits()) add(*split);
  corpus.hash = fnv1a_hex(hashed);
  return corpus;
}

std::vector<CorefExample> lesson_examples(CorefLanguage language) {
  const CorefLexicon& lx = coref_lexicon(language);
  std::vector<CorefExample> out;
  WordSet texts;
  emit_pair(lx, lesson_spec(lx), 0, 0, texts, out);
  return out;
}

std::string decoder_text(const CorefExample& example) {
  std::string s = example.text;
  if (!s.empty() && s.back() == '.') s.pop_back();
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s + " . it = " + example.referent_word;
}

std::vector<std::string> corpus_words(const CorefCorpus& corpus) {
  const CorefLexicon& lx = coref_lexicon(corpus.language, corpus.extended);
  std::vector<std::string> out;
  WordSet seen;
  // English entries are split as the tokenizer splits them; Chinese ones at their spaces.
  const auto add = [&](const std::string& entry) {
    if (lx.language == CorefLanguage::English) return add_words_of(out, seen, entry);
    for (const auto& w : split_at_spaces(entry))
      if (w != "{0}" && w != "{1}" && w != "{m}" && w != "{}") add_unique(out, seen, w);
  };
  for (const auto& f : lx.families) {
    for (const auto& t : f.templates)
      add(lx.language == CorefLanguage::English ? fill_pattern(t.pattern, "the", "the") : t.pattern);
    for (size_t role = 0; role < 2; ++role) {
      for (const auto& n : f.nouns[role]) add(n);
      for (const auto& a : f.adjectives[role]) add(a);
    }
    for (const auto& i : f.intensifiers) add(i);
    for (const auto& t : f.flipped)  // the extended lexicon's; the default one has none
      if (!t.empty()) add(lx.language == CorefLanguage::English ? fill_pattern(t, "the", "the") : t);
    for (const auto& i : f.flipped_intensifiers) add(i);
  }
  for (const auto& p : lx.family_phrases) add(lx.language == CorefLanguage::English ? fill_slot(p, "the") : p);
  if (lx.extended && lx.language == CorefLanguage::Chinese) add(lx.attributive);  // the "的" of "{} 的"
  for (const auto* list :
       {&lx.connectives, &lx.verbs, &lx.openers, &lx.middles, &lx.suffixes, &lx.modifiers, &lx.distractors})
    for (const auto& w : *list) add(w);
  for (const auto& [noun, measure] : lx.measure_words) add(measure);
  add(lx.language == CorefLanguage::English ? "it . , =" : "它 。 ， 那 这 旁边 的 =");
  for (const auto& e : corpus.train)
    for (const auto& w : e.tokens) add_unique(out, seen, w);
  for (const auto& [name, split] : corpus.evaluation_splits())
    for (const auto& e : *split)
      for (const auto& w : e.tokens) add_unique(out, seen, w);
  return out;
}

namespace {

WordSet lexicon_words(const CorefLexicon& lx) {
  CorefCorpus empty;
  empty.language = lx.language;
  empty.extended = lx.extended;
  const std::vector<std::string> words = corpus_words(empty);
  return WordSet(words.begin(), words.end());
}

}  // namespace

const char* to_string(CorefLanguage language) { return language == CorefLanguage::Chinese ? "zh" : "en"; }

CorefLanguage coref_language(std::string_view code) {
  if (code == "en") return CorefLanguage::English;
  if (code == "zh") return CorefLanguage::Chinese;
  throw std::invalid_argument("unknown corpus language \"" + std::string(code) + "\" (en or zh)");
}

const CorefLexicon& coref_lexicon(CorefLanguage language, bool extended) {
  static const CorefLexicon english = [] {
    CorefLexicon lx;
    lx.language = CorefLanguage::English;
    lx.pronoun = "it";
    lx.families = coref_families();
    lx.connectives = coref_connectives();
    lx.verbs = coref_verbs();
    lx.openers = coref_openers();
    lx.middles = coref_middles();
    lx.suffixes = coref_suffixes();
    lx.modifiers = coref_modifiers();
    lx.distractors = coref_distractors();
    return lx;
  }();
  static const CorefLexicon chinese = chinese_coref_lexicon();
  static const CorefLexicon english_extended = extended_coref_lexicon(english),
                            chinese_extended = extended_coref_lexicon(chinese);
  if (language == CorefLanguage::Chinese) return extended ? chinese_extended : chinese;
  return extended ? english_extended : english;
}

}  // namespace ae
