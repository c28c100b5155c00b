// The lobby: choose a game, rule set and opponent; list open games and games to watch.
import { Board } from "/static/board.js";

const $ = (id) => document.getElementById(id);
let catalogue = [];

function chosen() {
  const name = document.querySelector('input[name="game"]:checked').value;
  return catalogue.find((g) => g.name === name);
}

function opponent() { return document.querySelector('input[name="opponent"]:checked').value; }

function showGame() {
  const game = chosen();
  $("summary").textContent = game.summary;
  $("rules").replaceChildren(...game.rule_sets.map((r) => new Option(r.name, r.name)));
  showRules();
}

function showLevels(levels) {
  const keep = $("level").value;
  $("level").replaceChildren(...levels.map((l) => new Option(
    `Level ${l.number} — ${l.description}${l.rating ? ` (Elo ${l.rating}${l.error ? ` ± ${l.error}` : ""})` : ""}`, l.number)));
  if (levels.some((l) => String(l.number) === keep)) $("level").value = keep;
}

// The levels the server plays for the rule set with the settings chosen now.
async function refreshLevels() {
  const query = new URLSearchParams({ game: chosen().name, rules: ruleSpec() });
  const answer = await fetch(`/api/levels?${query}`);
  if (answer.ok) showLevels(await answer.json());
}

function ruleSet() { return chosen().rule_sets.find((r) => r.name === $("rules").value); }

function showRules() {
  const rules = ruleSet();
  $("rules-text").textContent = rules.description;
  const svg = $("preview");
  svg.replaceChildren();
  svg.removeAttribute("class");
  new Board(svg, rules.board).draw(rules.pieces);
  showLevels(rules.levels);
  const box = $("settings");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const [key, value] of Object.entries(rules.settings)) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = key;
    input.dataset.default = String(value);
    const words = rules.options[key] || key.replaceAll("_", " ");
    label.title = key;
    if (typeof value === "boolean") { input.type = "checkbox"; input.checked = value; label.append(input, ` ${words}`); }
    else { input.type = "number"; input.min = "0"; input.value = value; label.append(`${words} `, input); }
    box.appendChild(label);
  }
  box.hidden = !Object.keys(rules.settings).length;
}

// The rule-set spec: its name, then the settings changed from their defaults ("name:setting,other=false").
function ruleSpec() {
  const changed = [];
  $("settings").querySelectorAll("input").forEach((input) => {
    const value = input.type === "checkbox" ? String(input.checked) : input.value;
    if (value !== input.dataset.default) changed.push(input.type === "checkbox" ? (input.checked ? input.name : `${input.name}=false`) : `${input.name}=${value}`);
  });
  return changed.length ? `${$("rules").value}:${changed.join(",")}` : $("rules").value;
}

function showOpponent() {
  $("level-label").hidden = opponent() !== "computer";
  $("colour-label").hidden = opponent() === "hotseat";
  $("clock-label").hidden = opponent() === "computer";
}

function describe(row, open) {
  const game = catalogue.find((g) => g.name === row.game);
  const ruleSet = game && game.rule_sets.find((r) => r.name === row.rules.split(":")[0]);
  const title = ruleSet ? ruleSet.title : game ? game.title : row.game;
  const seat = (colour) => (open && row.free === colour ? "an open seat"
    : who(row[colour], row[`${colour}_name`]));
  const who = (kind, name) => (kind === "human" ? name || "player" : `computer ${kind.replace("level:", "level ")}`);
  const moves = row.ply === 1 ? "1 move" : `${row.ply} moves`;
  const clock = row.clock ? `, clock ${row.clock.replace("+", " min + ")} s` : "";
  return `${title} (${row.rules}${clock}) — ${row.mode === "hotseat" ? "on one screen" : `${seat("white")} v ${seat("black")}`}, ${moves}, ${ago(row.updated)}`;
}

// "just now", "5 min ago", "3 h ago", "2 days ago"
function ago(when) {
  const seconds = Math.max(0, (Date.now() - Date.parse(when)) / 1000);
  if (seconds < 60) return "active just now";
  if (seconds < 3600) return `active ${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `active ${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86400);
  return `active ${days} day${days > 1 ? "s" : ""} ago`;
}

async function refresh() {
  const answer = await fetch("/api/lobby");
  if (!answer.ok) return;
  const lists = await answer.json();
  for (const [id, rows, verb] of [["open", lists.open, "Join"], ["live", lists.live, "Watch"]]) {
    const list = $(id);
    list.replaceChildren();
    for (const row of rows) {
      const li = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/game/${row.id}`;
      link.textContent = verb === "Join" ? `Join as ${row.free}` : verb;
      li.append(`${describe(row, verb === "Join")} `, link);
      list.appendChild(li);
    }
    if (!rows.length) list.innerHTML = "<li>None yet.</li>";
  }
}

async function start(event) {
  event.preventDefault();
  const body = { game: chosen().name, rules: ruleSpec(), opponent: opponent(),
                 colour: $("colour").value, level: Number($("level").value),
                 position: $("position").value.trim() || null,
                 clock: opponent() === "computer" ? null : $("clock").value || null,
                 name: $("name").value.trim() || null };
  localStorage.setItem("ludoteca:name", $("name").value.trim());
  const answer = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
                                             body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { $("error").textContent = data.error; $("error").hidden = false; return; }
  localStorage.setItem(`ludoteca:${data.id}`, Object.values(data.tokens)[0]);
  location.href = data.url;
}

async function main() {
  $("name").value = localStorage.getItem("ludoteca:name") || "";
  catalogue = await (await fetch("/api/catalogue")).json();
  const titles = catalogue.map((g) => g.title);
  $("heading").textContent = `Play ${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}`;
  const box = $("games");
  catalogue.forEach((game, i) => {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="game" value="${game.name}"${i ? "" : " checked"}> ${game.title}`;
    box.appendChild(label);
  });
  box.addEventListener("change", showGame);
  $("rules").addEventListener("change", showRules);
  $("settings").addEventListener("change", refreshLevels);
  document.querySelectorAll('input[name="opponent"]').forEach((r) => r.addEventListener("change", showOpponent));
  $("new-game").addEventListener("submit", start);
  showGame();
  showOpponent();
  refresh();
  setInterval(refresh, 5000);
}

main();
