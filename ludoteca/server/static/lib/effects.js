// What the last two moves did besides moving, kept until two more moves are made (so the
// computer's quick reply does not hide what your own move converted or captured): per ply,
// the points whose piece changed colour ({point, token}) and the pieces removed ({point, token}).
import { state } from "/static/lib/state.js";

// Note what the move from the view `before` to the view `after` did (nothing unless it is one
// move on); forget what moves more than two plies back did.
export function noteEffects(before, after) {
  const effects = state.effects;
  for (const ply of [...effects.keys()]) {
    if (ply > after.ply || ply < after.ply - 1) effects.delete(ply);
  }
  if (!before || after.ply !== before.ply + 1) return;
  const moved = new Set((after.last || []).filter((t) => t[0] !== "take").map((t) => t[1]));
  const found = { changed: [], removed: [] };
  after.pieces.forEach((token, i) => {
    const was = before.pieces[i];
    if (moved.has(i) || !was) return;
    if (token && token !== was) found.changed.push({ point: i, token });
    if (!token) found.removed.push({ point: i, token: was });
  });
  effects.set(after.ply, found);
}

// What the move to `ply` did ({changed, removed}: empty when it did nothing else).
export function effectsOf(ply) {
  return state.effects.get(ply) || { changed: [], removed: [] };
}

// The board marks for the effects: the newest move's changes flash; both moves' conversions
// stay ringed while the converted piece is still there.
export function effectMarks() {
  const view = state.view;
  const now = effectsOf(view.ply);
  const before = effectsOf(view.ply - 1);
  const standing = (c) => view.pieces[c.point] === c.token;
  return { changed: now.changed.map((c) => c.point), removed: now.removed,
           converted: [...now.changed, ...before.changed].filter(standing).map((c) => c.point) };
}
