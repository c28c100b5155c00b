// The players' bars over the board: colour, name (an account's links to its profile), rating
// (accounts only: "(1500?)" and, after a rated game, the change), "(you)", the men on the board,
// and the clock.
import { clockFor, showClocks } from "/static/clock.js";
import { $, colourName } from "/static/dom.js";
import { gameId, state } from "/static/state.js";

function ratingLabel(r) {
  const change = r.change === null || r.change === undefined ? ""
    : ` ${r.change >= 0 ? "+" : "−"}${Math.abs(r.change)}`;
  return ` (${r.rating}${r.provisional ? "?" : ""}${change})`;
}

export function showPlayers() {
  const view = state.view;
  const players = $("players");
  players.replaceChildren();
  for (const colour of ["white", "black"]) {
    const p = view.players[colour];
    const div = document.createElement("div");
    div.className = `player ${colour}${view.turn === colour && view.status === "live" ? " to-move" : ""}`;
    const you = view.you.includes(colour) ? " (you)" : "";
    const men = view.pieces.filter((t) => {
      const style = t && view.board.styles[t];
      return style && style.side === colour && style.shape !== "king";
    }).length;
    const who = document.createElement("span");
    who.className = "who";
    const name = p.account ? document.createElement("a") : document.createTextNode(p.label);
    if (p.account) { name.href = `/players/${encodeURIComponent(p.account)}`; name.textContent = p.account; }
    const rating = state.ratings && state.ratings[colour] ? ratingLabel(state.ratings[colour]) : "";
    who.append(`${colourName(colour)}: `, name, `${rating}${you} · ${men} on the board`);
    who.title = who.textContent;
    div.append(who);
    if (view.clock) div.append(clockFor(colour));
    players.appendChild(div);
  }
  showClocks();
}

// Fetch the players' ratings (when the page opens and when the game ends) and show them.
export async function loadRatings() {
  const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/ratings`);
  if (!answer.ok) return;
  state.ratings = await answer.json();
  if (state.view) showPlayers();
}
