// The page's look: light or dark (the system's choice unless the player picks one with the
// header's switch) and the board's theme (its colours and pieces, chosen with a page's "Board"
// control, #board-theme), both remembered in this browser.  Loaded in <head>, so a page never
// flashes another look.  A classic script (it cannot import i18n.js): the switch's texts come
// translated from the header's data-theme-* attributes (base.html).
const THEMES = ["auto", "light", "dark"];
const BOARDS = ["classic", "wood", "contrast"];
const stored = localStorage.getItem("ludoteca:theme");
let theme = THEMES.includes(stored) ? stored : "auto";
const storedBoard = localStorage.getItem("ludoteca:board");
let board = BOARDS.includes(storedBoard) ? storedBoard : "classic";

function apply() {
  const root = document.documentElement;
  if (theme === "auto") delete root.dataset.theme;
  else root.dataset.theme = theme;
  root.dataset.board = board;
  const button = document.getElementById("theme");
  if (button) {
    const texts = /** @type {HTMLElement} */ (document.querySelector("header.top")).dataset;
    button.textContent = { auto: texts.themeAuto, light: texts.themeLight, dark: texts.themeDark }[theme];
    button.setAttribute("aria-label", `${button.textContent}; ${texts.themeChange}`);
  }
  const choice = /** @type {HTMLSelectElement | null} */ (document.getElementById("board-theme"));
  if (choice) choice.value = board;
}

apply();
document.addEventListener("DOMContentLoaded", () => {
  const choice = /** @type {HTMLSelectElement | null} */ (document.getElementById("board-theme"));
  if (choice) {
    choice.onchange = () => {
      board = BOARDS.includes(choice.value) ? choice.value : "classic";
      localStorage.setItem("ludoteca:board", board);
      apply();
    };
  }
  const header = document.querySelector("header.top");
  if (!header) return;
  const button = document.createElement("button");
  button.id = "theme";
  button.type = "button";
  button.className = "theme";
  button.onclick = () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
    localStorage.setItem("ludoteca:theme", theme);
    apply();
  };
  header.appendChild(button);
  apply();
});
