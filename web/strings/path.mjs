// Strings of the path (<ae-lesson-path>): one question or one thing to try per step (path-steps.mjs).
export default {
  en: {
    start: 'Start the path',
    step: 'Step {n} of {total}',
    steps: {
      sentence: 'Read the sentence and its answer. Swap “tired” for “wide”: which word does “it” point at now?',
      qkv: 'Every word makes a query, a key and a value. Point at “it”: whose key matches its query best?',
      'four-steps':
        'Scores, scale, softmax, mix: follow “it” through the four steps. Which step turns scores into weights that add up to 1?',
      scaling: 'Turn off ÷√d. Predict first: do the weights get sharper or flatter?',
      'multi-head': 'Each head looks for something else. Find the head where “it” looks at its referent.',
      positions: 'Shuffle the words. Without positions, does attention change?',
      'causal-mask': 'Turn the mask on. Which words can “it” still see?',
      'kv-cache': 'Generate one word at a time. How many keys are computed again with the cache on?',
      cost: 'Double n. Predict first: how much longer does attention take?',
      'cross-attention': 'A second sentence asks, the first answers. Which source word does each target word look at?',
      explanation: 'Remove the word attention points at. Does the answer change as much as the weight suggests?',
      train: 'Train a tiny model yourself and watch a head learn to point.',
    },
  },
  zh: {
    start: '开始学习路径',
    step: '第 {n} 步,共 {total} 步',
    steps: {
      sentence: '读句子和答案。把“tired”换成“wide”:“it”现在指向哪个词?',
      qkv: '每个词都产生查询、键和值。指向“it”:谁的键和它的查询最匹配?',
      'four-steps': '打分、缩放、softmax、加权求和:跟着“it”走完四步。哪一步把分数变成和为 1 的权重?',
      scaling: '关掉 ÷√d。先预测:权重会变得更尖锐还是更平坦?',
      'multi-head': '每个头关注不同的东西。找到“it”看向其指代对象的那个头。',
      positions: '打乱词序。没有位置信息,注意力会变吗?',
      'causal-mask': '打开掩码。“it”还能看到哪些词?',
      'kv-cache': '一次生成一个词。开启缓存后,有多少个键需要重新计算?',
      cost: '把 n 加倍。先预测:注意力要多花多少时间?',
      'cross-attention': '第二个句子提问,第一个句子回答。每个目标词看向哪个源词?',
      explanation: '去掉注意力指向的词。答案的变化有权重暗示的那么大吗?',
      train: '亲手训练一个小模型,看一个头学会指向。',
    },
  },
};
