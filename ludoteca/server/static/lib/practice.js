// The analysis board's "Practise against perfect play" panel: from the position shown, where a
// solved table covers it, the person plays on with the side to move there and the server's
// perfect player answers (POST /api/analysis/practice, which keeps no state: each step sends
// the moves since the start).  The moves join the board's tree as a line.  At the end (the
// game over, "Stop", or the board taken off the line) the panel says whether the person kept
// the start's value and, if not, the move where it was lost.  The page tells the panel each
// position it shows (shown) and asks it before a touch makes a move (mayMove).
import { $ } from "/static/lib/dom.js";
import { postJSON } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

/** @typedef {import("/static/lib/types.js").Practice} Practice */
/** @typedef {import("/static/lib/types.js").Colour} Colour */

/**
 * A position the board shows: its rule set, code, the moves from the tree's root to it, the
 * side to move and whether the game is over there.
 * @typedef {{ game: string, rules: string, code: string, path: string[], turn: Colour,
 *             over: boolean }} Shown
 */

/**
 * A practice under way: where it started (the tree's moves to there: `base`) and the side the
 * person plays.
 * @typedef {{ game: string, rules: string, start: string, base: string[], player: Colour }} Game
 */

export class PracticePanel {
  /**
   * @param {() => Shown | null} here  the position the board shows
   * @param {(move: string) => void} play  plays a move on the board, from the position shown
   * @param {(on: boolean) => void} changed  a practice started (true) or ended (false)
   */
  constructor(here, play, changed) {
    this.here = here;
    this.play = play;
    this.changed = changed;
    /** @type {Game | null} */
    this.game = null;
    /** @type {string[]} the moves since the start, as last shown */
    this.line = [];
    this.asked = 0;          // the last request: answers to older ones are dropped
    this.thinking = false;   // the perfect player's move is asked for
    this.button = /** @type {HTMLButtonElement} */ ($("practice"));
    this.status = /** @type {HTMLElement} */ ($("practice-status"));
    this.button.onclick = () => { if (this.game) this.stop(); else this.start(); };
  }

  get active() { return this.game !== null; }

  // Whether a touch may make a move for `turn`: always, unless practising and it is the
  // perfect player's move.
  /** @param {Colour} turn */
  mayMove(turn) { return !this.game || (turn === this.game.player && !this.thinking); }

  async start() {
    const at = this.here();
    if (!at || at.over) return;
    const asked = ++this.asked;
    this.say(t("…"));
    /** @type {Practice} */
    let answer;
    try {
      answer = await postJSON("/api/analysis/practice", { game: at.game, rules: at.rules, start: at.code, moves: [] });
    } catch (error) {
      if (asked === this.asked) this.say(/** @type {import("/static/lib/http.js").HttpError} */ (error).message);
      return;
    }
    if (asked !== this.asked) return;
    this.game = { game: at.game, rules: at.rules, start: at.code, base: at.path, player: answer.player };
    this.line = [];
    this.button.textContent = t("Stop practising");
    this.button.setAttribute("aria-pressed", "true");
    this.say(answer.player === "white"
      ? t("You play White against perfect play; the table says: %(value)s. Your move.", { value: answer.value.text })
      : t("You play Black against perfect play; the table says: %(value)s. Your move.", { value: answer.value.text }));
    this.changed(true);
  }

  // The board shows a position: during a practice, ask for the perfect player's move when it is
  // its turn, and end the practice when the game is over or the board left the line.
  /** @param {Shown} at */
  shown(at) {
    const game = this.game;
    if (!game) return;
    const onLine = at.game === game.game && at.path.length >= game.base.length
      && game.base.every((move, i) => at.path[i] === move);
    if (!onLine) { this.stop(); return; }
    this.line = at.path.slice(game.base.length);
    if (at.over) { this.stop(); return; }
    if (at.turn !== game.player) this.answer(game);
    else if (this.line.length) this.say(t("Your move."));
  }

  // Ask for the perfect player's reply to the line and play it.
  /** @param {Game} game */
  async answer(game) {
    const asked = ++this.asked;
    this.thinking = true;
    this.say(t("The perfect player is thinking…"));
    const answer = await this.ask(game, asked);
    this.thinking = false;
    if (!answer || this.game !== game) return;
    if (answer.reply) this.play(answer.reply);
    if (answer.over) this.end(answer);
  }

  // End the practice: the judgement of the line played.
  async stop() {
    const game = this.game;
    if (!game) return;
    const asked = ++this.asked;
    this.say(t("…"));
    const answer = await this.ask(game, asked);
    if (answer && this.game === game) this.end(answer);
  }

  /**
   * The server's step for the line so far (null, the failure said, if it failed or a newer
   * request replaced it).
   * @param {Game} game  @param {number} asked
   * @returns {Promise<Practice | null>}
   */
  async ask(game, asked) {
    try {
      /** @type {Practice} */
      const answer = await postJSON("/api/analysis/practice",
        { game: game.game, rules: game.rules, start: game.start, moves: this.line });
      return asked === this.asked ? answer : null;
    } catch (error) {
      if (asked === this.asked) this.say(/** @type {import("/static/lib/http.js").HttpError} */ (error).message);
      return null;
    }
  }

  /** @param {Practice} answer */
  end(answer) {
    this.game = null;
    this.thinking = false;
    this.button.textContent = t("Practise against perfect play");
    this.button.setAttribute("aria-pressed", "false");
    this.say(answer.verdict, answer.kept ? "kept" : "lost");
    this.changed(false);
  }

  /** @param {string} text  @param {string} [result] */
  say(text, result = "") {
    this.status.textContent = text;
    this.status.dataset.result = result;
  }
}
