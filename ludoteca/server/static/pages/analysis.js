// The analysis board: any position of any rule set, a move tree with variations, marks,
// comments and shapes (analysis-board.js, kept in this page), and the engine's best lines
// streamed by the server over /ws/analysis while the position is on screen; the opening
// explorer, every move's value, practice against perfect play, the position editor and the
// record panel beside it.
import { TreeBoard } from "/static/lib/analysis-board.js";
import { BlindMode } from "/static/lib/blind.js";
import { RecordPanel } from "/static/lib/board-record.js";
import { $ } from "/static/lib/dom.js";
import { Editor, showCode } from "/static/lib/editor.js";
import { Explorer } from "/static/lib/explorer.js";
import { ready } from "/static/lib/header.js";
import { t } from "/static/lib/i18n.js";
import { MovesPanel } from "/static/lib/move-values.js";
import { numbered } from "/static/lib/moves.js";
import { makePuzzle } from "/static/lib/own-puzzle.js";
import { PracticePanel } from "/static/lib/practice.js";

const params = new URLSearchParams(location.search);
const RECORD_KEY = "ludoteca:analysis-record";  // the review page leaves its record here

const page = {
  lines: null,     // the engine's last lines for the position shown
  engine: true,
  editor: null,    // the position editor (editor.js)
  explorer: null,  // the opening explorer's panel (explorer.js)
  moves: null,     // every move's value (move-values.js)
  practice: null,  // practice against perfect play (practice.js): no engine help meanwhile
  pendingPly: null,
};

const board = new TreeBoard({
  analyse: () => page.engine && !page.practice.active,
  title: (message) => {
    $("title").textContent = t("Analysis board · %(title)s", { title: message.title });
    document.title = `Ludoteca — ${t("analysis board")} · ${message.title}`;
  },
  shown: (message) => {
    blind.update();
    blind.say(message.said || message.description);
    page.lines = null;
    showLines();
    showCode(message.code);
    if (page.practice.active) {
      page.practice.shown(here());
      return;
    }
    page.explorer.show(message.game, message.rules, message.code);
    page.moves.show(message.game, message.rules, message.code);
  },
  touch: (point) => {
    if (page.editor.editing) page.editor.touch(point);
    // (while practising, the perfect player's side is not the person's to move)
    return page.editor.editing || !page.practice.mayMove(board.view.turn);
  },
  drawInstead: () => {
    if (!page.editor.editing) return false;
    board.board.draw(page.editor.pieces);
    $("status").textContent = t("Editing: choose a piece (or empty) and click the points.");
    return true;
  },
  overlay: () => {
    const best = page.lines && page.lines.lines[0];
    return best ? arrowsOf(best.gesture) : [];
  },
  touched: (prefix) => blind.touched(prefix),
  opened,
});

// The blind mode reads the position shown out (the move that led to it as it is shown, the
// whole position on demand), its legal moves, and plays the moves typed in its box.
const blind = new BlindMode({
  position: () => board.view && { description: board.view.description, legal: board.view.legal,
                                  names: board.boardView.points },
  lastMove: () => (board.view && board.view.said) || "",
  line: () => ({ game: board.game, rules: board.rules, start: board.start, moves: board.tree.path(board.current) }),
  play: (notation) => board.play(notation),
});

// The position shown, as the practice panel reads it.
function here() {
  const view = board.view;
  return view && { game: board.game, rules: board.rules, code: view.code, turn: view.turn,
                   path: board.tree.path(board.current), over: Boolean(view.outcome) };
}

// The arrows of a gesture: from each touch to the next ("from" → "to" → "take"); a placement
// alone rings its point.
function arrowsOf(gesture) {
  if (gesture.length === 1) return [[gesture[0][1], gesture[0][1]]];
  return gesture.slice(1).map((t, i) => [gesture[i][1], t[1]]);
}

function onLines(message) {
  if (message.id !== board.ask) return;
  page.lines = message;
  showLines();
  board.draw();
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
    $("eval-number").textContent = board.view && board.view.outcome ? board.view.outcome : page.engine ? "…" : t("off");  // TRANSLATORS: the evaluation shown while the engine is off
    $("eval-white").style.width = "50%";
    return;
  }
  const best = lines.lines[0];
  $("eval-number").textContent = best.bar;
  $("eval-white").style.width = `${Math.round(best.white_share * 100)}%`;
  const depth = board.tree.depth(board.current);
  for (const line of lines.lines) {
    const item = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = line.bar;
    item.title = line.text;
    item.dataset.move = line.pv[0];
    // a move (with its number) never broken across two lines
    const moves = line.pv.flatMap((m, i) => {
      const ply = board.firstPly + depth + i;
      const move = document.createElement("span");
      move.className = "move";
      move.textContent = ply % 2 === 0 || i === 0 ? numbered(board.firstPly, depth + i + 1, m) : m;
      return [" ", move];
    });
    item.append(score, ...moves);
    list.appendChild(item);
  }
}

function controls() {
  board.controls();
  const add = (move) => board.edits.move(board.current, move);
  $("make-puzzle").onclick = () => board.view && makePuzzle(board.game, board.rules, board.view.code);
  $("engine").onclick = () => {
    page.engine = !page.engine;
    $("engine").setAttribute("aria-pressed", String(page.engine));
    $("engine").textContent = page.engine ? t("Engine on") : t("Engine off");
    if (!page.engine) board.send({ type: "stop" });
    board.go(board.current);
  };
  page.explorer = new Explorer(add);
  page.moves = new MovesPanel(add);
  // the engine's lines and the panels off while practising, back after
  // (the lines go at once: the position's answer, without them, may come after the panel's text)
  page.practice = new PracticePanel(here, add, () => {
    page.lines = null;
    showLines();
    board.go(board.current);
  });
  new RecordPanel(() => ({ game: board.game, rules: board.rules, start: board.start, tree: board.tree }),
    (line) => board.openLine(line));
  page.editor = new Editor(
    () => ({ game: board.game, rules: board.rules, view: board.view, board: board.boardView }),
    (position) => board.openLine({ ...position, start: position.code, moves: [] }),
    () => board.draw(),
  );
}

// What the address asks for: a game of the server, the record the review page left, or a rule
// set with a position code and moves.
function opened() {
  const ply = params.has("ply") ? Number(params.get("ply")) : null;
  if (params.get("game_id")) {
    page.pendingPly = ply;
    board.send({ type: "open", game_id: params.get("game_id") });
  } else if (params.has("record")) {
    page.pendingPly = ply;
    board.send({ type: "open", record: sessionStorage.getItem(RECORD_KEY) || "" });
  } else {
    const moves = (params.get("moves") || "").split(/[\s,]+/).filter(Boolean);
    board.openLine({ game: params.get("game") || $("board-area").dataset.defaultGame, rules: params.get("rules"),
                     start: params.get("position"), moves }, ply);
  }
}

controls();
board.connect({ lines: onLines, line: (message) => board.openLine(message, page.pendingPly ?? null) });
