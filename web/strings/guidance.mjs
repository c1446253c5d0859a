// Strings of the lesson panels' guidance (web/lib/guidance.mjs, the LessonPanel base): Show me,
// Reset, and the page-wide "Predict, then reveal" switch with each panel's question frame;
// lessonRunError: a panel alone on a page whose lesson run could not be made (lesson-run.mjs).
export default {
  en: {
    lessonRunError: 'This panel shows the lesson sentence run by a trained model, which could not be loaded: {message}',
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
    lessonRunError: '这个面板显示训练好的模型对课文句子的运行结果，但模型无法加载：{message}',
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
