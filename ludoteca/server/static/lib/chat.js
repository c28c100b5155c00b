// Chat: the players' room for players, the spectators' room for everyone else (the server
// decides); lines are shown as text, never markup.  Muting the opponent and turning chat off
// are remembered in this browser.  Once the room's earlier lines have arrived, the list says so
// (data-history="received").
import { $ } from "/static/lib/dom.js";
import { gameId, send, state } from "/static/lib/state.js";

function room() { return state.view && state.view.you.length ? "players" : "spectators"; }

function isMine(name) {
  const view = state.view;
  return view.you.some((c) => view.players[c].label === name || view.players[c].account === name);
}

// Show chat lines (live ones or the room's history), each once.
export function showChat(lines, history = false) {
  const list = $("chat-lines");
  for (const line of lines) {
    if (state.chat.seen.has(line.id)) continue;
    state.chat.seen.add(line.id);
    const li = document.createElement("li");
    li.dataset.room = line.room;
    li.dataset.id = String(line.id);
    li.dataset.mine = String(state.view !== null && line.room === "players" && isMine(line.name));
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${line.name}:`;
    li.append(who, document.createTextNode(line.text));
    list.appendChild(li);
  }
  if (history) list.dataset.history = "received";
  showChatOptions();
  list.scrollTop = list.scrollHeight;
}

// Drop a line a moderator removed.
export function removeChat(id) {
  for (const li of $("chat-lines").querySelectorAll(`li[data-id="${Number(id)}"]`)) li.remove();
}

// The chat panel as the game and the options want it (hidden on one screen, muted lines hidden).
export function showChatOptions() {
  const view = state.view;
  const { muted, off } = state.chat;
  $("chat").hidden = !view || view.mode !== "online";  // no one to talk to on one screen or with the computer
  $("mute-label").hidden = room() !== "players" || !view || view.mode !== "online";
  $("mute").checked = muted;
  $("chat-off").checked = off;
  $("chat-form").hidden = off;
  $("chat-lines").hidden = off;
  for (const li of $("chat-lines").children) {
    li.hidden = muted && li.dataset.room === "players" && li.dataset.mine === "false";
  }
}

// The server refused the last line sent (a muted player, a line too long, too many lines): say
// why in the chat panel and give the line back to the field, unless something else was typed.
export function chatRefused(message) {
  $("chat-said").textContent = message;
  if (!$("chat-input").value) $("chat-input").value = state.chat.sent;
}

// The chat form and its two options.
export function chatControls() {
  $("chat-form").onsubmit = (event) => {
    event.preventDefault();
    const text = $("chat-input").value.trim();
    if (!text) return;
    send({ type: "chat", room: room(), text });
    state.chat.sent = text;
    $("chat-said").textContent = "";
    $("chat-input").value = "";
  };
  $("mute").onchange = () => {
    state.chat.muted = $("mute").checked;
    localStorage.setItem(`ludoteca:mute:${gameId}`, state.chat.muted ? "1" : "0");
    showChatOptions();
  };
  $("chat-off").onchange = () => {
    state.chat.off = $("chat-off").checked;
    localStorage.setItem("ludoteca:chat", state.chat.off ? "off" : "on");
    showChatOptions();
  };
}
