// The analysis board's move tree: variations, jumps, promotion and deletion.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Tree } from "../../ludoteca/server/static/lib/tree.js";

test("a main line and a variation, each followed by its path", () => {
  const tree = new Tree(["d2", "d6", "f4"]);
  const [d2, d6, f4] = tree.mainLine();
  assert.deepEqual(tree.path(f4), ["d2", "d6", "f4"]);
  const b4 = tree.add(d6, "b4");
  assert.notEqual(b4, f4);
  assert.deepEqual(tree.node(d6).children, [f4, b4]);
  assert.deepEqual(tree.path(b4), ["d2", "d6", "b4"]);
  assert.equal(tree.depth(b4), 3);
  assert.equal(tree.onMainLine(b4), false);
  assert.equal(tree.onMainLine(f4), true);
  assert.equal(tree.add(d6, "b4"), b4, "the same move from the same node is the same node");
  assert.equal(tree.add(d2, "d6"), d6);
  assert.deepEqual(tree.mainFrom(d2), [d6, f4]);
});

test("promoting a variation makes its whole line the main line", () => {
  const tree = new Tree(["a1", "a4", "a7"]);
  const [a1, a4, a7] = tree.mainLine();
  const g1 = tree.add(a1, "g1");
  const g7 = tree.add(g1, "g7");
  tree.promote(g7);
  assert.deepEqual(tree.mainLine(), [a1, g1, g7]);
  assert.deepEqual(tree.node(a1).children, [g1, a4]);
  assert.equal(tree.onMainLine(a7), false);
  assert.deepEqual(tree.path(a7), ["a1", "a4", "a7"]);
});

test("deleting a variation removes it and what follows, and returns where it hung", () => {
  const tree = new Tree(["a1", "a4"]);
  const [a1, a4] = tree.mainLine();
  const g1 = tree.add(a1, "g1");
  const g7 = tree.add(g1, "g7");
  assert.equal(tree.remove(g1), a1);
  assert.deepEqual(tree.node(a1).children, [a4]);
  assert.equal(tree.node(g7), undefined);
  assert.equal(tree.node(g1), undefined);
  assert.equal(tree.remove(tree.root), tree.root);
  assert.deepEqual(tree.mainLine(), [a1, a4]);
});

test("a study's changes, by path, applied to a tree", () => {
  const tree = new Tree(["d2", "d6"]);
  const [d2, d6] = tree.mainLine();
  assert.equal(tree.idOf(["d2", "d6"]), d6);
  assert.equal(tree.idOf([]), tree.root);
  assert.equal(tree.idOf(["d2", "a1"]), undefined);
  const b4 = tree.apply({ op: "move", path: ["d2"], move: "b4" });
  assert.deepEqual(tree.node(d2).children, [d6, b4]);
  assert.equal(tree.apply({ op: "comment", path: [], comment: "start" }), tree.root);
  assert.equal(tree.comment, "start");
  tree.apply({ op: "mark", path: ["d2"], mark: "!?" });
  tree.apply({ op: "shapes", path: ["d2", "b4"], shapes: [{ brush: "red", orig: "b4" }] });
  assert.equal(tree.node(d2).mark, "!?");
  assert.deepEqual(tree.node(b4).shapes, [{ brush: "red", orig: "b4" }]);
  tree.apply({ op: "promote", path: ["d2", "b4"] });
  assert.deepEqual(tree.mainLine(), [d2, b4]);
  assert.equal(tree.apply({ op: "delete", path: ["d2", "d6"] }), d2);
  assert.deepEqual(tree.node(d2).children, [b4]);
  assert.equal(tree.apply({ op: "mark", path: ["d2", "d6"], mark: "!" }), undefined, "behind: read again");
});
