// The computer's advice: a hint for the position on the board (best move, evaluation bar, main
// line, the move marked on the board) and the review of a finished game (mistakes marked ? and
// ?? in the move list, each with the better move).  Both last until the position changes.
import { $ } from "/static/dom.js";
import { numbered } from "/static/moves.js";
import { render } from "/static/render.js";
import { send, state } from "/static/state.js";

export function showHint(found) {
  state.hint = found;
  const share = Math.round(found.white_share * 100);
  $("evaluation").hidden = false;
  $("evaluation-white").style.width = `${share}%`;
  $("evaluation").title = `White's expected score: ${share}%`;
  $("evaluation-value").textContent = `White ${share}%`;
  $("hint-text").textContent = `Hint: ${found.move} — ${found.text}. Line: ${found.pv.join(" ")}`;
  render();
}

export function showReview(found) {
  state.mistakes = found;
  const box = $("review");
  box.replaceChildren();
  const head = document.createElement("p");
  head.textContent = found.length
    ? `${found.length} mistake${found.length > 1 ? "s" : ""} found (marked ? and ?? in the moves):`
    : "No mistakes found.";
  box.appendChild(head);
  const list = document.createElement("ul");
  for (const m of found) {
    const li = document.createElement("li");
    li.textContent = `${numbered(state.view.first_ply, m.index + 1, m.move)}: better ${m.best} (${m.text}); `
      + `gave away ${Math.round(m.loss * 100)}% of the expected score.`;
    list.appendChild(li);
  }
  box.appendChild(list);
  render();
}

// Forget the advice (the position changed).
export function dropAdvice() {
  state.hint = null;
  state.mistakes = null;
  $("hint-text").textContent = "";
  $("review").textContent = "";
  $("analyse").disabled = false;
}

// The hint and analyse buttons.
export function adviceControls() {
  $("hint").onclick = () => { $("hint-text").textContent = "Thinking about a hint…"; send({ type: "hint" }); };
  $("analyse").onclick = () => {
    $("review").textContent = "Analysing every move…";
    $("analyse").disabled = true;
    send({ type: "review" });
  };
}
