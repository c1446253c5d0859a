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

// The Intl locale of the page's language.
export const locale = (lang) => (lang === 'zh' ? 'zh-CN' : 'en');

// An Intl.NumberFormat of the page's language, made once per language and options
// (number.toLocaleString makes one per call; the download's progress formats a number per chunk).
const numberFormats = new Map();
export function numberFormat(lang, options = {}) {
  const key = `${locale(lang)} ${JSON.stringify(options)}`;
  let made = numberFormats.get(key);
  if (!made) numberFormats.set(key, (made = new Intl.NumberFormat(locale(lang), options)));
  return made;
}

// A probability as a percentage with one decimal, never a rounded "100 %" or "0 %": the
// models are never that certain, so the extremes read "> 99.9 %" and "< 0.1 %".
export function percent(p, lang) {
  const f = (x) => numberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(x);
  return p > 0.999 ? `> ${f(0.999)}` : p < 0.001 ? `< ${f(0.001)}` : f(p);
}

// A probability with exactly two decimals ("51.87 %"), rounded like any number: for the panels
// whose point is that two answers are equal, or nearly so (word order without positions).
export function percent2(p, lang) {
  return numberFormat(lang, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(p);
}
