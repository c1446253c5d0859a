// The Chinese words of the coreference corpus: the English families (corpus.h) with 它 as the
// pronoun, so the lesson's 那只动物没有穿过马路，因为它太累了 / 太宽了 is the first pair.
// Rules that keep the corpus honest in Chinese:
//  - 它 refers to animals and things only (people are 他 / 她), so no family has people;
//  - words are written with a space between them; the generator removes the spaces and checks
//    that the vocabulary's longest-match segmentation gives these words back, so no two
//    neighbouring words may run into a longer word of the lexicon (很 + 快 never meets 很快);
//  - index 0 of cross's pools and adjectives is the lesson's 动物 / 马路 / 累 / 宽 (never held out).
#include "train/corpus.h"
#include "train/corpus_util.h"

#include <initializer_list>

namespace ae {

namespace {

using corpus_detail::family_templates;

// "动物:只 狗:只 …" → the nouns, and each noun's measure word appended to `measure_words`.
std::vector<std::string> nouns(std::string_view list, std::vector<std::pair<std::string, std::string>>& measure_words) {
  std::vector<std::string> out;
  for (const auto& item : corpus_detail::split_at_spaces(list)) {
    const size_t colon = item.find(':');
    const std::string noun = item.substr(0, colon), measure = item.substr(colon + 1);
    out.push_back(noun);
    bool known = false;
    for (const auto& [n, m] : measure_words) known = known || n == noun;
    if (!known) measure_words.emplace_back(noun, measure);
  }
  return out;
}

std::vector<std::string> words(std::string_view list) { return corpus_detail::split_at_spaces(list); }

// "animal:动物 dog:狗 …" → {animal, 动物}, {dog, 狗}, …
std::vector<std::pair<std::string, std::string>> pairs(std::string_view list) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& item : corpus_detail::split_at_spaces(list)) {
    const size_t colon = item.find(':');
    out.emplace_back(item.substr(0, colon), item.substr(colon + 1));
  }
  return out;
}

}  // namespace

