// The game page's part for days per move (correspondence games): the deadline of the side to
// move ("2 days 3 hours left", told again each minute, no ticking clock) and, for a player
// whose opponent is to move, the planned moves: lines of moves, one line a row, the opponent's
// move first ("d2 d7 b4 f4": if they play d2, answer d7; then if b4, f4), checked by the server.
// A game without days per move leaves the panel hidden.
import { send } from "/static/account.js";
import { leftText, daysText } from "/static/days.js";
import { $, colourName } from "/static/dom.js";
import { t } from "/static/i18n.js";
import { gameId, state } from "/static/state.js";

const token = () => localStorage.getItem(`ludoteca:${gameId}`);
let shown = null;       // the last answer of /api/games/<id>/correspondence
let received = 0;       // performance.now() when it came
let seen = "";          // the ply and status it was asked for

async function load() {
  const headers = token() ? { "X-Seat-Token": token() } : {};
  const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/correspondence`, { headers }).catch(() => null);
  if (!answer || !answer.ok) return false;
  shown = await answer.json();
  received = performance.now();
  $("correspondence").hidden = false;
  $("plan-form").hidden = !shown.can_plan;
  if (shown.can_plan && document.activeElement !== $("plan-lines")) {
    $("plan-lines").value = shown.lines.map((line) => line.join(" ")).join("\n");
  }
  showDeadline();
  return true;
}

function showDeadline() {
  const text = $("deadline");
  if (shown.deadline === null) {
    text.textContent = daysText(shown.clock);
    return;
  }
  const left = shown.left - (performance.now() - received);
  text.textContent = t("%(control)s: %(colour)s to move, %(left)s", {
    control: daysText(shown.clock), colour: colourName(shown.to_move), left: leftText(left) });
}

async function save(event) {
  event.preventDefault();
  const lines = $("plan-lines").value.split("\n").map((row) => row.split(/[\s,]+/).filter(Boolean)).filter((line) => line.length);
  const answer = await send(`/api/games/${encodeURIComponent(gameId)}/planned`, { token: token(), lines }, "PUT");
  const body = await answer.json();
  $("plan-error").hidden = answer.ok;
  $("plan-error").textContent = answer.ok ? "" : body.error;
  if (answer.ok) {
    $("plan-status").textContent = body.lines.length ? t("Planned moves saved.") : t("No planned moves.");
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

if (await load()) {
  $("plan-form").addEventListener("submit", save);
  setInterval(follow, 1000);
  setInterval(showDeadline, 60_000);
}
