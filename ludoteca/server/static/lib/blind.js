// The blind mode of the pages with a board (game, analysis board, puzzles): a switch in the
// header (remembered in the browser, and heard when pressed) that shows a panel reading the
// game out through one log region (role "log", aria-live polite): the position in words (the
// server's, each game's own description), the moves as they are played, the legal moves of a
// chosen point, the clocks; a move is typed in notation.  The page says what it has through
// hooks; this module knows no game.
import { $ } from "/static/lib/dom.js";
import { candidates } from "/static/lib/gesture.js";
import { HttpError, postJSON, settled } from "/static/lib/http.js";
import { isolated, t } from "/static/lib/i18n.js";

const KEY = "ludoteca:blind";
// the most lines the log keeps (older ones are dropped: a screen reader has read them)
const KEPT = 30;
// the select's choices that are not a point: every move, and the men placed
const EVERY = "*";
const PLACING = "+";

/**
 * @typedef {{n: string, g: [string, number][]}} Move
 * @typedef {{game: string, rules: string | null, start: string | null, moves: string[]}} Line
 * @typedef {object} Hooks
 * @property {() => ({description: string, legal: Move[], names: string[]} | null)} position
 *   the position on the board: in words, its legal moves (none when not the reader's to make)
 *   and the board's point names
 * @property {() => string} lastMove  the last move as a sentence ("" before the first)
 * @property {(() => Line) | undefined} [line]  where the position shown comes from (the pages
 *   whose moves are typed in the panel's box: the server checks a typed move there)
 * @property {((notation: string) => void) | undefined} [play]  play a typed move the server
 *   found legal (as its game writes it)
 * @property {(() => string) | undefined} [clocks]  the clocks in words (pages with clocks)
 * @property {(() => HTMLInputElement) | undefined} [box]  the page's own box for typed moves
 * @property {string[] | undefined} [quiet]  the ids of the page's own live regions that the log
 *   speaks for while the mode is on (default: the status line)
 */

