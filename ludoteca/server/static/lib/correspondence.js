// The game page's part for days per move (correspondence games): the deadline of the side to
// move ("2 days 3 hours left", told again each minute, no ticking clock) and, for a player
// whose opponent is to move, the planned moves: lines of moves, one line a row, the opponent's
// move first ("d2 d7 b4 f4": if they play d2, answer d7; then if b4, f4), checked by the server.
// A game without days per move leaves the panel hidden.
import { daysText, leftText } from "/static/lib/days.js";
import { $, colourName } from "/static/lib/dom.js";
import { getJSON, putJSON, quiet, reported } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";
import { gameId, state } from "/static/lib/state.js";

/** @typedef {import("/static/lib/types.js").CorrespondenceView} CorrespondenceView */

const token = () => localStorage.getItem(`ludoteca:${gameId}`);
/** @type {CorrespondenceView | null} */
let shown = null;       // the last answer of /api/games/<id>/correspondence
let received = 0;       // performance.now() when it came
let seen = "";          // the ply and status it was asked for

async function load() {
  const seat = token();
  /** @type {CorrespondenceView | null} */
  const answer = await quiet(getJSON(`/api/games/${encodeURIComponent(gameId)}/correspondence`, seat ? { "X-Seat-Token": seat } : {}));
  if (!answer) return false;
  shown = answer;
  received = performance.now();
  $("correspondence").hidden = false;
  $("plan-form").hidden = !answer.can_plan;
  if (answer.can_plan && document.activeElement !== $("plan-lines")) {
    $("plan-lines").value = answer.lines.map((line) => line.join(" ")).join("\n");
  }
  showDeadline();
  return true;
}

function showDeadline() {
  if (!shown) return;
  const text = $("deadline");
  if (shown.deadline === null) {
    text.textContent = daysText(shown.clock);
    return;
  }
  const left = shown.left - (performance.now() - received);
  text.textContent = t("%(control)s: %(colour)s to move, %(left)s", {
    control: daysText(shown.clock), colour: colourName(shown.to_move), left: leftText(left) });
}

/** @param {Event} event */
async function save(event) {
  event.preventDefault();
  const lines = $("plan-lines").value.split("\n").map((/** @type {string} */ row) => row.split(/[\s,]+/).filter(Boolean)).filter((/** @type {string[]} */ line) => line.length);
  $("plan-error").hidden = true;
  /** @type {{lines: string[][]} | null} */
  const answer = await reported(putJSON(`/api/games/${encodeURIComponent(gameId)}/planned`, { token: token(), lines }), $("plan-error"));
  if (answer) {
    $("plan-status").textContent = answer.lines.length ? t("Planned moves saved.") : t("No planned moves.");
    await load();
  }
}

// Ask again whenever the game moved or ended (the deadline and who may plan change).
function follow() {
  const view = state.view;
  const now = view ? `${view.ply}:${view.status}` : "";
  if (now !== seen) {
    seen = now;
    load();
  }
}

// Show the panel if the game has days per move, and keep it in step with the game.
export async function startCorrespondence() {
  if (!(await load())) return;
  $("plan-form").addEventListener("submit", save);
  setInterval(follow, 1000);
  setInterval(showDeadline, 60_000);
}
