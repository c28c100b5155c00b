// What a touch on a board point does: during the opponent's turn online it goes to the premove;
// on your turn it extends the move being made (a point that starts no legal move from there
// starts over), and the move is sent as soon as the points touched make one.
import { canPremove, touchPremove } from "/static/lib/premove.js";
import { render } from "/static/lib/render.js";
import { candidates, mine, send, state } from "/static/lib/state.js";

export function touch(point) {
  if (!state.view || state.viewing !== null) return;
  if (canPremove()) { touchPremove(point); return; }
  if (!mine()) return;
  const at = (m, i) => m.g[i] && m.g[i][1] === point;
  let options = candidates().filter((m) => at(m, state.prefix.length));
  if (!options.length && state.prefix.length) {
    state.prefix = [];
    options = candidates().filter((m) => at(m, 0));
  }
  if (!options.length) { render(); return; }
  state.prefix.push(point);
  const done = options.find((m) => m.g.length === state.prefix.length);
  if (done) {
    send({ type: "move", move: done.n, ply: state.view.ply });
    state.prefix = [];
    render(done);
    return;
  }
  render();
}
