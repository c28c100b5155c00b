// The game page: draws what the server sends and sends the player's intents.  It holds no rules:
// legal moves arrive as the points to touch ("gestures"), and a move is sent by its notation.
import { send as request } from "/static/account.js";
import { Board } from "/static/board.js";
import { afterMove, drawMoves, numbered } from "/static/moves.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `ludoteca:${gameId}`;
const $ = (id) => document.getElementById(id);

let view = null;
let board = null;
let socket = null;
let prefix = [];
let hint = null;
let premove = [];        // points touched while the opponent is to move, played when the turn comes
let effects = new Map(); // ply → what the move to it did besides moving (see noteEffects)
let flipped = false;
let retry = 500;
let askedRematch = false;
let mistakes = null;
let clockReceived = 0;
let viewing = null;   // the ply shown while looking back (null: the game as it stands)
let positions = null; // every position so far, replayed by the server from the game's record

function token() { return localStorage.getItem(tokenKey); }

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else notice("Not connected; reconnecting…");
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  socket.onopen = () => { retry = 500; socket.send(JSON.stringify({ type: "hello", token: token() })); };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") receive(readLegal(message));
    else if (message.type === "update" && view) receive(merge(view, readLegal(message)));
    else if (message.type === "error") notice(message.message);
    else if (message.type === "hint") showHint(message);
    else if (message.type === "review") showReview(message.mistakes);
    else if (message.type === "chat") showChat([message]);
    else if (message.type === "chat_history") showChat(message.lines);
  };
  socket.onclose = (event) => {
    if (event.code === 4404) { $("status").textContent = "There is no such game."; return; }
    $("status").textContent = event.code === 1012 ? "The server is restarting; reconnecting…"
      : "Connection lost; reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

// A legal move arrives as one text: notation, touches ("f12": from point 12; "t" to, "x" take)
// and, for a capture chain, "r" with the points it removes.  The page works with
// {n: notation, g: [[role, point], ...], x: [removed points]}.
const ROLES = { f: "from", t: "to", x: "take" };

function readLegal(message) {
  if (!message.legal) return message;
  const legal = message.legal.map((text) => {
    const [n, ...parts] = text.split(" ");
    const move = { n, g: [] };
    for (const part of parts) {
      if (part[0] === "r") move.x = part.slice(1).split(",").map(Number);
      else move.g.push([ROLES[part[0]], Number(part.slice(1))]);
    }
    return move;
  });
  return { ...message, legal };
}

// An update holds only what changed, each value whole: pieces as [point, token] pairs, the move
// list as how many moves to keep and the moves to add.
function merge(old, update) {
  const next = { ...old, ...update, type: "state" };
  if (update.set) {
    next.pieces = old.pieces.slice();
    for (const [point, token] of update.set) next.pieces[point] = token;
  }
  if (update.append) next.moves = old.moves.slice(0, update.moves_from).concat(update.append);
  delete next.set; delete next.moves_from; delete next.append;
  return next;
}

// Sounds, made here (Web Audio, no files): a move, a capture, the end of the game, low time.
// The switch is remembered in this browser; the last sound's name is kept on <body> for tests.
let soundOn = localStorage.getItem("ludoteca:sound") !== "off";
let audio = null;
let warned = false;
const SOUNDS = { move: [[520, 0.06]], capture: [[440, 0.07], [330, 0.09]],
                 end: [[523, 0.12], [659, 0.12], [784, 0.25]], low: [[880, 0.08], [880, 0.08]] };

function play(name) {
  document.body.dataset.lastSound = name;
  if (!soundOn) return;
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const [frequency, length] of SOUNDS[name]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + length);
      at += length;
    }
  } catch { /* no audio on this device */ }
}

function showSound() {
  $("sound").textContent = soundOn ? "Sound: on" : "Sound: off";
  $("sound").setAttribute("aria-pressed", String(soundOn));
}

function notice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
}

