// The clocks: each player's time, ticking here between the server's snapshots (the server alone
// decides a loss on time), marked low under 20 s, with a sound at 10 s left on your own clock.
import { play } from "/static/lib/sound.js";
import { state } from "/static/lib/state.js";

// An element showing `colour`'s time, filled by showClocks().
export function clockFor(colour) {
  const time = document.createElement("span");
  time.className = "time";
  time.dataset.colour = colour;
  return time;
}

// Note that the view's clock was received now (the running side's time counts from here).
export function clockReceived() {
  state.clockReceived = performance.now();
}

// Show each clock's time as it is now.
export function showClocks() {
  const view = state.view;
  if (!view || !view.clock) return;
  for (const span of document.querySelectorAll(".player .time")) {
    const colour = /** @type {HTMLElement} */ (span).dataset.colour;
    let ms = view.clock[colour];
    if (view.clock.running === colour) ms = Math.max(0, ms - (performance.now() - state.clockReceived));
    const seconds = ms / 1000;
    span.textContent = seconds < 10 ? `0:0${seconds.toFixed(1)}`
      : `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
    span.classList.toggle("low", seconds < 20);
    if (seconds < 10 && view.clock.running === colour && view.you.includes(colour) && !state.warned) {
      state.warned = true;
      play("low");
    }
    span.classList.toggle("running", view.clock.running === colour);
  }
}

// Tick the shown clocks five times a second.
export function runClocks() {
  setInterval(showClocks, 200);
}