export class BlindMode {
  /** @param {Hooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    this.on = localStorage.getItem(KEY) === "on";
    this.listed = "";  // the legal moves the select was made for (its choices kept meanwhile)
    $("blind-switch").onclick = () => this.toggle();
    $("blind-position").onclick = () => this.readPosition();
    $("blind-last").onclick = () => this.say(this.hooks.lastMove() || t("No move yet."));
    if ($("blind-clocks")) $("blind-clocks").onclick = () => this.readClocks();
    $("blind-from").onchange = () => this.readMoves();
    const form = $("blind-form");
    if (form) {
      form.onsubmit = (event) => {
        event.preventDefault();
        const text = /** @type {HTMLInputElement} */ ($("blind-move")).value.trim();
        if (text) this.typed(text);
      };
    }
    document.addEventListener("keydown", (event) => this.key(event));
    this.show(false);
  }

  toggle() {
    this.on = !this.on;
    localStorage.setItem(KEY, this.on ? "on" : "off");
    this.show(true);
  }

  // Show the switch's state and the panel; `heard`: say the new state.
  show(heard) {
    const label = this.on ? t("Blind mode: on") : t("Blind mode: off");
    $("blind-switch").textContent = label;
    $("blind-switch").setAttribute("aria-pressed", String(this.on));
    $("blind").hidden = !this.on;
    $("blind-say").classList.toggle("visually-hidden", !this.on);
    // (shown, the log scrolls: a Tab stop, to be scrolled back through by keyboard)
    $("blind-say").tabIndex = this.on ? 0 : -1;
    // the page's own live regions would say each move twice: the log alone speaks
    for (const id of this.hooks.quiet || ["status"]) {
      const region = $(id);
      if (!region.dataset.live) region.dataset.live = region.getAttribute("aria-live") || "polite";
      region.setAttribute("aria-live", this.on ? "off" : region.dataset.live);
    }
    if (heard) this.say(label, true);
    this.update();
  }

  // Read `text` out (a new line of the log); `always`: even with the mode off.
  say(text, always = false) {
    if (!text || (!this.on && !always)) return;
    const log = $("blind-say");
    const line = document.createElement("p");
    line.textContent = text;
    log.appendChild(line);
    while (log.children.length > KEPT) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;  // (the newest line in view)
  }

  // A move typed in the panel's box: checked by the server (the engine's refusal is read
  // out, the text kept to be corrected), then played.
  async typed(text) {
    const answer = await settled(postJSON("/api/analysis/move", { ...this.hooks.line(), move: text }));
    if (answer instanceof HttpError) { this.say(answer.message); return; }
    /** @type {HTMLInputElement} */ ($("blind-move")).value = "";
    this.hooks.play(answer.move);
  }

  readPosition() {
    const position = this.hooks.position();
    this.say(position ? position.description : t("Loading…"));
  }

  readClocks() {
    if (this.hooks.clocks) this.say(this.hooks.clocks());
  }

  // The moves of the point (or kind) chosen in the select, read out and listed.
  readMoves() {
    const position = this.hooks.position();
    const legal = position ? position.legal : [];
    const chosen = /** @type {HTMLSelectElement} */ ($("blind-from")).value || EVERY;
    const moves = chosen === EVERY ? legal
      : chosen === PLACING ? legal.filter((m) => m.g.length && m.g[0][0] === "to")
        : legal.filter((m) => m.g.length && m.g[0][0] === "from" && position.names[m.g[0][1]] === chosen);
    this.listMoves(moves, $("blind-from").selectedOptions[0]?.textContent || "");
  }

  // Read out and list `moves`, the legal moves of `what` (a point, "placing", "every piece").
  listMoves(moves, what) {
    const list = $("blind-moves");
    list.replaceChildren(...moves.map((m) => {
      const item = document.createElement("li");
      item.textContent = m.n;
      return item;
    }));
    // (each move isolated: a list of them reads in its order in a page written right to left)
    // TRANSLATORS: the legal moves of a point (or of "every piece") read out: "d6: d6-d5, d6-d7."
    this.say(moves.length ? t("%(what)s: %(moves)s.", { what, moves: moves.map((m) => isolated(m.n)).join(t(", ")) })
      : t("No legal moves now."));
  }

  // The points touched on the board so far (`prefix`): read out the moves they begin.
  touched(prefix) {
    const position = this.hooks.position();
    if (!this.on || !position || !prefix.length) return;
    const what = prefix.map((p) => position.names[p]).join(" ");
    this.listMoves(candidates(position.legal, prefix), what);
  }

  // A new position is on the board: the select offers the points its legal moves start from.
  update() {
    const position = this.hooks.position();
    const legal = position ? position.legal : [];
    const key = legal.map((m) => m.n).join(" ");
    if (!this.on || key === this.listed) return;
    this.listed = key;
    const select = /** @type {HTMLSelectElement} */ ($("blind-from"));
    const option = (value, text) => {
      const item = document.createElement("option");
      item.value = value;
      item.textContent = text;
      return item;
    };
    const from = new Set();
    let placing = false;
    for (const move of legal) {
      if (move.g.length && move.g[0][0] === "from") from.add(position.names[move.g[0][1]]);
      else if (move.g.length && move.g[0][0] === "to") placing = true;
    }
    // TRANSLATORS: the choices of "Legal moves of": every piece's moves, the moves that place a man
    select.replaceChildren(option(EVERY, t("every piece")), ...(placing ? [option(PLACING, t("placing"))] : []),
      ...[...from].sort(byPoint).map((name) => option(name, name)));
    $("blind-moves").replaceChildren();
  }

  // The keys (blind mode on, the focus off the text boxes and choices; the board's own keys
  // are arrows, Enter and Space).
  key(event) {
    if (!this.on || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable]")) return;
    const box = this.hooks.box ? this.hooks.box() : /** @type {HTMLInputElement | null} */ ($("blind-move"));
    const actions = {
      p: () => this.readPosition(),
      l: () => $("blind-last").click(),
      c: () => this.readClocks(),
      m: () => { this.readMoves(); $("blind-from").focus(); },  // (its arrows choose a point)
      t: () => box && box.focus(),
    };
    const action = actions[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    action();
  }
}

// Point names in reading order: by file, then rank as a number ("a4" before "a10").
function byPoint(a, b) {
  return a[0].toLowerCase().localeCompare(b[0].toLowerCase()) || Number(a.slice(1)) - Number(b.slice(1));
}
