// The game page's one state object: every module of the page reads and updates it, and none
// keeps game state of its own.  `view` is the server's view of the game as it stands (the
// position, the legal moves as gestures, whose turn, the players, the clock); everything else
// is what this page adds while it is open.
import { notice } from "/static/lib/dom.js";
import { t } from "/static/lib/i18n.js";

export const gameId = decodeURIComponent(location.pathname.split("/").pop());

export const state = {
  connection: null,     // the game's websocket (a socket.js Connection)
  view: null,           // the last view received (see socket.js for its wire form)
  board: null,          // the Board component, made when the first view arrives
  prefix: [],           // the points touched so far of the move being made
  typed: null,          // the move sent from the text box, while its answer is awaited
  premove: [],          // points touched while the opponent is to move (see premove.js)
  hint: null,           // the computer's hint for this position, while it stands
  report: null,         // the finished game's report (a report.js Report), once over
  arrows: null,         // {ply, list}: arrows drawn over the position looked back at
  effects: new Map(),   // ply → what the move to it did besides moving (see effects.js)
  viewing: null,        // the ply shown while looking back (null: the game as it stands)
  positions: null,      // every position so far, replayed by the server from the record
  ratings: null,        // the players' ratings (accounts only), fetched from the server
  flipped: false,       // the board turned (Black at the bottom)
  askedRematch: false,  // this page asked for the rematch: it opens it once it exists
  clockReceived: 0,     // performance.now() when the clock in `view` was received
  warned: false,        // the low-time sound was played
  chat: {
    seen: new Set(),      // the ids of the chat lines shown (a line may come live and in history)
    muted: localStorage.getItem(`ludoteca:mute:${gameId}`) === "1",  // the opponent's lines hidden
    off: localStorage.getItem("ludoteca:chat") === "off",            // no chat on any game
    sent: "",             // the last line sent, given back to the field if the server refuses it
  },
};

// Send an intent to the server (a notice says so when the page is not connected).
export function send(message) {
  if (!state.connection || !state.connection.send(message)) notice(t("Not connected; reconnecting…"));
}

// It is this page's turn, with at least one legal move.
export function mine() {
  const view = state.view;
  return view.you.includes(view.turn) && view.legal.length > 0;
}

// The legal moves that start with the points touched so far.
export function candidates() {
  return state.view.legal.filter((m) => state.prefix.every((p, i) => m.g[i] && m.g[i][1] === p));
}

// A point's name on the board ("d6", "E5").
export const pointName = (point) => state.view.board.points[point];