function receive(next) {
  const ended = view && view.status !== "over" && next.status === "over";
  const changedPosition = !view || next.ply !== view.ply || next.pieces.join() !== view.pieces.join();
  const stepped = view && next.ply === view.ply + 1;
  noteEffects(view, next);
  view = next;
  if (changedPosition) {
    prefix = []; hint = null; mistakes = null;
    $("hint-text").textContent = ""; $("review").textContent = ""; $("analyse").disabled = false;
    notice("");
  }
  if (!board) {
    board = new Board($("board"), view.board, touch);
    document.title = `Ludoteca — ${view.title}`;
    $("move-input").placeholder = view.texts.example;
    $("rules-summary").textContent = view.summary;
    // the board faces its player (Black's men at the bottom for Black), unless turned by hand
    const stored = localStorage.getItem(`ludoteca:flip:${gameId}`);
    flipped = stored === null ? view.you.length === 1 && view.you[0] === "black" : stored === "1";
  }
  board.flipped = flipped;
  applyChatOptions();
  if (ended || !ratings) loadRatings();
  if (premove.length && !(view.status === "live" && view.you.length === 1)) premove = [];
  if (premove.length && mine()) playPremove();
  else render();
  if (ended) { play("end"); showResult(); }
  else if (stepped) {
    const { changed, removed } = effects.get(next.ply);
    play(changed.length || removed.length ? "capture" : "move");
  }
}

// The end of a game seen on this page: a dialog over the board with the result and what next.
function showResult() {
  const dialog = $("result");
  $("result-title").textContent = view.outcome.result === "*" ? "Game cancelled" : view.outcome.result;
  $("result-reason").textContent = view.outcome.text;
  $("result-rematch").hidden = !(view.you.length && view.outcome.result !== "*");
  $("result-analyse").hidden = view.outcome.result === "*";
  if (!dialog.open) dialog.showModal();
}

const colourName = (c) => (c === "white" ? "White" : "Black");

function mine() { return view.you.includes(view.turn) && view.legal.length > 0; }

function candidates() {
  return view.legal.filter((m) => prefix.every((p, i) => m.g[i] && m.g[i][1] === p));
}

// A premove: in a game between people, the points touched while the opponent is to move are
// kept (one move) and played as soon as the turn comes, if they make a legal move then.
function canPremove() {
  return view.status === "live" && view.mode === "online" && view.you.length === 1
    && view.turn !== view.you[0];
}

function playPremove() {
  const queued = premove;
  premove = [];
  const fits = view.legal.filter((m) => queued.every((p, i) => m.g[i] && m.g[i][1] === p));
  const whole = fits.find((m) => m.g.length === queued.length);
  if (whole) {
    send({ type: "move", move: whole.n, ply: view.ply });
    render({ pending: whole });
  } else if (fits.length) {
    prefix = queued;  // the start of a move: the player finishes it
    render();
  } else {
    notice(`The premove (${queued.map((p) => view.board.points[p]).join(" → ")}) is not legal now; it was cancelled.`);
    render();
  }
}

function cancelPremove() {
  if (!premove.length) return;
  premove = [];
  render();
}

function touch(point) {
  if (!view || viewing !== null) return;
  if (canPremove()) {
    premove = premove.includes(point) ? [] : [...premove, point];
    render();
    return;
  }
  if (!mine()) return;
  let options = candidates().filter((m) => m.g[prefix.length] && m.g[prefix.length][1] === point);
  if (!options.length && prefix.length) {
    prefix = [];
    options = candidates().filter((m) => m.g[0][1] === point);
  }
  if (!options.length) { render(); return; }
  prefix.push(point);
  const done = options.find((m) => m.g.length === prefix.length);
  if (done) {
    send({ type: "move", move: done.n, ply: view.ply });
    prefix = [];
    render({ pending: done });
    return;
  }
  render();
}

// What the last two moves did besides moving, kept until two more moves are made (so the
// computer's quick reply does not hide what your own move converted or captured): per ply,
// the points whose piece changed colour ({point, token}) and the pieces removed ({point, token}).
function noteEffects(before, after) {
  for (const ply of [...effects.keys()]) {
    if (ply > after.ply || ply < after.ply - 1) effects.delete(ply);
  }
  if (!before || after.ply !== before.ply + 1) return;
  const moved = new Set((after.last || []).filter((t) => t[0] !== "take").map((t) => t[1]));
  const found = { changed: [], removed: [] };
  after.pieces.forEach((token, i) => {
    const was = before.pieces[i];
    if (moved.has(i) || !was) return;
    if (token && token !== was) found.changed.push({ point: i, token });
    if (!token) found.removed.push({ point: i, token: was });
  });
  effects.set(after.ply, found);
}

