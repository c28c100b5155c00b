// The service worker's push handlers, run in a sandbox standing for the worker's global scope:
// a push shows the notification it carries; a click focuses a window showing the game, else
// opens one, and never leaves the site.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import vm from "node:vm";

const source = await readFile(new URL("../../ludoteca/server/static/sw.js", import.meta.url), "utf8");
const ORIGIN = "https://ludoteca.test";

// The worker's global scope: its listeners by event, what it showed and opened.
function worker(windows = []) {
  const listeners = {};
  const done = { shown: [], opened: [], focused: [] };
  const self = {
    addEventListener: (type, listener) => { listeners[type] = listener; },
    registration: { showNotification: async (title, options) => { done.shown.push({ title, options }); } },
    clients: {
      matchAll: async () => windows.map((url) => ({ url, focus: async () => { done.focused.push(url); } })),
      openWindow: async (url) => { done.opened.push(url); },
    },
  };
  vm.runInNewContext(source, { self, location: new URL(ORIGIN), URL, VERSION: "test", ASSETS: [] });
  // an event whose waitUntil promise the test awaits
  const dispatch = async (type, fields) => {
    let waiting = Promise.resolve();
    listeners[type]({ ...fields, waitUntil: (promise) => { waiting = promise; } });
    await waiting;
  };
  return { dispatch, done };
}

const notice = { kind: "turn", title: "Your move against Ann", body: "Nine Men's Morris: Ann played d6.",
  url: "/game/abc123", game: "abc123", tag: "game-abc123" };

test("a push shows its notification, tagged by game, with the page to open", async () => {
  const { dispatch, done } = worker();
  await dispatch("push", { data: { json: () => notice } });
  assert.equal(done.shown.length, 1);
  const [{ title, options }] = done.shown;
  assert.equal(title, "Your move against Ann");
  assert.equal(options.body, notice.body);
  assert.equal(options.tag, "game-abc123");
  assert.equal(options.data.url, "/game/abc123");
});

test("a push without data shows nothing", async () => {
  const { dispatch, done } = worker();
  await dispatch("push", { data: null });
  assert.equal(done.shown.length, 0);
});

function click(url) {
  const closed = [];
  return { closed, notification: { data: { url }, close: () => closed.push(url) } };
}

test("a click focuses the window showing the game", async () => {
  const { dispatch, done } = worker([`${ORIGIN}/`, `${ORIGIN}/game/abc123`]);
  const event = click("/game/abc123");
  await dispatch("notificationclick", event);
  assert.deepEqual(event.closed, ["/game/abc123"]);
  assert.deepEqual(done.focused, [`${ORIGIN}/game/abc123`]);
  assert.deepEqual(done.opened, []);
});

test("a click opens the game when no window shows it, and never another site", async () => {
  const { dispatch, done } = worker([`${ORIGIN}/lobby`]);
  await dispatch("notificationclick", click("/game/abc123"));
  await dispatch("notificationclick", click("https://elsewhere.example/phish"));
  assert.deepEqual(done.opened, [`${ORIGIN}/game/abc123`, `${ORIGIN}/`]);
  assert.deepEqual(done.focused, []);
});
