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
  const svg = $("preview");
  svg.replaceChildren();
  svg.removeAttribute("class");
  new Board(svg, game.board).draw(game.pieces);
  $("rules").replaceChildren(...game.rule_sets.map((r) => new Option(r.name, r.name)));
  $("level").replaceChildren(...game.levels.map((l) => new Option(
    `Level ${l.number} — ${l.description}${l.rating ? ` (Elo ${l.rating}${l.error ? ` ± ${l.error}` : ""})` : ""}`, l.number)));
  showRules();
}

function showRules() {
  const rules = chosen().rule_sets.find((r) => r.name === $("rules").value);
  $("rules-text").textContent = rules ? rules.description : "";
}

function showOpponent() {
  $("level-label").hidden = opponent() !== "computer";
  $("colour-label").hidden = opponent() === "hotseat";
}

function describe(row) {
  const game = catalogue.find((g) => g.name === row.game);
  const who = (kind) => (kind === "human" ? "player" : `computer ${kind.replace("level:", "level ")}`);
  return `${game ? game.title : row.game} (${row.rules}) — ${row.mode === "hotseat" ? "on one screen" : `${who(row.white)} v ${who(row.black)}`}, ${row.ply} moves`;
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
      li.append(`${describe(row)} `, link);
      list.appendChild(li);
    }
    if (!rows.length) list.innerHTML = "<li>None yet.</li>";
  }
}

async function start(event) {
  event.preventDefault();
  const body = { game: chosen().name, rules: $("rules").value, opponent: opponent(),
                 colour: $("colour").value, level: Number($("level").value),
                 position: $("position").value.trim() || null };
  const answer = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
                                             body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { $("error").textContent = data.error; $("error").hidden = false; return; }
  localStorage.setItem(`ludoteca:${data.id}`, Object.values(data.tokens)[0]);
  location.href = data.url;
}

async function main() {
  catalogue = await (await fetch("/api/catalogue")).json();
  const box = $("games");
  catalogue.forEach((game, i) => {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="game" value="${game.name}"${i ? "" : " checked"}> ${game.title}`;
    box.appendChild(label);
  });
  box.addEventListener("change", showGame);
  $("rules").addEventListener("change", showRules);
  document.querySelectorAll('input[name="opponent"]').forEach((r) => r.addEventListener("change", showOpponent));
  $("new-game").addEventListener("submit", start);
  showGame();
  showOpponent();
  refresh();
  setInterval(refresh, 5000);
}

main();
