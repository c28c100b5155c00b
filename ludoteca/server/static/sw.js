// The service worker that makes Ludoteca an installable app, served as /sw.js (so its scope is
// the whole site) with two constants put before this text by the server: VERSION (a digest of
// the static files and page templates: a new one replaces the cache) and ASSETS (the URLs of
// the static files).  It keeps the page shell (the lobby, the review and puzzle pages) and the
// static files for use offline: pages are fetched from the network first and the saved copy used
// when it is down; static files come from the cache.  The API, the websockets and any other
// origin always go to the network, never to the cache.
// the worker's own global scope, as TypeScript's check should see it (tsconfig.sw.json)
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const CACHE = `ludoteca-${VERSION}`;
const SHELL = ["/", "/review", "/puzzles"];

sw.addEventListener("install", (event) => {
  // (each fetched past the browser's HTTP cache, whose copy may be the old version's)
  const fresh = [...SHELL, ...ASSETS].map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(fresh)));
  sw.skipWaiting();
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await sw.clients.claim();
  })());
});

// Pages vary by cookie and language (the server says so); offline, the saved copy serves
// whichever it was saved for, as the browser's own request headers never match it exactly.
const SAVED = { ignoreVary: true };

// A page: the network's answer (saved for later), else the saved copy, else the saved lobby.
/** @param {Request} request */
async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(request, answer.clone());
    return answer;
  } catch (error) {
    const saved = (await cache.match(request, SAVED)) || (await cache.match("/", SAVED));
    if (saved) return saved;
    throw error;
  }
}

// A static file: the saved copy, else the network's answer (saved for later).
/** @param {Request} request */
async function asset(request) {
  const cache = await caches.open(CACHE);
  const saved = await cache.match(request, SAVED);
  if (saved) return saved;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
}

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(asset(request));
});

// A push (see lib/notifications.js): show the notification it carries (one a game: the newer
// replaces the older); a click on it focuses a window showing the game, else opens one.
sw.addEventListener("push", (event) => {
  const notice = event.data ? event.data.json() : null;
  if (!notice) return;
  event.waitUntil(sw.registration.showNotification(notice.title, {
    body: notice.body, tag: notice.tag, data: { url: notice.url }, icon: "/static/icons/icon-192.png",
  }));
});

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", location.origin);
  const target = url.origin === location.origin ? url.href : location.origin + "/";
  event.waitUntil((async () => {
    const open = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
    const showing = open.find((client) => client.url === target);
    return showing ? showing.focus() : sw.clients.openWindow(target);
  })());
});
