// What the community pages share: a finished game as a table row, a table, a rating and its
// time control.  Names come from the server as text and are only ever set as text.
import { daysText, isDays } from "/static/lib/days.js";
import { link, playerName } from "/static/lib/dom.js";
import { day, isolated, t } from "/static/lib/i18n.js";

/** @param {HTMLTableRowElement} row  @param {Node | string} content */
function cell(row, content) {
  const td = document.createElement("td");
  if (content instanceof Node) td.appendChild(content); else td.textContent = content;
  row.appendChild(td);
  return td;
}

/** @param {import("/static/lib/types.js").FinishedSeat} player */
function seat(player) {
  if (player.computer) return document.createTextNode(t("Computer (%(level)s)", { level: player.computer }));
  if (player.account) return playerName(player.account, player.bot);
  return document.createTextNode(player.name || t("Guest"));
}

// A row: date, players, game and rule set, result (and how), moves, replay and record links.
/** @param {import("/static/lib/types.js").FinishedGame} game */
export function gameRow(game) {
  const row = document.createElement("tr");
  cell(row, day(game.ended));
  const players = document.createElement("span");
  players.append(seat(game.white), t(" v "), seat(game.black));
  cell(row, players);
  const clock = game.clock && isDays(game.clock) ? daysText(game.clock) : game.clock;  // ("3 days per move", "5+0")
  cell(row, `${game.rules_title}${clock ? t(", ") + clock : ""}${game.rated ? t(", rated") : ""}`);
  cell(row, game.result === "*" ? t("unfinished") : `${game.result}${game.termination ? ` (${game.termination_text})` : ""}`);
  cell(row, String(game.moves));
  const links = document.createElement("span");
  links.append(link(`/game/${game.id}`, t("Replay")), " · ",
               link(`/api/games/${game.id}/record`, t("Record")));
  cell(row, links);
  return row;
}

/** @param {string[]} headings */
export function table(headings) {
  const t = document.createElement("table");
  t.className = "listing";
  const head = t.createTHead().insertRow();
  for (const text of headings) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    head.appendChild(th);
  }
  t.createTBody();
  return t;
}

export const GAME_HEADINGS = [t("Date"), t("Players"), t("Rule set"), t("Result"), t("Moves"), ""];

// A rating ("1662?" while provisional) and its deviation ("±290"), each kept left to right
// in a right-to-left page (isolated: the bidi algorithm would put the "?" or the "±" on the
// number's other side).
/** @param {{rating: number, provisional: boolean}} r */
export function ratingText(r) {
  return isolated(`${r.rating}${r.provisional ? "?" : ""}`);
}
/** @param {number} deviation */
export const deviationText = (deviation) => isolated(`±${deviation}`);

// The words for a rating's time-control category, as the server names it (CATEGORIES in
// ludoteca/server/community/ratings.py); an unknown one reads as it came.
const CATEGORIES = {
  blitz: t("Blitz"), rapid: t("Rapid"), classical: t("Classical"), untimed: t("No clock"), correspondence: t("Correspondence"),
};
/** @param {string} category */
export const categoryName = (category) => CATEGORIES[/** @type {keyof CATEGORIES} */ (category)] || category;
