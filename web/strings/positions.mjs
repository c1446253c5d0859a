// Strings of <ae-positions> (panel 8: positional encoding).
export default {
  en: {
    title: 'Word order needs positions',
    intro:
      'Self-attention compares every word with every other word, but on its own it has no idea where a word stands. Four small models were trained on the same task — name who does the chasing (the agent) in a Chinese sentence such as 猫追狗 “the cat chases the dog” — and differ only in how they are told the positions. Each answers at the [CLS] token in front of the sentence.',
    sentenceA: 'Sentence A',
    sentenceB: 'Sentence B',
    swap: 'Swap A ↔ B',
    encoding: 'Encoding shown in detail',
    enc: { none: 'None', sinusoidal: 'Sinusoidal', learned: 'Learned', rope: 'RoPE (rotary)' },
    loading: 'Loading the four word-order models…',
    loadError: 'The word-order models could not be loaded: {message}',
    runError: '{which}: the models could not read this sentence: {message}',
    unknownWords: '{which}: not in the models’ vocabulary, read as [UNK]: {words}',
    tableCaption: 'The agent each model names, with its probability',
    colEncoding: 'Positional encoding',
    colA: 'A: {text}',
    colB: 'B: {text}',
    answer: '{word} ({p})',
    right: 'right',
    wrong: 'wrong',
    unknownTruth: 'no known answer',
    outsideGrammar:
      '{which} is not a sentence of the models’ grammar (an optional 今天/昨天/刚才, then noun, verb, noun, possibly with 在 or 了), so there is no known right answer for it.',
    sameNone:
      'Without positional encoding the two sentences get the same answer, {word}, with the same probability ({p}, equal up to float rounding) — so one of them is necessarily wrong.',
    sameNoneSameAgent:
      'Without positional encoding the two sentences get the same answer, {word}, with the same probability ({p}, equal up to float rounding). Here both sentences have the same agent, so one answer can be right for both; give them different agents (swap the nouns) to see the model fail one.',
    sameNoneNoTruth:
      'Without positional encoding the two sentences get the same answer, {word}, with the same probability ({p}, equal up to float rounding). With no known answer for {which}, the table cannot say which is right.',
    differentNone: 'Without positional encoding the answers here are {a} and {b}.',
    whyTitle: 'Why: without positions, the scores only move',
    whyHowTo:
      'The attention scores of sentence B for the model “{encoding}”, next to those of sentence A. Point at a cell to find the same pair of words in the other matrix.',
    layer: 'Layer',
    head: 'Head',
    show: 'Show',
    scores: 'Scores (QKᵀ/√d)',
    weights: 'Weights (after softmax)',
    matrixA: 'A: {text}',
    matrixB: 'B: {text}',
    permExact:
      'B’s matrix is A’s matrix with its rows and columns reordered exactly as the words were: the same numbers, bit for bit, just moved. The [CLS] row therefore sees the same set of numbers, and the model must give the same answer.',
    permRounding:
      'B’s matrix is A’s matrix with rows and columns reordered like the words, up to float rounding (largest difference {diff}): the numbers only move. The rounding comes from sums (in the softmax, and in the layers before) being taken in another order.',
    permNo:
      'Here the numbers do not just move: the largest difference from a reordering of A’s matrix is {diff}. The position signal makes the same pair of words score differently at different places.',
    permNotApplicable: 'B does not use the same characters as A, so its matrix cannot be a reordering of A’s.',
    sinTitle: 'The sinusoidal encoding',
    sinHowTo:
      'Each row is the vector added to the word at that position; each column one dimension. Left columns turn fast, right columns slowly, so every position gets its own pattern — like the hands of a clock. Positions count from 0 here, as in the formula: the first word is position 0.',
    positions: 'Positions',
    dims: 'dimension →',
    posAxis: 'position ↓',
    sinCaption: 'Sinusoidal encoding, {n} positions × {d} dimensions; red = +1, blue = −1',
    ropeTitle: 'RoPE: rotate instead of add',
    ropeHowTo:
      'RoPE leaves the words alone and rotates each query and key by an angle proportional to its position: one arrow per position for the pair of dimensions chosen. Because both are rotated, their dot product depends only on how far apart the two words are.',
    pair: 'Dimension pair',
    pairOption: '{a}, {b}',
    ropeCaption: 'Dimensions {a} and {b}: a unit vector rotated to positions 0–{last}, {deg}° per position',
  },
  zh: {
    title: '词序需要位置信息',
    intro:
      '自注意力让每个词与所有其他词比较，但它本身并不知道一个词处在什么位置。这里有四个小模型，在同一个任务上训练：在“猫追狗”这样的中文句子里说出谁在追（施事者）。它们唯一的区别是如何得到位置信息。每个模型都在句首的 [CLS] 位置给出答案。',
    sentenceA: '句子 A',
    sentenceB: '句子 B',
    swap: '交换 A ↔ B',
    encoding: '详细查看的编码',
    enc: { none: '无位置编码', sinusoidal: '正弦', learned: '可学习', rope: 'RoPE（旋转）' },
    loading: '正在加载四个词序模型…',
    loadError: '词序模型加载失败：{message}',
    runError: '{which}：模型无法读取这个句子：{message}',
    unknownWords: '{which}：以下字不在模型的词表中，按 [UNK] 处理：{words}',
    tableCaption: '每个模型给出的施事者及其概率',
    colEncoding: '位置编码',
    colA: 'A：{text}',
    colB: 'B：{text}',
    answer: '{word}（{p}）',
    right: '正确',
    wrong: '错误',
    unknownTruth: '无标准答案',
    outsideGrammar:
      '{which} 不符合模型的语法（可选的“今天/昨天/刚才”，然后是名词、动词、名词，可带“在”或“了”），因此没有已知的正确答案。',
    sameNone:
      '没有位置编码时，两个句子得到相同的答案“{word}”，概率也相同（{p}，只差浮点舍入误差）——所以其中必有一个是错的。',
    sameNoneSameAgent:
      '没有位置编码时，两个句子得到相同的答案“{word}”，概率也相同（{p}，只差浮点舍入误差）。这里两个句子的施事者相同，所以同一个答案可以对两个句子都正确；让它们的施事者不同（交换两个名词），就能看到模型必错一个。',
    sameNoneNoTruth:
      '没有位置编码时，两个句子得到相同的答案“{word}”，概率也相同（{p}，只差浮点舍入误差）。{which} 没有已知的正确答案，所以表格无法判断谁对谁错。',
    differentNone: '没有位置编码时，这里的答案分别是 {a} 和 {b}。',
    whyTitle: '原因：没有位置信息，分数只是换了位置',
    whyHowTo:
      '下面是“{encoding}”模型中句子 A 与句子 B 的注意力分数。把指针移到某个格子上，可以在另一个矩阵里找到同一对词。',
    layer: '层',
    head: '头',
    show: '显示',
    scores: '分数（QKᵀ/√d）',
    weights: '权重（softmax 之后）',
    matrixA: 'A：{text}',
    matrixB: 'B：{text}',
    permExact:
      'B 的矩阵就是把 A 的矩阵按词的调换方式重新排列行和列：数字逐位相同，只是挪了位置。因此 [CLS] 那一行看到的是同一组数字，模型只能给出同样的答案。',
    permRounding:
      'B 的矩阵就是把 A 的矩阵按词的调换方式重新排列行和列，只差浮点舍入（最大差值 {diff}）：数字只是挪了位置。舍入误差来自求和顺序的改变（softmax 中的求和，以及前面各层中的求和）。',
    permNo:
      '这里的数字不只是挪了位置：与 A 的矩阵重新排列后相比，最大差值为 {diff}。有了位置信号，同一对词在不同位置上的分数就不同了。',
    permNotApplicable: 'B 和 A 用的不是同一组字，所以 B 的矩阵不可能是 A 的矩阵重新排列的结果。',
    sinTitle: '正弦位置编码',
    sinHowTo:
      '每一行是一个位置的编码向量，它会加到处在这个位置的词的词向量上；每一列是一个维度。左边的列变化快，右边的列变化慢，于是每个位置都有自己独特的图案——就像钟表上快慢不同的指针。这里的位置按公式从 0 开始数：第一个词在位置 0。',
    positions: '位置数',
    dims: '维度 →',
    posAxis: '位置 ↓',
    sinCaption: '正弦位置编码，{n} 个位置 × {d} 个维度；红色 = +1，蓝色 = −1',
    ropeTitle: 'RoPE：旋转而不是相加',
    ropeHowTo:
      'RoPE 不改动词向量本身，而是把每个查询向量和键向量旋转一个与其位置成正比的角度：下图画的是所选的一对维度，每个位置一个箭头。因为查询和键都转了，它们的点积只取决于两个词相隔多远。',
    pair: '维度对',
    pairOption: '{a}、{b}',
    ropeCaption: '第 {a}、{b} 维：单位向量旋转到位置 0–{last}，每个位置转 {deg}°',
  },
};
