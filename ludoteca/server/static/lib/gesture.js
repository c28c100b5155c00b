// Making a move touch by touch on a page that knows no rules: the legal moves arrive with
// their gestures (as readLegal reads them), and the points touched so far narrow them down.
import { t } from "/static/lib/i18n.js";

// The legal moves whose gestures begin with the points touched so far (`prefix`).
export function candidates(legal, prefix) {
  return legal.filter((m) => prefix.every((p, i) => m.g[i] && m.g[i][1] === p));
}

// A touch on `point`: the points touched now (a point that continues no legal move from the
// prefix starts a new one; one that starts none either leaves nothing touched) and the legal
// move they complete, if any.
export function extend(legal, prefix, point) {
  const at = (m, i) => m.g[i] && m.g[i][1] === point;
  let start = prefix;
  let options = candidates(legal, start).filter((m) => at(m, start.length));
  if (!options.length && start.length) {
    start = [];
    options = candidates(legal, start).filter((m) => at(m, 0));
  }
  if (!options.length) return { prefix: start, done: null };
  const touched = [...start, point];
  return { prefix: touched, done: options.find((m) => m.g.length === touched.length) || null };
}

// The targets to mark while a move is being made: the next point of each move still possible;
// before the first touch, the men a turn that only takes a man may take (none otherwise).
export function targets(legal, prefix) {
  if (!prefix.length) {
    return legal.filter((m) => m.g.length === 1 && m.g[0][0] === "take").map((m) => ({ point: m.g[0][1], kind: "take" }));
  }
  return candidates(legal, prefix).flatMap((m) => {
    const next = m.g[prefix.length];
    return next ? [{ point: next[1], kind: next[0] }] : [];
  });
}

// The token of a man of `side` (the piece a placement puts down), by the board's `styles`.
function manOf(styles, side) {
  return Object.keys(styles).find((t) => styles[t].side === side && styles[t].shape !== "king" && !styles[t].ring);
}

// The pieces as the move under way leaves them: a man placed or moved stands where it went
// while the rest of the move (a removal, the next leap) is chosen.
function piecesUnderWay(view, styles, prefix) {
  const [move] = candidates(view.legal, prefix);
  if (!move || !prefix.some((_, i) => move.g[i][0] === "to")) return view.pieces;
  const pieces = view.pieces.slice();
  let lifted = null;
  prefix.forEach((p, i) => {
    const role = move.g[i][0];
    if (role === "from") { lifted = pieces[p]; pieces[p] = ""; }
    else if (role === "to") { pieces[p] = lifted || manOf(styles, view.turn) || ""; lifted = pieces[p]; }
  });
  return pieces;
}

// What the board shows while a move is being made from `view` (its pieces, legal moves and
// side to move) with the board's piece `styles`: the pieces as the move under way leaves them
// (the man where it went), and `marks` (the position's own) with its marked points, the points
// touched, where they can go next, and the men a capture chain under way takes (faded; the last
// move's marks dropped then).  Every page that makes moves touch by touch draws the board
// through it.
export function underWay(view, styles, prefix, marks = {}) {
  marks = { ...marks, marked: view.marked || [] };
  if (!prefix.length) return { pieces: view.pieces, marks: { ...marks, selected: [], targets: targets(view.legal, prefix) } };
  const chain = prefix.length >= 2 ? candidates(view.legal, prefix).filter((m) => m.x) : [];
  const jumped = chain.length ? chain[0].x.filter((p) => chain.every((m) => m.x.includes(p))) : [];
  return {
    pieces: piecesUnderWay(view, styles, prefix),
    marks: { ...marks, selected: prefix.slice(), targets: targets(view.legal, prefix), jumped,
             ...(chain.length ? { last: [] } : {}) },
  };
}

// What to do next with the points touched so far, in the game's own words (`texts`, the view's:
// place, move, place_or_move, to, continue, take).
export function instruction(legal, prefix, texts) {
  if (!prefix.length) {
    const touched = legal.filter((m) => m.g.length);
    if (!touched.length) return t("type your move");
    const kinds = new Set(touched.map((m) => m.g[0][0]));
    if (kinds.has("take")) return texts.take; // a turn that only takes a man
    return kinds.has("from") ? (kinds.has("to") ? texts.place_or_move : texts.move) : texts.place;
  }
  const next = new Set(candidates(legal, prefix).map((m) => m.g[prefix.length][0]));
  if (next.has("take")) return texts.take;
  return prefix.length > 1 ? texts.continue : texts.to;
}
