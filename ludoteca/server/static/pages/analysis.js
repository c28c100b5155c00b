// The analysis board: any position of any rule set, a move tree with variations (tree.js), and
// the engine's best lines streamed by the server over /ws/analysis while the position is on
// screen.  The page knows no rules: each position arrives with its legal moves as gestures.
import { Board } from "/static/lib/board.js";
import { RecordPanel } from "/static/lib/board-record.js";
import { $, notice } from "/static/lib/dom.js";
import { Editor, showCode } from "/static/lib/editor.js";
import { Explorer } from "/static/lib/explorer.js";
import { extend, instruction, underWay } from "/static/lib/gesture.js";
import { ready } from "/static/lib/header.js";
import { t } from "/static/lib/i18n.js";
import { stepKeys } from "/static/lib/move-keys.js";
import { MovesPanel } from "/static/lib/move-values.js";
import { afterMove, inHand, numbered } from "/static/lib/moves.js";
import { makePuzzle } from "/static/lib/own-puzzle.js";
import { PracticePanel } from "/static/lib/practice.js";
import { readLegal, socketAddress } from "/static/lib/socket.js";
import { Tree } from "/static/lib/tree.js";

const params = new URLSearchParams(location.search);
const RECORD_KEY = "ludoteca:analysis-record";  // the review page leaves its record here

const page = {
  socket: null,
  game: null, rules: null, start: null,  // the tree's root position
  firstPly: 0,     // the ply of the root position
  tree: new Tree(),
  current: 0,      // the node shown
  ask: 0,          // the id of the last position asked for
  view: null,      // the position shown, as the server sent it (legal moves read)
  board: null,
  prefix: [],      // the points touched of the move being made
  lines: null,     // the engine's last lines for the position shown
  engine: true,
  flipped: false,
  editor: null,    // the position editor (editor.js)
  boardView: null, // the board description from the server
  texts: {},       // the rule set's words for making a move (place, take...), from the server
  explorer: null,  // the opening explorer's panel (explorer.js)
  moves: null,     // every move's value (move-values.js)
  practice: null,  // practice against perfect play (practice.js): no engine help meanwhile
};

function sendMessage(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(message));
  else notice(t("Not connected; reload the page."));
}

// Show node `id`: ask the server for its position (and its analysis).
function go(id) {
  page.current = id;
  page.prefix = [];
  page.ask += 1;
  sendMessage({ type: "show", id: page.ask, game: page.game, rules: page.rules, start: page.start,
                moves: page.tree.path(id), analyse: page.engine && !page.practice.active });
}

// Open a main line (from the server, the address or the editor) and show node `ply` of it.
function openLine(line, ply = null) {
  page.game = line.game;
  page.rules = line.rules;
  page.start = line.start;
  page.tree = line.tree || new Tree(line.moves || []);
  const main = page.tree.mainLine();
  const at = ply === null ? main.length : Math.max(0, Math.min(main.length, ply));
  go(at ? main[at - 1] : page.tree.root);
}

function onPosition(message) {
  if (message.id !== page.ask) return;
  if (message.board) {
    $("board").replaceChildren();
    page.board = new Board($("board"), message.board, touch);
    page.boardView = message.board;
    page.texts = message.texts || {};
    $("title").textContent = t("Analysis board · %(title)s", { title: message.title });
    document.title = `Ludoteca — ${t("analysis board")} · ${message.title}`;
  }
  if (page.current === page.tree.root) page.firstPly = plyOf(message.code);
  notice("");
  page.view = readLegal(message);
  page.lines = null;
  showLines();
  draw();
  showCode(message.code);
  if (page.practice.active) {
    page.practice.shown({ game: page.game, rules: page.rules, code: message.code, turn: message.turn,
                          path: page.tree.path(page.current), over: Boolean(message.outcome) });
    return;
  }
  page.explorer.show(message.game, message.rules, message.code);
  page.moves.show(message.game, message.rules, message.code);
}

// The ply a position code ends with (every game's code ends with it).
function plyOf(code) {
  const last = Number(code.trim().split(/\s+/).pop());
  return Number.isInteger(last) ? last : 0;
}

