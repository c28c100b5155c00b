// Who is signed in, shown in every page's header (with links to the community pages); drawn
// when this module is imported.
import { link } from "/static/lib/dom.js";
import { postJSON, reported, whoAmI } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

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
    out.onclick = async () => { if (await reported(postJSON("/api/logout"))) location.reload(); };
    nav.append(mine, link("/moderation", t("Reports and blocks")), out);
  } else {
    const signIn = link(`/account?next=${encodeURIComponent(location.pathname)}`, t("Sign in"));
    signIn.id = "sign-in";
    nav.append(signIn);
  }
}

const drawn = header();

// --- the page's "ready" marker (for the browser tests) ------------------------------------
// <html data-ready="1">, set by each page's script once its first data is drawn (and the header).
export async function ready() {
  await drawn;
  document.documentElement.dataset.ready = "1";
}
// --- (end of the ready marker) -------------------------------------------------------------
