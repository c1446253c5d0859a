// The main view's focus strip: the coreference head's row at the pronoun ("it", 它; "=" for the
// decoder), drawn as the sentence's words, each with its weight from the trace and a bar of that
// length — what "it" looks at, with the word it weighs most outlined and one sentence saying what
// to notice. The numbers are read from the run (coreference-head.mjs coreferenceRow), never
// computed here.
import { format } from '../i18n.mjs';
import text from '../strings/focus.mjs';

// Fills `box` (its .focus-title, .focus-words and .focus-note) for `focus` (coreferenceRow's
// result, or null: the box hides), the run's `tokens` and the model's `answer` word, in `lang`.
export function drawFocus(box, focus, tokens, answer, lang) {
  box.hidden = !focus;
  if (!focus) return;
  const t = (key, params) => format(text[lang === 'zh' ? 'zh' : 'en'][key], params);
  const where = { layer: focus.layer + 1, head: focus.head + 1, query: focus.token };
  const [title, words, note] = ['.focus-title', '.focus-words', '.focus-note'].map((s) => box.querySelector(s));
  const strong = document.createElement('strong');
  strong.textContent = t('title', where);
  title.replaceChildren(strong, ` · ${t('where', where)}`);
  words.setAttribute('aria-label', t('list', where));
  words.replaceChildren(
    ...tokens.map((word, i) => {
      const weight = focus.weights[i];
      const item = document.createElement('li');
      item.dataset.value = String(weight); // the trace's float32, as the heatmap's cells publish it
      item.classList.toggle('top', i === focus.top);
      item.classList.toggle('query', i === focus.row);
      const label = Object.assign(document.createElement('span'), { className: 'w', textContent: word });
      const bar = Object.assign(document.createElement('span'), { className: 'bar' });
      const fill = document.createElement('span');
      fill.style.setProperty('width', `${Math.min(1, Math.max(0, weight)) * 100}%`); // CSSOM: allowed by the CSP
      bar.append(fill);
      bar.setAttribute('aria-hidden', 'true');
      const value = Object.assign(document.createElement('span'), { className: 'v', textContent: weight.toFixed(2) });
      item.append(label, bar, value);
      // What the outline and the dashes show, also in words (for a screen reader, and a tooltip).
      const role = [i === focus.row && t('query'), i === focus.top && t('top')].filter(Boolean).join(' ');
      if (role) {
        item.title = role;
        item.append(Object.assign(document.createElement('span'), { className: 'visually-hidden', textContent: role }));
      }
      return item;
    }),
  );
  const top = tokens[focus.top];
  box.dataset.top = top;
  box.dataset.row = String(focus.row);
  note.textContent = t(top === answer ? 'same' : 'differ', { query: focus.token, top, answer });
}
