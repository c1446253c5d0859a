// Strings of the lesson panels' guidance (web/lib/guidance.mjs, the LessonPanel base): Show me,
// Reset, and the page-wide "Predict, then reveal" switch with each panel's question frame.
export default {
  en: {
    showMe: 'Show me',
    showMeLabel: 'Show me: set the view to where this panel’s point shows',
    reset: 'Back to defaults',
    resetLabel: 'Set this panel’s controls back to their defaults',
    predict: 'Predict, then reveal',
    predictHint: 'panels ask for your guess before showing the numbers',
    guessFirst: 'Guess first:',
    verdictRight: 'The model: {answer}. Your guess, {guess}, agreed.',
    verdictWrong: 'The model: {answer}. Your guess was {guess}: it did not agree.',
  },
  zh: {
    showMe: '演示给我看',
    showMeLabel: '演示给我看：把视图调到能看出本面板要点的地方',
    reset: '恢复默认',
    resetLabel: '把本面板的控件恢复为默认设置',
    predict: '先猜，再揭晓',
    predictHint: '面板先让你猜，再显示数值',
    guessFirst: '先猜一猜：',
    verdictRight: '模型：{answer}。你猜的是 {guess}，猜对了。',
    verdictWrong: '模型：{answer}。你猜的是 {guess}，与模型不同。',
  },
};
