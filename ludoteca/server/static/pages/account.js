// The account page: sign in, make an account (taking this browser's guest games along),
// change the password.
import { $, notice } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { postJSON, reported, whoAmI } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";
import { showNotifications } from "/static/lib/notifications.js";

const next = new URLSearchParams(location.search).get("next");
const back = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";

// The guest seats this browser holds (game id and token), to hand to a new account.
function guestClaims() {
  const claims = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = /^ludoteca:([A-Za-z0-9_-]{4,32})$/.exec(key);
    if (m && !["name", "sound", "theme", "board", "chat"].includes(m[1])) claims.push({ game: m[1], token: localStorage.getItem(key) });
  }
  return claims.slice(0, 500);
}

const submit = (path, body) => reported(postJSON(path, body));

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
ready();  // (the tests' ready marker)
