// The analysis board's move tree (no DOM, so it is tested on its own): nodes with children, the
// first child of each node being its main continuation and the others its variations.  A node
// is {id, move (notation; null at the root), parent (id or null), children (ids)}.

export class Tree {
  // moves: the main line to start with (notations from the root position).
  constructor(moves = []) {
    this.nodes = new Map();
    this.nextId = 0;
    this.comment = "";  // a record's comment before its first move (board-record.js)
    this.root = this._make(null, null).id;
    let at = this.root;
    for (const move of moves) at = this.add(at, move);
  }

  _make(parent, move) {
    const node = { id: this.nextId++, move, parent, children: [] };
    this.nodes.set(node.id, node);
    return node;
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