// The board marks for the effects: the newest move's changes flash; both moves' conversions
// stay ringed while the converted piece is still there.
function effectMarks() {
  const now = effects.get(view.ply) || { changed: [], removed: [] };
  const before = effects.get(view.ply - 1) || { changed: [] };
  const standing = (c) => view.pieces[c.point] === c.token;
  return { changed: now.changed.map((c) => c.point), removed: now.removed,
           converted: [...now.changed, ...before.changed].filter(standing).map((c) => c.point) };
}

function instruction() {
  if (!prefix.length) {
    const touched = view.legal.filter((m) => m.g.length);
    if (!touched.length) return "type your move";
    const kinds = new Set(touched.map((m) => m.g[0][0]));
    const texts = view.texts;
    return kinds.has("from") ? (kinds.has("to") ? texts.place_or_move : texts.move) : texts.place;
  }
  const next = new Set(candidates().map((m) => m.g[prefix.length][0]));
  if (next.has("take")) return view.texts.take;
  return prefix.length > 1 ? view.texts.continue : view.texts.to;
}

function render(extra = {}) {
  if (viewing !== null && positions) {
    const shown = positions[viewing];
    board.draw(shown.pieces, { last: shown.last || [], selected: [], targets: [], hint: [] });
    const where = afterMove(view.first_ply, viewing, shown.move);
    $("status").textContent = `Looking back: move ${viewing} of ${view.ply} (${where}). `
      + "→ or End returns to the game.";
    renderPanels();
    renderMoves();
    return;
  }
  const marks = { last: view.last || [], selected: prefix.slice(), targets: [], premove,
                  hint: hint ? hint.gesture : [], ...effectMarks() };
  let pieces = view.pieces;
  const chain = mine() && prefix.length >= 2 ? candidates().filter((m) => m.x) : [];
  if (chain.length) {  // a capture chain under way: the piece stands where it landed
    pieces = view.pieces.slice();
    const token = pieces[prefix[0]];
    pieces[prefix[0]] = "";
    pieces[prefix[prefix.length - 1]] = token;
    marks.jumped = chain[0].x.filter((p) => chain.every((m) => m.x.includes(p)));
    marks.last = [];
  }
  if (mine()) {
    for (const m of candidates()) {
      const next = m.g[prefix.length];
      if (next && prefix.length) marks.targets.push({ point: next[1], kind: next[0] });
    }
  }
  board.draw(pieces, marks);
  renderStatus(extra);
  renderPanels();
  renderMoves();
}

function renderStatus(extra) {
  const hand = view.hand ? ` In hand: White ${view.hand[0]}, Black ${view.hand[1]}.` : "";
  let text;
  if (view.status === "over") text = view.outcome.text;
  else if (view.status === "waiting") text = "Waiting for a second player to join.";
  else if (extra.pending) text = `Sending ${extra.pending.n}…`;
  else if (premove.length) {
    text = `Premove: ${premove.map((p) => view.board.points[p]).join(" → ")}, played when your turn comes `
      + "(click elsewhere or press Escape to cancel).";
  }
  else if (view.thinking) text = `${colourName(view.turn)} to move — the computer is thinking…`;
  else if (mine()) text = `Your move (${colourName(view.turn)}): ${instruction()}.`;
  else if (view.you.length) text = `${colourName(view.turn)} to move — waiting for your opponent.`;
  else text = `${colourName(view.turn)} to move. You are watching.`;
  const last = view.moves.length && view.status !== "over"
    ? `${colourName(view.turn === "white" ? "black" : "white")} played ${view.moves[view.moves.length - 1]}`
      + `${view.last_note ? ` (${view.last_note})` : ""}. ` : "";
  const notice = view.notice && view.status === "live" ? ` ${view.notice}` : "";
  $("status").textContent = last + text + (view.status === "over" ? "" : hand + notice);
  const banner = $("banner");
  banner.hidden = view.status !== "over";
  if (view.status === "over") {
    banner.textContent = `${view.outcome.result} — ${view.outcome.text}`;
  }
  $("title").textContent = `${view.title} · ${view.rules}`;
  const yourMove = mine() && view.status === "live";
  document.title = `${yourMove ? "Your move · " : ""}Ludoteca — ${view.title}`;
  // the tab's icon carries a green dot while it is your move
  const icon = document.querySelector("link[rel=icon]");
  const wanted = yourMove ? "/static/favicon-move.svg" : "/static/favicon.svg";
  if (icon.getAttribute("href") !== wanted) icon.setAttribute("href", wanted);
  const players = $("players");
  players.innerHTML = "";
  for (const colour of ["white", "black"]) {
    const p = view.players[colour];
    const div = document.createElement("div");
    div.className = `player ${colour}${view.turn === colour && view.status === "live" ? " to-move" : ""}`;
    const you = view.you.includes(colour) ? " (you)" : "";
    const men = view.pieces.filter((t) => {
      const style = t && view.board.styles[t];
      return style && style.side === colour && style.shape !== "king";
    }).length;
    const who = document.createElement("span");
    who.className = "who";
    const name = p.account ? document.createElement("a") : document.createTextNode(p.label);
    if (p.account) { name.href = `/players/${encodeURIComponent(p.account)}`; name.textContent = p.account; }
    const rating = ratings && ratings[colour] ? ratingLabel(ratings[colour]) : "";
    who.append(`${colourName(colour)}: `, name, `${rating}${you} · ${men} on the board`);
    who.title = who.textContent;
    div.append(who);
    if (view.clock) {
      const time = document.createElement("span");
      time.className = "time";
      time.dataset.colour = colour;
      div.append(time);
    }
    players.appendChild(div);
  }
  clockReceived = performance.now();
  tick();
}

