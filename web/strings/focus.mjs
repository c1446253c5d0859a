// Strings of the main view's focus strip (lib/focus-strip.mjs): what the pronoun looks at in the
// coreference head, word by word, and the one thing to notice. {query} is the row's word ("it",
// 它, or "=" for the decoder), {top} the word it weighs most, {answer} the model's answer.
export default {
  en: {
    title: 'What “{query}” looks at',
    where: 'layer {layer}, head {head}',
    list: 'Attention of “{query}” to each word, layer {layer}, head {head}',
    query: '(the query)',
    top: '(looks here most)',
    same: 'Notice: in this head “{query}” looks hardest at “{top}”, the model’s answer.',
    differ: 'Notice: in this head “{query}” looks hardest at “{top}”, yet the model answers “{answer}”.',
  },
  zh: {
    title: '“{query}”在看哪里',
    where: '第 {layer} 层，第 {head} 个头',
    list: '“{query}”对每个词的注意力，第 {layer} 层，第 {head} 个头',
    query: '（查询词）',
    top: '（最关注这里）',
    same: '注意：在这个头里，“{query}”最关注“{top}”，正是模型的答案。',
    differ: '注意：在这个头里，“{query}”最关注“{top}”，但模型答的是“{answer}”。',
  },
};
