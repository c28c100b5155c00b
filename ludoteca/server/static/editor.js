// The analysis board's position editor: a position code, edited by hand, that the server checks
// (the page knows no rules: an impossible position comes back with the engine's sentence).
import { send } from "/static/account.js";
import { $ } from "/static/dom.js";

function editorError(text) {
  $("editor-error").textContent = text;
  $("editor-error").hidden = !text;
}

// Show the code of the position on screen in the editor.
export function showCode(code) {
  if (document.activeElement !== $("editor-code")) $("editor-code").value = code;
}

// Wire the editor: current() gives {game, rules} of the board; onSet(answer) receives the
// checked position ({game, rules, code}).
export function editorControls(current, onSet) {
  $("editor-code").addEventListener("input", () => editorError(""));
  $("editor").onsubmit = async (event) => {
    event.preventDefault();
    const { game, rules } = current();
    if (!game) return;
    const answer = await send("/api/analysis/position", { game, rules, code: $("editor-code").value.trim() });
    const data = await answer.json();
    if (!answer.ok) { editorError(data.error); return; }
    editorError("");
    onSet(data);
  };
}
