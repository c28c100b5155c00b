// What makes every page part of the installable app: the service worker (/sw.js: the page
// shell and static files kept for offline use) registered, and a notice at the top of the page
// while the network is down (the pages shown are saved copies; games need the server).
const notice = document.createElement("p");
notice.id = "offline";
notice.className = "offline";
notice.setAttribute("role", "status");
notice.textContent = "You are offline: this is a saved copy of the page. Games and lists need "
  + "the network and come back when it does.";

function showNetwork() { notice.hidden = navigator.onLine; }

document.body.prepend(notice);
showNetwork();
window.addEventListener("online", showNetwork);
window.addEventListener("offline", showNetwork);
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});  // no app, the pages still work
}
