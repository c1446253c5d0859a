// Strings of <ae-attention-pattern> (your own attention as coloured tokens).
export default {
  en: {
    layer: 'Layer',
    head: 'Head',
    queries: 'Query tokens: choose one',
    keys: 'Key tokens, coloured by its attention',
    readout: '“{q}” attends most to “{k}” ({value})',
    token: '{token} (token {i})',
  },
  zh: {
    layer: '层',
    head: '头',
    queries: '查询词：选一个',
    keys: '键词，按它的注意力着色',
    readout: '“{q}” 最关注 “{k}”（{value}）',
    token: '{token}（第 {i} 个词）',
  },
};
