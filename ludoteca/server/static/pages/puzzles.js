// The puzzle page: a puzzle of any rule set played on the game's board, one at a time or in a
// streak or rush run.  The page knows no rules and never the solution: each move is sent to the
// server (the player's moves so far), which answers right (with the opponent's reply and the
// position after it), solved or wrong; a wrong move is taken back.  Signed-in players see their
// puzzle rating move after each counted attempt.
import { BlindMode } from "/static/lib/blind.js";
import { Board } from "/static/lib/board.js";
import { $, link, notice } from "/static/lib/dom.js";
import { extend, underWay } from "/static/lib/gesture.js";
import { ready } from "/static/lib/header.js";
import { getJSON, postJSON, reported, whoAmI } from "/static/lib/http.js";
import { t, tn } from "/static/lib/i18n.js";
import { marked, marks } from "/static/lib/seen-puzzles.js";
import { readLegal } from "/static/lib/socket.js";

// Every text the page shows, in one place.
const signed = (n) => `${n >= 0 ? "+" : ""}${Math.round(n)}`;
const TEXT = {
  find: (side, moves) => (moves > 1
    ? t("%(side)s to move: find the winning move (%(moves)s moves of yours).", { side, moves })
    : t("%(side)s to move: find the winning move.", { side })),
  keepGoing: (reply) => t("Right! The reply was %(reply)s. Find the next winning move.", { reply }),
  solved: () => t("Solved!"),
  wrong: () => t("Not the move: it is taken back. Try again, or show the solution."),
  wrongInRun: () => t("Not the move."),
  solution: (shown, total) => t("The solution, move %(shown)s of %(total)s: ◀ and ▶ step through it.", { shown, total }),
  rating: (r) => " " + t("Your puzzle rating: %(before)s → %(after)s (%(change)s).",
    { before: Math.round(r.before), after: Math.round(r.after), change: signed(r.change) }),
  about: (p) => (p.own
    ? t("%(title)s · theme: %(theme)s · rating %(rating)s · a player's own puzzle (unrated)", p)
    : t("%(title)s · theme: %(theme)s · rating %(rating)s", p)),
  runTitle: (mode) => (mode === "rush" ? t("Rush") : t("Streak")),
  runOver: (run) => (run.mode === "rush"
    ? t("The rush is over: %(score)s solved.", run) : t("The streak is over: %(score)s solved.", run)),
  me: (m) => tn("%(rating)s after %(num)s puzzle · best streak %(streak)s · best rush %(rush)s",
    "%(rating)s after %(num)s puzzles · best streak %(streak)s · best rush %(rush)s", m.attempts,
    { rating: `${Math.round(m.rating)}${m.provisional ? "?" : ""}`, streak: m.best_streak, rush: m.best_rush }),
  tried: (h) => (h.solved
    ? t("solved, rating %(rating)s (%(change)s)", { rating: Math.round(h.rating), change: signed(h.change) })
    : t("failed, rating %(rating)s (%(change)s)", { rating: Math.round(h.rating), change: signed(h.change) })),
  anyTheme: () => t("Any theme"),
  side: (turn) => (turn === "white" ? t("White") : t("Black")),
  title: (title) => t("Puzzle · %(title)s", { title }),
};

// {rules: this browser's record of the puzzles of that set it has shown (seen-puzzles.js)}:
// sent with each draw so that none comes again (a guest has no other record) until the set is
// spent, however many it holds
const SEEN = "ludoteca:puzzles:seen";

const page = {
  sets: [],          // the rule sets with puzzles
  puzzle: null,      // the puzzle shown, as the server sent it
  view: null,        // the position to play, its legal moves read
  played: [],        // the player's moves so far
  prefix: [],        // the points touched of the move being made
  board: null,
  boardRules: null,  // the rule set the board was made for
  over: false,       // solved, or its solution shown: no more moves
  frames: null,      // the solution's pictures, once shown
  frame: 0,
  run: null,         // the streak or rush under way
  clock: null,       // the rush's ticking timer
  busy: false,       // an answer is awaited
  flipped: false,
};

