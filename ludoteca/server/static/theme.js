// Light or dark: the system's choice unless the player picks one with the header's switch
// (remembered in this browser).  Loaded in <head>, so a page never flashes the other scheme.
const THEMES = ["auto", "light", "dark"];
const stored = localStorage.getItem("ludoteca:theme");
let theme = THEMES.includes(stored) ? stored : "auto";

function apply() {
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  const button = document.getElementById("theme");
  if (button) {
    button.textContent = { auto: "Theme: system", light: "Theme: light", dark: "Theme: dark" }[theme];
    button.setAttribute("aria-label", `${button.textContent}; change`);
  }
}

apply();
document.addEventListener("DOMContentLoaded", () => {
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
