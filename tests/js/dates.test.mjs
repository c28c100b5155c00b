// Days and moments in the page's language (lib/dates.js): each language's own order, a
// calendar day the same day wherever the reader is.
import assert from "node:assert/strict";
import { test } from "node:test";

import { dayIn, momentIn } from "../../ludoteca/server/static/lib/dates.js";

test("a day is written in each language's order", () => {
  const day = "2026-12-06";
  assert.equal(dayIn("en", day), "Dec 6, 2026");
  assert.equal(dayIn("fr", day), "6 déc. 2026");
  assert.equal(dayIn("de", day), "06.12.2026");
  assert.equal(dayIn("es", day), "6 dic 2026");
  assert.match(dayIn("ar", day), /٢٠٢٦|2026/);
  assert.notEqual(dayIn("ar", day), dayIn("en", day));
});

test("a calendar day is that day in any time zone; a time is the reader's day", () => {
  const before = process.env.TZ;
  try {
    // (node reads TZ again when it changes)
    process.env.TZ = "America/Los_Angeles";
    assert.equal(dayIn("en", "2026-12-06"), "Dec 6, 2026");
    assert.equal(dayIn("en", "2026-12-06T03:00:00Z"), "Dec 5, 2026");
    assert.equal(dayIn("en", Date.UTC(2026, 11, 6, 12)), "Dec 6, 2026");
    assert.equal(dayIn("en", new Date(Date.UTC(2026, 11, 6, 12))), "Dec 6, 2026");
  } finally {
    if (before === undefined) delete process.env.TZ; else process.env.TZ = before;
  }
});

test("a moment has its day and its time to the minute", () => {
  const before = process.env.TZ;
  try {
    process.env.TZ = "UTC";
    const noon = Date.UTC(2026, 11, 6, 14, 30);
    assert.equal(momentIn("de", noon), "06.12.2026, 14:30");
    assert.match(momentIn("fr", noon), /^6 déc\. 2026.*14:30$/);
    assert.match(momentIn("en", noon), /^Dec 6, 2026.*2:30\sPM$/);
  } finally {
    if (before === undefined) delete process.env.TZ; else process.env.TZ = before;
  }
});
