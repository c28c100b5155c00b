// The move list of the game and review pages: moves numbered as records number them ("12. d6 f4";
// "12... f4" when the list starts on the second move of a pair), each a button that shows the
// position after it.  firstPly: the ply the game started from (0 unless set up from a position).
import { t } from "/static/lib/i18n.js";

// The number of a game's `count`-th move (from 1) with the move: "2... b4-c4".
export function numbered(firstPly, count, move) {
  const ply = firstPly + count - 1;
  return `${Math.floor(ply / 2) + 1}.${ply % 2 ? ".." : ""} ${move}`;
}

// The words for the position after `count` moves: "the start" or "after 2... b4-c4".
export function afterMove(firstPly, count, move) {
  return count ? t("after %(move)s", { move: numbered(firstPly, count, move) }) : t("the start");
}

// Fill the list element with one <li> per numbered pair.  current: how many moves the shown
// position follows; pick(count): called with the count of the move clicked; mark(index): the
// report's judgement of a move, { judgement, best } or null, shown as its symbol after the move
// (a separate span, so the move's own text stays the move) and, with `best`, as its title.
export function drawMoves(list, moves, firstPly, current, pick, mark = null) {
  list.replaceChildren();
  let row = null;
  moves.forEach((move, i) => {
    const ply = firstPly + i;
    if (!row || ply % 2 === 0) {
      row = document.createElement("li");
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${Math.floor(ply / 2) + 1}.${ply % 2 ? ".." : ""}`;
      row.append(number, " ");
      list.appendChild(row);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move link";
    button.textContent = move;
    button.onclick = () => pick(i + 1);
    if (current === i + 1) {
      button.classList.add("current");
      button.setAttribute("aria-current", "step");
    }
    const judged = mark ? mark(i) : null;
    if (judged) {
      button.classList.add("mistake");
      const symbol = document.createElement("span");
      symbol.className = "judgement";
      symbol.textContent = symbolOf(judged.judgement);
      button.appendChild(symbol);
      if (judged.best) button.title = t("%(judgement)s: better %(move)s", { judgement: judgementName(judged.judgement), move: judged.best });
    }
    row.append(button, " ");
  });
}

const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };

// The symbol a move is marked with in the move list ("", "?!", "?" or "??").
export const symbolOf = (judgement) => SYMBOL[judgement] || "";

// A judgement ("inaccuracy", "mistake", "blunder", as the server names them) in words.
export const judgementName = (judgement) => ({
  inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder"),
}[judgement] || judgement);

// The men in hand, as the status lines say them.
export const inHand = (hand) => t("In hand: White %(white)s, Black %(black)s.", { white: hand[0], black: hand[1] });
