// Strings of <ae-causal-mask> (panel 9: the causal mask).
export default {
  en: {
    title: 'The causal mask: no peeking ahead',
    intro:
      'A decoder writes text one word at a time, so while it is trained no word may see the words after it. The causal mask enforces that: before the softmax every score above the diagonal is set to −∞, so after it those weights are exactly 0. This decoder was trained to complete “… it was too tired . it =” with the animal or the street.',
    sentence: 'Sentence for the decoder',
    swap: 'Swap tired ↔ wide',
    mask: 'Causal mask (each word sees only itself and the words before it)',
    layer: 'Layer',
    head: 'Head',
    loading: 'Loading the decoder model…',
    loadError: 'The decoder model could not be loaded: {message}',
    runError: 'The model could not read this sentence: {message}',
    unknownWords: 'Not in the model’s vocabulary, read as [UNK]: {words}',
    answer: 'The decoder’s next word after “{last}”: {word} ({p})',
    scoresCaption: 'Scores after the mask (layer {layer}, head {head})',
    weightsCaption: 'Weights after the softmax (layer {layer}, head {head})',
    maskOn:
      'Every cell above the diagonal is −∞ before the softmax and exactly 0 after it: no word receives anything from a later word.',
    maskOff:
      'Mask off: every word sees the whole sentence, including the words after it. The model was not trained like this, yet the full matrix shows what the mask normally hides.',
    itTitle: 'The row of “it” cannot know the ending',
    itHowTo:
      'The same head for the two sentences, row of the first “it” (word {pos}). The word that differs comes after it.',
    itCaption: '“it” in the {which} sentence',
    itSame:
      'Bit-identical: with the mask, “it” sees only “{prefix}”, which is the same in both sentences, so its row cannot depend on tired or wide — in this head and in every other layer and head.',
    itSameHead: 'In this head the two rows are bit-identical, but not in every layer and head.',
    itDiffer: 'The rows differ (largest difference {diff}): without the mask “it” can already see tired or wide.',
    itMissing: 'This sentence has no “it”, so there is no row to compare.',
    noPair: 'The comparison needs a sentence with “too tired” or “too wide”; this one has neither.',
    decisionTitle: 'Where the decision is made instead',
    decisionHowTo:
      'The last position (“{last}”, word {pos}) comes after tired or wide, so its row can take them into account. This is where the decoder names the referent.',
    decisionCaption: '“{last}” in the {which} sentence → {word} ({p})',
    decisionText:
      'In the {a} sentence this row puts most weight on “{topA}” ({wA}); in the {b} sentence on “{topB}” ({wB}). The rows differ, and the answers are “{ansA}” and “{ansB}”.',
    tired: 'tired',
    wide: 'wide',
    encoderTitle: 'Encoder or decoder?',
    encoder:
      'Encoder (BERT-like): no mask, every word attends to the whole sentence in both directions — good for understanding a finished text.',
    decoder:
      'Decoder (GPT-like): causal mask, every word attends only to itself and what came before — so it can generate text one word at a time.',
    windowTitle: 'Sliding window: cheaper, but short-sighted',
    windowHowTo:
      'Attention computes n² scores because every word is compared with every word. A sliding window of width w lets word i see word j only when |i − j| < w: itself and up to w − 1 words on each side, at most 2w − 1 words. That costs only about n · (2w − 1) scores, but two words more than w − 1 positions apart lose their direct link. Here the coreference encoder (no causal mask) reads the lesson’s sentence through a window; the row is “it” in its coreference head, and the cells outside the window are exactly 0.',
    windowSentence: 'Sentence for the encoder',
    windowLabel: 'Window width w',
    windowValue: 'w = {w}: each word sees at most {seen} words',
    windowFull: 'w = {w}: the whole sentence (no window)',
    windowCaption: '“it” with window w = {w} (layer {layer}, head {head})',
    loadingEncoder: 'Loading the coreference encoder…',
    loadErrorEncoder: 'The coreference encoder could not be loaded: {message}',
    windowReaches:
      '“{it}” (word {itPos}) still sees “{ref}” (word {refPos}): they are {d} positions apart and the window reaches {reach} on each side. Answer: {word} ({p}); without a window: {fullWord} ({fullP}).',
    windowCut:
      '“{it}” (word {itPos}) can no longer see “{ref}” (word {refPos}): they are {d} positions apart, but the window reaches only {reach} on each side. The answer changes from {fullWord} ({fullP}) to {word} ({p}).',
    windowCutSame:
      '“{it}” (word {itPos}) can no longer see “{ref}” (word {refPos}) directly: they are {d} positions apart, but the window reaches only {reach} on each side. The answer stays {word} ({p}; without a window {fullP}).',
    windowNoReferent: 'Answer with this window: {word} ({p}); without a window: {fullWord} ({fullP}).',
    windowRelay:
      'Indirectly, through the words in between, {layers} layers could still pass information up to {layers} × (w − 1) = {relay} positions — enough in principle, yet the answer changes: this model, trained with full attention, relies on the direct link.',
    windowRelaySame:
      'Indirectly, through the words in between, {layers} layers can still pass information up to {layers} × (w − 1) = {relay} positions, and here that is enough.',
    windowNoRelay:
      'Not even indirectly: passed along through the words in between, information travels at most {layers} × (w − 1) = {relay} positions in {layers} layers, fewer than {d}.',
    guessSee: 'Can “it” see the adjective “{adjective}”, which comes after it?',
    yes: 'yes',
    no: 'no',
  },
  zh: {
    title: '因果掩码：不许偷看后面',
    intro:
      '解码器逐词生成文本，所以训练时任何一个词都不能看到它后面的词。因果掩码保证了这一点：在 softmax 之前，对角线以上的分数全部设为 −∞，softmax 之后这些权重就恰好为 0。这个解码器经过训练，会把 “… it was too tired . it =” 补全为 animal 或 street。',
    sentence: '解码器的输入句子',
    swap: '切换 tired ↔ wide',
    mask: '因果掩码（每个词只能看到自己和前面的词）',
    layer: '层',
    head: '头',
    loading: '正在加载解码器模型…',
    loadError: '解码器模型加载失败：{message}',
    runError: '模型无法读取这个句子：{message}',
    unknownWords: '以下词不在模型的词表中，按 [UNK] 处理：{words}',
    answer: '解码器在 “{last}” 之后预测的下一个词：{word}（{p}）',
    scoresCaption: '掩码之后的分数（第 {layer} 层，第 {head} 个头）',
    weightsCaption: 'softmax 之后的权重（第 {layer} 层，第 {head} 个头）',
    maskOn: '对角线以上的每个格子在 softmax 之前都是 −∞，之后恰好为 0：没有哪个词能从后面的词得到任何信息。',
    maskOff:
      '掩码已关闭：每个词都能看到整个句子，包括它后面的词。模型并不是这样训练的，但完整的矩阵展示了掩码平时遮住的部分。',
    itTitle: '“it” 这一行无法知道句子的结尾',
    itHowTo: '同一个头里，两个句子中第一个 “it”（第 {pos} 个词）所在的那一行。两句唯一不同的那个词在它后面。',
    itCaption: '{which} 那句中的 “it”',
    itSame:
      '两行逐位（bit）完全相同：有掩码时，“it” 只能看到 “{prefix}”，这在两个句子中完全一样，所以它的这一行不可能取决于 tired 还是 wide——这个头如此，其他所有层和头也都如此。',
    itSameHead: '在这个头中两行逐位相同，但并非所有层和头都如此。',
    itDiffer: '两行不同（最大差值 {diff}）：没有掩码时，“it” 已经能看到 tired 或 wide。',
    itMissing: '这个句子中没有 “it”，无法比较。',
    noPair: '比较需要一个含有 “too tired” 或 “too wide” 的句子，而这个句子两者都没有。',
    decisionTitle: '那么，判断是在哪里做出的？',
    decisionHowTo:
      '最后一个位置（“{last}”，第 {pos} 个词）在 tired 或 wide 之后，所以这一行能把它们考虑进去。解码器正是在这里说出 “it” 指的是什么。',
    decisionCaption: '{which} 那句中的 “{last}” → {word}（{p}）',
    decisionText:
      '在 {a} 那句中，这一行把最大的权重放在 “{topA}” 上（{wA}）；在 {b} 那句中放在 “{topB}” 上（{wB}）。两行不同，答案分别是 “{ansA}” 和 “{ansB}”。',
    tired: 'tired',
    wide: 'wide',
    encoderTitle: '编码器还是解码器？',
    encoder: '编码器（类似 BERT）：没有掩码，每个词都能双向关注整个句子——适合理解一段完整的文本。',
    decoder: '解码器（类似 GPT）：有因果掩码，每个词只关注自己和前面的词——因此可以一个词一个词地生成文本。',
    windowTitle: '滑动窗口：更省，但看不远',
    windowHowTo:
      '注意力要算 n² 个分数，因为每个词都要和每个词比较。宽度为 w 的滑动窗口只让第 i 个词看到满足 |i − j| < w 的第 j 个词：它自己，加上左右两边各最多 w − 1 个词，一共最多 2w − 1 个。这样只需约 n · (2w − 1) 个分数，但相距超过 w − 1 个位置的两个词就没有了直接联系。下面让指代消解编码器（没有因果掩码）加上窗口来读课文里的句子；显示的是指代头中 “it” 那一行，窗口外的格子恰好为 0。',
    windowSentence: '编码器的输入句子',
    windowLabel: '窗口宽度 w',
    windowValue: 'w = {w}：每个词最多看到 {seen} 个词',
    windowFull: 'w = {w}：整句都看得到（相当于没有窗口）',
    windowCaption: '窗口 w = {w} 时的 “it”（第 {layer} 层，第 {head} 个头）',
    loadingEncoder: '正在加载指代消解编码器…',
    loadErrorEncoder: '指代消解编码器加载失败：{message}',
    windowReaches:
      '“{it}”（第 {itPos} 个词）仍然看得到 “{ref}”（第 {refPos} 个词）：两者相距 {d} 个位置，窗口向左右各能看 {reach} 个。答案：{word}（{p}）；不加窗口时：{fullWord}（{fullP}）。',
    windowCut:
      '“{it}”（第 {itPos} 个词）看不到 “{ref}”（第 {refPos} 个词）了：两者相距 {d} 个位置，而窗口向左右各只能看 {reach} 个。答案从 {fullWord}（{fullP}）变成了 {word}（{p}）。',
    windowCutSame:
      '“{it}”（第 {itPos} 个词）不能直接看到 “{ref}”（第 {refPos} 个词）了：两者相距 {d} 个位置，而窗口向左右各只能看 {reach} 个。答案仍是 {word}（{p}；不加窗口时为 {fullP}）。',
    windowNoReferent: '加这个窗口时的答案：{word}（{p}）；不加窗口时：{fullWord}（{fullP}）。',
    windowRelay:
      '经由中间的词间接传递，{layers} 层最远仍能把信息传 {layers} × (w − 1) = {relay} 个位置——理论上够得着，可答案还是变了：这个模型是用完整注意力训练的，靠的正是那条直接联系。',
    windowRelaySame:
      '经由中间的词间接传递，{layers} 层最远仍能把信息传 {layers} × (w − 1) = {relay} 个位置，在这里已经足够。',
    windowNoRelay:
      '间接传递也不行：经由中间的词一层层传，{layers} 层最多只能把信息传 {layers} × (w − 1) = {relay} 个位置，不到 {d} 个。',
    guessSee: '“it” 能看到在它后面的形容词 “{adjective}” 吗？',
    yes: '能',
    no: '不能',
  },
};
