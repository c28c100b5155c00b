// The board with a move tree that the analysis board and the studies share: any position of any
// rule set, asked for over /ws/analysis (each arrives with its legal moves as gestures: the page
// knows no rules), moves made on the board, the tree drawn with its marks and comments, the
// shapes of each position drawn and drawn by hand (shapes.js), its marks and comment edited
// (annotate.js), and the buttons and keys that step through it.  What an edit does is the
// page's: `edits` keeps it in the tree (the analysis board, the default) or sends it elsewhere
// (a study sends it to its server, which tells every page, this one too).
import { Board } from "/static/lib/board.js";
import { AnnotationPanel } from "/static/lib/annotate.js";
import { $, notice } from "/static/lib/dom.js";
import { extend, instruction, underWay } from "/static/lib/gesture.js";
import { t } from "/static/lib/i18n.js";
import { stepKeys } from "/static/lib/move-keys.js";
import { afterMove, inHand } from "/static/lib/moves.js";
import { drawShapes, listenForShapes, toggled } from "/static/lib/shapes.js";
import { readLegal, socketAddress } from "/static/lib/socket.js";
import { Tree } from "/static/lib/tree.js";
import { drawTree } from "/static/lib/tree-view.js";

// The plain edits: kept in the board's own tree, shown at once.
export function localEdits(board) {
  const redraw = () => board.draw();
  return {
    move(parent, notation) { board.go(board.tree.add(parent, notation)); },
    promote(id) { board.tree.promote(id); redraw(); },
    remove(id) { board.go(board.tree.remove(id)); },
    comment(id, text) { board.tree.node(id).comment = text; redraw(); },
    mark(id, mark) { board.tree.node(id).mark = mark; redraw(); },
    shapes(id, shapes) { board.tree.node(id).shapes = shapes; redraw(); },
  };
}

export class TreeBoard {
  // hooks (all optional): analyse() whether the engine is asked too; shown(message) after a
  // position is drawn; lines(message) an engine's lines; title(message) the heading for a rule
  // set; touch(point) true when the page takes the touch (the editor); drawInstead() true when
  // the page draws the board itself (the editor); overlay() more arrows to draw (engine's);
  // touched(prefix) the points touched so far of a move under way;
  // editable() whether the tree may be changed (default yes); opened() the socket is open.
  constructor(hooks = {}) {
    this.hooks = hooks;
    this.socket = null;
    this.game = null;
    this.rules = null;
    this.start = null;   // the tree's root position (a code; null: the usual start)
    this.firstPly = 0;   // the ply of the root position
    this.tree = new Tree();
    this.current = this.tree.root;  // the node shown
    this.ask = 0;        // the id of the last position asked for
    this.view = null;    // the position shown, as the server sent it (legal moves read)
    this.board = null;
    this.boardView = null;  // the board description from the server
    this.texts = {};     // the rule set's words for making a move, from the server
    this.intros = new Map();  // each rule set's board, title and words, as the server sent them
    this.drawnSpec = null;    // the rule set whose board is drawn ("game/rules")
    this.prefix = [];    // the points touched of the move being made
    this.flipped = false;
    this.edits = localEdits(this);
    this.annotations = new AnnotationPanel(
      (mark) => this.edits.mark(this.current, mark),
      (text) => this.edits.comment(this.current, text),
    );
    listenForShapes($("board"), () => (this.editable() ? this.board : null), (shape) => {
      const node = this.tree.node(this.current);
      this.edits.shapes(this.current, toggled(node.shapes || [], shape));
    });
  }

