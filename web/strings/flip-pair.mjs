// Strings of <ae-flip-pair> (the tired / wide sentences side by side in the head view panel).
export default {
  en: {
    toggle: 'Compare tired and wide side by side',
    howTo: 'The same layer and head on both sentences. Only the last word differs, and the line from “it” moves.',
    tired: '… too tired.',
    wide: '… too wide.',
    sideLabel: 'Head view of the sentence ending “{word}”',
    answer: '“it” → {word} ({p})',
    loading: 'Loading…',
    error: 'The side-by-side view could not run: {message}',
  },
  zh: {
    toggle: '并排对比 tired 与 wide',
    howTo: '两句使用同一层、同一个头。两句只差最后一个词，“it” 发出的连线就换了方向。',
    tired: '… too tired.',
    wide: '… too wide.',
    sideLabel: '以 “{word}” 结尾的句子的连线图',
    answer: '“it” → {word}（{p}）',
    loading: '加载中…',
    error: '并排对比无法运行：{message}',
  },
};