// The players' ratings (accounts only): fetched when the page opens and when the game ends,
// shown as "(1500?)" and, after a rated game, the change.
let ratings = null;

function ratingLabel(r) {
  const change = r.change === null || r.change === undefined ? ""
    : ` ${r.change >= 0 ? "+" : "−"}${Math.abs(r.change)}`;
  return ` (${r.rating}${r.provisional ? "?" : ""}${change})`;
}

async function loadRatings() {
  const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/ratings`);
  if (!answer.ok) return;
  ratings = await answer.json();
  if (view) renderStatus({});
}

// Chat: the players' room for players, the spectators' room for everyone else (the server
// decides); lines are shown as text, never markup.  Muting the opponent and turning chat off
// are remembered in this browser.
const seenLines = new Set();
let muted = localStorage.getItem(`ludoteca:mute:${gameId}`) === "1";
let chatOff = localStorage.getItem("ludoteca:chat") === "off";

function chatRoom() { return view && view.you.length ? "players" : "spectators"; }

function showChat(lines) {
  const list = $("chat-lines");
  for (const line of lines) {
    if (seenLines.has(line.id)) continue;
    seenLines.add(line.id);
    const li = document.createElement("li");
    li.dataset.room = line.room;
    li.dataset.mine = String(view !== null && line.room === "players" && isMine(line.name));
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${line.name}:`;
    li.append(who, document.createTextNode(line.text));
    list.appendChild(li);
  }
  applyChatOptions();
  list.scrollTop = list.scrollHeight;
}

function isMine(name) {
  return view.you.some((c) => view.players[c].label === name || view.players[c].account === name);
}

function applyChatOptions() {
  $("chat").hidden = !view || view.mode === "hotseat";
  $("mute-label").hidden = chatRoom() !== "players" || view.mode !== "online";
  $("mute").checked = muted;
  $("chat-off").checked = chatOff;
  $("chat-form").hidden = chatOff;
  $("chat-lines").hidden = chatOff;
  for (const li of $("chat-lines").children) {
    li.hidden = muted && li.dataset.room === "players" && li.dataset.mine === "false";
  }
}

