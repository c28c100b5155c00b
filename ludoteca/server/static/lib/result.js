// The end of a game seen on the game page: a dialog over the board saying what it means for
// the reader ("You won", "You lost", "Draw"; for spectators and players on one screen, which
// side won), the result and its reason in words ("0-1 · Black wins: resignation"), and, once
// the server has them, the rating changes of a rated game.
import { $, colourName } from "/static/lib/dom.js";
import { state } from "/static/lib/state.js";
import { isolated, t } from "/static/lib/i18n.js";

const WINNER = { "1-0": "white", "0-1": "black" };

function title(outcome, you) {
  if (outcome.result === "*") return t("Game cancelled");
  const winner = WINNER[outcome.result];
  if (!winner) return t("Draw");
  if (you.length === 1) return you[0] === winner ? t("You won") : t("You lost");
  return winner === "white" ? t("White won") : t("Black won");
}

// The rating changes of a finished rated game, the reader's own first: "Your rating: 1662?
// (+162)" to a player, both sides' to anyone else; "" until the server has the changes.
function ratingText(view) {
  const ratings = state.ratings;
  if (!view.rated || !ratings) return "";
  const one = (colour) => {
    const r = ratings[colour];
    if (!r || r.change === null || r.change === undefined) return null;
    const sign = r.change >= 0 ? "+" : "−";
    return `${r.rating}${r.provisional ? "?" : ""} (${sign}${Math.abs(r.change)})`;
  };
  if (view.you.length === 1) {
    const mine = one(view.you[0]);
    return mine ? t("Your rating: %(rating)s", { rating: mine }) : "";
  }
  const both = ["white", "black"].map((c) => [c, one(c)]).filter(([, text]) => text);
  return both.map(([c, text]) => `${colourName(c)}: ${isolated(text)}`).join(t(", "));
}

// Show (or refresh) the dialog.
export function showResult() {
  const view = state.view;
  const { outcome, you } = view;
  $("result-title").textContent = title(outcome, you);
  $("result-reason").textContent = outcome.result === "*" ? outcome.text
    : `${outcome.result} · ${outcome.text}`;
  showResultRating();
  $("result-rematch").hidden = !(you.length && outcome.result !== "*");
  $("result-analyse").hidden = outcome.result === "*";
  if (!$("result").open) $("result").showModal();
}

// Put the rating changes in the dialog, once they have arrived.
export function showResultRating() {
  const view = state.view;
  if (!view || view.status !== "over") return;
  const text = ratingText(view);
  $("result-rating").textContent = text;
  $("result-rating").hidden = !text;
}
