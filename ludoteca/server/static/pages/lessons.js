// The rules lessons: each game's lessons as the server sends them, each step a small position
// where the player makes the move the sentence asks for, touch by touch on the board; the
// server's engine says whether the move does it.  The page knows no game and no rules: the
// positions arrive with their legal moves as gestures.  Progress is kept in localStorage.
import { Board } from "/static/lib/board.js";
import { $, notice } from "/static/lib/dom.js";
import { extend, underWay } from "/static/lib/gesture.js";
import { ready } from "/static/lib/header.js";
import { getJSON, postJSON, reported } from "/static/lib/http.js";
import { t, tn } from "/static/lib/i18n.js";
import { readLegal } from "/static/lib/socket.js";

// {"game/lesson": the number of steps done} (a key no guest seat's can be: see account.js)
const PROGRESS = "ludoteca:lessons:progress";
const params = new URLSearchParams(location.search);

const page = {
  games: [],       // the lessons of each game, from /api/lessons
  lesson: null,    // the lesson open, from /api/lessons/<game>/<key>
  step: 0,
  view: null,      // the step's position (legal moves read), then the position after a right move
  board: null,
  prefix: [],      // the points touched of the move being made
  solved: false,
};

function progress() {
  try {
    return JSON.parse(localStorage.getItem(PROGRESS)) || {};
  } catch {
    return {};
  }
}

function record(done) {
  const all = progress();
  const name = `${page.lesson.game}/${page.lesson.key}`;
  all[name] = Math.max(all[name] || 0, done);
  localStorage.setItem(PROGRESS, JSON.stringify(all));
  listing();
}

// The list of every game's lessons, each with its progress; where a game's lessons are of
// several rule sets, each run of one rule set's lessons under that rule set's title.
function listing() {
  const box = $("lessons");
  box.replaceChildren();
  const done = progress();
  for (const game of page.games) {
    const heading = document.createElement("h3");
    heading.textContent = game.title;
    box.append(heading);
    const several = new Set(game.lessons.map((lesson) => lesson.rules)).size > 1;
    let list = null;
    for (const [i, lesson] of game.lessons.entries()) {
      if (!list || (several && lesson.rules !== game.lessons[i - 1].rules)) {
        if (several) {
          const rules = document.createElement("h4");
          rules.textContent = lesson.rules_title;
          box.append(rules);
        }
        list = document.createElement("ol");
        box.append(list);
      }
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.textContent = lesson.title;
      button.dataset.lesson = `${game.game}/${lesson.key}`;
      button.onclick = () => open(game.game, lesson.key);
      if (page.lesson && page.lesson.game === game.game && page.lesson.key === lesson.key) {
        button.setAttribute("aria-current", "page");
        item.classList.add("current");
      }
      const steps = Math.min(done[`${game.game}/${lesson.key}`] || 0, lesson.steps);
      const state = document.createElement("span");
      state.className = "small";
      state.textContent = steps === lesson.steps ? ` ✓ ${t("done")}`
        : ` ${tn("%(done)s of %(num)s step", "%(done)s of %(num)s steps", lesson.steps, { done: steps })}`;
      if (steps === lesson.steps) item.classList.add("done");
      item.append(button, state);
      list.appendChild(item);
    }
  }
}

async function open(game, key) {
  const lesson = await reported(getJSON(`/api/lessons/${encodeURIComponent(game)}/${encodeURIComponent(key)}`));
  if (!lesson) return;
  page.lesson = lesson;
  listing();
  history.replaceState(null, "", `?game=${encodeURIComponent(game)}&lesson=${encodeURIComponent(key)}`);
  $("lesson").hidden = false;
  $("lesson-title").textContent = lesson.title;
  $("lesson-rules").textContent = t("Rule set: %(rules)s", { rules: lesson.rules_title });
  $("lesson-intro").textContent = lesson.intro;
  $("board").replaceChildren();
  page.board = new Board($("board"), lesson.board, touch);
  const done = progress()[`${game}/${key}`] || 0;
  showStep(done < lesson.steps.length ? done : 0);
}

function showStep(number) {
  const step = page.lesson.steps[number];
  page.step = number;
  page.view = readLegal(step.position);
  page.prefix = [];
  page.solved = false;
  notice("");
  $("ask").textContent = t("Step %(step)s of %(num)s: %(ask)s",
    { step: number + 1, num: page.lesson.steps.length, ask: step.ask });
  $("status").textContent = page.view.turn === "white" ? t("White to move.") : t("Black to move.");
  $("next-step").hidden = $("next-lesson").hidden = true;
  $("hint").hidden = $("again").hidden = false;
  draw();
}

// The lesson after the one open: the next of its game, else the first of the next game (null
// after the last).
function following() {
  const all = page.games.flatMap((game) => game.lessons.map((lesson) => [game.game, lesson.key]));
  const at = all.findIndex(([game, key]) => game === page.lesson.game && key === page.lesson.key);
  return all[at + 1] || null;
}

function draw(last = null) {
  const view = page.view;
  const { pieces, marks } = underWay(view, page.lesson.board.styles, page.solved ? [] : page.prefix, { last: last || [] });
  page.board.draw(pieces, marks);
}

function touch(point) {
  if (!page.view || page.solved) return;
  const { prefix, done } = extend(page.view.legal, page.prefix, point);
  page.prefix = prefix;
  if (done) { answer(done); return; }
  draw();
}

// Send the move made to the engine and say what it found.
async function answer(move) {
  page.prefix = [];
  const path = `/api/lessons/${encodeURIComponent(page.lesson.game)}/${encodeURIComponent(page.lesson.key)}/${page.step}`;
  const verdict = await reported(postJSON(path, { move: move.n }));
  if (!verdict) { draw(); return; }
  $("status").textContent = verdict.sentence;
  if (!verdict.right) {
    notice(t("Not quite: try again."));
    draw();
    showFeedback();
    return;
  }
  page.solved = true;
  page.view = readLegal(verdict.after);
  draw(verdict.after.last);
  record(page.step + 1);
  const last = page.step + 1 === page.lesson.steps.length;
  notice(last ? t("Lesson complete!") : t("Right!"), true);
  $("next-step").hidden = last;
  // a finished lesson has nothing left to hint at or retry: on to the next one
  $("hint").hidden = $("again").hidden = last;
  $("next-lesson").hidden = !last || !following();
  showFeedback();
}

// Bring the engine's answer into view (on a narrow screen it is under the board, which may
// reach past the window's foot): the smallest scroll that shows it whole.
function showFeedback() {
  $("feedback").scrollIntoView({ block: "nearest" });
}

$("hint").onclick = () => { if (page.lesson) $("status").textContent = page.lesson.steps[page.step].hint; };
$("again").onclick = () => { if (page.lesson) showStep(page.step); };
$("next-step").onclick = () => showStep(page.step + 1);
$("next-lesson").onclick = () => { const next = following(); if (next) open(...next); };

page.games = await reported(getJSON("/api/lessons")) || [];
listing();
const first = page.games[0];
if (params.get("game") && params.get("lesson")) await open(params.get("game"), params.get("lesson"));
else if (first) await open(first.game, first.lessons[0].key);
ready();  // (the tests' ready marker)
