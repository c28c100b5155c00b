// The record of shown puzzles (lib/seen-puzzles.js) against bytes worked out by hand: the
// server reads the same record (tests/server/test_server_puzzles.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { marked, marks } from "../../ludoteca/server/static/lib/seen-puzzles.js";

test("numbers 0, 7 and 8 are the bytes 0x81 0x01, gQE in base64url", () => {
  let record = marked(null, "e1", 0);
  assert.deepEqual(record, { edition: "e1", bits: "AQ" });  // 0x01
  record = marked(record, "e1", 7);
  assert.equal(record.bits, "gQ");  // 0x81
  record = marked(record, "e1", 8);
  assert.equal(record.bits, "gQE");
  assert.deepEqual([0, 1, 7, 8, 9, 4000].map((n) => marks(record, "e1", n)), [true, false, true, true, false, false]);
});

test("a high number is marked far out, the bytes before it kept; the URL alphabet is used", () => {
  let record = marked(null, "e1", 2779);  // byte 347, bit 3
  record = marked(record, "e1", 6);       // byte 0: 0x40
  assert.equal(record.bits.length, Math.ceil((348 * 4) / 3));
  assert.ok(marks(record, "e1", 2779) && marks(record, "e1", 6) && !marks(record, "e1", 2778));
  // 0xfb 0xff: "+/" in plain base64, "-_" in base64url
  let bits = null;
  for (const n of [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]) bits = marked(bits, "e1", n);
  assert.equal(bits.bits, "-_8");
});

test("another edition is a record started afresh", () => {
  const old = marked(marked(null, "e1", 3), "e1", 5);
  assert.equal(marks(old, "e2", 3), false);
  assert.deepEqual(marked(old, "e2", 1), { edition: "e2", bits: "Ag" });
});