  editable() { return !this.hooks.editable || this.hooks.editable(); }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    else notice(t("Not connected; reload the page."));
  }

  // Show node `id`: ask the server for its position (and its analysis); before the socket is
  // open, the page asks once it is (hooks.opened).
  go(id) {
    this.current = id;
    this.prefix = [];
    if (this.socket && this.socket.readyState === WebSocket.CONNECTING) return;
    this.ask += 1;
    this.send({ type: "show", id: this.ask, game: this.game, rules: this.rules, start: this.start,
                moves: this.tree.path(id), analyse: Boolean(this.hooks.analyse && this.hooks.analyse()) });
  }

  // Open a tree (or a main line, `moves`) from a position and show node `ply` of its main line
  // (its end when null).
  openLine(line, ply = null) {
    this.game = line.game;
    this.rules = line.rules;
    this.start = line.start;
    this.tree = line.tree || new Tree(line.moves || []);
    const main = this.tree.mainLine();
    const at = ply === null ? main.length : Math.max(0, Math.min(main.length, ply));
    this.go(at ? main[at - 1] : this.tree.root);
  }

  onPosition(message) {
    if (message.id !== this.ask) return;
    // the server sends a rule set's board once a connection: kept, to draw it again when the
    // page comes back to that rule set (a study's chapters, a record opened)
    const spec = `${message.game}/${message.rules}`;
    if (message.board) this.intros.set(spec, message);
    if (spec !== this.drawnSpec && this.intros.has(spec)) {
      const intro = this.intros.get(spec);
      this.drawnSpec = spec;
      $("board").replaceChildren();
      this.board = new Board($("board"), intro.board, (point) => this.touch(point));
      this.boardView = intro.board;
      this.texts = intro.texts || {};
      if (this.hooks.title) this.hooks.title(intro);
    }
    if (this.current === this.tree.root) this.firstPly = plyOf(message.code);
    notice("");
    this.view = readLegal(message);
    this.draw();
    if (this.hooks.shown) this.hooks.shown(message);
  }

  // A touch on the board: extend the move being made (the man drawn where it went, the status
  // saying what comes next); a complete move is an edit (a node added, or the one there shown).
  touch(point) {
    if (!this.view) return;
    if (this.hooks.touch && this.hooks.touch(point)) return;
    const { prefix, done } = extend(this.view.legal, this.prefix, point);
    this.prefix = prefix;
    if (done) { this.play(done.n); return; }
    this.draw();
    if (this.hooks.touched) this.hooks.touched(this.prefix);
  }

  // Play the legal move `notation` from the position shown: the node there shown, or a new
  // one added (an edit).
  play(notation) {
    const known = this.tree.node(this.current).children.find((c) => this.tree.node(c).move === notation);
    if (known !== undefined) this.go(known);
    else if (this.editable()) this.edits.move(this.current, notation);
    else { this.prefix = []; notice(t("Only the study's contributors add moves.")); }
  }

  draw() {
    const view = this.view;
    if (!view || !this.board) return;
    this.board.flipped = this.flipped;
    if (this.hooks.drawInstead && this.hooks.drawInstead()) return;
    const { pieces, marks } = underWay(view, this.boardView.styles, this.prefix, { last: view.last || [] });
    this.board.draw(pieces, marks);
    const node = this.tree.node(this.current);
    if (!this.prefix.length) {
      const more = this.hooks.overlay ? this.hooks.overlay() : [];
      if (more.length) this.board.arrows(more);
      drawShapes(this.board, node.shapes);
    }
    const depth = this.tree.depth(this.current);
    const where = afterMove(this.firstPly, depth, node.move);
    const hand = view.hand ? ` ${inHand(view.hand)}` : "";
    const next = this.prefix.length ? instruction(view.legal, this.prefix, this.texts) : "";
    const side = next ? (view.turn === "white" ? t("White to move: %(what)s.", { what: next })
      : t("Black to move: %(what)s.", { what: next }))
      : view.turn === "white" ? t("White to move.") : t("Black to move.");
    $("status").textContent = view.outcome ? t("%(where)s: %(what)s", { where, what: view.outcome })
      : t("%(where)s: %(what)s", { where, what: `${side}${hand}${view.notice ? ` ${view.notice}` : ""}` });
    this.showTree();
  }

  showTree() {
    drawTree($("tree"), this.tree, this.current, this.firstPly, (id) => this.go(id));
    this.annotations.show(this.tree.node(this.current), this.editable());
  }

  step(delta) {
    const node = this.tree.node(this.current);
    if (delta < 0 && node.parent !== null) this.go(node.parent);
    if (delta > 0 && node.children.length) this.go(node.children[0]);
  }

  first() { this.go(this.tree.root); }

  last() {
    const rest = this.tree.mainFrom(this.current);
    if (rest.length) this.go(rest.at(-1));
  }

  // The buttons and keys that step through the tree and flip the board (#first, #back, #next,
  // #last, #flip; #promote and #delete where the page has them).
  controls() {
    $("first").onclick = () => this.first();
    $("back").onclick = () => this.step(-1);
    $("next").onclick = () => this.step(1);
    $("last").onclick = () => this.last();
    $("flip").onclick = () => { this.flipped = !this.flipped; this.draw(); };
    if ($("promote")) $("promote").onclick = () => this.editable() && this.edits.promote(this.current);
    if ($("delete")) $("delete").onclick = () => this.editable() && this.edits.remove(this.current);
    stepKeys({ back: () => this.step(-1), on: () => this.step(1), first: () => this.first(), last: () => this.last() });
    // Escape drops the move under way (as on the game page)
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.prefix.length) { this.prefix = []; this.draw(); }
    });
  }

  // Open /ws/analysis; handlers: {line(message), lines(message)} for the page's own messages.
  connect(handlers = {}) {
    this.socket = new WebSocket(socketAddress("/ws/analysis"));
    this.socket.onopen = () => this.hooks.opened && this.hooks.opened();
    this.socket.onclose = () => { $("status").textContent = t("Connection lost; reload the page."); };
    this.socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "position") this.onPosition(message);
      else if (message.type === "lines" && handlers.lines) handlers.lines(message);
      else if (message.type === "line" && handlers.line) handlers.line(message);
      else if (message.type === "error") notice(message.message);
    };
  }
}

// The ply a position code ends with (every game's code ends with it).
function plyOf(code) {
  const last = Number(code.trim().split(/\s+/).pop());
  return Number.isInteger(last) ? last : 0;
}