// Clocks tick here between the server's snapshots; the server alone decides a loss on time.
function tick() {
  if (!view || !view.clock) return;
  for (const span of document.querySelectorAll(".player .time")) {
    const colour = span.dataset.colour;
    let ms = view.clock[colour];
    if (view.clock.running === colour) ms = Math.max(0, ms - (performance.now() - clockReceived));
    const seconds = ms / 1000;
    span.textContent = seconds < 10 ? `0:0${seconds.toFixed(1)}`
      : `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
    span.classList.toggle("low", seconds < 20);
    if (seconds < 10 && view.clock.running === colour && view.you.includes(colour) && !warned) {
      warned = true;
      play("low");
    }
    span.classList.toggle("running", view.clock.running === colour);
  }
}
setInterval(tick, 200);

function renderPanels() {
  const seated = view.you.length > 0;
  const live = view.status === "live";
  $("move-input").disabled = !live || !seated;
  $("move-form").querySelector("button").disabled = !live || !seated;
  const free = view.players.white.seated ? "black" : "white";
  $("join").hidden = !(view.status === "waiting" && !seated);
  $("join-text").textContent = `This game waits for a player for ${colourName(free)}.`;
  $("invite").hidden = !(view.status === "waiting" && seated);
  $("invite-link").value = `${location.origin}/game/${gameId}`;
  const offer = $("offer");
  const theirDraw = view.draw_offer && seated && !(view.you.length === 1 && view.you[0] === view.draw_offer);
  const theirUndo = view.undo_offer && seated && !(view.you.length === 1 && view.you[0] === view.undo_offer);
  offer.hidden = !(live && (theirDraw || theirUndo));
  if (theirDraw) { offer.dataset.kind = "draw"; $("offer-text").textContent = `${colourName(view.draw_offer)} offers a draw.`; }
  else if (theirUndo) { offer.dataset.kind = "undo"; $("offer-text").textContent = `${colourName(view.undo_offer)} asks to take back a move.`; }
  $("undo").hidden = !seated;
  $("undo").textContent = view.mode === "online" ? "Ask to take back" : "Take back";
  $("undo").disabled = !view.moves.length || !live;
  $("hint").hidden = view.mode !== "computer" || !seated;
  $("hint").disabled = !mine();
  $("draw").hidden = !seated;
  $("draw").disabled = !live || (view.draw_offer && view.you.length === 1 && view.you[0] === view.draw_offer);
  $("resign").hidden = !seated;
  $("resign").disabled = !live;
  $("move-form").hidden = !seated;
  $("export").href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("picture").href = `/api/games/${encodeURIComponent(gameId)}/picture.svg${flipped ? "?flipped=true" : ""}`;
  const others = view.watchers - (seated ? 1 : 0);
  $("watchers").textContent = others > 0 ? `${others} other page${others > 1 ? "s" : ""} open on this game` : "";
  if (!hint) $("evaluation").hidden = true;
  $("analyse").hidden = view.status !== "over" || mistakes !== null;
  $("rematch-button").hidden = !(seated && view.status === "over" && !view.rematch);
  const rematch = view.rematch;
  $("rematch").hidden = !rematch;
  if (rematch) {
    $("rematch-go").href = `/game/${rematch.id}`;
    if (rematch.token) {
      localStorage.setItem(`ludoteca:${rematch.id}`, rematch.token);
      if (askedRematch) location.href = `/game/${rematch.id}`;
      $("rematch-text").textContent = "A rematch has started, with colours swapped.";
      $("rematch-go").textContent = "Play the rematch";
    } else {
      $("rematch-text").textContent = "The players started a rematch.";
      $("rematch-go").textContent = "Watch the rematch";
    }
  }
}

function renderMoves() {
  const list = $("moves");
  const marked = new Map((mistakes || []).map((m) => [m.index, m]));
  drawMoves(list, view.moves, view.first_ply, viewing === null ? view.moves.length : viewing, browse,
    (i, button) => {
      const mistake = marked.get(i);
      if (!mistake) return;
      button.classList.add("mistake");
      button.textContent += mistake.loss >= 0.4 ? "??" : "?";
      button.title = `better: ${mistake.best}`;
    });
  if (viewing === null) list.scrollTop = list.scrollHeight;
}

// Looking back: ←/→/Home/End or a click on a move shows an earlier position; the game goes on
// meanwhile (moves are only made on the position as it stands).
async function browse(target) {
  if (!view) return;
  const ply = Math.max(0, Math.min(view.ply, target));
  if (ply === view.ply) { viewing = null; render(); return; }
  if (!positions || positions.length <= view.ply) {
    const record = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`);
    const answer = await request("/api/records/replay", { text: await record.text() });
    const data = await answer.json();
    if (!answer.ok) { notice(data.error); return; }
    positions = data.positions;
  }
  viewing = Math.min(ply, positions.length - 1);
  prefix = [];
  render();
}

