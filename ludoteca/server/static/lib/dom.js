// What every page's script shares for the page itself: an element by its id, new elements
// (links, SVG), and the notice line (the page's `#notice`, shown while it has a text: the one
// place a page's failed requests are told, unless a box of its own is closer to what failed).
import { t } from "/static/lib/i18n.js";

// The element with the id `id`: the page's template holds every id its script asks for, and
// the script knows its kind (an input, a select, an svg...), hence typed `any`.
/** @type {(id: string) => any} */
export const $ = (id) => document.getElementById(id);

// A link to `href` reading `text` (set as text, never markup).
/** @param {string} href  @param {string} text */
export function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

// The "BOT" mark beside the name of an account an engine plays (its title says so in words).
export function botMark() {
  const mark = document.createElement("abbr");
  mark.className = "bot-mark";
  mark.title = t("A bot: a computer program plays this account");
  mark.textContent = t("BOT");
  return mark;
}

// A player's name as the pages show it: a link to their profile, with the BOT mark for a bot.
/** @param {string} name  @param {boolean} [bot]  @param {string} [text]  the link's words (the name) */
export function playerName(name, bot = false, text = name) {
  const span = document.createElement("span");
  span.className = "player-name";
  span.append(link(`/players/${encodeURIComponent(name)}`, text));
  if (bot) span.append(botMark());
  return span;
}

// An SVG element `name` with the attributes `attrs`, appended to `parent` when one is given.
/** @param {string} name  @param {Record<string, string | number>} [attrs]  @param {Element | null} [parent] */
export function svgElement(name, attrs = {}, parent = null) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

// Show `text` in `box`, by default the page's notice line (an empty text hides it); `good`
// marks a success.
/** @param {string} text  @param {boolean} [good]  @param {HTMLElement} [box] */
export function notice(text, good = false, box = $("notice")) {
  box.textContent = text;
  box.hidden = !text;
  box.classList.toggle("good", good);
}

// "White" or "Black" for a colour's name on the wire.
/** @param {string} colour */
export const colourName = (colour) => (colour === "white" ? t("White") : t("Black"));
