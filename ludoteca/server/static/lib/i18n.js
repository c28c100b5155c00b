// Translations for the pages' scripts: every text a module shows goes through t() or tn().
// The page's language is <html lang> (chosen by the server: the header's switcher, else the
// browser's languages, else English); its catalogue, /i18n/<lang>.json (made by the server
// from the same gettext catalogue as the pages), is loaded once before any module runs.
// Placeholders are named, %(name)s, as in Python and the templates:
//   t("Your move (%(colour)s)", { colour })   tn("%(num)s game", "%(num)s games", n)
// A text missing from the catalogue (or the catalogue itself, offline) reads as its English
// msgid.  Babel extracts the msgids from the t("..."), tn("...", "...") and tNodes("...")
// calls: write them as plain string literals (joined with + if long), never template literals.
import { dayIn, momentIn } from "/static/lib/dates.js";

export const lang = document.documentElement.lang || "en";
export const dir = document.documentElement.dir || "ltr";

/**
 * The page's catalogue (ludoteca/i18n.py's catalogue()), or null in English or offline.
 * @returns {Promise<{messages: Record<string, string>, plurals: Record<string, string[]>,
 *                    tags: string[]} | null>}
 */
async function load() {
  if (lang === "en") return null;
  try {
    const answer = await fetch(`/i18n/${lang}.json`);
    return answer.ok ? await answer.json() : null;
  } catch {
    return null;  // offline: the texts read in English
  }
}

const catalogue = (await load()) || { messages: {}, plurals: {}, tags: ["one", "other"] };
const rules = new Intl.PluralRules(lang);

// A placeholder's value as a sentence holds it: in a right-to-left page isolated (between
// U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE), so that a move ("2. a7") or
// a Latin name keeps its own direction inside the Arabic text (the move number before it);
// exported for the notation a module puts in a sentence itself.
/** @type {(value: string) => string} */
export const isolated = dir === "rtl" ? (value) => `\u2068${value}\u2069` : (value) => value;

// `text` with each %(name)s replaced by params[name] (%% is a percent sign).
/** @param {string} text  @param {Record<string, unknown>} [params] */
export function fill(text, params = {}) {
  return text.replace(/%(?:\((\w+)\)s|%)/g, (/** @type {string} */ whole, /** @type {string | undefined} */ name) => {
    if (!name) return "%";
    return name in params ? isolated(String(params[name])) : whole;
  });
}

// `msgid` in the page's language, its placeholders filled from `params`.
/** @param {string} msgid  @param {Record<string, unknown>} [params] */
export function t(msgid, params = {}) {
  return fill(catalogue.messages[msgid] || msgid, params);
}

// `msgid` in the page's language as nodes to append: its placeholders filled from `params`,
// each a text or an element (a player's name with its link and marks) put in its place.
/** @param {string} msgid  @param {Record<string, string | Node>} params  @returns {(string | Node)[]} */
export function tNodes(msgid, params) {
  const parts = (catalogue.messages[msgid] || msgid).split(/%\((\w+)\)s/);
  return parts.map((part, i) => {
    if (i % 2 === 0) return part.replaceAll("%%", "%");
    const value = params[part];
    return value instanceof Node ? value : isolated(String(value));
  }).filter((part) => part !== "");
}

// The form for `num` of a text with plurals; %(num)s is `num`.
/** @param {string} singular  @param {string} plural  @param {number} num  @param {Record<string, unknown>} [params] */
export function tn(singular, plural, num, params = {}) {
  const forms = catalogue.plurals[singular];
  let text = num === 1 ? singular : plural;
  if (forms) {
    const index = catalogue.tags.indexOf(rules.select(num));
    text = forms[index >= 0 ? index : forms.length - 1] || text;
  }
  return fill(text, { num, ...params });
}

// Facts in a row as list() lists them, each a text or an element (kept as it is).
/** @param {(string | Node)[]} items  @returns {(string | Node)[]} */
export function listNodes(items) {
  const texts = items.map((item, i) => (item instanceof Node ? `\uE000${i}\uE000` : item));
  return list(texts).split(/\uE000(\d+)\uE000/).map((part, i) => (i % 2 ? items[Number(part)] : part))
    .filter((part) => part !== "");
}

// A day (a Date, a time as the server writes it, epoch milliseconds or a calendar day
// "2026-12-06") as the page's language writes it: "6 déc. 2026", never the browser's
// month-first order in a French page; a moment, its day and time ("6 déc. 2026, 14:30").
/** @param {Date | string | number} value */
export const day = (value) => dayIn(lang, value);
/** @param {Date | string | number} value */
export const moment = (value) => momentIn(lang, value);

// Facts in a row as the page's language lists them: "A, B, C"; Arabic "A، وB، وC"; in a
// language whose lists of units are spaced only (Russian: "3 фута 7 дюймов", which runs facts
// together), as it lists things ("A, B и C").
const UNITS = new Intl.ListFormat(lang, { type: "unit", style: "short" });
const FACTS = UNITS.format(["a", "b"]).slice(1, -1).trim() ? UNITS : new Intl.ListFormat(lang);
/** @param {string[]} items */
export const list = (items) => FACTS.format(items);

// A number written as the page's language writes it.
/** @param {number} value  @param {Intl.NumberFormatOptions} [options] */
export const number = (value, options = {}) => new Intl.NumberFormat(lang, options).format(value);
