// What every page's script shares for the page itself: an element by its id, and the notice
// line (the page's `#notice`, shown while it has a text).
export const $ = (id) => document.getElementById(id);

// Show `text` in the page's notice line (an empty text hides it); `good` marks a success.
export function notice(text, good = false) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
  box.classList.toggle("good", good);
}

// "White" or "Black" for a colour's name on the wire.
export const colourName = (colour) => (colour === "white" ? "White" : "Black");
