// The tournaments page: the list, and the form that creates one (signed in).
import { $ } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { postJSON, reported } from "/static/lib/http.js";
import { moment } from "/static/lib/i18n.js";
import { showTournaments } from "/static/lib/tournaments.js";

showTournaments().then(ready);  // (the tests' ready marker: the list drawn)

const form = /** @type {HTMLFormElement} */ ($("create-form"));
const system = /** @type {HTMLSelectElement} */ (form.elements.namedItem("system"));
// a Swiss asks for rounds, an arena for minutes, a round robin for neither
const fit = () => {
  $("rounds-field").hidden = system.value !== "swiss";
  $("minutes-field").hidden = system.value !== "arena";
};
system.addEventListener("change", fit);
fit();
// the start chosen, spelled as the page's language writes it ("7 déc. 2026, 14:30") under the
// browser's own field, which keeps the browser's order ("12/07/2026, 02:30 PM")
const spell = () => { $("starts-moment").textContent = $("starts").value ? moment($("starts").value) : ""; };
$("starts").addEventListener("input", spell);
spell();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const number = (/** @type {string} */ key) => (data.get(key) ? Number(data.get(key)) : null);
  const starts = new Date(String(data.get("starts")));
  const body = {
    name: data.get("name"),
    game: data.get("game"),
    rules: data.get("rules") || null,
    clock: data.get("clock"),
    system: data.get("system"),
    rounds: system.value === "swiss" ? number("rounds") : null,
    minutes: system.value === "arena" ? number("minutes") : null,
    starts: Number.isNaN(starts.getTime()) ? String(data.get("starts")) : starts.toISOString(),
    rated: data.get("rated") === "on",
    max_players: number("max_players") || 64,
  };
  /** @type {{id: string, url: string} | null} */
  const made = await reported(postJSON("/api/tournaments", body));
  if (made) location.assign(made.url);
});
