// Reports and blocks for every signed-in player; for moderators, the reports, the log of
// moderation actions and a form to act (mute, close, remove a chat line, unrate).
import { table } from "/static/lib/community.js";
import { $ } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { deleteJSON, getJSON, postJSON, quiet, settled } from "/static/lib/http.js";
import { list, t } from "/static/lib/i18n.js";

/**
 * Make a request; show its refusal's sentence (or "Done.") in the element `said`; whether it
 * was done.
 * @param {string} said  @param {Promise<unknown>} request
 */
async function ask(said, request) {
  const answer = await settled(request);
  const failed = answer instanceof Error;
  $(said).textContent = failed ? answer.message : t("Done.");
  return !failed;
}

/**
 * A table of `items` (one row each, its `cells`) under `headings` in `element`.
 * @template T  @param {string} element  @param {string[]} headings  @param {T[]} items
 * @param {(item: T) => (string | null | undefined)[]} cells
 */
function rows(element, headings, items, cells) {
  const grid = table(headings);
  for (const item of items) {
    const row = grid.tBodies[0].insertRow();
    for (const text of cells(item)) row.insertCell().textContent = text ?? "";
  }
  $(element).replaceChildren(items.length ? grid : t("Nothing yet."));
}

async function standing() {
  /** @type {{blocks: string[], moderator: boolean} | null} */
  const me = await quiet(getJSON("/api/moderation/me"));
  if (!me) { $("report-said").textContent = t("Sign in to report or block a player."); return; }
  $("blocks").textContent = me.blocks.length ? t("You block: %(names)s", { names: list(me.blocks) }) : "";
  $("moderators").hidden = !me.moderator;
  if (me.moderator) await moderatorView();
}

/** The log's action, in words: the form's own option for a moderator's action, else the
 * operator's role changes (`ludoteca users grant|revoke`).
 * @param {string} key */
function actionWords(key) {
  const option = /** @type {HTMLSelectElement} */ ($("action")).querySelector(`option[value="${CSS.escape(key)}"]`);
  if (option) return option.textContent ?? key;
  return { grant: t("grant a role"), revoke: t("revoke a role") }[key] ?? key;
}

async function moderatorView() {
  /** @type {any[] | null} */
  const reports = await quiet(getJSON("/api/moderation/reports"));
  if (reports) {
    rows("reports", [t("Date"), t("By"), t("Player"), t("Reason"), t("What happened"), t("Chat line")], reports,
      (r) => [r.at.slice(0, 16), r.reporter, r.player, r.reason_title, r.text, r.chat_id ? `#${r.chat_id}: ${r.chat_text}` : ""]);
  }
  /** @type {any[] | null} */
  const log = await quiet(getJSON("/api/moderation/log"));
  if (log) {
    rows("log", [t("Date"), t("Moderator"), t("Action"), t("Player"), t("Detail"), t("Why")], log,
      (e) => [e.at.slice(0, 16), e.moderator, actionWords(e.action), e.player, e.detail, e.reason]);
  }
}

$("report-form").onsubmit = async (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  await ask("report-said", postJSON("/api/moderation/reports",
    { player: $("report-player").value, reason: $("report-reason").value, text: $("report-text").value }));
};
$("block").onclick = async () => {
  if (await ask("report-said", postJSON("/api/moderation/blocks", { player: $("report-player").value }))) standing();
};
$("unblock").onclick = async () => {
  const path = `/api/moderation/blocks/${encodeURIComponent($("report-player").value)}`;
  if (await ask("report-said", deleteJSON(path))) standing();
};
$("action-form").onsubmit = async (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  const number = (/** @type {string} */ id) => ($(id).value ? Number($(id).value) : null);
  const body = { action: $("action").value, player: $("action-player").value || null,
    chat_id: number("action-line"), minutes: number("action-minutes"), reason: $("action-reason").value };
  if (await ask("action-said", postJSON("/api/moderation/actions", body))) moderatorView();
};

/** @type {{key: string, title: string}[] | null} */
const reasons = await quiet(getJSON("/api/moderation/reasons"));
for (const r of reasons || []) $("report-reason").appendChild(new Option(r.title, r.key));
standing().then(ready);  // (the tests' ready marker: the player's standing drawn)
