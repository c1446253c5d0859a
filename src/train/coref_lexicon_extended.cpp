// The extended lexicon (CorefOptions::extended, issue 34): the default lexicon of a language plus
// - templates with the verbs and negations learners type (went, past, tried, unable, hit, can't;
//   走, 撞, 里, 够不到), inserted before each family's two held-out templates;
// - a few more nouns and adjectives per role, many of them used by another family or role;
// - flipped events. Rule: flipping an event's polarity (negation removed or added) moves the
//   answer to the other noun for an adjective that compares the two nouns on one scale (size,
//   speed, hardness): "the trophy didn't fit in the suitcase because it was too big" → trophy,
//   "the trophy fit in the suitcase because it was so big" → suitcase; "the truck overtook the bus
//   because it was so fast" → truck, "the truck didn't overtake the bus because it was so fast" →
//   bus. Only such adjectives are flip_adjectives. cross has none (a tired animal or a wide street
//   does not explain that it did cross), so cross has no flipped events.
// The default lexicon is left exactly as it is: the shipped models' vocabulary does not change.
#include "train/corpus.h"
#include "train/corpus_util.h"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>

namespace ae {

namespace {

using corpus_detail::split_at_spaces;

struct FamilyAdditions {
  std::string family;
  std::vector<std::string> templates;             // before the two held-out templates
  std::array<std::vector<std::string>, 2> nouns;  // Chinese: "noun:measure"
  std::array<std::vector<std::string>, 2> adjectives;
  std::vector<std::pair<std::string, std::string>> flipped;  // template → the same event, polarity flipped
  std::array<std::vector<std::string>, 2> flip_adjectives;
  // Flipped events placed first, so that held_flip_frames, which holds out the last flippable
  // frames, holds out the same frames as without them. English: negations with the word `no` ("had
  // no way to reach" / "had a way to reach"); without them fit's "had no room for" was the only
  // `no` a model saw, and a held-out "had room for" was a negation it had never seen removed.
  // Chinese: 没能 V against 轻松 V 了 / 一下子 就 V 了 in the families where something failed, and
  // a bare 没 V where something happened; without them 轻松 and a bare 没 were polarity words no
  // trained flip had.
  std::vector<std::pair<std::string, std::string>> first_frames = {};
};

void append_new(std::vector<std::string>& to, const std::vector<std::string>& words) {
  for (const auto& w : words)
    if (std::find(to.begin(), to.end(), w) == to.end()) to.push_back(w);
}

void extend_family(CorefLexicon& lx, CorefFamily& f, const FamilyAdditions& a) {
  const auto held =
      std::find_if(f.templates.begin(), f.templates.end(), [](const CorefTemplate& t) { return t.heldout; });
  const auto trained = [](const std::string& pattern) {
    return CorefTemplate{pattern, pattern.starts_with("{1}"), false};
  };
  std::vector<CorefTemplate> extra, first;
  for (const auto& p : a.templates) extra.push_back(trained(p));
  for (const auto& frame : a.first_frames) first.push_back(trained(frame.first));
  f.templates.insert(held, extra.begin(), extra.end());
  f.templates.insert(f.templates.begin(), first.begin(), first.end());
  for (size_t role = 0; role < 2; ++role) {
    std::vector<std::string> nouns;
    for (const auto& item : a.nouns[role]) {
      const size_t colon = item.find(':');
      nouns.push_back(item.substr(0, colon));
      if (colon != std::string::npos && std::none_of(lx.measure_words.begin(), lx.measure_words.end(),
                                                     [&](const auto& m) { return m.first == nouns.back(); }))
        lx.measure_words.emplace_back(nouns.back(), item.substr(colon + 1));
    }
    if (!f.shared_pool || role == 0) append_new(f.nouns[role], nouns);
    append_new(f.adjectives[role], a.adjectives[role]);
    f.flip_adjectives[role] = a.flip_adjectives[role];
  }
  if (f.shared_pool) f.nouns[1] = f.nouns[0];
  f.flipped.assign(f.templates.size(), "");
  std::vector<std::pair<std::string, std::string>> flips = a.first_frames;
  flips.insert(flips.end(), a.flipped.begin(), a.flipped.end());
  for (const auto& [pattern, flipped] : flips) {
    const std::string& wanted = pattern;  // clang 14 (the wasm build) cannot capture a structured binding
    const auto t = std::find_if(f.templates.begin(), f.templates.end(),
                                [&](const CorefTemplate& x) { return x.pattern == wanted; });
    if (t == f.templates.end()) throw std::logic_error("extended lexicon: no template \"" + pattern + "\"");
    f.flipped[static_cast<size_t>(t - f.templates.begin())] = flipped;
  }
}

std::vector<std::string> w(std::string_view list) { return split_at_spaces(list); }

std::vector<FamilyAdditions> english_additions() {
  return {
      {"cross",
       {"{0} didn't go across {1}", "{0} was unable to cross {1}", "{0} tried but failed to cross {1}",
        "{0} couldn't get past {1}", "{0} can't cross {1}", "{0} never went across {1}"},
       {w("lion tiger elephant monkey puppy kitten"), w("ditch pond roundabout tunnel")},
       {w("old small young hungry sick cold"), w("steep slippery narrow wet")},
       {},
       {}},
      {"fit",
       {"{0} didn't go in {1}", "{0} would not go into {1}", "{0} was unable to fit in {1}", "{0} can't fit in {1}",
        "{1} was unable to hold {0}"},
       {w("bike printer microwave"), w("shed sack")},
       {w("fat oversized"), w("packed tight")},
       {{"{0} didn't fit in {1}", "{0} fit in {1}"},
        {"{0} did not fit into {1}", "{0} fit into {1}"},
        {"{0} would not fit in {1}", "{0} would fit in {1}"},
        {"{1} couldn't hold {0}", "{1} could hold {0}"},
        {"{1} could not hold {0}", "{1} could easily hold {0}"},
        {"{1} had no room for {0}", "{1} had room for {0}"},
        {"{0} didn't go in {1}", "{0} went in {1}"},
        {"{0} would not go into {1}", "{0} went into {1}"},
        {"{0} never fit into {1}", "{0} always fit into {1}"},
        {"{1} would not hold {0}", "{1} would hold {0}"}},
       {w("big large tall wide long huge enormous"), w("small narrow tiny short little compact")}},
      {"break",
       {"{0} hit and broke {1}", "{0} went through {1}", "{1} was hit and broken by {0}"},
       {w("stick branch bullet"), w("pot windscreen bulb")},
       {w("large thick tough"), w("worn soft")},
       {{"{0} broke {1}", "{0} didn't break {1}"},
        {"{0} smashed {1}", "{0} did not smash {1}"},
        {"{0} cracked {1}", "{0} never cracked {1}"},
        {"{1} was broken by {0}", "{1} wasn't broken by {0}"},
        {"{1} was smashed by {0}", "{1} was not smashed by {0}"},
        {"{1} got cracked by {0}", "{1} didn't get cracked by {0}"},
        {"{0} hit and broke {1}", "{0} hit but didn't break {1}"},
        {"{0} went through {1}", "{0} didn't go through {1}"},
        {"{0} easily broke {1}", "{0} couldn't break {1}"},
        {"{1} got smashed by {0}", "{1} didn't get smashed by {0}"}},
       {w("hard solid strong thick"), w("weak flimsy")},
       {{"{0} left a dent in {1}", "{0} left no dent in {1}"}}},
      {"lift",
       {"{0} was unable to lift {1}", "{0} tried but failed to lift {1}", "{0} couldn't pick up {1}",
        "{0} can't lift {1}"},
       {w("car bus ship"), {}},
       {w("little short"), w("long tall full")},
       {{"{0} couldn't lift {1}", "{0} could lift {1}"},
        {"{0} could not lift {1}", "{0} easily lifted {1}"},
        {"{0} failed to lift {1}", "{0} managed to lift {1}"},
        {"{1} couldn't be lifted by {0}", "{1} could be lifted by {0}"},
        {"{1} wasn't lifted by {0}", "{1} was lifted by {0}"},
        {"{1} could not be lifted by {0}", "{1} was easily lifted by {0}"},
        {"{0} was unable to lift {1}", "{0} was able to lift {1}"},
        {"{0} couldn't pick up {1}", "{0} picked up {1}"},
        {"{0} can't lift {1}", "{0} can lift {1}"},
        {"{0} did not lift {1}", "{0} lifted {1}"},
        {"{1} was never lifted by {0}", "{1} was lifted up by {0}"}},
       {w("small tiny light little"), w("big large huge enormous massive")},
       {{"{0} had no power to lift {1}", "{0} had the power to lift {1}"}}},
      {"reach",
       {"{0} was unable to reach {1}", "{0} tried but failed to reach {1}", "{0} couldn't get to {1}",
        "{0} can't reach {1}", "{0} couldn't climb {1}"},
       {w("pony lizard"), w("gate post")},
       {w("old heavy fat sleepy"), w("far smooth")},
       {{"{0} couldn't reach {1}", "{0} could reach {1}"},
        {"{0} could not reach {1}", "{0} easily reached {1}"},
        {"{0} failed to reach {1}", "{0} managed to reach {1}"},
        {"{1} couldn't be reached by {0}", "{1} could be reached by {0}"},
        {"{1} wasn't reached by {0}", "{1} was reached by {0}"},
        {"{1} was never reached by {0}", "{1} was easily reached by {0}"},
        {"{0} never reached {1}", "{0} reached {1}"},
        {"{1} was not reached by {0}", "{1} was soon reached by {0}"},
        {"{0} was unable to reach {1}", "{0} was able to reach {1}"},
        {"{0} couldn't get to {1}", "{0} got to {1}"},
        {"{0} can't reach {1}", "{0} can reach {1}"},
        {"{0} couldn't climb {1}", "{0} climbed {1}"},
        {"{0} did not reach {1}", "{0} did reach {1}"},
        {"{1} could not be reached by {0}", "{1} could easily be reached by {0}"}},
       {w("short small"), w("tall")},
       {{"{0} had no way to reach {1}", "{0} had a way to reach {1}"}}},
      {"overtake",
       {"{0} went past {1}", "{0} got past {1}", "{1} was left behind by {0}"},
       {w("motorcycle pickup"), {}},
       {w("sporty modern"), w("big long full")},
       {{"{0} overtook {1}", "{0} didn't overtake {1}"},
        {"{0} passed {1}", "{0} couldn't pass {1}"},
        {"{0} easily overtook {1}", "{0} never overtook {1}"},
        {"{1} was overtaken by {0}", "{1} wasn't overtaken by {0}"},
        {"{1} was passed by {0}", "{1} was not passed by {0}"},
        {"{1} got overtaken by {0}", "{1} didn't get overtaken by {0}"},
        {"{0} went past {1}", "{0} didn't go past {1}"},
        {"{0} got past {1}", "{0} couldn't get past {1}"},
        {"{1} was left behind by {0}", "{1} wasn't left behind by {0}"},
        {"{0} easily passed {1}", "{0} could not pass {1}"},
        {"{1} was easily overtaken by {0}", "{1} was never overtaken by {0}"}},
       {w("fast quick powerful speedy swift rapid"), w("slow old heavy sluggish overloaded loaded")},
       {{"{0} had no trouble passing {1}", "{0} had trouble passing {1}"}}},
  };
}

std::vector<FamilyAdditions> chinese_additions() {
  return {
      {"cross",
       {"{0} {m} 没有 走过 {1}", "{0} {m} 不肯 走 {1}", "{0} {m} 过不了 {1}", "{0} {m} 没能 走过 {1}",
        "{0} {m} 始终 走不过 {1}", "{0} {m} 没法 走过 {1}"},
       {w("小狗:只 小猫:只"), w("池塘:个 隧道:条")},
       {w("小 病 冷"), w("窄 远 湿")},
       {},
       {}},
      // The verb's ending tells the order (装不进: the object first; 装不下: the container first),
      // never the verb or the adverb: each of 装 / 放 / 塞 and 怎么 也 / 始终 / 根本 is trained
      // in both orders, and 里 with both polarities. Without these, seeds read the held-out
      // "{1} 怎么 也 装不下 {0}" object first, and "放得进 … 里" as a failure (docs/models.md).
      {"fit",
       {"{0} {m} 放不进 {1} 里", "{0} {m} 塞不进 {1} 里", "{1} {m} 始终 装不下 {0}", "{0} {m} 怎么 也 装不进 {1}",
        "{1} {m} 根本 放不下 {0}", "{0} {m} 根本 塞不进 {1}", "{1} {m} 塞不下 {0}", "{1} {m} 里 始终 放不下 {0}"},
       {w("自行车:辆 打印机:台"), w("仓库:个 麻袋:个")},
       {w("胖"), w("紧")},
       {{"{0} {m} 放不进 {1}", "{0} {m} 放得进 {1}"},
        {"{0} {m} 装不进 {1}", "{0} {m} 装得进 {1}"},
        {"{1} {m} 装不下 {0}", "{1} {m} 装得下 {0}"},
        {"{1} {m} 放不下 {0}", "{1} {m} 放得下 {0}"},
        {"{1} {m} 容不下 {0}", "{1} {m} 容得下 {0}"},
        {"{0} {m} 放不进 {1} 里", "{0} {m} 放得进 {1} 里"},
        {"{0} {m} 塞不进 {1} 里", "{0} {m} 塞得进 {1} 里"},
        {"{0} {m} 怎么 也 放不进 {1}", "{0} {m} 轻松 放进 了 {1}"},
        {"{1} {m} 怎么 也 装不下 {0}", "{1} {m} 轻松 装下 了 {0}"}},
       {w("大 高 宽 长 巨大 庞大"), w("小 窄 短 矮 狭小")},
       // 放进 / 装下 (了) for what did go in, 没能 for what did not. 装下 is in no other trained
       // frame: held_flip_frames, which finds no container-first frame of fit to hold out before
       // it reaches this one, passes this one by too, and fit keeps its one held-out flip.
       {{"{0} {m} 没能 塞进 {1}", "{0} {m} 一下子 就 放进 了 {1}"},
        {"{0} {m} 怎么 也 放不到 {1} 里", "{0} {m} 一下子 就 放到 了 {1} 里"},
        {"{1} {m} 没能 容纳 {0}", "{1} {m} 一下子 就 装下 了 {0}"},
        {"{0} {m} 始终 没能 放进 {1}", "{0} {m} 轻松 塞进 了 {1}"}}},
      {"break",
       {"{0} {m} 撞碎 了 {1}", "{1} {m} 被 {0} 撞碎 了", "{0} {m} 撞 破 了 {1}"},
       {w("拳头:个"), w("灯泡:个 眼镜:副")},
       {w("厚"), w("老")},
       {{"{0} {m} 打碎 了 {1}", "{0} {m} 没有 打碎 {1}"},
        {"{0} {m} 砸碎 了 {1}", "{0} {m} 没能 砸碎 {1}"},
        {"{1} {m} 被 {0} 打碎 了", "{1} {m} 没有 被 {0} 打碎"},
        {"{1} {m} 被 {0} 砸碎 了", "{1} {m} 没 被 {0} 砸碎"},
        {"{0} {m} 撞碎 了 {1}", "{0} {m} 没有 撞碎 {1}"},
        {"{1} {m} 被 {0} 撞碎 了", "{1} {m} 没有 被 {0} 撞碎"},
        {"{0} {m} 一下子 打碎 了 {1}", "{0} {m} 始终 没有 打碎 {1}"},
        {"{1} {m} 一下子 被 {0} 砸碎 了", "{1} {m} 始终 没 被 {0} 砸碎"}},
       {w("硬 结实 坚固 坚硬"), w("脆弱 单薄")},
       {{"{0} {m} 敲碎 了 {1}", "{0} {m} 没 敲碎 {1}"}}},
      {"lift",
       {"{0} {m} 没能 抬起 {1}", "{0} {m} 举不起 {1}"},
       {w("汽车:辆 公交车:辆"), {}},
       {w("矮"), w("满载")},
       {{"{0} {m} 抬不起 {1}", "{0} {m} 抬得起 {1}"},
        {"{0} {m} 吊不起 {1}", "{0} {m} 吊得起 {1}"},
        {"{1} {m} 没能 被 {0} 吊起来", "{1} {m} 被 {0} 吊起来 了"},
        {"{1} {m} 没有 被 {0} 抬起来", "{1} {m} 被 {0} 抬起来 了"},
        {"{0} {m} 举不起 {1}", "{0} {m} 举得起 {1}"},
        {"{0} {m} 始终 吊不起 {1}", "{0} {m} 轻松 吊起 了 {1}"},
        {"{1} {m} 始终 没 被 {0} 抬起来", "{1} {m} 轻松 被 {0} 抬起来 了"}},
       {w("小 轻"), w("大 庞大 巨大")},
       // 举起, a word no trained frame has, so that held_flip_frames never reaches this frame.
       {{"{0} {m} 没能 抬动 {1}", "{0} {m} 轻松 举起 了 {1}"},
        {"{1} {m} 没能 被 {0} 抬动", "{1} {m} 轻松 被 {0} 抬动 了"}}},
      {"reach",
       {"{0} {m} 够不到 {1}"},
       {w("小马:匹 蜥蜴:只"), w("大门:扇 柱子:根")},
       {w("老 重 胖"), w("远")},
       {{"{0} {m} 够不着 {1}", "{0} {m} 够得着 {1}"},
        {"{0} {m} 爬不上 {1}", "{0} {m} 爬得上 {1}"},
        {"{0} {m} 没能 爬上 {1}", "{0} {m} 爬上 了 {1}"},
        {"{0} {m} 够不到 {1}", "{0} {m} 够得到 {1}"},
        {"{0} {m} 始终 够不着 {1}", "{0} {m} 轻松 够着 了 {1}"},
        {"{1} {m} 始终 没 被 {0} 爬上去", "{1} {m} 被 {0} 爬上去 了"}},
       {w("矮 小"), w("高")},
       {{"{0} {m} 没能 够到 {1}", "{0} {m} 轻松 够到 了 {1}"}}},
      {"overtake",
       {"{0} {m} 赶上 了 {1}"},
       {w("皮卡:辆"), {}},
       {w("新型"), w("大 长")},
       {{"{0} {m} 超过 了 {1}", "{0} {m} 没有 超过 {1}"},
        {"{0} {m} 追上 了 {1}", "{0} {m} 没能 追上 {1}"},
        {"{1} {m} 被 {0} 超过 了", "{1} {m} 没有 被 {0} 超过"},
        {"{1} {m} 被 {0} 追上 了", "{1} {m} 没 被 {0} 追上"},
        {"{0} {m} 赶上 了 {1}", "{0} {m} 没 赶上 {1}"},
        {"{0} {m} 一下子 超过 了 {1}", "{0} {m} 始终 没有 超过 {1}"},
        {"{1} {m} 一下子 被 {0} 追上 了", "{1} {m} 始终 没 被 {0} 追上"}},
       {w("快 迅速 快速 敏捷"), w("慢 重 笨重 迟缓 超载")},
       {{"{0} {m} 甩开 了 {1}", "{0} {m} 没 甩开 {1}"}, {"{0} {m} 轻松 追上 了 {1}", "{0} {m} 没法 追上 {1}"}}},
  };
}

CorefFamily& family(CorefLexicon& lx, std::string_view name) {
  for (auto& f : lx.families)
    if (f.name == name) return f;
  throw std::logic_error("extended lexicon: no family \"" + std::string(name) + "\"");
}

}  // namespace

CorefLexicon extended_coref_lexicon(const CorefLexicon& base) {
  CorefLexicon lx = base;
  const bool zh = lx.language == CorefLanguage::Chinese;
  lx.extended = true;
  // An event that did not happen is said with "too" (cross), one that did with "so" (break).
  const std::vector<std::string> failed = family(lx, "cross").intensifiers, happened = family(lx, "break").intensifiers;
  // Why something did not happen may also be said with a word of the other kind, as "so" and
  // "really" are in both English lists: in Chinese 非常 and 很 (卡车没有超过公交车，因为它非常快).
  // With the two lists apart, a model trained on flipped events read 非常 as "it happened" and
  // answered the other noun of 那只动物没有穿过马路，因为它非常累 (0 of 8 such sentences right).
  std::vector<std::string> failed_said = failed;
  if (zh) failed_said.insert(failed_said.end(), {"非常 {}", "很 {}"});
  for (const auto& a : zh ? chinese_additions() : english_additions()) {
    CorefFamily& f = family(lx, a.family);
    extend_family(lx, f, a);
    const bool did_not_happen = f.intensifiers == failed;
    if (did_not_happen) f.intensifiers = failed_said;
    f.flipped_intensifiers = did_not_happen ? happened : failed_said;
  }
  family(lx, "fit").heldout_phrase = family(lx, "overtake").heldout_phrase = true;
  family(lx, "break").heldout_attributive = family(lx, "reach").heldout_attributive = true;
  family(lx, "lift").heldout_flip = true;
  family(lx, "break").heldout_swap = true;
  if (zh) {
    lx.family_phrases = {"{} 旁边 的", "{} 后面 的", "{} 前面 的"};
    lx.attributive = "{} 的";
    lx.role_swaps = true;  // 那条马路没有穿过那只动物，因为它太累了 → 马路
  } else {
    lx.family_phrases = {"near the {}", "behind the {}", "beside the {}", "next to the {}"};
  }
  return lx;
}

}  // namespace ae