// The JSON answer of a request (a GET, or a POST of `body`), or null once its failure is shown.
async function call(path, body = undefined) {
  const data = await reported(body === undefined ? getJSON(path) : postJSON(path, body));
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

function seen() {
  try {
    return JSON.parse(localStorage.getItem(SEEN)) || {};
  } catch {
    return {};
  }
}

// Keep `puzzle` as seen (a player's own puzzle is in no set).
function remember(puzzle) {
  if (puzzle.edition === null || puzzle.number === null) return;
  const all = seen();
  all[puzzle.rules] = marked(all[puzzle.rules], puzzle.edition, puzzle.number);
  localStorage.setItem(SEEN, JSON.stringify(all));
}

// Forget the puzzles of `rules` seen (the server drew one of them: the set is spent).
function forget(rules) {
  const all = seen();
  delete all[rules];
  localStorage.setItem(SEEN, JSON.stringify(all));
}

function show(puzzle) {
  remember(puzzle);
  page.puzzle = puzzle;
  page.view = readLegal(puzzle.position);
  page.played = [];
  page.prefix = [];
  page.over = false;
  page.frames = null;
  if (page.boardRules !== puzzle.rules) {
    $("board").replaceChildren();
    page.board = new Board($("board"), puzzle.board, touch);
    page.boardRules = puzzle.rules;
  }
  page.flipped = puzzle.player === "black";
  $("about").textContent = TEXT.about({ ...puzzle, title: puzzle.rules_title, theme: puzzle.theme_text });
  $("permalink").href = `/puzzles/${puzzle.id}`;
  if (!page.run) history.replaceState(null, "", `/puzzles/${puzzle.id}`);
  $("title").textContent = TEXT.title(puzzle.rules_title);
  $("set").value = page.sets.some((s) => s.rules === puzzle.rules) ? puzzle.rules : $("set").value;
  verdict("");
  steps();
  draw();
  blind.update();
  blind.say($("status").textContent);
}

// A touch on the board: extend the move being made; a complete move is sent as the answer.
function touch(point) {
  if (!page.view || page.over || page.busy) return;
  const { prefix, done } = extend(page.view.legal, page.prefix, point);
  page.prefix = prefix;
  if (done) answer(done.n);
  else { draw(); blind.touched(prefix); }
}

function draw() {
  if (!page.board || !page.view) return;
  page.board.flipped = page.flipped;
  if (page.frames) {
    const shown = page.frames[page.frame];
    page.board.draw(shown.pieces, { last: shown.last, marked: shown.marked });
    $("status").textContent = TEXT.solution(page.frame, page.frames.length - 1);
    return;
  }
  const { pieces, marks } = underWay(page.view, page.puzzle.board.styles, page.prefix, { last: page.view.last || [] });
  page.board.draw(pieces, marks);
  const left = page.puzzle.moves - page.played.length;
  $("status").textContent = page.run && page.run.over ? TEXT.runOver(page.run)
    : page.over ? TEXT.solved() : TEXT.find(TEXT.side(page.view.turn), left);
}

// Send the player's moves with `move` added; show the verdict.
async function answer(move) {
  page.busy = true;
  const puzzle = page.puzzle;
  const data = await call(`/api/puzzles/${puzzle.id}/answer`,
    { moves: [...page.played, move], run: page.run ? page.run.id : null });
  page.busy = false;
  page.prefix = [];
  if (!data) { draw(); return; }
  const rating = data.rating ? TEXT.rating(data.rating) : "";
  if (data.verdict === "right") {
    page.played.push(move);
    page.view = readLegal(data.position);
    verdict(TEXT.keepGoing(data.reply), true);
  } else if (data.verdict === "solved") {
    page.played.push(move);
    page.over = true;
    page.frames = data.frames;
    page.frame = data.frames.length - 1;
    verdict(TEXT.solved() + rating, true);
  } else {
    verdict((page.run ? TEXT.wrongInRun() : TEXT.wrong()) + rating, false);
  }
  steps();
  draw();
  blind.say($("verdict").textContent);
  if (data.rating) showMe();
  if (data.run) showRun(data.run, data.verdict !== "right");
}

async function showSolution() {
  if (!page.puzzle || page.run) return;
  const data = await call(`/api/puzzles/${page.puzzle.id}/solution`, {});
  if (!data) return;
  page.over = true;
  page.frames = data.frames;
  page.frame = 1;
  // the verdict of a wrong try ("…or show the solution") is over once the solution shows
  verdict(data.rating ? TEXT.rating(data.rating).trim() : "", false);
  if (data.rating) showMe();
  steps();
  draw();
}

// The solution's step buttons, shown while it is.
function steps() {
  $("step-back").hidden = $("step-next").hidden = !page.frames;
  $("show-solution").hidden = Boolean(page.run) || Boolean(page.frames);
  $("next-puzzle").hidden = Boolean(page.run && !page.run.over);
}

function step(delta) {
  if (!page.frames) return;
  page.frame = Math.max(0, Math.min(page.frames.length - 1, page.frame + delta));
  draw();
}

async function nextPuzzle() {
  stopRun();
  const rules = $("set").value;
  const sent = seen()[rules];
  const query = new URLSearchParams({ rules, difficulty: $("difficulty").value });
  // (a record of the earlier format, a list of ids, is not sent: the set starts afresh)
  if (sent && typeof sent.edition === "string" && typeof sent.bits === "string") {
    query.set("edition", sent.edition);
    query.set("seen", sent.bits);
  }
  if ($("puzzle-theme").value) query.set("theme", $("puzzle-theme").value);
  const puzzle = await call(`/api/puzzles/next?${query}`);
  if (!puzzle) return;
  if (sent && puzzle.number !== null && marks(sent, puzzle.edition, puzzle.number)) forget(rules);
  show(puzzle);
}

// --- runs --------------------------------------------------------------------------------
async function startRun(mode) {
  stopRun();
  const run = await call("/api/puzzles/runs", { mode, rules: $("set").value });
  if (!run) return;
  history.replaceState(null, "", `/puzzles?mode=${mode}&rules=${encodeURIComponent(run.rules)}`);
  page.run = run;
  show(run.puzzle);
  showRun(run, false);
  if (mode === "rush") {
    const ends = Date.now() + run.seconds_left * 1000;
    page.clock = setInterval(() => tick(ends), 250);
    tick(ends);
  }
}

function tick(ends) {
  const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
  $("run-clock").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (left === 0 && page.run) {
    clearInterval(page.clock);
    call(`/api/puzzles/runs/${page.run.id}`).then((run) => { if (run) showRun(run, true); });
  }
}

function stopRun() {
  clearInterval(page.clock);
  page.run = null;
  $("run").hidden = true;
}

// Show the run as it stands; `moved`: a puzzle of it was just finished (the next is shown
// after a moment, or the end).
function showRun(run, moved) {
  page.run = run;
  $("run").hidden = false;
  $("run-title").textContent = TEXT.runTitle(run.mode);
  $("run-score").textContent = String(run.score);
  $("run-mistakes").textContent = String(run.mistakes);
  $("run-mistakes-part").hidden = $("run-clock-part").hidden = run.mode !== "rush";
  $("run-over").hidden = !run.over;
  if (run.over) {
    clearInterval(page.clock);
    $("run-over").textContent = TEXT.runOver(run);
    page.over = true;
    verdict(TEXT.runOver(run), run.score > 0);
    draw();
    showMe();
  } else if (moved && run.puzzle) {
    setTimeout(() => { if (page.run === run) show(run.puzzle); }, 700);
  }
  steps();
}

// --- the player ----------------------------------------------------------------------------
async function showMe() {
  const who = await whoAmI();
  if (!who.name) return;
  const me = await call("/api/puzzles/me");
  if (!me) return;
  $("my-rating").textContent = TEXT.me(me);
  $("history").replaceChildren(...me.history.slice(0, 10).map((h) => {
    const item = document.createElement("li");
    const set = page.sets.find((s) => s.rules === h.rules);
    item.append(link(`/puzzles/${h.puzzle}`, set ? set.title : h.rules), ` ${TEXT.tried(h)}`);
    return item;
  }));
}

function showThemes() {
  const set = page.sets.find((s) => s.rules === $("set").value);
  const themes = Object.entries(set ? set.themes : {});
  $("puzzle-theme").replaceChildren(new Option(TEXT.anyTheme(), ""),
    ...themes.map(([name, words]) => new Option(words, name)));
}

// The blind mode reads the puzzle out (what to find, the verdicts, the position on demand),
// lists the legal moves and plays the moves typed in its box.
const blind = new BlindMode({
  position: () => page.view && { description: page.view.description, legal: page.over ? [] : page.view.legal,
                                 names: page.puzzle.board.points },
  lastMove: () => (page.view && page.view.said) || "",
  line: () => ({ game: page.view.game, rules: page.view.rules, start: page.view.code, moves: [] }),
  play: (notation) => { if (!page.over && !page.busy) answer(notation); },
  quiet: ["status", "verdict"],
});

async function main() {
  $("choose").onsubmit = (event) => { event.preventDefault(); nextPuzzle(); };
  $("streak").onclick = () => startRun("streak");
  $("rush").onclick = () => startRun("rush");
  $("next-puzzle").onclick = nextPuzzle;
  $("show-solution").onclick = showSolution;
  $("step-back").onclick = () => step(-1);
  $("step-next").onclick = () => step(1);
  $("flip").onclick = () => { page.flipped = !page.flipped; draw(); };
  $("set").onchange = showThemes;
  page.sets = await call("/api/puzzles/sets") || [];
  $("set").replaceChildren(...page.sets.map((s) => new Option(s.title, s.rules)));
  const params = new URLSearchParams(location.search);
  if (params.get("rules")) $("set").value = params.get("rules");
  showThemes();
  if (params.get("theme")) $("puzzle-theme").value = params.get("theme");  // (the dashboard's links)
  showMe();
  const id = $("board-area").dataset.puzzle;
  const mode = params.get("mode");
  if (id) {
    const puzzle = await call(`/api/puzzles/${id}`);
    if (puzzle) show(puzzle);
  } else if (mode === "streak" || mode === "rush") await startRun(mode);
  else await nextPuzzle();
}

main().then(ready);  // (the tests' ready marker)
