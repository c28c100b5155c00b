// The analysis board's move tree as a game record and back (docs/formats.md): "Write the record"
// sends the tree, variations included, to /api/analysis/record and shows the text; "Open this
// record" reads a pasted one through /api/analysis/tree into a new tree.  The marks, comments and
// shapes of an opened record stay on its nodes and are written back; lineOf() and treeOf() also
// turn a study chapter's tree (the same JSON form) into a Tree and back.
import { $ } from "/static/lib/dom.js";
import { postJSON } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";
import { Tree } from "/static/lib/tree.js";

// The JSON line (ludoteca.gametree's form) that starts with the node ids `ids` of `tree`: the
// first one and its main continuation, each move with the others in its place as variations.
export function lineOf(tree, ids, comment = "") {
  const moves = [];
  while (ids.length) {
    const [main, ...others] = ids;
    const node = tree.node(main);
    moves.push({ move: node.move, mark: node.mark || "", comment: node.comment || "",
                 shapes: node.shapes || [],
                 variations: others.map((id) => lineOf(tree, [id], tree.node(id).before || "")) });
    ids = node.children;
  }
  return { comment, moves };
}

// The JSON of a whole tree: its main line from the start, the comment before the first move and
// the shapes drawn on the start.
export function treeLine(tree) {
  const root = tree.node(tree.root);
  return { ...lineOf(tree, root.children, root.comment || ""), shapes: root.shapes || [] };
}

// A Tree of a JSON line from the start position (its comment and shapes kept on the root).
export function treeOf(line) {
  const tree = new Tree();
  Object.assign(tree.node(tree.root), { comment: line.comment || "", shapes: line.shapes || [] });
  const pending = [[tree.root, line, false]];  // first in, first out: variations keep their order
  while (pending.length) {
    const [from, { comment = "", moves }, variation] = pending.shift();
    let at = from;
    for (const entry of moves) {
      const id = tree.add(at, entry.move);
      Object.assign(tree.node(id), { mark: entry.mark || "", comment: entry.comment || "",
                                     shapes: entry.shapes || [] });
      if (variation && at === from) tree.node(id).before = comment;
      for (const other of entry.variations || []) pending.push([at, other, true]);
      at = id;
    }
  }
  return tree;
}

// The record panel, put after the board's move list.  board(): {game, rules, start, tree} shown;
// open(line): opens {game, rules, start, tree} on the board.
export class RecordPanel {
  constructor(board, open) {
    const section = document.createElement("section");
    section.className = "panel";
    section.setAttribute("aria-labelledby", "record-title");
    const title = document.createElement("h2");
    title.id = "record-title";
    title.textContent = t("Game record");
    const text = document.createElement("textarea");
    text.id = "record-text";
    text.rows = 6;
    text.spellcheck = false;
    text.setAttribute("aria-label", t("Game record, with its variations"));
    const write = this.button("record-write", t("Write the record"));
    const read = this.button("record-open", t("Open this record"));
    this.error = document.createElement("p");
    this.error.className = "notice";
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    section.append(title, write, " ", read, text, this.error);
    $("tree").closest("section").after(section);
    write.onclick = () => this.run(async () => {
      const { game, rules, start, tree } = board();
      text.value = (await postJSON("/api/analysis/record", { game, rules, start, tree: treeLine(tree) })).record;
    });
    read.onclick = () => this.run(async () => {
      const answer = await postJSON("/api/analysis/tree", { record: text.value });
      open({ ...answer, tree: treeOf(answer.tree) });
    });
  }

  button(id, label) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = id;
    button.textContent = label;
    return button;
  }

  async run(act) {
    this.error.hidden = true;
    try {
      await act();
    } catch (error) {  // (an HttpError: the server's sentence)
      this.error.textContent = /** @type {Error} */ (error).message;
      this.error.hidden = false;
    }
  }
}
