// A premove: in a game between people, the points touched while the opponent is to move are
// kept (one move) and played as soon as the turn comes, if they make a legal move then; a click
// off the board's points or Escape cancels it.
import { notice } from "/static/lib/dom.js";
import { pointName, send, state } from "/static/lib/state.js";
import { render } from "/static/lib/render.js";
import { t } from "/static/lib/i18n.js";

// A touch now would be kept as a premove.
export function canPremove() {
  const view = state.view;
  return view.status === "live" && view.mode === "online" && view.you.length === 1
    && view.turn !== view.you[0];
}

// Add a point to the premove (touching a point already in it cancels the premove).
export function touchPremove(point) {
  state.premove = state.premove.includes(point) ? [] : [...state.premove, point];
  render();
}

// Play the premove now that the turn has come: the whole move when it is one, its start when
// it begins legal moves (the player finishes it), else nothing, with a word.
export function playPremove() {
  const view = state.view;
  const queued = state.premove;
  state.premove = [];
  const fits = view.legal.filter((m) => queued.every((p, i) => m.g[i] && m.g[i][1] === p));
  const whole = fits.find((m) => m.g.length === queued.length);
  if (whole) {
    send({ type: "move", move: whole.n, ply: view.ply });
    render(whole);
    return;
  }
  if (fits.length) state.prefix = queued;
  else notice(t("The premove (%(points)s) is not legal now; it was cancelled.", { points: queued.map(pointName).join(" → ") }));
  render();
}

export function cancelPremove() {
  if (!state.premove.length) return;
  state.premove = [];
  render();
}

// Drop a premove that can no longer be played (the game over, or no longer one seat's).
export function keepPremove() {
  const view = state.view;
  if (state.premove.length && !(view.status === "live" && view.you.length === 1)) state.premove = [];
}

// Cancel the premove on a click off the board's points (a touched point is redrawn at once, so
// the event's target may have left the page: its own .pt ancestor says it was a point).
export function premoveControls() {
  document.addEventListener("pointerdown", (event) => {
    const target = /** @type {Element} */ (event.target);
    if (!target.closest || !target.closest(".pt")) cancelPremove();
  });
}
