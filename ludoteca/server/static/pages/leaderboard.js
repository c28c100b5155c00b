// The best ratings of a game and time control: the established ones, then the provisional
// ones (marked "?", as everywhere).
import { deviationText, ratingText, table } from "/static/lib/community.js";
import { $, notice, playerName } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { getJSON, reported } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

async function show() {
  const query = new URLSearchParams({ game: $("game").value, category: $("category").value });
  /** @type {import("/static/lib/types.js").LeaderboardRow[] | null} */
  const rows = await reported(getJSON(`/api/leaderboard?${query}`));
  if (!rows) return;
  notice("");
  const board = table(["#", t("Player"), t("Rating"), t("Deviation"), t("Rated games")]);
  rows.forEach((r, i) => {
    const row = board.tBodies[0].insertRow();
    row.insertCell().textContent = String(i + 1);
    row.insertCell().appendChild(playerName(r.name));  // (bots are left off the leaderboards)
    if (r.provisional) row.className = "provisional";
    for (const text of [ratingText(r), deviationText(r.deviation), String(r.games)]) row.insertCell().textContent = text;
  });
  $("board").replaceChildren(rows.length ? board : t("No rated game yet."));
}

/** @type {import("/static/lib/types.js").CatalogueGame[]} */
const catalogue = await reported(getJSON("/api/catalogue")) || [];
for (const g of catalogue) $("game").appendChild(new Option(g.title, g.name));
$("game").onchange = show;
$("category").onchange = show;
await show();
ready();  // (the tests' ready marker)
