// A player's page: its name (a bot's marked "BOT"), counts, ratings per game and time control,
// a chart of their history (SVG), recent games; signed in, on another's page, the "Challenge"
// button and its dialog.
import { GAME_HEADINGS, categoryName, deviationText, gameRow, ratingText, table } from "/static/lib/community.js";
import { offerChallenge } from "/static/lib/challenges.js";
import { $, botMark, svgElement } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { getJSON, reported, whoAmI } from "/static/lib/http.js";
import { day, t } from "/static/lib/i18n.js";
import { showPlayerTournaments } from "/static/lib/tournaments.js";

const name = decodeURIComponent(location.pathname.split("/").pop());

// One line per game and category: the rating before the first rated game, then after each;
// a legend under the axes names each line (whole, however long the names).
/** @param {import("/static/lib/types.js").Profile["history"]} history */
function chart(history) {
  const box = $("chart");
  const series = new Map();
  for (const h of history) {
    const key = `${h.title} ${categoryName(h.category)}`;
    if (!series.has(key)) series.set(key, [h.rating - h.change]);  // from the rating before
    series.get(key).push(h.rating);
  }
  const all = [...series.values()].flat();
  const low = Math.min(...all) - 20;
  const high = Math.max(...all) + 20;
  const longest = Math.max(...[...series.values()].map((s) => s.length), 2);
  const width = 600;
  const plot = 240;
  const height = plot + 24 * series.size;
  const x = (i) => 50 + (i * (width - 70)) / (longest - 1);
  const y = (r) => plot - 30 - ((r - low) * (plot - 50)) / (high - low);
  box.setAttribute("viewBox", `0 0 ${width} ${height}`);
  box.replaceChildren();
  svgElement("line", { x1: 50, y1: plot - 30, x2: width - 20, y2: plot - 30, class: "axis" }, box);
  svgElement("line", { x1: 50, y1: 20, x2: 50, y2: plot - 30, class: "axis" }, box);
  for (const r of [Math.ceil(low), Math.floor(high)]) {
    svgElement("text", { x: 44, y: y(r) + 5, class: "tick", "text-anchor": "end" }, box).textContent = String(r);
  }
  let n = 0;
  for (const [key, values] of series) {
    const points = values.map((r, i) => `${x(i)},${y(r)}`).join(" ");
    svgElement("polyline", { points, class: `series s${n}`, "data-series": key }, box);
    values.forEach((r, i) => svgElement("circle", { cx: x(i), cy: y(r), r: 3, class: `dot s${n}` }, box));
    const row = plot - 8 + 24 * n;
    svgElement("rect", { x: 50, y: row, width: 16, height: 12, class: `s${n}` }, box);
    svgElement("text", { x: 74, y: row + 11, class: "tick legend" }, box).textContent = `${key}: ${values.at(-1)}`;
    n += 1;
  }
  $("chart-box").hidden = false;
}

/** @type {import("/static/lib/types.js").Profile | null} */
const data = await reported(getJSON(`/api/players/${encodeURIComponent(name)}`));
if (data) {
  document.title = `Ludoteca — ${data.name}`;
  $("title").textContent = data.name;
  if (data.bot) $("title").append(botMark());
  $("joined").textContent = t("Joined %(date)s", { date: day(data.joined) });
  const c = data.counts;
  $("counts").textContent = t("%(wins)s won, %(draws)s drawn, %(losses)s lost", { wins: c.wins, draws: c.draws, losses: c.losses });
  const ratings = table([t("Game"), t("Time control"), t("Rating"), t("Deviation"), t("Rated games")]);
  for (const r of data.ratings) {
    const row = ratings.tBodies[0].insertRow();
    for (const text of [r.title, categoryName(r.category), ratingText(r), deviationText(r.deviation), String(r.games)]) {
      row.insertCell().textContent = text;
    }
  }
  $("ratings").replaceChildren(data.ratings.length ? ratings : t("No rated games yet."));
  if (data.history.length) chart(data.history);
  const games = table(GAME_HEADINGS);
  for (const g of data.games) games.tBodies[0].appendChild(gameRow(g));
  $("games").replaceChildren(data.games.length ? games : t("No games yet."));
  $("all-games").href = `/games?player=${encodeURIComponent(data.name)}`;
  const tournaments = showPlayerTournaments(data.name, $("tournaments"));
  const me = await whoAmI();
  if (me.name && me.name.toLowerCase() !== data.name.toLowerCase()) await offerChallenge(data.name);
  await tournaments;
}
ready();  // (the tests' ready marker)
