// The account page's notifications: this browser's push subscription (the service worker shows
// the pushes: see sw.js) and what the account is told, per kind, by push and by e-mail.
import { $, notice } from "/static/lib/dom.js";
import { getJSON, postJSON, putJSON, quiet, reported } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

/** @typedef {import("/static/lib/types.js").NotificationChoices} NotificationChoices */

// Each kind of notification, in words (a kind the server adds later shows by its name).
/** @type {Record<string, () => string>} */
const KINDS = {
  turn: () => t("It is my move"),
  over: () => t("A game of mine ends"),
  challenge: () => t("Someone challenges me"),
};

/**
 * The bytes of base64url text (the server's key, as PushManager.subscribe wants it).
 * @param {string} text
 */
export function fromBase64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

const pushable = () => "serviceWorker" in navigator && "PushManager" in window;

async function subscription() {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

async function showPush() {
  const button = $("push-toggle");
  if (!pushable()) {
    $("push-state").textContent = t("This browser cannot receive push notifications.");
    return;
  }
  const subscribed = Boolean(await subscription());
  $("push-state").textContent = subscribed ? t("This browser receives your notifications.") : "";
  button.textContent = subscribed ? t("Stop notifications in this browser") : t("Notify me in this browser");
  button.onclick = () => (subscribed ? stopPush() : startPush()).then(showPush);
  button.hidden = false;
}

async function startPush() {
  if ((await Notification.requestPermission()) !== "granted") {
    notice(t("Notifications are blocked for this site: allow them in the browser's settings."));
    return;
  }
  /** @type {{key: string} | null} */
  const answer = await reported(getJSON("/api/push/key"));
  if (!answer) return;
  const registration = await navigator.serviceWorker.ready;
  const made = await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: fromBase64url(answer.key) });
  if (!(await reported(postJSON("/api/push/subscriptions", made.toJSON())))) await made.unsubscribe();
}

async function stopPush() {
  const found = await subscription();
  if (!found) return;
  await quiet(postJSON("/api/push/unsubscribe", { endpoint: found.endpoint }));
  await found.unsubscribe();
}

/** @param {string} kind  @param {{push: boolean, email: boolean}} channels */
function row(kind, channels) {
  const tr = document.createElement("tr");
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = KINDS[kind] ? KINDS[kind]() : kind;
  tr.append(th);
  for (const channel of /** @type {const} */ (["push", "email"])) {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.name = `${kind}.${channel}`;
    box.checked = channels[channel];
    box.setAttribute("aria-label", `${th.textContent}: ${channel === "push" ? t("Push") : t("E-mail")}`);
    const td = document.createElement("td");
    td.append(box);
    tr.append(td);
  }
  return tr;
}

/** @param {NotificationChoices} chosen */
function show(chosen) {
  $("notify-kinds").replaceChildren(...Object.entries(chosen.kinds).map(([kind, c]) => row(kind, c)));
  $("notify-email").value = chosen.email ?? "";
}

// Show the section for the signed-in account.
export async function showNotifications() {
  /** @type {NotificationChoices | null} */
  const chosen = await quiet(getJSON("/api/notifications"));
  if (!chosen) return;
  show(chosen);
  $("notifications").hidden = false;
  $("notify-form").onsubmit = async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    /** @type {Record<string, {push?: boolean, email?: boolean}>} */
    const kinds = {};
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ ($("notify-form").querySelectorAll("#notify-kinds input"))) {
      const [kind, channel] = box.name.split(".");
      (kinds[kind] ??= {})[/** @type {"push" | "email"} */ (channel)] = box.checked;
    }
    const email = $("notify-email").value.trim() || null;
    /** @type {NotificationChoices | null} */
    const saved = await reported(putJSON("/api/notifications", { email, kinds }));
    if (!saved) return;
    show(saved);
    notice(t("Your notification choices are saved."), true);
  };
  await showPush();
}
