// The analysis board's "Every move" panel: each legal move of the position shown with its value,
// from /api/analysis/moves: exact where a solved table covers the position (win in N, draw, loss
// in N, ranked as lichess ranks its tablebase moves), else the search's score at a modest depth.
// It asks only while open.  Clicking a move plays it on the board.
import { $ } from "/static/lib/dom.js";
import { getJSON } from "/static/lib/http.js";
import { t } from "/static/lib/i18n.js";

export class MovesPanel {
  // play(move): called with a move's notation when it is clicked.
  constructor(play) {
    this.play = play;
    this.asked = 0;       // the last position asked for: older answers are dropped
    this.position = null; // {game, rules, code} shown
    const panel = document.createElement("details");
    panel.className = "panel";
    panel.id = "every-move";
    const summary = document.createElement("summary");
    summary.textContent = t("Every move's value");
    this.source = document.createElement("p");
    this.source.className = "small";
    this.source.setAttribute("aria-live", "polite");
    this.list = document.createElement("ol");
    this.list.className = "lines";
    this.list.id = "move-values";
    panel.append(summary, this.source, this.list);
    panel.ontoggle = () => { if (panel.open) this.ask(); };
    this.panel = panel;
    $("lines").closest("section").after(panel);
  }

  // The board shows a new position.
  show(game, rules, code) {
    this.position = { game, rules, code };
    this.list.replaceChildren();
    if (this.panel.open) this.ask();
  }

  async ask() {
    if (!this.position) return;
    const asked = ++this.asked;
    const { game, rules, code } = this.position;
    this.source.textContent = t("…");
    let answer;
    try {
      answer = await getJSON(`/api/analysis/moves?${new URLSearchParams({ game, rules, position: code })}`);
    } catch (error) {  // (an HttpError: the server's sentence)
      if (asked === this.asked) this.source.textContent = /** @type {Error} */ (error).message;
      return;
    }
    if (asked === this.asked) this.draw(answer);
  }

  draw(answer) {
    this.source.textContent = answer.exact ? t("Exact values, from the solved table.")
      : t("The search's scores at depth %(depth)s.", { depth: answer.depth });
    this.list.replaceChildren();
    for (const row of answer.moves) {
      const item = document.createElement("li");
      item.dataset.move = row.move;
      if (row.verdict) item.dataset.verdict = row.verdict;
      const value = document.createElement("span");
      value.className = "score";
      value.textContent = row.text;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move link";
      button.textContent = row.move;
      button.title = t("Play %(move)s on the board", { move: row.move });
      button.onclick = () => this.play(row.move);
      item.append(value, " ", button);
      this.list.appendChild(item);
    }
  }
}
