// Strings of <ae-explanation> (panel 12: attention is not explanation).
export default {
  en: {
    title: 'Attention is not explanation',
    intro:
      'A head that puts a lot of weight on a word looks like the reason for the answer. Test that: hide one word from every query, or switch heads off, and measure how the coreference model’s answer changes. Then compare with what the attention weights alone suggest.',
    sentence: 'Sentence for this panel',
    swap: 'Swap tired ↔ wide',
    loading: 'Loading the coreference model…',
    working: 'Measuring…',
    loadError: 'The coreference model could not be loaded: {message}',
    runError: 'The model could not read this sentence: {message}',
    answer: '“it” → {word} ({p})',
    knockoutTitle: '1. Knock out one word',
    knockoutHowTo:
      'For every word: the weight “it” gives it in the coreference head (layer {layer}, head {head}), and how much the probability of “{word}” changes when that word is hidden from every query.',
    tableCaption: 'Attention of “it” versus the effect of knocking each word out',
    colWord: 'Word',
    colAttention: 'Attention from “it”',
    colEffect: 'Change when knocked out',
    newAnswer: '→ {word}',
    attentionLabel: 'attention {value}',
    effectLabel: 'change {value}',
    flipsTo: 'the answer becomes “{word}”',
    knockoutSummary:
      '“it” looks hardest at “{top}” ({weight}). Knocking out “{cause}” changes the answer most ({delta}), though “it” gives it only {causeWeight} of its attention.',
    knockoutSame:
      '“it” looks hardest at “{top}” ({weight}), and knocking that word out also changes the answer most ({delta}).',
    headsTitle: '2. Switch heads off',
    headsHowTo:
      'Each button switches one head off (its output is replaced by zeros). Numbers in a button: the weight “it” puts on “{word}” in that head, and the change in the probability of “{word}” when only that head is off.',
    headsLabel: 'Heads of the coreference model: press to switch off',
    layerN: 'Layer {i}',
    headN: 'H{i}',
    corefBadge: 'coref',
    headButton:
      'Layer {layer}, head {head}{coref}: attention on “{word}” {attention}; switching only this head off changes the probability by {delta}',
    corefSuffix: ' (the coreference head)',
    noReferent: '–',
    reset: 'Switch all heads on',
    allOn: 'All heads on: “it” → {word} ({p}).',
    ablated: '{count} head(s) off: “it” → {word} ({p}); the probability of “{referent}” changed by {delta}.',
    headsSummary:
      'Strongest attention on “{word}”: layer {aLayer}, head {aHead} ({attention}). Largest effect of switching one head off: layer {eLayer}, head {eHead} ({delta}).',
    headsSummaryNoReferent: 'Largest effect of switching one head off: layer {eLayer}, head {eHead} ({delta}).',
    headsSummaryNoEffect:
      'Strongest attention on “{word}”: layer {aLayer}, head {aHead} ({attention}). Yet no single head changes the probability of “{word}” by 0.0005 (0.05 percentage points) or more: the work is shared, and the other heads make up for the one switched off.',
    headsNoEffectNoReferent:
      'No single head changes the probability of “{word}” by 0.0005 (0.05 percentage points) or more: the work is shared, and the other heads make up for the one switched off.',
    headsMarks:
      'Blue bar on top: the head with the strongest attention on the referent. Orange bar below: the head whose removal alone changes the probability most (only when that change is at least 0.0005).',
    caption:
      'What this shows: attention weights say where information can flow, not what the answer depends on. A word can receive almost no attention from “it” and still decide the answer (it shapes other tokens first), and a head can attend strongly to the referent while switching it off changes nothing, because other heads carry the same information. To find out what matters, intervene and measure.',
    guessAblate:
      'Layer {layer}, head {head} is the head that looks from “it” to the answer. Switch it off: does the answer change?',
    yes: 'yes',
    no: 'no',
  },
  zh: {
    title: '注意力不等于解释',
    intro:
      '某个注意力头把很大的权重放在一个词上，看起来就像是答案的原因。不妨验证一下：把某个词对所有查询隐藏起来，或者关掉一些注意力头，测量指代模型的答案如何变化，再与单看注意力权重得出的印象对比。',
    sentence: '本面板使用的句子',
    swap: '切换 tired ↔ wide',
    loading: '正在加载指代消解模型…',
    working: '正在测量…',
    loadError: '指代消解模型加载失败：{message}',
    runError: '模型无法读取这个句子：{message}',
    answer: '“it” → {word}（{p}）',
    knockoutTitle: '1. 逐个屏蔽词语',
    knockoutHowTo:
      '对每个词：在指代头（第 {layer} 层，第 {head} 个头）中 “it” 分给它的权重，以及把这个词对所有查询隐藏后，“{word}” 的概率变化了多少。',
    tableCaption: '“it” 的注意力与屏蔽各个词的效果对比',
    colWord: '词',
    colAttention: '“it” 的注意力',
    colEffect: '屏蔽后的变化',
    newAnswer: '→ {word}',
    attentionLabel: '注意力 {value}',
    effectLabel: '变化 {value}',
    flipsTo: '答案变为 “{word}”',
    knockoutSummary:
      '“it” 最关注 “{top}”（{weight}）。但屏蔽 “{cause}” 对答案的影响最大（{delta}），尽管 “it” 只分给它 {causeWeight} 的注意力。',
    knockoutSame: '“it” 最关注 “{top}”（{weight}），屏蔽这个词对答案的影响也最大（{delta}）。',
    headsTitle: '2. 关闭注意力头',
    headsHowTo:
      '每个按钮关闭一个头（把它的输出换成零）。按钮里的数字：该头中 “it” 放在 “{word}” 上的权重，以及只关闭这一个头时 “{word}” 的概率变化。',
    headsLabel: '指代模型的注意力头：按下即关闭',
    layerN: '第 {i} 层',
    headN: '头 {i}',
    corefBadge: '指代',
    headButton:
      '第 {layer} 层，第 {head} 个头{coref}：对 “{word}” 的注意力 {attention}；只关闭这个头，概率变化 {delta}',
    corefSuffix: '（指代头）',
    noReferent: '–',
    reset: '打开全部注意力头',
    allOn: '全部头都打开：“it” → {word}（{p}）。',
    ablated: '关闭了 {count} 个头：“it” → {word}（{p}）；“{referent}” 的概率变化 {delta}。',
    headsSummary:
      '对 “{word}” 注意力最强的是第 {aLayer} 层第 {aHead} 个头（{attention}）。单独关闭后影响最大的是第 {eLayer} 层第 {eHead} 个头（{delta}）。',
    headsSummaryNoReferent: '单独关闭后影响最大的是第 {eLayer} 层第 {eHead} 个头（{delta}）。',
    headsSummaryNoEffect:
      '对 “{word}” 注意力最强的是第 {aLayer} 层第 {aHead} 个头（{attention}）。然而单独关闭任何一个头，“{word}” 的概率变化都不到 0.0005（0.05 个百分点）：这份工作由多个头分担，关掉一个，其余的头就能补上。',
    headsNoEffectNoReferent:
      '单独关闭任何一个头，“{word}” 的概率变化都不到 0.0005（0.05 个百分点）：这份工作由多个头分担，关掉一个，其余的头就能补上。',
    headsMarks:
      '上方蓝条：对所指对象注意力最强的头。下方橙条：单独关闭后概率变化最大的头（仅当变化至少为 0.0005 时标出）。',
    caption:
      '这说明了什么：注意力权重表示信息可以从哪里流过来，而不是答案依赖于什么。一个词可能几乎得不到 “it” 的注意力，却决定了答案（它先影响了别的词元）；一个头可能强烈关注所指对象，关掉它却什么也没变，因为其他头携带了同样的信息。想知道什么真正重要，就要动手干预并测量结果。',
    guessAblate: '第 {layer} 层第 {head} 个头从 “it” 看向答案。关掉它，答案会变吗？',
    yes: '会',
    no: '不会',
  },
};
