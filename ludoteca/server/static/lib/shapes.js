// Shapes drawn on a board by hand, as lichess draws them: a right-button drag from one point to
// another draws an arrow, a right click on a point circles it, in the brush the modifier keys
// choose (none: green, Shift: red, Alt: blue, Shift and Alt: yellow); drawing the same shape
// again removes it.  A shape names its points ({brush, orig, dest?}: the records' and the
// server's form), the board numbers them.  toggled() and brushOf() need no DOM (tested alone).

export const BRUSHES = ["green", "red", "blue", "yellow"];

// The brush the modifier keys of a pointer event choose.
/** @param {{shiftKey: boolean, altKey: boolean, ctrlKey?: boolean, metaKey?: boolean}} event */
export function brushOf(event) {
  const other = event.altKey || event.ctrlKey || event.metaKey;
  if (event.shiftKey && other) return "yellow";
  if (event.shiftKey) return "red";
  if (other) return "blue";
  return "green";
}

// `shapes` with `shape` drawn: the same shape (same points) in the same brush is removed; in
// another brush it is recoloured; else it is added.
export function toggled(shapes, shape) {
  const same = (s) => s.orig === shape.orig && (s.dest || "") === (shape.dest || "");
  const found = shapes.find(same);
  const others = shapes.filter((s) => !same(s));
  if (found && found.brush === shape.brush) return others;
  return [...others, shape.dest ? shape : { brush: shape.brush, orig: shape.orig }];
}

// Draw `shapes` on `board` (a Board as last drawn), skipping any point it does not have.
export function drawShapes(board, shapes) {
  const index = new Map(board.board.points.map((name, i) => [name, i]));
  const arrows = [];
  for (const shape of shapes || []) {
    const from = index.get(shape.orig);
    const to = shape.dest ? index.get(shape.dest) : from;
    if (from !== undefined && to !== undefined) arrows.push([from, to, `shape ${shape.brush}`]);
  }
  if (arrows.length) board.arrows(arrows);
}

// Listen for shapes drawn on the board `svg` (kept across the boards drawn in it): board() is
// the Board drawn now (or null), onShape(shape) is told of each shape drawn.
export function listenForShapes(svg, board, onShape) {
  let from = null;
  const pointAt = (x, y) => {
    const g = document.elementFromPoint(x, y);
    const pt = g && g.closest ? g.closest(".pt") : null;
    return pt && svg.contains(pt) ? Number(pt.getAttribute("data-point")) : null;
  };
  svg.addEventListener("contextmenu", (event) => event.preventDefault());
  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 2 || !board()) return;
    event.preventDefault();
    from = pointAt(event.clientX, event.clientY);
  });
  window.addEventListener("pointerup", (event) => {
    if (event.button !== 2 || from === null) return;
    const start = from;
    from = null;
    const end = pointAt(event.clientX, event.clientY);
    const points = board() && board().board.points;
    if (end === null || !points) return;
    const shape = { brush: brushOf(event), orig: points[start] };
    if (end !== start) shape.dest = points[end];
    onShape(shape);
  });
}
