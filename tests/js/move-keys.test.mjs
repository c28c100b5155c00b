// The keys that step through the moves (lib/move-keys.js): the arrows follow the page's
// direction, Home and End do not.
import assert from "node:assert/strict";
import { test } from "node:test";

import { stepOf } from "../../ludoteca/server/static/lib/move-keys.js";

test("left to right, the Left arrow goes back and the Right arrow on", () => {
  assert.equal(stepOf("ArrowLeft", "ltr"), "back");
  assert.equal(stepOf("ArrowRight", "ltr"), "on");
});

test("right to left, the Right arrow goes back (toward the start) and the Left arrow on", () => {
  assert.equal(stepOf("ArrowRight", "rtl"), "back");
  assert.equal(stepOf("ArrowLeft", "rtl"), "on");
});

test("Home and End go to the start and the end either way; other keys do nothing", () => {
  for (const direction of ["ltr", "rtl"]) {
    assert.equal(stepOf("Home", direction), "first");
    assert.equal(stepOf("End", direction), "last");
    for (const key of ["ArrowUp", "ArrowDown", "Enter", " ", "a"]) assert.equal(stepOf(key, direction), null);
  }
});
