// The status line under the board (whose turn, what to do next, the men in hand), the result
// banner, the heading, and the tab's title and icon (a green dot while it is your move).
import { $, colourName } from "/static/dom.js";
import { candidates, mine, pointName, state } from "/static/state.js";

// What to do next with the points touched so far, in the game's own words.
function instruction() {
  const view = state.view;
  const texts = view.texts;
  if (!state.prefix.length) {
    const touched = view.legal.filter((m) => m.g.length);
    if (!touched.length) return "type your move";
    const kinds = new Set(touched.map((m) => m.g[0][0]));
    return kinds.has("from") ? (kinds.has("to") ? texts.place_or_move : texts.move) : texts.place;
  }
  const next = new Set(candidates().map((m) => m.g[state.prefix.length][0]));
  if (next.has("take")) return texts.take;
  return state.prefix.length > 1 ? texts.continue : texts.to;
}

// pending: the move just sent, while its answer is awaited.
export function showStatus(pending = null) {
  const view = state.view;
  const hand = view.hand ? ` In hand: White ${view.hand[0]}, Black ${view.hand[1]}.` : "";
  let text;
  if (view.status === "over") text = view.outcome.text;
  else if (view.status === "waiting") text = "Waiting for a second player to join.";
  else if (pending) text = `Sending ${pending.n}…`;
  else if (state.premove.length) {
    text = `Premove: ${state.premove.map(pointName).join(" → ")}, played when your turn comes `
      + "(click elsewhere or press Escape to cancel).";
  }
  else if (view.thinking) text = `${colourName(view.turn)} to move — the computer is thinking…`;
  else if (mine()) text = `Your move (${colourName(view.turn)}): ${instruction()}.`;
  else if (view.you.length) text = `${colourName(view.turn)} to move — waiting for your opponent.`;
  else text = `${colourName(view.turn)} to move. You are watching.`;
  const last = view.moves.length && view.status !== "over"
    ? `${colourName(view.turn === "white" ? "black" : "white")} played ${view.moves[view.moves.length - 1]}`
      + `${view.last_note ? ` (${view.last_note})` : ""}. ` : "";
  const notice = view.notice && view.status === "live" ? ` ${view.notice}` : "";
  $("status").textContent = last + text + (view.status === "over" ? "" : hand + notice);
  const banner = $("banner");
  banner.hidden = view.status !== "over";
  if (view.status === "over") banner.textContent = `${view.outcome.result} — ${view.outcome.text}`;
  $("title").textContent = `${view.title} · ${view.rules}`;
  const yourMove = mine() && view.status === "live";
  document.title = `${yourMove ? "Your move · " : ""}Ludoteca — ${view.title}`;
  const icon = document.querySelector("link[rel=icon]");
  const wanted = yourMove ? "/static/favicon-move.svg" : "/static/favicon.svg";
  if (icon.getAttribute("href") !== wanted) icon.setAttribute("href", wanted);
}
