// The computer's levels as the selectors list them (the lobby's, a tournament page's).
import { t } from "/static/lib/i18n.js";

/** @typedef {import("/static/lib/types.js").Level} Level */

/**
 * "3. Casual — three plies, sometimes misjudged (rated 1450 ± 40)": a computer level as a
 * selector lists it; the rating is on people's scale, given once enough people have played it.
 * @param {Level} l
 */
export function levelText(l) {
  const text = t("%(number)s. %(name)s — %(description)s", { number: l.number, name: l.name, description: l.description });
  if (l.rating === null) return text;
  return t("%(level)s (rated %(rating)s ± %(deviation)s)", { level: text, rating: l.rating, deviation: l.deviation });
}
