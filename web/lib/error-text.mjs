// Errors a reader can cause, worded in the page's language. The engine throws EngineErrors
// with a `code` (web/lib/contract.mjs); the core's own English `message` is for developers, so
// the page shows the worded text and keeps the raw message in the error box's title.
// The main view imports this module only once an error happens (it is not in the first
// view's transfer); the lesson panels, loaded after the first draw, import it directly.
import strings from '../strings/errors.mjs';
import { text } from './panel-strings.mjs';

export function errorText(error, lang) {
  let code = Object.hasOwn(strings.en, error?.code ?? '') ? error.code : 'other';
  if (code === 'too-long' && Number.isInteger(error.details?.count)) code = 'too-long-count';
  return text(strings, lang, code, { message: error?.message ?? String(error), ...(error?.details ?? {}) });
}

// A panel's error entry: its string key and params, with the thrown error kept as `cause`.
export const failure = (key, cause, params = {}) => ({ key, params, cause });

// The entry's sentence: the panel's template (its strings' `key`) with {message} the worded error.
export function failureText({ key, params, cause }, panelStrings, lang) {
  return text(panelStrings, lang, key, cause ? { ...params, message: errorText(cause, lang) } : params);
}

// The raw messages behind a list of entries, for the error box's title (debugging).
export function rawMessages(entries) {
  return entries
    .map((entry) => entry?.cause?.message)
    .filter(Boolean)
    .join('\n');
}
