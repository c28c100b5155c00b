// The signed-in player's correspondence games where it is their move, soonest deadline first:
// in the lobby's "Your turn" panel and on /yourturn (any page with a #yourturn-list), asked
// for again every minute.  Signed out, the panel stays hidden.
import { daysText, leftText } from "/static/lib/days.js";
import { $, botMark, colourName, link } from "/static/lib/dom.js";
import { getJSON, quiet } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

async function show() {
  /** @type {{games: import("/static/lib/types.js").YourTurnGame[]} | null} */
  const answer = await quiet(getJSON("/api/yourturn"));
  if (!answer) return;
  const { games } = answer;
  const list = $("yourturn-list");
  list.replaceChildren();
  for (const g of games) {
    const item = document.createElement("li");
    item.className = "yourturn-game";
    item.dataset.game = g.id;
    item.appendChild(link(g.url, t("%(rules)s against %(opponent)s", { rules: g.rules_title, opponent: g.opponent || t("player") })));
    if (g.opponent_bot) item.appendChild(botMark());
    const left = document.createElement("span");
    left.className = "left";
    left.textContent = ` — ${colourName(g.colour)}, ${daysText(g.clock)}: ${leftText(g.left)}`;
    item.appendChild(left);
    list.appendChild(item);
  }
  if (!games.length) {
    const none = document.createElement("li");
    none.textContent = t("No game waits for your move.");
    list.appendChild(none);
  }
  $("yourturn").hidden = false;
}

// Show the list where the page has one, and keep it fresh.
export function showYourTurn() {
  if (!$("yourturn-list")) return Promise.resolve();
  setInterval(show, 60_000);
  return show();  // (drawn: for the page's ready marker)
}
