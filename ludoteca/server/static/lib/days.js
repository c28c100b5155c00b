// Time controls in words: days per move ("3d") or a live clock ("3+2"), and the time left
// before a deadline ("2 days 3 hours left"), shared by the lobby, the challenges, the
// your-turn list and the game page.
import { t, tn } from "/static/lib/i18n.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// Whether a time control is days per move ("3d"), not a live clock ("5+0").
export const isDays = (/** @type {string | null | undefined} */ control) => /^\d+d$/.test(control || "");

// "3 days per move".
/** @param {string} control */
export function daysText(control) {
  return tn("%(num)s day per move", "%(num)s days per move", parseInt(control, 10));
}

// A time control in words: "3+2" is "3 min + 2 s", "3d" is "3 days per move".
/** @param {string} control */
export function controlText(control) {
  if (isDays(control)) return daysText(control);
  const [minutes, seconds] = control.split("+");
  return t("%(minutes)s min + %(seconds)s s", { minutes, seconds });
}

// The time left before a deadline (rounded to the minute), to the hour (to the minute in its
// last hour).
/** @param {number} ms */
export function leftText(ms) {
  if (ms <= 0) return t("time is up");
  const rounded = Math.round(ms / MINUTE) * MINUTE;
  const days = Math.floor(rounded / DAY);
  const hours = Math.floor((rounded % DAY) / HOUR);
  const minutes = Math.max(1, rounded / MINUTE);
  if (days && hours) return tn("%(num)s day %(hours)s h left", "%(num)s days %(hours)s h left", days, { hours });
  if (days) return tn("%(num)s day left", "%(num)s days left", days);
  if (hours) return tn("%(num)s hour left", "%(num)s hours left", hours);
  return tn("%(num)s minute left", "%(num)s minutes left", minutes);
}
