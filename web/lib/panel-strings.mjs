// Strings of one panel, kept beside it in web/strings/<panel>.mjs as {en: {...}, zh: {...}}
// (tests/wasm/strings.test.mjs checks that both languages have the same keys).
// text(strings, lang, key, params) fills {name} placeholders like i18n.mjs's format().
import { format } from '../i18n.mjs';

export function text(strings, lang, key, params) {
  const table = strings[lang] ?? strings.en;
  const template = key.split('.').reduce((node, part) => node?.[part], table);
  if (template === undefined) throw new Error(`missing string ${lang}.${key}`);
  return format(template, params);
}
