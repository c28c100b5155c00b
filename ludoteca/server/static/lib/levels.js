// The computer's levels as the selectors list them (the lobby's, a tournament page's).
import { lang, t, tn } from "/static/lib/i18n.js";

/** @typedef {import("/static/lib/types.js").Level} Level */

// a whole percentage as the page's language writes it ("85%", "85 %", "%85"), in Latin digits
const PERCENT = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0, numberingSystem: "latn" });

/**
 * "keeps the value in 85% of moves": the share of a level's moves that kept the position's
 * value against perfect play, where it was measured (of its endgame moves where the table
 * covers the endgames only); "" where it was not.
 * @param {Level} l
 */
export function keptText(l) {
  if (l.kept === null || l.kept === undefined) return "";
  const share = PERCENT.format(l.kept / 100);
  return l.kept_endgame
    ? tn("keeps the value in %(share)s of endgame moves", "keeps the value in %(share)s of endgame moves", l.kept, { share })
    : tn("keeps the value in %(share)s of moves", "keeps the value in %(share)s of moves", l.kept, { share });
}

/**
 * "3. Casual — three plies, sometimes misjudged, keeps the value in 88% of moves (rated 1450 ±
 * 40)": a computer level as a selector lists it; the share of moves that keep the value where
 * it was measured against perfect play, the rating on people's scale once enough people have
 * played it.
 * @param {Level} l
 */
export function levelText(l) {
  let text = t("%(number)s. %(name)s — %(description)s", { number: l.number, name: l.name, description: l.description });
  const kept = keptText(l);
  if (kept) text = t("%(level)s, %(kept)s", { level: text, kept });
  if (l.rating === null) return text;
  return t("%(level)s (rated %(rating)s ± %(deviation)s)", { level: text, rating: l.rating, deviation: l.deviation });
}
