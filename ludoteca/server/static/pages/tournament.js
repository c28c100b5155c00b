// A tournament's page: its standings with their tie-breaks and every round's pairings, kept
// live by its websocket (/ws/tournaments/ID: the whole view at once and after each change),
// the buttons to join and withdraw, and for its creator the computer's levels to enter.
import { $, link, playerName } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { getJSON, postJSON, quiet, reported, whoAmI } from "/static/lib/http.js";
import { number, t } from "/static/lib/i18n.js";
import { levelText } from "/static/lib/levels.js";
import { stateName, summary, when } from "/static/lib/tournaments.js";
import { socketAddress } from "/static/lib/socket.js";

/** @typedef {import("/static/lib/types.js").TournamentView} TournamentView */
/** @typedef {import("/static/lib/types.js").Level} Level */

const id = decodeURIComponent(location.pathname.split("/").pop());
const me = await whoAmI();

/** A table with these headings.  @param {string[]} headings */
function table(headings) {
  const element = document.createElement("table");
  const row = element.createTHead().insertRow();
  for (const heading of headings) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = heading;
    row.appendChild(cell);
  }
  element.createTBody();
  return element;
}

/** @param {HTMLTableElement} element  @param {(string | Node)[]} cells */
function addRow(element, cells) {
  const row = element.tBodies[0].insertRow();
  for (const cell of cells) row.insertCell().append(cell);
}

const points = (/** @type {number} */ value) => number(value, { maximumFractionDigits: 2 });

/** @param {TournamentView} view */
function show(view) {
  $("title").textContent = view.name;
  $("about").textContent = `${summary(view)}; ${stateName(view.state)}, ${when(view.starts)}${view.ends ? ` – ${when(view.ends)}` : ""}`;
  const arena = view.system === "arena";
  const standings = table(
    arena ? [t("Place"), t("Player"), t("Rating"), t("Points"), t("Performance"), t("Games")] : [t("Place"), t("Player"), t("Rating"), t("Points"), t("Buchholz cut 1"), t("Buchholz"), t("Sonneborn-Berger")],
  );
  for (const line of view.standings) {
    const name = `${line.name}${line.withdrawn ? ` (${t("withdrawn")})` : ""}${line.streak ? " 🔥" : ""}`;
    const player = playerName(line.name, line.bot, name);
    addRow(
      standings,
      arena
        ? [String(line.rank), player, String(line.rating), points(line.points), line.performance === null ? "–" : String(line.performance), String(line.games)]
        : [String(line.rank), player, String(line.rating), points(line.points), points(line.buchholz_cut1), points(line.buchholz), points(line.sonneborn_berger)],
    );
  }
  $("standings").replaceChildren(view.standings.length ? standings : t("Nobody has joined yet."));
  const rounds = document.createDocumentFragment();
  for (const round of [...new Set(view.boards.map((b) => b.round))].reverse()) {
    const heading = document.createElement("h3");
    heading.textContent = arena ? t("Pairing %(round)s", { round }) : t("Round %(round)s", { round });
    const boards = table([t("White"), t("Black"), t("Result")]);
    for (const b of view.boards.filter((board) => board.round === round)) {
      const result = b.black === null ? t("bye") : b.result === "*" ? t("playing") : b.result;
      const black = b.black === null ? "–" : playerName(b.black, b.black_bot);
      addRow(boards, [playerName(b.white, b.white_bot), black, b.url ? link(b.url, result) : result]);
    }
    rounds.append(heading, boards);
  }
  $("rounds").replaceChildren(rounds);
  const mine = view.standings.find((line) => line.name === me?.name);
  const playing = Boolean(mine && !mine.withdrawn);
  $("join").hidden = !me?.name || playing || view.state === "finished";
  $("withdraw").hidden = !playing || view.state === "finished";
  const creating = Boolean(me?.name) && me?.name === view.creator && view.state !== "finished";
  if (creating && !$("computer-level").childElementCount) listLevels(view);
  $("computer").hidden = !creating;
}

/** Fill the creator's selector of the computer's levels.  @param {TournamentView} view */
async function listLevels(view) {
  /** @type {Level[] | null} */
  const levels = await quiet(getJSON(`/api/levels?${new URLSearchParams({ game: view.game, rules: view.rules })}`));
  if (levels) $("computer-level").replaceChildren(...levels.map((l) => new Option(levelText(l), String(l.number))));
}

/** Join or withdraw.  @param {string} action */
async function act(action) {
  await reported(postJSON(`/api/tournaments/${encodeURIComponent(id)}/${action}`));
}
$("join").addEventListener("click", () => act("join"));
$("withdraw").addEventListener("click", () => act("withdraw"));
$("computer-enter").addEventListener("click", async () => {
  const level = Number(/** @type {HTMLSelectElement} */ ($("computer-level")).value);
  await reported(postJSON(`/api/tournaments/${encodeURIComponent(id)}/computer`, { level }));
});

// the websocket: reconnects after a few seconds when it closes (a restart, a lost network)
function connect() {
  const socket = new WebSocket(socketAddress(`/ws/tournaments/${encodeURIComponent(id)}`));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "tournament") return;
    show(message.tournament);
    ready();  // (the tests' ready marker: the first view drawn)
  });
  socket.addEventListener("close", (event) => {
    if (event.code !== 1008) setTimeout(connect, 3000);
    else ready();  // (refused: an unknown tournament; the page stays as it is)
  });
}
connect();
