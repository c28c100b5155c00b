// Who is signed in, shown in every page's header (with links to the community pages), and
// send(): JSON requests that repeat the session's CSRF token, as the server asks of every
// state-changing request made with the session cookie.
import { link } from "/static/dom.js";
import { t } from "/static/i18n.js";

let me = null;  // {name, csrf}: name null when signed out

export async function whoAmI() {
  if (!me) {
    const answer = await fetch("/api/me").catch(() => null);  // null: no network
    me = answer && answer.ok ? await answer.json() : { name: null, csrf: null };
  }
  return me;
}

export async function send(path, body = undefined, method = "POST") {
  const who = await whoAmI();
  const headers = { "Content-Type": "application/json" };
  if (who.csrf) headers["X-CSRF-Token"] = who.csrf;
  return fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

// The guest seats this browser holds (game id and token), to hand to a new account.
export function guestClaims() {
  const claims = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = /^ludoteca:([A-Za-z0-9_-]{4,32})$/.exec(key);
    if (m && !["name", "sound", "theme", "board", "chat"].includes(m[1])) claims.push({ game: m[1], token: localStorage.getItem(key) });
  }
  return claims.slice(0, 500);
}

async function header() {
  const top = document.querySelector("header.top");
  if (!top) return;
  const nav = document.createElement("nav");
  nav.className = "account";
  nav.setAttribute("aria-label", t("Site"));
  nav.append(link("/games", t("Finished games")), link("/leaderboard", t("Leaderboard")));
  top.appendChild(nav);
  const who = await whoAmI();
  if (who.name) {
    const mine = link(`/players/${encodeURIComponent(who.name)}`, who.name);
    mine.id = "me";
    const out = document.createElement("button");
    out.type = "button";
    out.id = "sign-out";
    out.className = "theme";
    out.textContent = t("Sign out");
    out.onclick = async () => { await send("/api/logout"); location.reload(); };
    nav.append(mine, link("/moderation", t("Reports and blocks")), out);
  } else {
    const signIn = link(`/account?next=${encodeURIComponent(location.pathname)}`, t("Sign in"));
    signIn.id = "sign-in";
    nav.append(signIn);
  }
}

header();