CorefLexicon chinese_coref_lexicon() {
  CorefLexicon lx;
  lx.language = CorefLanguage::Chinese;
  lx.pronoun = "它";
  auto& mw = lx.measure_words;
  // Something did not happen ("too …") / something happened ("very …").
  const std::vector<std::string> failed = {"太 {} 了", "实在 太 {} 了", "太过 {}", "过于 {}"};
  const std::vector<std::string> happened = {"非常 {}", "很 {}", "特别 {}", "十分 {}"};

  CorefFamily cross{
      "cross",
      {"animal", "crossing"},
      {{nouns("动物:只 狗:只 猫:只 马:匹 牛:头 鹿:只 狐狸:只 山羊:只 羊:只 猪:头 兔子:只 狼:只 "
              "熊:只 驴:头 骆驼:头 鸡:只 鸭子:只 松鼠:只 老虎:只 狮子:只 大象:头 猴子:只 "
              "袋鼠:只 刺猬:只",
              mw),
        nouns("马路:条 街道:条 公路:条 大街:条 小路:条 河:条 桥:座 田野:片 铁轨:条 运河:条 "
              "小溪:条 广场:个 山谷:个 沙漠:片 高速公路:条 铁路:条 小径:条 草地:片 沼泽:片 "
              "路口:个 河流:条 峡谷:个 冰面:片 雪地:片",
              mw)}},
      {{words("累 疲惫 困 害怕 虚弱 懒 紧张 胆小 饿 慢 老"), words("宽 繁忙 长 危险 拥挤 吵 深 滑 泥泞 宽阔 陡")}},
      failed,
      family_templates({"{0} {m} 没有 穿过 {1}", "{0} {m} 不敢 穿过 {1}", "{0} {m} 拒绝 穿过 {1}",
                        "{1} {m} 没有 被 {0} 穿过", "{1} {m} 没能 被 {0} 穿过", "{1} {m} 从来 没 被 {0} 穿过",
                        "{0} {m} 从来 没有 穿过 {1}", "{1} {m} 始终 没能 被 {0} 穿过",  //
                        "{0} {m} 始终 没有 穿过 {1}", "{1} {m} 始终 没 被 {0} 穿过"})};
  lx.families.push_back(cross);

  CorefFamily fit{"fit",
                  {"object", "container"},
                  {{nouns("奖杯:座 雕像:座 台灯:盏 吉他:把 画:幅 望远镜:架 钢琴:架 蛋糕:个 沙发:张 镜子:面 "
                          "瓶子:个 雨伞:把 小提琴:把 椅子:把 桌子:张 头盔:个 南瓜:个 地毯:块 梯子:把 海报:张 "
                          "水壶:个 毯子:条 电脑:台",
                          mw),
                    nouns("箱子:个 盒子:个 袋子:个 抽屉:个 背包:个 后备箱:个 柜子:个 篮子:个 桶:个 木箱:个 "
                          "衣柜:个 壁橱:个 储物柜:个 汽车:辆 货车:辆 冰箱:台 烤箱:个 车库:个 房间:个 口袋:个 "
                          "帐篷:顶 垃圾桶:个 行李箱:个",
                          mw)}},
                  {{words("大 高 宽 长 笨重 粗 厚 重 巨大 庞大"), words("小 窄 满 浅 短 挤 紧 矮 狭小 拥挤")}},
                  failed,
                  family_templates({"{0} {m} 放不进 {1}", "{0} {m} 装不进 {1}", "{0} {m} 怎么 也 塞不进 {1}",
                                    "{1} {m} 装不下 {0}", "{1} {m} 放不下 {0}", "{1} {m} 容不下 {0}",
                                    "{0} {m} 始终 放不进 {1}", "{1} {m} 怎么 也 容不下 {0}",  //
                                    "{0} {m} 怎么 也 放不进 {1}", "{1} {m} 怎么 也 装不下 {0}"})};
  fit.has_heldout_order = true;
  fit.heldout_order = CorefOrder::ClauseFirst;
  lx.families.push_back(fit);

  CorefFamily brk{
      "break",
      {"projectile", "breakable"},
      {{nouns("球:个 石头:块 砖头:块 锤子:把 斧头:把 球棒:根 木头:块 铁砧:个 铲子:把 扳手:把 管子:根 "
              "撬棍:根 木槌:把 鹅卵石:块 铁块:块 熨斗:个 平底锅:个 螺栓:个 冰雹:颗 棍子:根 哑铃:个 砖:块",
              mw),
        nouns("窗户:扇 花瓶:个 镜子:面 盘子:个 罐子:个 屏幕:块 玻璃:块 杯子:个 碗:个 瓶子:个 台灯:盏 "
              "瓷砖:块 鸡蛋:个 茶壶:个 马克杯:个 装饰品:个 小雕像:个 镜片:片 手机:部 钟:个 手表:块 碟子:个",
              mw)}},
      {{words("硬 重 结实 尖 快 大 坚固 沉 坚硬 锋利"), words("脆 薄 脆弱 旧 易碎 精致 破 劣质 便宜 单薄")}},
      happened,
      family_templates({"{0} {m} 打碎 了 {1}", "{0} {m} 砸碎 了 {1}", "{0} {m} 一下子 砸破 了 {1}",
                        "{1} {m} 被 {0} 打碎 了", "{1} {m} 被 {0} 砸碎 了", "{1} {m} 被 {0} 砸破 了",
                        "{0} {m} 一下子 就 砸碎 了 {1}", "{1} {m} 一下子 就 被 {0} 砸破 了",  //
                        "{0} {m} 一下子 打碎 了 {1}", "{1} {m} 一下子 被 {0} 砸碎 了"})};
  lx.families.push_back(brk);

  // Machines that lift and are lifted: either can be the lifter.
  const std::vector<std::string> machines = nouns(
      "起重机:台 机器人:个 叉车:辆 机器:台 直升机:架 吊车:辆 拖拉机:辆 卡车:辆 挖掘机:台 推土机:台 绞车:台 "
      "无人机:架 坦克:辆 吉普车:辆 货车:辆 船:艘 飞机:架 铲车:辆 面包车:辆 拖车:辆 装载机:台 电梯:部",
      mw);
  CorefFamily lift{
      "lift",
      {"lifter", "load"},
      {{machines, machines}},
      {{words("弱 小 旧 轻 破 坏 老旧 无力 简陋 单薄"), words("重 大 庞大 笨重 巨大 沉 宽 长 沉重 高")}},
      failed,
      family_templates({"{0} {m} 抬不起 {1}", "{0} {m} 吊不起 {1}", "{0} {m} 始终 没能 吊起 {1}",
                        "{1} {m} 没能 被 {0} 吊起来", "{1} {m} 没有 被 {0} 抬起来", "{1} {m} 没 被 {0} 吊起来",
                        "{0} {m} 始终 吊不起 {1}", "{1} {m} 始终 没 被 {0} 抬起来"})};
  lift.shared_pool = true;
  lift.has_heldout_order = true;
  lift.heldout_order = CorefOrder::ClauseFirst;
  lx.families.push_back(lift);

  CorefFamily reach{
      "reach",
      {"reacher", "target"},
      {{nouns("小猫:只 小狗:只 兔子:只 老鼠:只 仓鼠:只 小鸭:只 猴子:只 猫:只 狗:只 松鼠:只 山羊:只 "
              "小鸡:只 小羊:只 小猪:头 青蛙:只 乌龟:只 蜗牛:只 刺猬:只 企鹅:只 鸭子:只 熊猫:只 小鹿:只",
              mw),
        nouns("架子:个 桌子:张 篱笆:道 屋顶:个 树枝:根 窗台:个 窗户:扇 柜台:个 柜子:个 天花板:块 "
              "墙:堵 树:棵 平台:个 阳台:个 绳子:根 钩子:个 鸟窝:个 烟囱:个 悬崖:个 长凳:条 水槽:个 "
              "书架:个",
              mw)}},
      {{words("矮 小 年幼 笨拙 弱 累 慢 懒 胖 虚弱"), words("高 陡 远 滑 窄 陡峭 光滑 遥远 高大 险")}},
      failed,
      family_templates({"{0} {m} 够不着 {1}", "{0} {m} 爬不上 {1}", "{0} {m} 没能 爬上 {1}", "{1} {m} 没能 被 {0} 够着",
                        "{1} {m} 没有 被 {0} 爬上去", "{1} {m} 没 被 {0} 够着", "{0} {m} 始终 够不着 {1}",
                        "{1} {m} 始终 没 被 {0} 爬上去"})};
  reach.has_heldout_order = true;
  reach.heldout_order = CorefOrder::TwoSentences;
  lx.families.push_back(reach);

  const std::vector<std::string> vehicles = nouns(
      "卡车:辆 公交车:辆 面包车:辆 摩托车:辆 汽车:辆 出租车:辆 拖拉机:辆 马车:辆 自行车:辆 货车:辆 滑板车:辆 "
      "吉普车:辆 火车:列 电车:辆 大巴:辆 小巴:辆 救护车:辆 轿车:辆 房车:辆 跑车:辆 三轮车:辆 卡丁车:辆",
      mw);
  CorefFamily overtake{
      "overtake",
      {"faster vehicle", "slower vehicle"},
      {{vehicles, vehicles}},
      {{words("快 迅速 强劲 灵活 新 轻 有力 快速 轻便 敏捷"), words("慢 旧 重 笨重 超载 破旧 生锈 坏 满载 迟缓")}},
      happened,
      family_templates({"{0} {m} 超过 了 {1}", "{0} {m} 追上 了 {1}", "{0} {m} 轻松 超过 了 {1}",
                        "{1} {m} 被 {0} 超过 了", "{1} {m} 被 {0} 追上 了", "{1} {m} 被 {0} 轻松 超过 了",
                        "{0} {m} 一下子 超过 了 {1}", "{1} {m} 一下子 被 {0} 追上 了"})};
  overtake.shared_pool = true;
  overtake.heldout_opener = true;
  lx.families.push_back(overtake);

  lx.connectives = words("因为 由于");
  lx.verbs = {"", "显得"};  // 它太累了 / 它显得太累了
  lx.openers = {"昨天 ，", "最后 ，", "昨晚", "今天 早上 ，", "一开始 ，", "可惜 ，", "又 一次 ，", "那天 晚上"};
  lx.middles = words("那天 又 中午");
  lx.suffixes = {"， 这 并 不 奇怪", "， 大家 都 知道"};
  lx.modifiers = {"黑色 的", "白色 的", "灰色 的", "红色 的", "蓝色 的", "绿色 的", "黄色 的", "棕色 的"};
  lx.distractors = {"农场 旁边 的", "公园 旁边 的", "学校 旁边 的", "车站 旁边 的", "村子 旁边 的", "市场 旁边 的",
                    "湖 旁边 的",   "山 旁边 的",   "花园 旁边 的", "商店 旁边 的", "教堂 旁边 的", "森林 旁边 的",
                    "海滩 旁边 的", "房子 旁边 的", "医院 旁边 的", "城市 旁边 的"};
  return lx;
}

