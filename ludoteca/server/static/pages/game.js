// The game page: draws what the server sends and sends the player's intents.  It holds no rules:
// legal moves arrive as the points to touch ("gestures"), and a move is sent by its notation.
// The page's modules share one state object (state.js); this one wires them together.
import { adviceControls, dropAdvice, showHint } from "/static/lib/advice.js";
import { BlindMode } from "/static/lib/blind.js";
import { Board } from "/static/lib/board.js";
import { chatControls, chatRefused, removeChat, showChat } from "/static/lib/chat.js";
import { clockReceived, clocksInWords, runClocks } from "/static/lib/clock.js";
import { startCorrespondence } from "/static/lib/correspondence.js";
import { $, notice } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { postJSON, reported, whoAmI } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";
import { effectsOf, noteEffects } from "/static/lib/effects.js";
import { stepKeys } from "/static/lib/move-keys.js";
import { loadRatings } from "/static/lib/players.js";
import { cancelPremove, keepPremove, playPremove, premoveControls } from "/static/lib/premove.js";
import { browse, render } from "/static/lib/render.js";
import { Report } from "/static/lib/report.js";
import { Connection, merge, readLegal } from "/static/lib/socket.js";
import { showResult, showResultRating } from "/static/lib/result.js";
import { play, soundSwitch } from "/static/lib/sound.js";
import { lastMove } from "/static/lib/status.js";
import { gameId, mine, send, state } from "/static/lib/state.js";
import { touch } from "/static/lib/touch.js";

const tokenKey = `ludoteca:${gameId}`;

// The first view: the board, the texts that never change, the side the board faces (its
// player's, unless turned by hand).
function setUp(view) {
  state.board = new Board($("board"), view.board, (point) => { touch(point); blind.touched(state.prefix); });
  document.title = `Ludoteca — ${view.title}`;
  $("move-input").placeholder = view.texts.example;
  $("move-input").size = view.texts.example.length + 2;  // the whole example shows
  $("rules-summary").textContent = view.summary;
  const stored = localStorage.getItem(`ludoteca:flip:${gameId}`);
  state.flipped = stored === null ? view.you.length === 1 && view.you[0] === "black" : stored === "1";
}

// Whether the view `next` tells this page's one seat that its draw offer was declined: the
// offer is gone, the game goes on, and no move of this seat's withdrew it.
function declined(view, next) {
  const offered = view && view.draw_offer && view.you.length === 1 && view.you[0] === view.draw_offer;
  return offered && !next.draw_offer && next.status === "live" && (next.ply === view.ply || next.turn === view.draw_offer);
}

function receive(next) {
  const view = state.view;
  const ended = view && view.status !== "over" && next.status === "over";
  const changedPosition = !view || next.ply !== view.ply || next.pieces.join() !== view.pieces.join();
  const stepped = view && next.ply === view.ply + 1;
  noteEffects(view, next);
  state.view = next;
  clockReceived();
  if (changedPosition) {
    state.prefix = [];
    dropAdvice();
    notice("");
    typedAnswered(true);
  }
  if (declined(view, next)) notice(t("Your draw offer was declined."));
  if (!state.board) setUp(next);
  if (ended || !state.ratings) loadRatings().then(showResultRating);
  keepPremove();
  if (state.premove.length && mine()) playPremove();
  else render();
  if (next.status === "over" && next.moves.length && !state.report) followReport();
  blind.update();
  if (!view) blind.say($("status").textContent);  // (the page opened: what it is about)
  if (view && next.ply > view.ply) blind.say(lastMove(next));
  if (ended) blind.say(`${next.outcome.result} — ${next.outcome.text}`);
  if (ended) { play("end"); showResult(); }
  else if (stepped) {
    const { changed, removed } = effectsOf(next.ply);
    play(changed.length || removed.length ? "capture" : "move");
  }
  ready();  // (the tests' ready marker)
}

// The finished game's report, shown beside the moves once the server has it; a marked move or
// a point of the graph shows its position (with the played and better moves as arrows).
function followReport() {
  state.report = new Report($("report"), {
    firstPly: state.view.first_ply,
    board: $("board"),
    jump: (ply, arrows) => { state.arrows = { ply, list: arrows }; browse(ply); state.report.draw(ply); },
    changed: () => render(),
  });
  state.report.follow(`/api/games/${encodeURIComponent(gameId)}/report`);
}

// The error of a typed move, shown beside the box until the next action ("" hides it).
function moveError(text) {
  $("move-error").textContent = text;
  $("move-error").hidden = !text;
}

// The server answered the move typed in the box: played (the box empties) or refused (the text
// stays, to be corrected, and the error is shown beside it).
function typedAnswered(played, error = "") {
  if (state.typed === null) return;
  state.typed = null;
  if (played) { $("move-input").value = ""; moveError(""); }
  else { moveError(error); blind.say(error); }
}

