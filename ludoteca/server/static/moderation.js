// Reports and blocks for every signed-in player; for moderators, the reports, the log of
// moderation actions and a form to act (mute, close, remove a chat line, unrate).
import { send, whoAmI } from "/static/account.js";
import { table } from "/static/community.js";
import { $ } from "/static/dom.js";
import { t } from "/static/i18n.js";

// Send a request; show its refusal's sentence (or "Done.") in the element `said`.
async function ask(said, path, body, method = "POST") {
  const answer = await send(path, body, method);
  $(said).textContent = answer.ok ? t("Done.") : (await answer.json()).error;
  return answer.ok;
}

function rows(element, headings, items, cells) {
  const grid = table(headings);
  for (const item of items) {
    const row = grid.tBodies[0].insertRow();
    for (const text of cells(item)) row.insertCell().textContent = text ?? "";
  }
  $(element).replaceChildren(items.length ? grid : t("Nothing yet."));
}

async function standing() {
  const answer = await fetch("/api/moderation/me");
  if (!answer.ok) { $("report-said").textContent = t("Sign in to report or block a player."); return; }
  const me = await answer.json();
  $("blocks").textContent = me.blocks.length ? t("You block: %(names)s", { names: me.blocks.join(", ") }) : "";
  $("moderators").hidden = !me.moderator;
  if (me.moderator) await moderatorView();
}

async function moderatorView() {
  const reports = await (await fetch("/api/moderation/reports")).json();
  rows("reports", [t("Date"), t("By"), t("Player"), t("Reason"), t("What happened"), t("Chat line")], reports,
    (r) => [r.at.slice(0, 16), r.reporter, r.player, r.reason_title, r.text, r.chat_id ? `#${r.chat_id}: ${r.chat_text}` : ""]);
  const log = await (await fetch("/api/moderation/log")).json();
  rows("log", [t("Date"), t("Moderator"), t("Action"), t("Player"), t("Detail"), t("Why")], log,
    (e) => [e.at.slice(0, 16), e.moderator, e.action, e.player, e.detail, e.reason]);
}

$("report-form").onsubmit = async (event) => {
  event.preventDefault();
  await ask("report-said", "/api/moderation/reports",
    { player: $("report-player").value, reason: $("report-reason").value, text: $("report-text").value });
};
$("block").onclick = async () => {
  if (await ask("report-said", "/api/moderation/blocks", { player: $("report-player").value })) standing();
};
$("unblock").onclick = async () => {
  const path = `/api/moderation/blocks/${encodeURIComponent($("report-player").value)}`;
  if (await ask("report-said", path, undefined, "DELETE")) standing();
};
$("action-form").onsubmit = async (event) => {
  event.preventDefault();
  const number = (id) => ($(id).value ? Number($(id).value) : null);
  const body = { action: $("action").value, player: $("action-player").value || null,
    chat_id: number("action-line"), minutes: number("action-minutes"), reason: $("action-reason").value };
  if (await ask("action-said", "/api/moderation/actions", body)) moderatorView();
};

for (const r of await (await fetch("/api/moderation/reasons")).json()) $("report-reason").appendChild(new Option(r.title, r.key));
await whoAmI();
standing();
