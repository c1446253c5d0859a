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

}  // namespace ae
