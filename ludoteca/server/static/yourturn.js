// The signed-in player's correspondence games where it is their move, soonest deadline first:
// in the lobby's "Your turn" panel and on /yourturn (any page with a #yourturn-list), asked
// for again every minute.  Signed out, the panel stays hidden.
import { daysText, leftText } from "/static/days.js";
import { $, colourName, link } from "/static/dom.js";
import { t } from "/static/i18n.js";

async function show() {
  const answer = await fetch("/api/yourturn").catch(() => null);
  if (!answer || !answer.ok) return;
  const { games } = await answer.json();
  const list = $("yourturn-list");
  list.replaceChildren();
  for (const g of games) {
    const item = document.createElement("li");
    item.className = "yourturn-game";
    item.dataset.game = g.id;
    item.appendChild(link(g.url, t("%(rules)s against %(opponent)s", { rules: g.rules_title, opponent: g.opponent || t("player") })));
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

if ($("yourturn-list")) {
  show();
  setInterval(show, 60_000);
}
