// Days and moments as a language writes them ("6 déc. 2026", "06.12.2026, 14:30"), never the
// browser's own order in another language's page.  No DOM and no catalogue: the language is
// given (i18n.js's day() and moment() give the page's), so this is tested on its own.

// A calendar day alone, as a date input's value and the address hold it ("2026-12-06").
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `value` (a Date, a time as the server writes it, epoch milliseconds, or a calendar day
 * "2026-12-06") as `locale` writes a day.  A calendar day is that day wherever the reader is
 * (`new Date("2026-12-06")` is its midnight in UTC, the 5th west of Greenwich).
 * @param {string} locale  @param {Date | string | number} value
 */
export function dayIn(locale, value) {
  if (typeof value === "string" && CALENDAR_DAY.test(value)) {
    return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(value));
  }
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date(value));
}

/**
 * A moment (a Date, a time as the server writes it, or epoch milliseconds), its day and its
 * time to the minute, as `locale` writes them, in the reader's time zone.
 * @param {string} locale  @param {Date | string | number} value
 */
export function momentIn(locale, value) {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
}
