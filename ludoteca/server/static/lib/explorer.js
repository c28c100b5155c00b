// The opening explorer's panel on the analysis board: for the position shown, each move played
// from it in the server's finished games, with how many games and how they ended, and the
// engine's (or a solved table's) value of the move.  Clicking a move plays it on the board.
// The panel knows no rules: it shows what /api/explorer answers for a rule set and a code.
import { $ } from "/static/lib/dom.js";
import { HttpError, getJSON, settled } from "/static/lib/http.js";
import { t, tn } from "/static/lib/i18n.js";

const percent = (part, whole) => `${Math.round((100 * part) / whole)}%`;
const AGAIN = 1500;  // ms before asking again for values still worked out

export class Explorer {
  // play(move): called with a move's notation when it is clicked.
  constructor(play) {
    this.play = play;
    this.asked = 0;  // the last position asked for: older answers are dropped
  }

  async show(game, rules, code) {
    const asked = ++this.asked;
    const query = new URLSearchParams({ game, rules, position: code });
    const answer = await settled(getJSON(`/api/explorer?${query}`));
    if (asked !== this.asked) return;
    if (answer instanceof HttpError) { $("explorer-summary").textContent = answer.message; return; }
    this.draw(answer);
    if (!answer.valued) setTimeout(() => { if (asked === this.asked) this.show(game, rules, code); }, AGAIN);
  }

  draw(answer) {
    $("explorer-summary").textContent = answer.games
      ? tn("%(num)s finished game reached this position.", "%(num)s finished games reached this position.", answer.games)
      : t("No finished game has reached this position yet.");
    const body = $("explorer-moves");
    body.replaceChildren();
    $("explorer").hidden = !answer.moves.length;
    for (const move of answer.moves) {
      const row = body.insertRow();
      row.dataset.move = move.move;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move link";
      button.textContent = move.move;
      button.title = t("Play %(move)s on the board", { move: move.move });
      button.onclick = () => this.play(move.move);
      row.insertCell().appendChild(button);
      row.insertCell().textContent = String(move.games);
      const results = row.insertCell();
      results.className = "results";
      results.textContent = t("%(white)s / %(draws)s / %(black)s", {
        white: percent(move.white, move.games), draws: percent(move.draws, move.games), black: percent(move.black, move.games),
      });
      results.title = t("White won %(white)s, drawn %(draws)s, Black won %(black)s", move);
      const value = row.insertCell();
      value.textContent = move.value ? move.value.bar : t("…");
      if (move.value) value.title = move.value.exact ? t("%(text)s (exact, from the solved table)", move.value) : move.value.text;
    }
  }
}
