// The clocks: each player's time, ticking here between the server's snapshots (the server alone
// decides a loss on time), marked low under 20 s, with a sound at 10 s left on your own clock.
import { t } from "/static/lib/i18n.js";
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

// The seconds left on `colour`'s clock now (the running one counted down since received).
function secondsLeft(colour) {
  const clock = state.view.clock;
  let ms = clock[colour];
  if (clock.running === colour) ms = Math.max(0, ms - (performance.now() - state.clockReceived));
  return ms / 1000;
}

// A time as the clocks show it: "4:05", and tenths under ten seconds ("0:07.3").
function shown(seconds) {
  return seconds < 10 ? `0:0${seconds.toFixed(1)}`
    : `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
}

// The clocks in words, as the blind mode reads them out.
export function clocksInWords() {
  const view = state.view;
  if (!view || !view.clock) return t("This game has no clock.");
  const times = { white: shown(secondsLeft("white")), black: shown(secondsLeft("black")) };
  const running = view.clock.running === "white" ? t("White's clock is running.")
    : view.clock.running === "black" ? t("Black's clock is running.") : "";
  return `${t("White: %(white)s, Black: %(black)s.", times)} ${running}`.trim();
}

// Show each clock's time as it is now.
export function showClocks() {
  const view = state.view;
  if (!view || !view.clock) return;
  for (const span of document.querySelectorAll(".player .time")) {
    const colour = /** @type {HTMLElement} */ (span).dataset.colour;
    const seconds = secondsLeft(colour);
    span.textContent = shown(seconds);
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
