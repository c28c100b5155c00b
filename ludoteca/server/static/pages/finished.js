// Finished games, searched by player, game, rule set, result and dates; each replayable, its
// record downloadable.  The search is kept in the address, so it can be shared.
import { GAME_HEADINGS, gameRow, table } from "/static/lib/community.js";
import { $, notice } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { getJSON, reported } from "/static/lib/http.js";
import { day, t } from "/static/lib/i18n.js";

const FIELDS = ["player", "game", "rules", "result", "since", "until"];
let page = 0;
/** @type {HTMLTableElement | null} */
let results = null;

async function search(more = false) {
  page = more ? page + 1 : 0;
  const query = new URLSearchParams({ page: String(page) });
  for (const f of FIELDS) if ($(f).value) query.set(f, $(f).value.trim());
  /** @type {import("/static/lib/types.js").FinishedPage | null} */
  const data = await reported(getJSON(`/api/finished?${query}`));
  if (!data) return;
  notice("");
  if (!more || !results) {
    results = table(GAME_HEADINGS);
    $("games").replaceChildren(results);
  }
  for (const g of data.games) results.tBodies[0].appendChild(gameRow(g));
  if (!results.tBodies[0].rows.length) $("games").replaceChildren(t("No finished game matches."));
  $("more").hidden = !data.more;
}

/** @type {import("/static/lib/types.js").CatalogueGame[]} */
const catalogue = await reported(getJSON("/api/catalogue")) || [];
for (const g of catalogue) $("game").appendChild(new Option(g.title, g.name));
const params = new URLSearchParams(location.search);
for (const f of FIELDS) if (params.get(f)) $(f).value = params.get(f);
// each date's day spelled beside its picker as the page's language writes it ("6 déc. 2026"):
// the browser's field keeps its own language's order ("12/06/2026")
for (const f of ["since", "until"]) {
  const spell = () => { $(`${f}-day`).textContent = $(f).value ? day($(f).value) : ""; };
  $(f).addEventListener("input", spell);
  spell();
}
$("search").onsubmit = (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  const query = new URLSearchParams();
  for (const f of FIELDS) if ($(f).value) query.set(f, $(f).value.trim());
  history.replaceState(null, "", `/games${query.size ? `?${query}` : ""}`);
  search();
};
$("more").onclick = () => search(true);
await search();
ready();  // (the tests' ready marker)
