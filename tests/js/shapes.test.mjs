// Shapes drawn by hand: the brush the modifier keys choose, and drawing a shape again.
import assert from "node:assert/strict";
import { test } from "node:test";

import { brushOf, toggled } from "../../ludoteca/server/static/lib/shapes.js";

const keys = (shiftKey, altKey) => ({ shiftKey, altKey, ctrlKey: false, metaKey: false });

test("the modifier keys choose the brush, as lichess's do", () => {
  assert.equal(brushOf(keys(false, false)), "green");
  assert.equal(brushOf(keys(true, false)), "red");
  assert.equal(brushOf(keys(false, true)), "blue");
  assert.equal(brushOf(keys(true, true)), "yellow");
});

test("a shape drawn again is removed; in another brush, recoloured", () => {
  const arrow = { brush: "green", orig: "a1", dest: "d1" };
  const circle = { brush: "red", orig: "d2" };
  let shapes = toggled(toggled([], arrow), circle);
  assert.deepEqual(shapes, [arrow, circle]);
  shapes = toggled(shapes, { brush: "blue", orig: "a1", dest: "d1" });
  assert.deepEqual(shapes, [circle, { brush: "blue", orig: "a1", dest: "d1" }]);
  assert.deepEqual(toggled(shapes, { brush: "red", orig: "d2" }), [{ brush: "blue", orig: "a1", dest: "d1" }]);
  assert.deepEqual(toggled([], { brush: "green", orig: "a1", dest: undefined }), [{ brush: "green", orig: "a1" }]);
});
