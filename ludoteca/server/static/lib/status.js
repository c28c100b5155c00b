// The status line under the board (whose turn, what to do next, the men in hand), the result
// banner, the heading, and the tab's title and icon (a green dot while it is your move).
import { $, colourName } from "/static/lib/dom.js";
import { instruction } from "/static/lib/gesture.js";
import { t } from "/static/lib/i18n.js";
import { inHand } from "/static/lib/moves.js";
import { mine, pointName, state } from "/static/lib/state.js";

// The last move of `view` as a sentence ("Black played d6-d5xf4 (mill, takes f4)."), or "".
export function lastMove(view) {
  if (!view.moves.length || !view.last_colour) return "";
  const params = { colour: colourName(view.last_colour),
                   move: view.moves[view.moves.length - 1], note: view.last_note };
  return view.last_note ? t("%(colour)s played %(move)s (%(note)s).", params) : t("%(colour)s played %(move)s.", params);
}

// pending: the move just sent, while its answer is awaited.
export function showStatus(pending = null) {
  const view = state.view;
  const hand = view.hand ? ` ${inHand(view.hand)}` : "";
  let text;
  if (view.status === "over") text = view.outcome.text;
  else if (view.status === "waiting") text = t("Waiting for a second player to join.");
  else if (pending) text = t("Sending %(move)s…", { move: pending.n });
  else if (state.premove.length) {
    text = t("Premove: %(points)s, played when your turn comes (click elsewhere or press Escape to "
      + "cancel).", { points: state.premove.map(pointName).join(" → ") });
  }
  else if (view.thinking) text = t("%(colour)s to move — the computer is thinking…", { colour: colourName(view.turn) });
  else if (mine()) text = t("Your move (%(colour)s): %(what)s.", { colour: colourName(view.turn), what: instruction(view.legal, state.prefix, view.texts) });
  else if (view.you.length) text = t("%(colour)s to move — waiting for your opponent.", { colour: colourName(view.turn) });
  else text = t("%(colour)s to move. You are watching.", { colour: colourName(view.turn) });
  const last = view.moves.length && view.status !== "over" ? `${lastMove(view)} ` : "";
  const notice = view.notice && view.status === "live" ? ` ${view.notice}` : "";
  $("status").textContent = last + text + (view.status === "over" ? "" : hand + notice);
  const banner = $("banner");
  banner.hidden = view.status !== "over";
  if (view.status === "over") banner.textContent = `${view.outcome.result} — ${view.outcome.text}`;
  $("title").textContent = view.rules_title;
  const yourMove = mine() && view.status === "live";
  document.title = `${yourMove ? t("Your move · ") : ""}Ludoteca — ${view.title}`;
  const icon = document.querySelector("link[rel=icon]");
  const wanted = yourMove ? "/static/favicon-move.svg" : "/static/favicon.svg";
  if (icon.getAttribute("href") !== wanted) icon.setAttribute("href", wanted);
}
