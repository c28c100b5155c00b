// What makes every page part of the installable app: the service worker (/sw.js: the page
// shell and static files kept for offline use) registered, and a notice at the top of the page
// while the network is down (the pages shown are saved copies; games need the server), checked
// when the page opens, whenever the browser goes on or off line, and every 3 s while it is shown.
// Also the header's language switcher: a choice is sent at once (the server remembers it in a
// cookie and shows this same page again in that language).
import { $ } from "/static/lib/dom.js";
import { serverAnswers } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

const notice = document.createElement("p");
notice.id = "offline";
notice.className = "offline";
notice.setAttribute("role", "status");
notice.textContent = t("You are offline: this is a saved copy of the page. Games and lists need "
  + "the network and come back when it does.");

/** @type {number | undefined} */
let retry;

// Show the notice while the browser says it is offline or the server cannot be reached (a
// saved page may open while the browser still believes it is online).
async function showNetwork() {
  const reached = navigator.onLine && await serverAnswers();
  notice.hidden = reached;
  clearTimeout(retry);
  if (!reached) retry = setTimeout(showNetwork, 3000);  // until the server answers again
}

notice.hidden = true;
document.body.prepend(notice);
showNetwork();
window.addEventListener("online", showNetwork);
window.addEventListener("offline", showNetwork);
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});  // no app, the pages still work
}

const language = /** @type {HTMLFormElement | null} */ (document.getElementById("language"));
if (language) {
  $("language-back").value = location.pathname + location.search;
  $("language-go").hidden = true;
  $("language-choice").onchange = () => language.submit();
}
