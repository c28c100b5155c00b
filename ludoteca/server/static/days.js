// Days per move in words: a correspondence time control ("3d") and the time left before a
// deadline ("2 days 3 hours left"), shared by the lobby, the your-turn list and the game page.
import { t, tn } from "/static/i18n.js";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

// Whether a time control is days per move ("3d"), not a live clock ("5+0").
export const isDays = (control) => /^\d+d$/.test(control || "");

// "3 days per move".
export function daysText(control) {
  return tn("%(num)s day per move", "%(num)s days per move", parseInt(control, 10));
}

// The time left before a deadline, to the hour (to the minute in its last hour).
export function leftText(ms) {
  if (ms <= 0) return t("time is up");
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.max(1, Math.floor(ms / 60000));
  if (days && hours) return tn("%(num)s day %(hours)s h left", "%(num)s days %(hours)s h left", days, { hours });
  if (days) return tn("%(num)s day left", "%(num)s days left", days);
  if (hours) return tn("%(num)s hour left", "%(num)s hours left", hours);
  return tn("%(num)s minute left", "%(num)s minutes left", minutes);
}