function onMessage(message) {
  if (message.type === "state") receive(readLegal(message));
  else if (message.type === "update" && state.view) {
    receive(merge(state.view, /** @type {import("/static/lib/types.js").ViewUpdate} */ (readLegal(message))));
  }
  else if (message.type === "error" && message.about === "chat") chatRefused(message.message);
  else if (message.type === "error" && state.typed !== null) typedAnswered(false, message.message);
  else if (message.type === "error") notice(message.message);
  else if (message.type === "hint") showHint(message);
  else if (message.type === "chat") showChat([message]);
  else if (message.type === "chat_history") showChat(message.lines, true);
  else if (message.type === "chat_removed") removeChat(message.id);
}

function onClose(code) {
  if (code === 4404) { $("status").textContent = t("There is no such game."); return false; }
  $("status").textContent = code === 1012 ? t("The server is restarting; reconnecting…")
    : t("Connection lost; reconnecting…");
  return true;
}

function controls() {
  $("undo").onclick = () => send({ type: "undo" });
  $("draw").onclick = () => send({ type: "offer_draw" });
  $("resign").onclick = () => { if (confirm(t("Resign this game?"))) send({ type: "resign" }); };
  $("cancel").onclick = () => { if (confirm(t("Cancel this game? It leaves the lobby."))) send({ type: "cancel" }); };
  $("rematch-button").onclick = () => { state.askedRematch = true; send({ type: "rematch" }); };
  $("result-close").onclick = () => $("result").close();
  $("result-rematch").onclick = () => { $("result").close(); $("rematch-button").click(); };
  $("result-analyse").onclick = () => { $("result").close(); $("report").scrollIntoView(); };
  $("flip").onclick = () => {
    state.flipped = !state.flipped;
    localStorage.setItem(`ludoteca:flip:${gameId}`, state.flipped ? "1" : "0");
    if (state.board) render();
  };
  // the analysis board opens on the position on screen (the one looked back at, if any)
  $("analysis-board").onclick = () => {
    const ply = state.viewing === null ? state.view.ply : state.viewing;
    location.href = `/analysis?game_id=${encodeURIComponent(gameId)}&ply=${ply}`;
  };
  $("offer-yes").onclick = () => send({ type: `accept_${$("offer").dataset.kind}` });
  $("offer-no").onclick = () => send({ type: `decline_${$("offer").dataset.kind}` });
  $("copy-invite").onclick = async () => {
    $("invite-link").select();
    try { await navigator.clipboard.writeText($("invite-link").value); notice(t("Link copied.")); }
    catch { notice(t("Select the link and copy it.")); }
  };
  // a guest joins under the name typed in (kept for the next game); an account under its own
  $("join-button").onclick = async () => {
    const signedIn = Boolean((await whoAmI()).name);
    const name = $("join-name").value.trim();
    if (!signedIn && !name) { notice(t("Type your name, then join.")); $("join-name").focus(); return; }
    if (!signedIn) localStorage.setItem("ludoteca:name", name);
    const data = await reported(postJSON(`/api/games/${encodeURIComponent(gameId)}/join`, { name: name || null }));
    if (!data) return;
    localStorage.setItem(tokenKey, data.token);
    send({ type: "hello", token: data.token });
  };
  $("move-form").onsubmit = (event) => {
    event.preventDefault();
    const text = $("move-input").value.trim();
    if (!text || !state.view) return;
    moveError("");
    state.typed = text;
    send({ type: "move", move: text, ply: state.view.ply });
  };
  $("move-input").addEventListener("input", () => moveError(""));
  $("board").addEventListener("pointerdown", () => moveError(""));
  // Escape drops the move under way and the premove; the arrows, Home and End (off the board
  // and the text boxes) look back through the game
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.prefix.length) { state.prefix = []; render(); }
    if (event.key === "Escape") cancelPremove();
  });
  const at = () => state.viewing === null ? state.view.ply : state.viewing;
  stepKeys({
    back: () => { if (state.view) browse(at() - 1); },
    on: () => { if (state.view) browse(at() + 1); },
    first: () => { if (state.view) browse(0); },
    last: () => { if (state.view) browse(state.view.ply); },
  });
}

// The blind mode reads the game out: the position and the moves in words, the legal moves
// (on this page's turn), the clocks; moves are typed in the page's own box.
const blind = new BlindMode({
  position: () => state.view && { description: state.view.description, legal: mine() ? state.view.legal : [],
                                  names: state.view.board.points },
  lastMove: () => (state.view ? lastMove(state.view) : ""),
  clocks: clocksInWords,
  box: () => /** @type {HTMLInputElement} */ ($("move-input")),
});
controls();
$("join-name").value = localStorage.getItem("ludoteca:name") || "";
whoAmI().then((who) => { $("join-name-label").hidden = Boolean(who.name); });
adviceControls();
chatControls();
premoveControls();
soundSwitch();
runClocks();
startCorrespondence();  // (days per move: the deadline and the planned moves)
state.connection = new Connection(`/ws/games/${encodeURIComponent(gameId)}`, {
  hello: () => ({ type: "hello", token: localStorage.getItem(tokenKey) }),
  onMessage,
  onClose,
});
