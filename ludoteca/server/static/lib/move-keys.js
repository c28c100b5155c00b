// The keys that look through a game's moves, on the game, analysis and review pages: the
// arrows step one move back or on, Home and End go to the start and the end.  The arrows
// follow the page's direction, as the move list and the ◀ ▶ buttons do: left to right, the
// Left arrow goes back; right to left (Arabic) the Right arrow does, pointing toward the start.
// stepOf() needs no DOM, so it is tested on its own.

/** @typedef {"back" | "on" | "first" | "last"} Step */

/**
 * The step a key asks for in a page written in `direction` ("ltr" or "rtl"), or null.
 * @param {string} key  @param {string} direction  @returns {Step | null}
 */
export function stepOf(key, direction) {
  const rtl = direction === "rtl";
  if (key === "ArrowLeft") return rtl ? "on" : "back";
  if (key === "ArrowRight") return rtl ? "back" : "on";
  if (key === "Home") return "first";
  if (key === "End") return "last";
  return null;
}

// Whether a key pressed on `target` is that element's own: text and choices typed into, or the
// board (whose arrows move between its points).
const OWN_KEYS = "input, textarea, select, [contenteditable], #board";

/**
 * Step through the moves with the keys anywhere on the page but where the key is another's
 * (OWN_KEYS, or with Alt, Ctrl or Meta: the browser's own, Alt+Left going back a page).
 * @param {Partial<Record<Step, () => void>>} steps
 */
export function stepKeys(steps) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (event.target instanceof Element && event.target.closest(OWN_KEYS)) return;
    const step = stepOf(event.key, document.documentElement.dir || "ltr");
    const action = step && steps[step];
    if (!action) return;
    event.preventDefault();
    action();
  });
}
