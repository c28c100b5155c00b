// The players' bars over the board: colour, name (an account's links to its profile; a bot's
// marked "BOT"), rating
// (accounts only: "(1500?)" and, after a rated game, the change), "(you)" and the clock; under
// each bar, the count of its pieces on the board and the men still in hand, drawn as pieces.
import { clockFor, showClocks } from "/static/lib/clock.js";
import { $, colourName, playerName, svgElement } from "/static/lib/dom.js";
import { getJSON, quiet } from "/static/lib/http.js";
import { gameId, state } from "/static/lib/state.js";
import { isolated, t, tn } from "/static/lib/i18n.js";

function ratingLabel(r) {
  const change = r.change === null || r.change === undefined ? ""
    : ` ${r.change >= 0 ? "+" : "−"}${Math.abs(r.change)}`;
  return ` (${isolated(`${r.rating}${r.provisional ? "?" : ""}${change}`)})`;  // (left to right)
}

// The men `colour` still has in hand, drawn as pieces in a row beside the board.
function handOf(colour, count) {
  const size = 18;
  const hand = svgElement("svg", { class: "hand", role: "img", "data-colour": colour,
                                   "aria-label": tn("%(colour)s: %(num)s in hand", "%(colour)s: %(num)s in hand", count, { colour: colourName(colour) }),
                                   viewBox: `0 0 ${Math.max(count, 1) * size} ${size}`,
                                   width: count * size, height: size });
  for (let i = 0; i < count; i++) {
    svgElement("circle", { cx: i * size + size / 2, cy: size / 2, r: size / 2 - 2,
                           class: `stone ${colour}` }, hand);
  }
  return hand;
}

export function showPlayers() {
  const view = state.view;
  const players = $("players");
  players.replaceChildren();
  ["white", "black"].forEach((colour, side) => {
    const p = view.players[colour];
    const seat = document.createElement("div");
    seat.className = "seat";
    const div = document.createElement("div");
    div.className = `player ${colour}${view.turn === colour && view.status === "live" ? " to-move" : ""}`;
    const you = view.you.includes(colour) ? t(" (you)") : "";
    const men = view.pieces.filter((t) => {
      const style = t && view.board.styles[t];
      return style && style.side === colour && style.shape !== "king";
    }).length;
    const who = document.createElement("span");
    who.className = "who";
    const name = p.account ? playerName(p.account, p.bot) : document.createTextNode(p.label);
    const rating = state.ratings && state.ratings[colour] ? ratingLabel(state.ratings[colour]) : "";
    who.append(t("%(colour)s: ", { colour: colourName(colour) }), name, `${rating}${you}`);
    who.title = who.textContent;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = tn("%(num)s on board", "%(num)s on board", men);
    count.title = tn("%(num)s piece on the board", "%(num)s pieces on the board", men);
    div.append(who);
    if (view.clock) div.append(clockFor(colour));
    const tray = document.createElement("div");  // under the bar: the men on the board, in hand
    tray.className = "tray";
    tray.append(count);
    if (view.hand) tray.append(handOf(colour, view.hand[side]));
    seat.append(div, tray);
    players.appendChild(seat);
  });
  showClocks();
}

// Fetch the players' ratings (when the page opens and when the game ends) and show them.
export async function loadRatings() {
  const ratings = await quiet(getJSON(`/api/games/${encodeURIComponent(gameId)}/ratings`));
  if (!ratings) return;
  state.ratings = ratings;
  if (state.view) showPlayers();
}
