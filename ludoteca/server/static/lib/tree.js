// The move tree of the analysis board and the studies (no DOM, so it is tested on its own):
// nodes with children, the first child of each node being its main continuation and the others
// its variations.  A node is {id, move (notation; null at the root), parent (id or null),
// children (ids), mark ("", "!", "?"...), comment (after the move; the root's: before the first
// move), before (a variation's opening comment), shapes ([{brush, orig, dest?}]: drawn on the
// position after it)}.  A study's changes (apply()) name nodes by their path: the moves from
// the root.

export class Tree {
  // moves: the main line to start with (notations from the root position).
  constructor(moves = []) {
    this.nodes = new Map();
    this.nextId = 0;
    this.root = this._make(null, null).id;
    let at = this.root;
    for (const move of moves) at = this.add(at, move);
  }

  // The comment before the first move (the root's).
  get comment() { return this.node(this.root).comment; }
  set comment(text) { this.node(this.root).comment = text; }

  _make(parent, move) {
    const node = { id: this.nextId++, move, parent, children: [], mark: "", comment: "", before: "", shapes: [] };
    this.nodes.set(node.id, node);
    return node;
  }

  // The node the moves `path` lead to from the root, or undefined.
  idOf(path) {
    let at = this.root;
    for (const move of path) {
      at = this.node(at).children.find((c) => this.node(c).move === move);
      if (at === undefined) return undefined;
    }
    return at;
  }

  // Apply a study's change ({op, path, ...}, as the server stored it); the node it leaves the
  // reader at (a new move's, a deleted move's parent), or undefined when its path is not in
  // this tree (the tree is behind: read it again).
  apply(change) {
    const id = this.idOf(change.path);
    if (id === undefined) return undefined;
    const node = this.node(id);
    switch (change.op) {
      case "move": return this.add(id, change.move);
      case "delete": return this.remove(id);
      case "promote": this.promote(id); return id;
      case "comment": node.comment = change.comment; return id;
      case "mark": node.mark = change.mark; return id;
      case "shapes": node.shapes = change.shapes.map((s) => ({ ...s })); return id;
      default: return undefined;
    }
  }

  node(id) { return this.nodes.get(id); }

  // The child of `parentId` made by `move`: the existing one, else a new one (the main
  // continuation when it is the first, else a variation).
  add(parentId, move) {
    const parent = this.node(parentId);
    const known = parent.children.find((c) => this.node(c).move === move);
    if (known !== undefined) return known;
    const child = this._make(parentId, move);
    parent.children.push(child.id);
    return child.id;
  }

  // The nodes from the root (excluded) to `id` (included).
  line(id) {
    const out = [];
    for (let n = this.node(id); n.parent !== null; n = this.node(n.parent)) out.unshift(n.id);
    return out;
  }

  // The moves from the root position to node `id`.
  path(id) { return this.line(id).map((n) => this.node(n).move); }

  // How many moves node `id` follows.
  depth(id) { return this.line(id).length; }

  // The main line from node `id` on: its first child, that one's first child, and so on.
  mainFrom(id) {
    const out = [];
    for (let n = this.node(id); n.children.length; n = this.node(n.children[0])) out.push(n.children[0]);
    return out;
  }

  // The main line of the whole tree.
  mainLine() { return this.mainFrom(this.root); }

  // Whether node `id` is on the main line.
  onMainLine(id) { return this.line(id).every((n) => this.node(this.node(n).parent).children[0] === n); }

  // Make the line to node `id` the main line: at each of its nodes that is a variation, it
  // becomes its parent's first child (the former main continuation becomes a variation).
  promote(id) {
    for (let n = this.node(id); n.parent !== null; n = this.node(n.parent)) {
      const siblings = this.node(n.parent).children;
      siblings.splice(siblings.indexOf(n.id), 1);
      siblings.unshift(n.id);
    }
  }

  // Delete node `id` and everything after it; returns its parent's id (the root cannot be
  // deleted: returns it unchanged).
  remove(id) {
    const node = this.node(id);
    if (node.parent === null) return id;
    const siblings = this.node(node.parent).children;
    siblings.splice(siblings.indexOf(id), 1);
    const drop = [id];
    while (drop.length) {
      const n = this.nodes.get(drop.pop());
      drop.push(...n.children);
      this.nodes.delete(n.id);
    }
    return node.parent;
  }
}
