// The account page: sign in, make an account (taking this browser's guest games along),
// change the password.
import { guestClaims, send, whoAmI } from "/static/account.js";
import { $, notice } from "/static/dom.js";
import { t } from "/static/i18n.js";
import { showNotifications } from "/static/notifications.js";

const next = new URLSearchParams(location.search).get("next");
const back = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";

async function submit(path, body) {
  const answer = await send(path, body);
  const data = await answer.json();
  if (!answer.ok) { notice(data.error); return null; }
  return data;
}

$("sign-in-form").onsubmit = async (event) => {
  event.preventDefault();
  const data = await submit("/api/login", { name: $("in-name").value.trim(),
    password: $("in-password").value, claims: guestClaims() });
  if (data) location.href = back;
};
$("sign-up-form").onsubmit = async (event) => {
  event.preventDefault();
  const data = await submit("/api/signup", { name: $("up-name").value.trim(),
    password: $("up-password").value, claims: guestClaims() });
  if (data) location.href = back;
};
$("password-form").onsubmit = async (event) => {
  event.preventDefault();
  const data = await submit("/api/password", { old: $("old-password").value, new: $("new-password").value });
  if (data) { notice(t("Your password is changed; your other sessions have ended."), true); event.target.reset(); }
};

const who = await whoAmI();
$("guest").hidden = Boolean(who.name);
$("member").hidden = !who.name;
if (who.name) {
  $("member-title").textContent = t("Signed in as %(name)s", { name: who.name });
  $("profile").href = `/players/${encodeURIComponent(who.name)}`;
  await showNotifications();
}
