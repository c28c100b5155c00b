// Your mistakes as puzzles (/puzzles/mistakes): the blunders a signed-in player made in their
// finished games (found by the games' reports) offered back as exercises: the position before
// the blunder, for the side that made it; find a better move (the best, or one of equal value,
// as the server judges it: the page holds no rules and never the answer).  A solved exercise is
// marked done for the account.
import { Board } from "/static/lib/board.js";
import { $, colourName, link, notice } from "/static/lib/dom.js";
import { extend, underWay } from "/static/lib/gesture.js";
import { ready } from "/static/lib/header.js";
import { getJSON, postJSON, reported, whoAmI } from "/static/lib/http.js";
import { list, t, tn } from "/static/lib/i18n.js";
import { readLegal } from "/static/lib/socket.js";

const page = {
  list: [],          // the exercises, as listed
  exercise: null,    // the exercise shown, as the server sent it
  view: null,        // its position, the legal moves read
  prefix: [],        // the points touched of the move being made
  board: null,
  boardRules: null,
  over: false,       // solved: no more moves
  busy: false,       // an answer is awaited
  flipped: false,
};

const pathOf = (e) => `/api/puzzles/mistakes/${encodeURIComponent(e.game_id)}/${e.ply}`;

async function call(request) {
  const data = await reported(request);
  if (data) notice("");
  return data;
}

function verdict(text, good) {
  const box = $("verdict");
  box.textContent = text;
  box.hidden = !text;
  box.classList.toggle("good", good === true);
  box.classList.toggle("bad", good === false);
}

function showList() {
  const done = page.list.filter((e) => e.done).length;
  $("mistakes-summary").textContent = page.list.length
    ? tn("%(done)s of %(num)s blunder found again.", "%(done)s of %(num)s blunders found again.",
      page.list.length, { done })
    : t("No blunder in your finished games' reports yet: once a game of yours has a report, its blunders come here.");
  $("mistakes").replaceChildren(...page.list.map((e) => {
    const item = document.createElement("li");
    item.dataset.id = e.id;
    item.dataset.done = String(e.done);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link";
    button.textContent = t("%(title)s: %(move)s, played by %(side)s", { title: e.rules_title, move: e.played, side: colourName(e.player) });
    button.onclick = () => open(e);
    item.append(button, " ", e.done ? t("done") : "", " ", link(`/game/${e.game_id}`, t("the game")));
    return item;
  }));
}

async function open(brief) {
  const exercise = await call(getJSON(pathOf(brief)));
  if (!exercise) return;
  page.exercise = exercise;
  page.view = readLegal(exercise.position);
  page.prefix = [];
  page.over = false;
  if (page.boardRules !== exercise.rules) {
    $("board").replaceChildren();
    page.board = new Board($("board"), exercise.board, touch);
    page.boardRules = exercise.rules;
  }
  page.flipped = exercise.player === "black";
  $("title").textContent = t("Your mistakes · %(title)s", { title: exercise.rules_title });
  verdict("");
  draw();
}

function touch(point) {
  if (!page.view || page.over || page.busy) return;
  const { prefix, done } = extend(page.view.legal, page.prefix, point);
  page.prefix = prefix;
  if (done) answer(done.n);
  else draw();
}

function draw() {
  if (!page.board || !page.view) return;
  page.board.flipped = page.flipped;
  const { pieces, marks } = underWay(page.view, page.exercise.board.styles, page.prefix, { last: page.view.last || [] });
  page.board.draw(pieces, marks);
  const e = page.exercise;
  $("status").textContent = page.over ? t("Solved!")
    : t("%(side)s to move: in your game you played %(move)s here, a blunder. Find a better move.",
      { side: colourName(e.player), move: e.played });
}

async function answer(move) {
  page.busy = true;
  const e = page.exercise;
  const data = await call(postJSON(`${pathOf(e)}/answer`, { move }));
  page.busy = false;
  page.prefix = [];
  if (!data) { draw(); return; }
  if (data.verdict === "solved") {
    page.over = true;
    verdict(t("Solved! Good moves here: %(moves)s.", { moves: list(data.better) }), true);
    const listed = page.list.find((x) => x.id === e.id);
    if (listed) listed.done = true;
    showList();
  } else {
    verdict(t("Not a better move: try again."), false);
  }
  draw();
}

// The next exercise not done (after the one shown), else the next one.
function next() {
  if (!page.list.length) return;
  const at = page.exercise ? page.list.findIndex((x) => x.id === page.exercise.id) : -1;
  const after = [...page.list.slice(at + 1), ...page.list.slice(0, at + 1)];
  open(after.find((x) => !x.done) || after[0]);
}

async function main() {
  $("next-mistake").onclick = next;
  $("flip").onclick = () => { page.flipped = !page.flipped; draw(); };
  const who = await whoAmI();
  if (!who.name) { $("status").textContent = t("Sign in to see yours."); return; }
  const listed = await call(getJSON("/api/puzzles/mistakes"));
  if (!listed) return;
  page.list = listed.exercises;
  showList();
  if (page.list.length) await open(page.list.find((x) => !x.done) || page.list[0]);
  else $("status").textContent = "";
}

main().then(ready);  // (the tests' ready marker)
