// The puzzle dashboard (/puzzles/dashboard): a signed-in player's success rate by theme and by
// difficulty from their counted puzzle attempts, and the themes they miss most, each with a
// link to practise it on the puzzles page (GET /api/puzzles/dashboard).
import { $, link } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { getJSON, reported, whoAmI } from "/static/lib/http.js";
import { t, tn } from "/static/lib/i18n.js";

/** @typedef {import("/static/lib/types.js").PuzzleDashboard} PuzzleDashboard */

/** @param {number} rate */
const percent = (rate) => `${Math.round(rate * 100)}%`;

/** @param {(string | number)[]} cells */
function row(cells) {
  const tr = document.createElement("tr");
  for (const cell of cells) {
    const td = document.createElement("td");
    td.textContent = String(cell);
    tr.appendChild(td);
  }
  return tr;
}

/** @param {PuzzleDashboard} found */
function show(found) {
  $("dashboard-summary").textContent = found.rate === null
    ? t("No puzzle counted yet: solve a few and come back.")
    : tn("%(solved)s of %(num)s puzzle solved (%(rate)s).", "%(solved)s of %(num)s puzzles solved (%(rate)s).",
      found.attempts, { solved: found.solved, rate: percent(found.rate) });
  $("themes").replaceChildren(...found.themes.map((r) => row([r.theme_text, r.attempts, r.solved, percent(r.rate)])));
  $("bands").replaceChildren(...found.bands.map((b) => row([`${b.low}–${b.high}`, b.attempts, b.solved, percent(b.rate)])));
  $("missed").replaceChildren(...found.missed.map((m) => {
    const item = document.createElement("li");
    item.dataset.theme = m.theme;
    item.append(`${m.theme_text} · ${m.rules_title} · `,
      tn("missed %(num)s time", "missed %(num)s times", m.missed), " · ",
      link(m.url, t("Practise this theme")));
    return item;
  }));
}

async function main() {
  const who = await whoAmI();
  if (!who.name) return;
  /** @type {PuzzleDashboard | null} */
  const found = await reported(getJSON("/api/puzzles/dashboard"));
  if (found) show(found);
}

main().then(ready);  // (the tests' ready marker)
