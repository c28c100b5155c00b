// A move tree (tree.js) as text, as a record writes it: the main line, each variation in
// brackets after the move it replaces, every move a button (its number when a record would write
// one, its mark glued to it) followed by its comment; the comment before the first move first.
import { t } from "/static/lib/i18n.js";
import { numbered } from "/static/lib/moves.js";

// A comment's words, in a span of their own (never part of a move's button).
function commentOf(text) {
  const span = document.createElement("span");
  span.className = "comment";
  span.textContent = text;
  return span;
}

// Draw `tree` in `box`: `current` the node shown, `firstPly` the ply of the root position,
// `go(id)` called with the node clicked.
export function drawTree(box, tree, current, firstPly, go) {
  box.replaceChildren();
  const button = (id) => {
    const node = tree.node(id);
    const depth = tree.depth(id);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move link";
    const ply = firstPly + depth - 1;
    const sibling = tree.node(node.parent).children[0] !== id;
    b.textContent = (ply % 2 === 0 || sibling || tree.node(node.parent).parent === null
      ? numbered(firstPly, depth, node.move) : node.move) + (node.mark || "");
    b.dataset.node = id;
    if (node.shapes && node.shapes.length) b.title = t("with shapes drawn on the board");
    if (id === current) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
    b.onclick = () => go(id);
    return b;
  };
  const annotated = (id, parent) => {
    parent.append(button(id), " ");
    const { comment } = tree.node(id);
    if (comment) parent.append(commentOf(comment), " ");
  };
  // the line continuing from `id` (its first child on), with the variations of each step
  const line = (id, parent) => {
    let node = tree.node(id);
    while (node.children.length) {
      const [main, ...others] = node.children;
      annotated(main, parent);
      for (const other of others) {
        const span = document.createElement("span");
        span.className = "variation";
        span.append("(");
        const before = tree.node(other).before;
        if (before) span.append(commentOf(before), " ");
        annotated(other, span);
        line(other, span);
        span.append(") ");
        parent.append(span);
      }
      node = tree.node(main);
    }
  };
  if (tree.comment) box.append(commentOf(tree.comment), " ");
  line(tree.root, box);
}
