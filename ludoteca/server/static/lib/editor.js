// The analysis board's position editor: pieces put on and taken off the board's points (the
// piece kinds are the game's board styles), the side to move and the men in hand; or a position
// code edited by hand.  The page knows no rules: the server builds and checks the position, and
// an impossible one comes back with the engine's sentence.
import { pieceName } from "/static/lib/board.js";
import { $ } from "/static/lib/dom.js";
import { postJSON, reported } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

function editorError(text) {
  $("editor-error").textContent = text;
  $("editor-error").hidden = !text;
}

// Show the code of the position on screen in the code box.
export function showCode(code) {
  if (document.activeElement !== $("editor-code")) $("editor-code").value = code;
}

export class Editor {
  // current(): {game, rules, view, board} of the page; onSet(answer): the checked position
  // ({game, rules, code}); redraw(): draw the board again (editing or not).
  constructor(current, onSet, redraw) {
    this.current = current;
    this.onSet = onSet;
    this.redraw = redraw;
    this.pieces = null;  // the pieces being placed, while editing
    $("edit").onclick = () => (this.pieces ? this.stop() : this.start());
    $("editor-code").addEventListener("input", () => editorError(""));
    $("code-form").onsubmit = (event) => {
      event.preventDefault();
      this._check({ code: $("editor-code").value.trim() });
    };
    $("editor").onsubmit = (event) => {
      event.preventDefault();
      const hand = this.current().view.hand
        ? [Number($("editor-hand-white").value), Number($("editor-hand-black").value)] : null;
      this._check({ pieces: this.pieces, turn: $("editor-turn").value, hand });
    };
  }

  get editing() { return this.pieces !== null; }

  // Start editing the position shown: a palette of the game's piece kinds and "empty".
  start() {
    const { view, board } = this.current();
    if (!view || !board) return;
    this.pieces = view.pieces.slice();
    const palette = $("palette");
    palette.querySelectorAll("label").forEach((l) => l.remove());
    for (const token of ["", ...Object.keys(board.styles)]) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "token";
      input.value = token;
      input.checked = token === "";
      label.append(input, ` ${token ? pieceName(board, token) : t("empty (take off)")}`);
      palette.appendChild(label);
    }
    $("editor-turn").value = view.turn;
    $("editor-hand").hidden = !view.hand;
    if (view.hand) [$("editor-hand-white").value, $("editor-hand-black").value] = view.hand;
    $("editor").hidden = false;
    $("edit").setAttribute("aria-pressed", "true");
    $("edit").textContent = t("Stop editing");
    editorError("");
    this.redraw();
    // the palette and its button go beside the board (first in its column), and into view
    $("editor-panel").classList.add("editing");
    $("editor-panel").scrollIntoView({ block: "nearest" });
  }

  stop() {
    this.pieces = null;
    $("editor").hidden = true;
    $("editor-panel").classList.remove("editing");
    $("edit").setAttribute("aria-pressed", "false");
    $("edit").textContent = t("Edit the board");
    this.redraw();
  }

  // A touch on point `point` while editing: the chosen piece goes there.
  touch(point) {
    /** @type {HTMLInputElement | null} */
    const chosen = document.querySelector('#palette input[name="token"]:checked');
    this.pieces[point] = chosen ? chosen.value : "";
    editorError("");
    this.redraw();
  }

  async _check(position) {
    const { game, rules } = this.current();
    if (!game) return;
    const data = await reported(postJSON("/api/analysis/position", { game, rules, ...position }), $("editor-error"));
    if (!data) return;
    editorError("");
    if (this.editing) this.stop();
    this.onSet(data);
  }
}
