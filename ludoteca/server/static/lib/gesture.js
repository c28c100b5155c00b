// Making a move touch by touch on a page that knows no rules: the legal moves arrive with
// their gestures (as readLegal reads them), and the points touched so far narrow them down.

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

// The targets to mark while a move is being made: the next point of each move still possible.
export function targets(legal, prefix) {
  if (!prefix.length) return [];
  return candidates(legal, prefix).flatMap((m) => {
    const next = m.g[prefix.length];
    return next ? [{ point: next[1], kind: next[0] }] : [];
  });
}