// A touch on the board: extend the move being made (as the game page does: the man drawn where
// it went, the status saying what comes next, a removal or the next leap); a complete move adds
// a node (or goes to the existing one) and shows it.
function touch(point) {
  if (!page.view) return;
  if (page.editor.editing) { page.editor.touch(point); return; }
  if (!page.practice.mayMove(page.view.turn)) return;
  const { prefix, done } = extend(page.view.legal, page.prefix, point);
  page.prefix = prefix;
  if (done) { go(page.tree.add(page.current, done.n)); return; }
  draw();
}

function draw() {
  const view = page.view;
  if (!view || !page.board) return;
  page.board.flipped = page.flipped;
  if (page.editor.editing) {
    page.board.draw(page.editor.pieces);
    $("status").textContent = t("Editing: choose a piece (or empty) and click the points.");
    return;
  }
  const { pieces, marks } = underWay(view, page.boardView.styles, page.prefix, { last: view.last || [] });
  page.board.draw(pieces, marks);
  const best = page.lines && page.lines.lines[0];
  if (best && !page.prefix.length) page.board.arrows(arrowsOf(best.gesture));
  const depth = page.tree.depth(page.current);
  const move = page.tree.node(page.current).move;
  const where = afterMove(page.firstPly, depth, move);
  const hand = view.hand ? ` ${inHand(view.hand)}` : "";
  const next = page.prefix.length ? instruction(view.legal, page.prefix, page.texts) : "";
  const side = next ? (view.turn === "white" ? t("White to move: %(what)s.", { what: next })
    : t("Black to move: %(what)s.", { what: next }))
    : view.turn === "white" ? t("White to move.") : t("Black to move.");
  $("status").textContent = view.outcome ? t("%(where)s: %(what)s", { where, what: view.outcome })
    : t("%(where)s: %(what)s", { where, what: `${side}${hand}${view.notice ? ` ${view.notice}` : ""}` });
  showTree();
}

// The arrows of a gesture: from each touch to the next ("from" → "to" → "take"); a placement
// alone rings its point.
function arrowsOf(gesture) {
  if (gesture.length === 1) return [[gesture[0][1], gesture[0][1]]];
  return gesture.slice(1).map((t, i) => [gesture[i][1], t[1]]);
}

function onLines(message) {
  if (message.id !== page.ask) return;
  page.lines = message;
  showLines();
  draw();
  ready();  // (the tests' ready marker)
}

function showLines() {
  const list = $("lines");
  list.replaceChildren();
  const lines = page.lines;
  $("depth").textContent = !lines ? "" : lines.exact ? t("(exact, from the solved table)")
    : lines.book ? t("(opening book, depth %(depth)s)", { depth: lines.depth })
      : t("(depth %(depth)s)", { depth: lines.depth });
  if (!lines || !lines.lines.length) {
    $("eval-number").textContent = page.view && page.view.outcome ? page.view.outcome : page.engine ? "…" : t("off");  // TRANSLATORS: the evaluation shown while the engine is off
    $("eval-white").style.width = "50%";
    return;
  }
  const best = lines.lines[0];
  $("eval-number").textContent = best.bar;
  $("eval-white").style.width = `${Math.round(best.white_share * 100)}%`;
  const depth = page.tree.depth(page.current);
  for (const line of lines.lines) {
    const item = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = line.bar;
    item.title = line.text;
    item.dataset.move = line.pv[0];
    // a move (with its number) never broken across two lines
    const moves = line.pv.flatMap((m, i) => {
      const ply = page.firstPly + depth + i;
      const move = document.createElement("span");
      move.className = "move";
      move.textContent = ply % 2 === 0 || i === 0 ? numbered(page.firstPly, depth + i + 1, m) : m;
      return [" ", move];
    });
    item.append(score, ...moves);
    list.appendChild(item);
  }
}

