// The game report of a finished game or an imported record, computed once by the server and
// stored: the progress while it is computed ("Analysing: 34 of 120 positions"), then the
// evaluation graph, each side's accuracy and counts, and the marked moves; a marked move shows
// the position before it with the move played and the better move as arrows, and the better
// line in notation.
import { colourName, notice } from "/static/lib/dom.js";
import { drawGraph } from "/static/lib/graph.js";
import { HttpError, getJSON, settled } from "/static/lib/http.js";
import { isolated, lang, t } from "/static/lib/i18n.js";
import { judgementName, numbered, symbolOf } from "/static/lib/moves.js";

const POLL = 1000;  // ms between two questions while the report is computed
// a percentage (0..100) as the page's language writes it ("45.2%", "45,2 %"), in Latin digits
const PERCENT = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1, numberingSystem: "latn" });
const percent = (value) => PERCENT.format(value / 100);
// an expected score (0..1) in whole percents, the one scale of a report's texts
const score = (share) => percent(Math.round(share * 100));

// A move's touches as arrows for Board.arrows: each step from a point to the next, a placed
// man or a taken one as a ring.
export function arrowsOf(touches, kind) {
  const list = [];
  let from = null;
  for (const [role, point] of touches) {
    if (role === "from") from = point;
    else if (role === "to") { list.push([from === null ? point : from, point, kind]); from = point; }
    else list.push([point, point, kind]);
  }
  return list;
}

export class Report {
  // root: the element to fill; firstPly: the ply the game started from; jump(index, arrows):
  // show the position after `index` moves, with arrows over it (or none); board: the element
  // showing it, scrolled into view when a marked move is chosen; changed(): the report arrived
  // (the page redraws its move list).
  constructor(root, { firstPly = 0, jump, board, changed = () => {} }) {
    this.root = root;
    this.firstPly = firstPly;
    this.jump = jump;
    this.board = board;
    this.changed = changed;
    this.data = null;
    this.chosen = null;  // the index of the marked move shown
    this.timer = null;
    this.path = null;
  }

  // Ask `path` (GET) for the report, again every second until it is ready.
  async follow(path) {
    clearTimeout(this.timer);
    this.path = path;
    const data = await settled(getJSON(path));
    if (path !== this.path) return;
    if (data instanceof HttpError) { notice(data.message, false, this.root); return; }
    this.show(data);
    if (data.status === "pending" || data.status === "running") {
      this.timer = setTimeout(() => this.follow(path), POLL);
    }
  }

  stop() { clearTimeout(this.timer); this.path = null; }

  // The marked moves: index → {judgement, ...the move's verdict}.
  marks() {
    if (!this.data) return new Map();
    return new Map(this.data.moves.filter((m) => m.judgement).map((m) => [m.index, m]));
  }

  show(data) {
    const root = this.root;
    root.hidden = false;
    if (data.status === "failed") {
      root.replaceChildren(paragraph(t("The analysis failed; it is tried again when the server restarts.")));
      return;
    }
    if (data.status !== "ready") {
      root.replaceChildren(paragraph(t("Analysing: %(done)s of %(total)s positions…", { done: data.done, total: data.total }), "progress"));
      return;
    }
    this.data = data;
    this.draw(null);
    this.changed();
  }

  // Draw the ready report; `current`: the position shown on the board (or null).
  draw(current) {
    const { data, root } = this;
    const marks = this.marks();
    root.replaceChildren();
    const title = document.createElement("h2");
    title.textContent = t("Game report");
    root.appendChild(title);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.classList.add("graph");
    svg.setAttribute("aria-label", t("evaluation graph: White's expected score after each move"));
    const judged = new Map([...marks].map(([i, m]) => [i, m.judgement]));
    drawGraph(svg, data.plies, judged, current, (i) => { this.chosen = null; this.jump(i, []); });
    root.appendChild(svg);
    root.appendChild(sides(data.sides));
    const list = document.createElement("ul");
    list.className = "marked";
    for (const [index, move] of marks) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = `link ${move.judgement}`;
      const played = data.plies[index].played;
      button.textContent = `${isolated(numbered(this.firstPly, index + 1, played) + symbolOf(move.judgement))}`
        + ` ${judgementName(move.judgement)} (−${score(move.loss)})`;
      if (this.chosen === index) button.setAttribute("aria-current", "true");
      button.onclick = () => this.choose(index);
      li.appendChild(button);
      list.appendChild(li);
    }
    if (!marks.size) root.appendChild(paragraph(t("No inaccuracy, mistake or blunder found.")));
    root.appendChild(list);
    if (this.chosen !== null) root.appendChild(this.detail(this.chosen));
  }

  // Show the marked move `index`: the position before it, its arrows, the better line.
  choose(index) {
    const ply = this.data.plies[index];
    this.chosen = index;
    this.jump(index, [...arrowsOf(ply.played_touches, "played"), ...arrowsOf(ply.best_touches, "best")]);
    this.board.scrollIntoView({ block: "nearest" });
  }

  detail(index) {
    const ply = this.data.plies[index];
    const move = this.data.moves[index];
    const line = ply.line.map((m, i) => (i === 0 || (this.firstPly + index + i) % 2 === 0
      ? numbered(this.firstPly, index + i + 1, m) : m)).join(" ");
    // the mover's expected score before and after: the scale of the mark's loss
    const mover = (share) => (move.side === "white" ? share : 1 - share);
    return paragraph(t("%(move)s was a %(judgement)s: %(side)s's expected score went from %(before)s "
      + "to %(after)s. Better %(best)s (green arrow; the move played is red). Line: %(line)s", {
      move: numbered(this.firstPly, index + 1, ply.played), judgement: judgementName(move.judgement),
      side: colourName(move.side), before: score(mover(ply.share)),
      after: score(mover(this.data.plies[index + 1].share)), best: ply.best, line,
    }), "detail");
  }
}

function paragraph(text, className = "") {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

// Each side's figures, a column a side: accuracy, then the count of each judgement.
function sides(figures) {
  const table = document.createElement("table");
  table.className = "sides";
  const head = table.createTHead().insertRow();
  for (const text of ["", t("White"), t("Black")]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    head.appendChild(th);
  }
  const body = table.createTBody();
  const rows = [["accuracy", t("Accuracy")], ["inaccuracies", t("Inaccuracies")],
                ["mistakes", t("Mistakes")], ["blunders", t("Blunders")]];
  for (const [key, label] of rows) {
    const row = body.insertRow();
    row.dataset.figure = key;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    row.appendChild(th);
    for (const side of ["white", "black"]) {
      const value = figures[side][key];
      const cell = row.insertCell();
      cell.dataset.side = side;
      cell.textContent = key !== "accuracy" ? String(value) : value === null ? "–" : percent(value);
    }
  }
  return table;
}
