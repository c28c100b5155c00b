// Step through an imported record: the server replays it and sends every position, and
// makes its report (stored, keyed by what the record plays), shown once ready.
import { Board } from "/static/lib/board.js";
import { $, notice } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { postJSON, reported } from "/static/lib/http.js";
import { stepKeys } from "/static/lib/move-keys.js";
import { afterMove, drawMoves } from "/static/lib/moves.js";
import { Report } from "/static/lib/report.js";
import { t } from "/static/lib/i18n.js";

ready();  // (the tests' ready marker)
let game = null;
let board = null;
let ply = 0;
let report = null;
let arrows = null;  // {ply, list}: arrows over the position shown

function show() {
  const position = game.positions[ply];
  board.draw(position.pieces, { last: position.last || [], marked: position.marked });
  if (arrows && arrows.ply === ply) board.arrows(arrows.list);
  const total = game.positions.length - 1;
  const end = ply === total && game.ending ? ` ${game.ending}` : "";
  const note = position.note ? `: ${position.note}` : "";
  $("status").textContent = t("Move %(ply)s of %(total)s (%(where)s).", { ply, total, where: afterMove(game.first_ply, ply, position.move) + note }) + end;
  const marks = report ? report.marks() : new Map();
  drawMoves($("moves"), game.positions.slice(1).map((p) => p.move), game.first_ply, ply, go, (i) => {
    const mark = marks.get(i);
    return mark ? { judgement: mark.judgement, best: report.data.plies[i].best } : null;
  });
}

// Ask for the record's report and follow it until it is ready.
async function loadReport(text) {
  if (report) report.stop();
  report = new Report($("report"), {
    firstPly: game.first_ply,
    board: $("board"),
    jump: (target, list) => { arrows = { ply: target, list }; go(target); report.draw(target); },
    changed: () => show(),
  });
  const data = await reported(postJSON("/api/records/report", { text }));
  if (!data) return;
  report.follow(`/api/reports/${encodeURIComponent(data.key)}`);
}

function go(target) {
  if (!game) return;
  ply = Math.max(0, Math.min(game.positions.length - 1, target));
  show();
}

$("load").onsubmit = async (event) => {
  event.preventDefault();
  const data = await reported(postJSON("/api/records/replay", { text: $("record").value }));
  if (!data) return;
  notice("");
  game = data;
  arrows = null;
  $("board").replaceChildren();
  board = new Board($("board"), game.board);
  $("title").textContent = `${game.rules_title} · ${game.result}`;
  go(0);
  if (game.positions.length > 1) loadReport($("record").value);
};
$("file").onchange = async () => { const f = $("file").files[0]; if (f) $("record").value = await f.text(); };
$("first").onclick = () => go(0);
$("back").onclick = () => go(ply - 1);
$("next").onclick = () => go(ply + 1);
$("last").onclick = () => go(Infinity);
// the analysis board opens the record (left for it in this tab) on the position shown
$("analysis-board").onclick = () => {
  sessionStorage.setItem("ludoteca:analysis-record", $("record").value);
  location.href = `/analysis?record=1&ply=${ply}`;
};
$("flip").onclick = () => { if (board) { board.flipped = !board.flipped; show(); } };
stepKeys({ back: () => go(ply - 1), on: () => go(ply + 1), first: () => go(0), last: () => go(Infinity) });
