// The computer's advice: a hint for the position on the board (best move, evaluation bar, main
// line, the move marked on the board), until the position changes.  (A finished game's report
// is report.js's.)
import { $ } from "/static/lib/dom.js";
import { render } from "/static/lib/render.js";
import { send, state } from "/static/lib/state.js";
import { t } from "/static/lib/i18n.js";

export function showHint(found) {
  state.hint = found;
  const share = Math.round(found.white_share * 100);
  $("evaluation").hidden = false;
  $("evaluation-white").style.width = `${share}%`;
  $("evaluation").title = t("White's expected score: %(share)s%%", { share });
  $("evaluation-value").textContent = t("White %(share)s%%", { share });
  $("hint-text").textContent = t("Hint: %(move)s — %(why)s. Line: %(line)s", { move: found.move, why: found.text, line: found.pv.join(" ") });
  render();
}

// Forget the advice (the position changed).
export function dropAdvice() {
  state.hint = null;
  $("hint-text").textContent = "";
}

// The hint button.
export function adviceControls() {
  $("hint").onclick = () => { $("hint-text").textContent = t("Thinking about a hint…"); send({ type: "hint" }); };
}
