// The game's websocket: one connection that greets the server on opening, reconnects with a
// growing pause when it drops, and hands every message to the page; and the wire form of the
// views it carries, decoded here so the rest of the page sees whole views.

// The address of the websocket `path` (e.g. "/ws/games/ID") on this page's server, asking for
// the page's language: the language a browser sends when it opens a websocket is not always the
// page's (Chromium sends its own Accept-Language there, not the page's cookie's choice alone).
/** @param {string} path */
export function socketAddress(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const lang = encodeURIComponent(document.documentElement.lang || "en");
  return `${scheme}://${location.host}${path}${path.includes("?") ? "&" : "?"}lang=${lang}`;
}

// A connection to `path` (e.g. "/ws/games/ID").  hello(): the greeting sent on each opening;
// onMessage(message): each message, parsed; onClose(code): the connection dropped (a reconnect
// follows unless onClose returns false).
export class Connection {
  /**
   * @param {string} path
   * @param {{hello: () => object, onMessage: (message: any) => void,
   *          onClose: (code: number) => boolean | void}} handlers
   */
  constructor(path, { hello, onMessage, onClose }) {
    this.path = path;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onClose = onClose;
    this.retry = 500;
    /** @type {WebSocket | null} */
    this.socket = null;
    this._open();
  }

  _open() {
    const socket = new WebSocket(socketAddress(this.path));
    this.socket = socket;
    socket.onopen = () => { this.retry = 500; socket.send(JSON.stringify(this.hello())); };
    socket.onmessage = (event) => this.onMessage(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (this.onClose(event.code) === false) return;
      setTimeout(() => this._open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  // Send a message; false when the connection is not open (the message is dropped).
  /** @param {object} message */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}

// A legal move arrives as one text: notation, touches ("f12": from point 12; "t" to, "x" take)
// and, for a capture chain, "r" with the points it removes.  The page works with
// {n: notation, g: [[role, point], ...], x: [removed points]}.
/** @type {Record<string, "from" | "to" | "take">} */
const ROLES = { f: "from", t: "to", x: "take" };

/**
 * A message holding a position (a view, a lesson's or a puzzle's position) with its legal
 * moves read; one without legal moves as it came.
 * @template {{legal?: string[]}} M
 * @param {M} message
 * @returns {Omit<M, "legal"> & {legal: import("/static/lib/types.js").Legal[]}}
 */
export function readLegal(message) {
  if (!message.legal) return /** @type {any} */ (message);
  const legal = message.legal.map((text) => {
    const [n, ...parts] = text.split(" ");
    /** @type {import("/static/lib/types.js").Legal} */
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
// list as how many moves to keep and the moves to add.  The result is a whole view.
/**
 * @param {import("/static/lib/types.js").GameView} old
 * @param {import("/static/lib/types.js").ViewUpdate} update
 * @returns {import("/static/lib/types.js").GameView}
 */
export function merge(old, update) {
  const next = { ...old, ...update, type: /** @type {const} */ ("state") };
  if (update.set) {
    next.pieces = old.pieces.slice();
    for (const [point, token] of update.set) next.pieces[point] = token;
  }
  if (update.append) next.moves = old.moves.slice(0, update.moves_from).concat(update.append);
  delete next.set; delete next.moves_from; delete next.append;
  return next;
}
