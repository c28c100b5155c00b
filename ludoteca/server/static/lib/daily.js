// The lobby's daily puzzle: today's position (the same for everyone on a UTC day) drawn small,
// with a link to solve it on the puzzle page (the lobby's #daily panel).
import { Board } from "/static/lib/board.js";
import { $ } from "/static/lib/dom.js";
import { getJSON, quiet } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

export async function showDaily() {
  const puzzle = await quiet(getJSON("/api/puzzles/daily"));
  if (!puzzle) return;  // no network: the link alone stays
  const board = new Board($("daily-board"), puzzle.board);
  board.flipped = puzzle.player === "black";
  board.draw(puzzle.position.pieces, { marked: puzzle.position.marked });
  const side = puzzle.player === "white" ? t("White") : t("Black");
  $("daily-text").textContent = t("%(title)s · %(side)s to move and win · rating %(rating)s",
    { title: puzzle.rules_title, side, rating: puzzle.rating });
  $("daily-link").href = `/puzzles/${puzzle.id}`;
}

