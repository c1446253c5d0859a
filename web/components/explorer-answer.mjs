// <attention-explorer>'s answer (./attention-explorer.mjs): the trained model's prediction with
// the runners-up and a note when it is no word of the sentence, what the pronoun looks at in the
// coreference head, the words the model does not know and the vocabulary's suggestions.
import { coreferenceRow } from '../lib/coreference-head.mjs';
import { drawFocus } from '../lib/focus-strip.mjs';
import * as mainView from '../lib/main-view.mjs';
import { pronounOf } from '../lib/model-lesson.mjs';
import { percent } from '../lib/panel-strings.mjs';
import { unreadLanguage } from '../lib/vocabulary-help.mjs';

// Draws the answer of `run` (the store's result; {} after an error) into the element's `ui`
// (prediction, answer, alternatives, answer-note, focus, unknown); → the data-* it mirrors:
// {prediction, answerInSentence}.
export function drawAnswer(ui, run, { config, lang, t, vocabulary }) {
  const { prediction, unknown = [], tokens = [] } = run;
  ui.prediction.hidden = !prediction;
  if (prediction) {
    const [before, p, after] = mainView.answerParts(prediction, config, lang, (x) => percent(x, lang));
    const probability = Object.assign(document.createElement('span'), { className: 'probability', textContent: p });
    ui.answer.replaceChildren(before, probability, after);
    ui.alternatives.replaceChildren(
      ...prediction.top
        .slice(1)
        .map(({ token, probability }) =>
          Object.assign(document.createElement('li'), { textContent: `${token} ${percent(probability, lang)}` }),
        ),
    );
  }
  const outside = prediction && mainView.answerOutsideSentence(prediction.token, tokens, config);
  const ask = prediction && !outside && mainView.needsAskingPrompt(tokens, config);
  ui['answer-note'].hidden = !(outside || ask);
  ui['answer-note'].textContent = outside
    ? t('answerNotInSentence', { word: prediction.token })
    : ask
      ? t('answerAskPrompt', { pronoun: pronounOf(config) })
      : '';
  // What the pronoun looks at in the coreference head, under the answer (the lesson's first screen).
  const focus = prediction ? coreferenceRow(run, config) : null;
  drawFocus(ui.focus, focus, tokens, prediction?.token, lang);
  vocabulary.suggest(tokens, prediction ? unknown : [], mainView.SUGGESTIONS);
  // The words are styled like their labels in the heatmap.
  const words = unknown.map((i) =>
    Object.assign(document.createElement('span'), { className: 'unknown-word', textContent: tokens[i] }),
  );
  const [before, after] = t('unknownNote').split('{words}');
  ui.unknown.replaceChildren(before, ...words.flatMap((w, i) => (i ? [', ', w] : [w])), after);
  // A whole sentence in the other language: say that, rather than list every word of it.
  const language = vocabulary.language;
  const unread = language && unreadLanguage({ tokens, unknown }, language);
  if (unread) {
    const example = mainView.sentencePair(config)[0];
    ui.unknown.textContent = t(unread === 'zh' ? 'readsEnglish' : 'readsChinese', { example });
  }
  ui.unknown.hidden = unknown.length === 0;
  return { prediction: prediction?.token ?? '', answerInSentence: prediction ? String(!outside) : '' };
}