// The English words in the families' order (corpus.h). Left out, so never translated: people
// (它 is for animals and things), and the few words with no word of the same role in the Chinese
// lexicon (injured, flooded, town, …). The suffixes ("at the time", …) have no Chinese in the
// lexicon either: a sentence with one is not translated.
const CorefDictionary& english_to_chinese() {
  static const CorefDictionary d = [] {
    CorefDictionary d;
    // cross
    d.nouns.push_back(
        pairs("animal:动物 dog:狗 cat:猫 horse:马 cow:牛 deer:鹿 fox:狐狸 goat:山羊 sheep:羊 pig:猪 rabbit:兔子 "
              "wolf:狼 bear:熊 donkey:驴 camel:骆驼 chicken:鸡 duck:鸭子 squirrel:松鼠 "
              "street:马路 road:公路 highway:高速公路 motorway:高速公路 avenue:大街 boulevard:大街 lane:小路 path:小路 "
              "river:河 bridge:桥 field:田野 track:铁轨 canal:运河 stream:小溪 creek:小溪 square:广场 valley:山谷 "
              "desert:沙漠 railway:铁路 trail:小径 meadow:草地 swamp:沼泽 intersection:路口 junction:路口"));
    d.adjectives.push_back(pairs(
        "tired:累 exhausted:疲惫 sleepy:困 scared:害怕 frightened:害怕 weak:虚弱 lazy:懒 nervous:紧张 afraid:胆小 "
        "slow:慢 wide:宽 busy:繁忙 long:长 dangerous:危险 crowded:拥挤 noisy:吵 deep:深 icy:滑 muddy:泥泞 "
        "broad:宽阔"));
    // fit
    d.nouns.push_back(pairs(
        "trophy:奖杯 statue:雕像 lamp:台灯 guitar:吉他 painting:画 telescope:望远镜 piano:钢琴 cake:蛋糕 sofa:沙发 "
        "mirror:镜子 bottle:瓶子 umbrella:雨伞 violin:小提琴 chair:椅子 table:桌子 helmet:头盔 pumpkin:南瓜 "
        "carpet:地毯 ladder:梯子 poster:海报 kettle:水壶 blanket:毯子 laptop:电脑 "
        "suitcase:行李箱 box:盒子 bag:袋子 drawer:抽屉 backpack:背包 trunk:后备箱 cupboard:柜子 cabinet:柜子 "
        "basket:篮子 bucket:桶 crate:木箱 closet:壁橱 locker:储物柜 car:汽车 van:货车 fridge:冰箱 oven:烤箱 "
        "garage:车库 room:房间 pocket:口袋 tent:帐篷 wardrobe:衣柜 bin:垃圾桶"));
    d.adjectives.push_back(
        pairs("big:大 large:大 tall:高 wide:宽 long:长 bulky:笨重 huge:巨大 thick:厚 enormous:庞大 heavy:重 "
              "small:小 little:小 narrow:窄 full:满 tiny:狭小 short:短 compact:紧 cramped:挤 crowded:拥挤 shallow:浅"));
    // break
    d.nouns.push_back(pairs(
        "ball:球 rock:石头 stone:石头 boulder:石头 brick:砖头 hammer:锤子 axe:斧头 bat:球棒 club:棍子 log:木头 "
        "anvil:铁砧 shovel:铲子 wrench:扳手 pipe:管子 crowbar:撬棍 mallet:木槌 pebble:鹅卵石 weight:哑铃 iron:熨斗 "
        "pan:平底锅 bolt:螺栓 hailstone:冰雹 "
        "window:窗户 vase:花瓶 mirror:镜子 plate:盘子 jar:罐子 screen:屏幕 glass:玻璃 cup:杯子 bowl:碗 bottle:瓶子 "
        "lamp:台灯 tile:瓷砖 egg:鸡蛋 teapot:茶壶 mug:马克杯 ornament:装饰品 figurine:小雕像 lens:镜片 phone:手机 "
        "clock:钟 watch:手表 dish:碟子"));
    d.adjectives.push_back(
        pairs("hard:硬 heavy:重 solid:结实 sharp:锋利 pointed:尖 fast:快 big:大 dense:坚硬 strong:坚固 massive:沉 "
              "fragile:易碎 thin:薄 weak:脆弱 frail:脆弱 brittle:脆 old:旧 delicate:精致 cracked:破 flimsy:单薄 "
              "cheap:便宜"));
    // lift: one pool for both roles
    d.nouns.push_back(
        pairs("crane:起重机 robot:机器人 forklift:叉车 machine:机器 helicopter:直升机 hoist:吊车 tractor:拖拉机 "
              "truck:卡车 excavator:挖掘机 bulldozer:推土机 winch:绞车 drone:无人机 tank:坦克 jeep:吉普车 lorry:货车 "
              "boat:船 plane:飞机 digger:铲车 van:面包车 trailer:拖车 loader:装载机 elevator:电梯"));
    d.adjectives.push_back(
        pairs("weak:弱 small:小 tiny:小 old:旧 flimsy:单薄 feeble:无力 underpowered:无力 light:轻 broken:坏 damaged:破 "
              "heavy:重 big:大 large:大 bulky:笨重 awkward:笨重 massive:庞大 huge:巨大 enormous:巨大 loaded:沉重 "
              "wide:宽"));
    // reach
    d.nouns.push_back(
        pairs("kitten:小猫 puppy:小狗 rabbit:兔子 mouse:老鼠 hamster:仓鼠 duckling:小鸭 monkey:猴子 cat:猫 dog:狗 "
              "squirrel:松鼠 goat:山羊 chick:小鸡 lamb:小羊 piglet:小猪 frog:青蛙 turtle:乌龟 tortoise:乌龟 "
              "shelf:架子 table:桌子 fence:篱笆 roof:屋顶 branch:树枝 ledge:平台 platform:平台 window:窗户 "
              "counter:柜台 cupboard:柜子 ceiling:天花板 wall:墙 tree:树 balcony:阳台 rope:绳子 hook:钩子 nest:鸟窝 "
              "chimney:烟囱 cliff:悬崖 windowsill:窗台 bench:长凳 sink:水槽"));
    d.adjectives.push_back(
        pairs("short:矮 small:小 tiny:小 little:小 young:年幼 clumsy:笨拙 weak:弱 tired:累 slow:慢 lazy:懒 "
              "high:高 elevated:高 lofty:高 raised:高 tall:高大 distant:远 remote:遥远 steep:陡 slippery:滑 "
              "narrow:窄"));
    // overtake: one pool for both roles
    d.nouns.push_back(
        pairs("truck:卡车 bus:公交车 van:面包车 motorbike:摩托车 moped:摩托车 car:汽车 taxi:出租车 tractor:拖拉机 "
              "cart:马车 carriage:马车 bicycle:自行车 wagon:货车 lorry:货车 scooter:滑板车 jeep:吉普车 train:火车 "
              "tram:电车 coach:大巴 minibus:小巴 ambulance:救护车 limousine:轿车 caravan:房车"));
    d.adjectives.push_back(
        pairs("fast:快 quick:迅速 rapid:快速 speedy:快速 powerful:强劲 nimble:灵活 swift:敏捷 new:新 light:轻 "
              "strong:有力 slow:慢 sluggish:迟缓 old:旧 heavy:重 overloaded:超载 rusty:生锈 tired:破旧 broken:坏 "
              "loaded:满载"));
    // Templates in the same order, but for reach, whose Chinese has two fewer: its English 6 and 7
    // ("never reached", "was not reached by") are said as 0 and 5, its held-out 8 and 9 as 6 and 7.
    d.templates = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                   {0, 1, 2, 3, 4, 5, 6, 7},       {0, 1, 2, 3, 4, 5, 0, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}};
    d.connectives = {0, 1, 0};                     // because 因为, since 由于, as 因为
    d.verbs = {0, 1};                              // was (none), seemed 显得
    d.modifiers = {7, 0, 1, 2, 3, 4, 5, 6};        // brown 棕色 的, black 黑色 的, …
    d.distractors = {0, 1,  13, 4, 2,  3,  5,  6,  // near the farm 农场 旁边 的, by the park, behind the house, …
                     7, -1, 8,  9, 10, 11, 12, 15};
    d.suffixes = {-1, -1, -1, -1};
    return d;
  }();
  return d;
}

}  // namespace ae
