// The lobby's daily puzzle: today's position (the same for everyone on a UTC day) drawn small,
// with a link to solve it on the puzzle page (the lobby's #daily panel).
import { Board } from "/static/lib/board.js";
import { $ } from "/static/lib/dom.js";
import { t } from "/static/lib/i18n.js";

export async function showDaily() {
  const answer = await fetch("/api/puzzles/daily").catch(() => null);
  if (!answer || !answer.ok) return;  // no network: the link alone stays
  const puzzle = await answer.json();
  const board = new Board($("daily-board"), puzzle.board);
  board.flipped = puzzle.player === "black";
  board.draw(puzzle.position.pieces);
  const side = puzzle.player === "white" ? t("White") : t("Black");
  $("daily-text").textContent = t("%(title)s · %(side)s to move and win · rating %(rating)s",
    { title: puzzle.rules_title, side, rating: puzzle.rating });
  $("daily-link").href = `/puzzles/${puzzle.id}`;
}