function showReview(found) {
  mistakes = found;
  const box = $("review");
  box.replaceChildren();
  const head = document.createElement("p");
  head.textContent = found.length ? `${found.length} mistake${found.length > 1 ? "s" : ""} found (marked ? and ?? in the moves):` : "No mistakes found.";
  box.appendChild(head);
  const list = document.createElement("ul");
  for (const m of found) {
    const li = document.createElement("li");
    li.textContent = `${numbered(view.first_ply, m.index + 1, m.move)}: better ${m.best} (${m.text}); gave away ${Math.round(m.loss * 100)}% of the expected score.`;
    list.appendChild(li);
  }
  box.appendChild(list);
  render();
}

function showHint(found) {
  hint = found;
  $("evaluation").hidden = false;
  $("evaluation-white").style.width = `${Math.round(found.white_share * 100)}%`;
  $("evaluation").title = `White's expected score: ${Math.round(found.white_share * 100)}%`;
  $("hint-text").textContent = `Hint: ${found.move} — ${found.text}. Line: ${found.pv.join(" ")}`;
  render();
}

$("undo").onclick = () => send({ type: "undo" });
$("chat-form").onsubmit = (event) => {
  event.preventDefault();
  const text = $("chat-input").value.trim();
  if (!text) return;
  send({ type: "chat", room: chatRoom(), text });
  $("chat-input").value = "";
};
$("mute").onchange = () => {
  muted = $("mute").checked;
  localStorage.setItem(`ludoteca:mute:${gameId}`, muted ? "1" : "0");
  applyChatOptions();
};
$("chat-off").onchange = () => {
  chatOff = $("chat-off").checked;
  localStorage.setItem("ludoteca:chat", chatOff ? "off" : "on");
  applyChatOptions();
};
$("sound").onclick = () => {
  soundOn = !soundOn;
  localStorage.setItem("ludoteca:sound", soundOn ? "on" : "off");
  showSound();
};
showSound();
$("result-close").onclick = () => $("result").close();
$("result-rematch").onclick = () => { $("result").close(); $("rematch-button").click(); };
$("result-analyse").onclick = () => { $("result").close(); $("analyse").click(); };
$("cancel").onclick = () => { if (confirm("Cancel this game? It leaves the lobby.")) send({ type: "cancel" }); };
$("analyse").onclick = () => {
  $("review").textContent = "Analysing every move… (about a second for each of them)";
  $("analyse").disabled = true;
  send({ type: "review" });
};
$("rematch-button").onclick = () => { askedRematch = true; send({ type: "rematch" }); };
$("hint").onclick = () => { $("hint-text").textContent = "Thinking about a hint…"; send({ type: "hint" }); };
$("draw").onclick = () => send({ type: "offer_draw" });
$("resign").onclick = () => { if (confirm("Resign this game?")) send({ type: "resign" }); };
$("flip").onclick = () => {
  flipped = !flipped;
  localStorage.setItem(`ludoteca:flip:${gameId}`, flipped ? "1" : "0");
  if (board) { board.flipped = flipped; render(); }
};
$("offer-yes").onclick = () => send({ type: `accept_${$("offer").dataset.kind}` });
$("offer-no").onclick = () => send({ type: `decline_${$("offer").dataset.kind}` });
$("copy-invite").onclick = async () => {
  $("invite-link").select();
  try { await navigator.clipboard.writeText($("invite-link").value); notice("Link copied."); }
  catch { notice("Select the link and copy it."); }
};
$("join-button").onclick = async () => {
  const name = (localStorage.getItem("ludoteca:name") || "").trim();
  const answer = await request(`/api/games/${encodeURIComponent(gameId)}/join`, { name: name || null });
  const data = await answer.json();
  if (!answer.ok) { notice(data.error); return; }
  localStorage.setItem(tokenKey, data.token);
  send({ type: "hello", token: data.token });
};
$("move-form").onsubmit = (event) => {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text || !view) return;
  send({ type: "move", move: text, ply: view.ply });
  $("move-input").value = "";
};
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && prefix.length) { prefix = []; render(); }
  if (event.key === "Escape") cancelPremove();
  const target = event.target;
  if (!view || target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.closest("#board")) return;
  const at = viewing === null ? view.ply : viewing;
  const steps = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: view.ply };
  if (event.key in steps) { event.preventDefault(); browse(steps[event.key]); }
});

// a click off the board's points cancels a premove (a touched point is redrawn at once, so
// the event's target may have left the page: its own .pt ancestor says it was a point)
document.addEventListener("pointerdown", (event) => {
  if (!event.target.closest || !event.target.closest(".pt")) cancelPremove();
});

connect();
