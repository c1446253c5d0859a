// Strings of <ae-cross-attention> (panel 13: self- vs cross-attention).
export default {
  en: {
    title: 'Self-attention and cross-attention',
    intro:
      'Cross-attention is the same computation, softmax(QKᵀ/√d)·V, with one change: the queries come from one sequence and the keys and values from another. Here the coreference model reads two sentences; the queries of sentence A (in the chosen layer and head) are matched against the keys of sentence B, and B’s values are mixed.',
    sentenceA: 'Sentence A (gives the queries)',
    sentenceB: 'Sentence B (gives the keys and values)',
    swap: 'Swap A ↔ B',
    layer: 'Layer',
    head: 'Head',
    loading: 'Loading the coreference model…',
    loadError: 'The coreference model could not be loaded: {message}',
    runError: 'Sentence {which}: the model could not read it: {message}',
    attentionError: 'The attention could not be computed: {message}',
    unknownWords: 'Sentence {which}: not in the model’s vocabulary, read as [UNK]: {words}',
    selfCaption: 'Self-attention: Q, K, V from A ({n}×{n})',
    crossCaption: 'Cross-attention: Q from A, K and V from B ({n}×{m})',
    shapes:
      'Q is {n}×{d} (A’s words), K and V are {m}×{d} (B’s words): the weights are {n}×{m}, one row per word of A, one column per word of B, and each row still sums to 1. The output has one row per word of A.',
    usage:
      'Where it is used: in a translation model the decoder’s words (the sentence being written) ask the questions, and the encoder’s output for the source sentence answers them — that is how each target word finds the source words it translates. Image captioning and speech recognition do the same with image patches or audio frames as keys and values.',
    note: 'This model was trained only for self-attention, so these cross weights are the machinery at work, not a trained alignment.',
    translateButton: 'Translate A with a trained encoder–decoder',
    translationLoading: 'Loading the trained translation model…',
    translationError: 'The translation model could not translate sentence A: {message}',
    translation: 'A trained encoder–decoder translates sentence A: {text}',
    alignmentCaption:
      'Trained cross-attention: the decoder writes “{noun}” (what “it” is) looking at these English words (layer {layer}, head {head})',
  },
  zh: {
    title: '自注意力与交叉注意力',
    intro:
      '交叉注意力的计算与自注意力完全相同，都是 softmax(QKᵀ/√d)·V，只有一点不同：查询来自一个序列，键和值来自另一个序列。这里指代消解模型读取两个句子；句子 A 的查询（所选的层和头）与句子 B 的键匹配，再对 B 的值加权求和。',
    sentenceA: '句子 A（提供查询）',
    sentenceB: '句子 B（提供键和值）',
    swap: '交换 A ↔ B',
    layer: '层',
    head: '头',
    loading: '正在加载指代消解模型…',
    loadError: '指代消解模型加载失败：{message}',
    runError: '句子 {which}：模型无法读取：{message}',
    attentionError: '无法计算注意力：{message}',
    unknownWords: '句子 {which}：以下词不在模型的词表中，按 [UNK] 处理：{words}',
    selfCaption: '自注意力：Q、K、V 都来自 A（{n}×{n}）',
    crossCaption: '交叉注意力：Q 来自 A，K 和 V 来自 B（{n}×{m}）',
    shapes:
      'Q 是 {n}×{d}（A 的词），K 和 V 是 {m}×{d}（B 的词）：权重矩阵是 {n}×{m}，每行对应 A 的一个词，每列对应 B 的一个词，每一行的和仍然是 1。输出对 A 的每个词各有一行。',
    usage:
      '用在哪里：在翻译模型中，解码器正在生成的词负责提问，编码器对原文的输出负责回答——每个目标词就是这样找到它要翻译的原文词的。图像描述和语音识别也是如此，只是键和值换成了图像块或音频帧。',
    note: '这个模型只训练过自注意力，所以这里的交叉注意力权重展示的是计算机制本身，而不是训练得到的对齐关系。',
    translateButton: '用训练好的编码器–解码器翻译 A',
    translationLoading: '正在加载训练好的翻译模型…',
    translationError: '翻译模型无法翻译句子 A：{message}',
    translation: '训练好的编码器–解码器把句子 A 译为：{text}',
    alignmentCaption:
      '训练得到的交叉注意力：解码器写出“{noun}”（“it”所指）时看向这些英文词（第 {layer} 层，第 {head} 个头）',
  },
};