// The tree as text: the main line, each variation in brackets after the move it replaces.
function showTree() {
  const box = $("tree");
  box.replaceChildren();
  const tree = page.tree;
  const button = (id) => {
    const node = tree.node(id);
    const depth = tree.depth(id);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move link";
    const ply = page.firstPly + depth - 1;
    const sibling = tree.node(node.parent).children[0] !== id;
    b.textContent = ply % 2 === 0 || sibling || tree.node(node.parent).parent === null
      ? numbered(page.firstPly, depth, node.move) : node.move;
    b.dataset.node = id;
    if (id === page.current) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
    b.onclick = () => go(id);
    return b;
  };
  // the line continuing from `id` (its first child on), with the variations of each step
  const line = (id, parent) => {
    let node = tree.node(id);
    while (node.children.length) {
      const [main, ...others] = node.children;
      parent.append(button(main), " ");
      for (const other of others) {
        const span = document.createElement("span");
        span.className = "variation";
        span.append("(", button(other), " ");
        line(other, span);
        span.append(") ");
        parent.append(span);
      }
      node = tree.node(main);
    }
  };
  line(tree.root, box);
}

function step(delta) {
  const tree = page.tree;
  const node = tree.node(page.current);
  if (delta < 0 && node.parent !== null) go(node.parent);
  if (delta > 0 && node.children.length) go(node.children[0]);
}

function controls() {
  const first = () => go(page.tree.root);
  const last = () => { const rest = page.tree.mainFrom(page.current); if (rest.length) go(rest.at(-1)); };
  $("first").onclick = first;
  $("back").onclick = () => step(-1);
  $("next").onclick = () => step(1);
  $("last").onclick = last;
  $("flip").onclick = () => { page.flipped = !page.flipped; draw(); };
  $("promote").onclick = () => { page.tree.promote(page.current); showTree(); };
  $("delete").onclick = () => go(page.tree.remove(page.current));
  $("make-puzzle").onclick = () => page.view && makePuzzle(page.game, page.rules, page.view.code);
  $("engine").onclick = () => {
    page.engine = !page.engine;
    $("engine").setAttribute("aria-pressed", String(page.engine));
    $("engine").textContent = page.engine ? t("Engine on") : t("Engine off");
    if (!page.engine) sendMessage({ type: "stop" });
    go(page.current);
  };
  stepKeys({ back: () => step(-1), on: () => step(1), first, last });
  // Escape drops the move under way (as on the game page)
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && page.prefix.length) { page.prefix = []; draw(); }
  });
  page.explorer = new Explorer((move) => go(page.tree.add(page.current, move)));
  page.moves = new MovesPanel((move) => go(page.tree.add(page.current, move)));
  page.practice = new PracticePanel(
    () => page.view && { game: page.game, rules: page.rules, code: page.view.code, turn: page.view.turn,
                         path: page.tree.path(page.current), over: Boolean(page.view.outcome) },
    (move) => go(page.tree.add(page.current, move)),
    () => go(page.current),  // the engine's lines and the panels off while practising, back after
  );
  new RecordPanel(() => ({ game: page.game, rules: page.rules, start: page.start, tree: page.tree }), openLine);
  page.editor = new Editor(
    () => ({ game: page.game, rules: page.rules, view: page.view, board: page.boardView }),
    (position) => openLine({ ...position, start: position.code, moves: [] }),
    draw,
  );
}

// What the address asks for: a game of the server, the record the review page left, or a rule
// set with a position code and moves.
function opened() {
  const ply = params.has("ply") ? Number(params.get("ply")) : null;
  if (params.get("game_id")) {
    page.pendingPly = ply;
    sendMessage({ type: "open", game_id: params.get("game_id") });
  } else if (params.has("record")) {
    page.pendingPly = ply;
    sendMessage({ type: "open", record: sessionStorage.getItem(RECORD_KEY) || "" });
  } else {
    const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
    openLine({ game: params.get("game") || $("board-area").dataset.defaultGame, rules: params.get("rules"),
               start: params.get("position"), moves }, ply);
  }
}

function connect() {
  page.socket = new WebSocket(socketAddress("/ws/analysis"));
  page.socket.onopen = opened;
  page.socket.onclose = () => { $("status").textContent = t("Connection lost; reload the page."); };
  page.socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "position") onPosition(message);
    else if (message.type === "lines") onLines(message);
    else if (message.type === "line") openLine(message, page.pendingPly ?? null);
    else if (message.type === "error") notice(message.message);
  };
}

controls();
connect();
