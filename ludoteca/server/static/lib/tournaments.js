// Tournaments in lists: the lobby's "Tournaments" panel, the /tournaments page (any page with a
// #tournament-list, asked for again every 30 seconds), and a player's tournaments on the
// profile page.
import { $, link } from "/static/lib/dom.js";
import { getJSON, quiet } from "/static/lib/http.js";
import { list, moment, t } from "/static/lib/i18n.js";

/** @typedef {import("/static/lib/types.js").TournamentBrief} TournamentBrief */

/** The name of a pairing system.  @param {string} system */
export function systemName(system) {
  return { swiss: t("Swiss"), roundrobin: t("Round robin"), arena: t("Arena") }[system] || system;
}

/** The name of a tournament's state.  @param {string} state */
export function stateName(state) {
  return { upcoming: t("upcoming"), running: t("running"), finished: t("finished") }[state] || state;
}

/** A moment (epoch ms) in the reader's language.  @param {number} ms */
export const when = (ms) => moment(ms);

/** What a tournament is, in a line.  @param {TournamentBrief} brief */
export function summary(brief) {
  const length = brief.system === "arena" ? t("%(minutes)s minutes", { minutes: brief.minutes }) : brief.rounds ? t("%(rounds)s rounds", { rounds: brief.rounds }) : "";
  return list([brief.rules_title, brief.clock, systemName(brief.system), length, brief.rated ? t("rated") : t("casual")].filter(Boolean));
}

async function show() {
  /** @type {TournamentBrief[] | null} */
  const briefs = await quiet(getJSON("/api/tournaments"));
  if (!briefs) return;
  const list = $("tournament-list");
  list.replaceChildren();
  for (const brief of briefs) {
    const item = document.createElement("li");
    item.className = `tournament ${brief.state}`;
    item.appendChild(link(brief.url, brief.name));
    const about = document.createElement("span");
    about.className = "small";
    // (its separators the language's: Arabic's semicolons and commas in Arabic)
    const [semicolon, comma] = [t("; "), t(", ")];
    about.textContent = ` — ${summary(brief)}${semicolon}${stateName(brief.state)}${comma}${when(brief.starts)}`
      + `${semicolon}${t("%(count)s players", { count: brief.players })}`;
    item.appendChild(about);
    list.appendChild(item);
  }
  if (!briefs.length) {
    const none = document.createElement("li");
    none.textContent = t("No tournament yet.");
    list.appendChild(none);
  }
}

// Show the list where the page has one, and keep it fresh; done when it is first drawn.
export function showTournaments() {
  if (!$("tournament-list")) return Promise.resolve();
  setInterval(show, 30_000);
  return show();
}

/**
 * A player's tournaments, in `box`; done when they are drawn.
 * @param {string} name  @param {HTMLElement} box
 */
export async function showPlayerTournaments(name, box) {
  /** @type {import("/static/lib/types.js").PlayerTournament[] | null} */
  const found = await quiet(getJSON(`/api/players/${encodeURIComponent(name)}/tournaments`));
  if (!found) return;
  const list = document.createElement("ul");
  for (const entry of found) {
    const item = document.createElement("li");
    item.appendChild(link(entry.url, entry.name));
    item.append(` — ${t("place %(rank)s of %(count)s, %(points)s points", { rank: entry.rank, count: entry.players, points: entry.points })} (${stateName(entry.state)})`);
    list.appendChild(item);
  }
  box.replaceChildren(found.length ? list : t("No tournaments yet."));
}
