// The lobby: choose a game, rule set and opponent; list open games and games to watch (each list
// marked data-listed once filled from the server).
import { Board } from "/static/lib/board.js";
import { showDaily } from "/static/lib/daily.js";
import { showChallenges } from "/static/lib/challenges.js";
import { controlText } from "/static/lib/days.js";
import { $, colourName, playerName } from "/static/lib/dom.js";
import { ready } from "/static/lib/header.js";
import { HttpError, deleteJSON, getJSON, postJSON, quiet, reported, serverAnswers, settled, whoAmI } from "/static/lib/http.js";
import { lang, list, listNodes, t, tn, tNodes } from "/static/lib/i18n.js";
import { levelText } from "/static/lib/levels.js";
import { showTournaments } from "/static/lib/tournaments.js";
import { showYourTurn } from "/static/lib/yourturn.js";

let catalogue = [];

// The JSON the server answers to a GET of `path`, or null (a refusal, or no network: the lists
// keep what they show and are asked again at the next refresh).
const get = (path) => quiet(getJSON(path));

function chosen() {
  const name = /** @type {HTMLInputElement} */ (document.querySelector('input[name="game"]:checked')).value;
  return catalogue.find((g) => g.name === name);
}

function opponent() {
  return /** @type {HTMLInputElement} */ (document.querySelector('input[name="opponent"]:checked')).value;
}

function showGame() {
  const game = chosen();
  $("summary").textContent = game.summary;
  $("rules").replaceChildren(...game.rule_sets.map((r) => new Option(r.title, r.name)));
  showRules();
}

function showLevels(levels) {
  const keep = $("level").value;
  $("level").replaceChildren(...levels.map((l) => new Option(levelText(l), l.number)));
  if (levels.some((l) => String(l.number) === keep)) $("level").value = keep;
}

// The levels the server plays for the rule set with the settings chosen now.
async function refreshLevels() {
  const query = new URLSearchParams({ game: chosen().name, rules: ruleSpec() });
  const levels = await get(`/api/levels?${query}`);
  if (levels) showLevels(levels);
}

function ruleSet() { return chosen().rule_sets.find((r) => r.name === $("rules").value); }

// The preview of a rule set's start: its board and pieces.
function showPreview(board, pieces) {
  const svg = $("preview");
  svg.replaceChildren();
  svg.removeAttribute("class");
  new Board(svg, board).draw(pieces);
}

function showRules() {
  const rules = ruleSet();
  $("rules-text").textContent = rules.description;
  showPreview(rules.board, rules.pieces);
  showLevels(rules.levels);
  const box = $("settings");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const [key, value] of Object.entries(rules.settings)) {
    const label = document.createElement("label");
    const words = rules.options[key] || key.replaceAll("_", " ");
    label.title = t("the setting \"%(key)s\" of a rule-set spec (after the colon)", { key });
    label.append(settingInput(key, value, (rules.choices || {})[key], words));
    box.appendChild(label);
  }
  box.hidden = !Object.keys(rules.settings).length;
  showSpec();
}

// A setting's field, its default kept in data-default, with its words, as a label's content: a
// list of its choices (a setting that is a choice: a Morelli setup, a custom mill game's
// board or full board's action), a checkbox (true or false) or a number.
function settingInput(key, value, choices, words) {
  const fragment = document.createDocumentFragment();
  if (choices) {
    const select = document.createElement("select");
    select.replaceChildren(...choices.map((c) => new Option(c.label, String(c.value))));
    select.name = key;
    select.value = String(value);
    select.dataset.default = String(value);
    fragment.append(`${words} `, select);
    return fragment;
  }
  const input = document.createElement("input");
  input.name = key;
  input.dataset.default = String(value);
  if (typeof value === "boolean") { input.type = "checkbox"; input.checked = value; fragment.append(input, ` ${words}`); }
  else { input.type = "number"; input.min = "0"; input.value = value; fragment.append(`${words} `, input); }
  return fragment;
}

// The rule-set spec: its name, then the settings changed from their defaults, sorted by name
// ("name:other=false,setting").
function ruleSpec() {
  const changed = [];
  $("settings").querySelectorAll("input, select").forEach((field) => {
    const input = /** @type {HTMLInputElement} */ (field);
    const value = input.type === "checkbox" ? String(input.checked) : input.value;
    if (value !== input.dataset.default) changed.push(input.type === "checkbox" ? (input.checked ? input.name : `${input.name}=false`) : `${input.name}=${value}`);
  });
  changed.sort();
  return changed.length ? `${$("rules").value}:${changed.join(",")}` : $("rules").value;
}

// The rule set the form's choices make, as the server reads it: its canonical spec (the name
// records give it; a custom mill game that plays as a named rule set is that one) and its
// title, and its start in the preview; or the server's sentence saying why the choices make no
// game (the form then starts none: the server refuses the same).  An answer to choices
// changed since is dropped.
let specAsked = 0;
async function showSpec() {
  const asked = ++specAsked;
  const query = new URLSearchParams({ game: chosen().name, rules: ruleSpec() });
  /** @type {import("/static/lib/types.js").RulesRead | HttpError} */
  const read = await settled(getJSON(`/api/rules?${query}`));
  if (asked !== specAsked) return;
  const line = $("rules-spec");
  line.classList.toggle("notice", read instanceof HttpError);
  if (read instanceof HttpError) { line.replaceChildren(read.message); return; }
  const spec = document.createElement("code");
  spec.dir = "ltr";
  spec.textContent = read.rules;
  line.replaceChildren(...tNodes("Rule set %(spec)s: %(title)s", { spec, title: read.title }));
  showPreview(read.board, read.pieces);
}

function settingsChanged() {
  refreshLevels();
  showSpec();
}

// The form's fields for the opponent chosen: a level against the computer; a clock (optional,
// against the computer too); for a seek, the rated box and the opponent's rating range, and the seek's buttons
// in place of "Start the game".
function showOpponent() {
  const against = opponent();
  const seek = against === "seek";
  $("level-label").hidden = against !== "computer";
  $("colour-label").hidden = against === "hotseat";
  $("rated-label").hidden = !(signedIn && (against === "online" || seek));
  $("range-label").hidden = !seek;
  $("name-label").hidden = signedIn || seek;
  $("start").hidden = seek;
  $("post-seek").hidden = !seek;
  $("quick").hidden = !seek;
  $("details-position").hidden = seek;
}

// A game of the lists, as nodes: its rule set and clock, its players (an account's name
// linked, a bot's marked), its moves and when it last changed.
function describe(row, open) {
  const seat = (colour) => (open && row.free === colour ? t("an open seat")
    : who(row[colour], row[`${colour}_name`], row[`${colour}_bot`]));
  const who = (kind, name, bot) => (kind !== "human" ? t("computer level %(level)s", { level: kind.replace("level:", "") })
    : bot ? playerName(name, true) : name || t("player"));
  const moves = tn("%(num)s move", "%(num)s moves", row.ply);
  const clock = row.clock ? t(", clock %(clock)s", { clock: controlText(row.clock) }) : "";
  const players = row.mode === "hotseat" ? [t("on one screen")]
    : tNodes("%(white)s v %(black)s", { white: seat("white"), black: seat("black") });
  const together = document.createElement("span");
  together.append(...players);
  return [`${row.rules_title}${clock} — `, ...listNodes([together, moves, ago(row.updated)])];
}

// "just now", "5 min ago", "3 h ago", "2 days ago"
function ago(when) {
  const seconds = Math.max(0, (Date.now() - Date.parse(when)) / 1000);
  if (seconds < 60) return t("active just now");
  if (seconds < 3600) return t("active %(minutes)s min ago", { minutes: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("active %(hours)s h ago", { hours: Math.floor(seconds / 3600) });
  return tn("active %(num)s day ago", "active %(num)s days ago", Math.floor(seconds / 86400));
}

// The item of an empty list.
function noneYet() {
  const li = document.createElement("li");
  li.textContent = t("None yet.");
  return li;
}

async function refresh() {
  const lists = await get("/api/lobby");
  if (!lists) return;
  for (const [id, rows, join] of [["open", lists.open, true], ["live", lists.live, false]]) {
    const list = $(id);
    list.replaceChildren();
    for (const row of rows) {
      const li = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/game/${row.id}`;
      link.textContent = join ? t("Join as %(colour)s", { colour: colourName(row.free) }) : t("Watch");
      li.append(...describe(row, join), " ", link);
      list.appendChild(li);
    }
    if (!rows.length) list.replaceChildren(noneYet());
    list.dataset.listed = "true";  // the server's list, not the page's placeholder
  }
}

async function start(event) {
  event.preventDefault();
  await create({ game: chosen().name, rules: ruleSpec(), opponent: opponent(),
                 colour: $("colour").value, level: Number($("level").value),
                 position: $("position").value.trim() || null,
                 clock: $("clock").value || null,
                 name: $("name").value.trim() || null,
                 rated: signedIn && opponent() === "online" && $("rated").checked });
}

// Make the game `body` asks for and open its page.
async function create(body) {
  if (!signedIn) localStorage.setItem("ludoteca:name", $("name").value.trim());
  const data = await reported(postJSON("/api/games", body), $("error"));
  if (!data) return;
  localStorage.setItem(`ludoteca:${data.id}`, Object.values(data.tokens)[0]);
  location.href = data.url;
}

// The quick-start buttons: per game, its first rule set with the usual settings, against the
// computer (its first level) or a friend online (the page shows the invite link); you play White.
function showQuickStart() {
  const list = $("quick-games");
  list.replaceChildren();
  for (const game of catalogue) {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "quick-title";
    name.textContent = game.title;
    li.appendChild(name);
    const rules = game.rule_sets[0];
    for (const [opponent, words] of [["computer", t("Play the computer")], ["online", t("Play a friend")]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "quick-button";
      button.dataset.game = game.name;
      button.dataset.opponent = opponent;
      button.textContent = words;
      button.setAttribute("aria-label", `${words}: ${game.title}`);
      button.onclick = () => create({
        game: game.name, rules: rules.name, opponent, colour: "white",
        level: rules.levels.length ? rules.levels[0].number : 1, position: null, clock: null,
        name: $("name").value.trim() || null, rated: false });
      li.appendChild(button);
    }
    list.appendChild(li);
  }
}

// Seeks: listed for everyone; a signed-in player posts one (the form with "Anyone in the
// lobby" as the opponent: its game, rule set, clock, colour, rated box and rating range),
// accepts another's, or asks for quick pairing.  While this page has a
// seek of its own on offer it asks about it every two seconds, and opens the game once taken.
let signedIn = false;
let myName = null;

function seekBody() {
  const rating = (id) => ($(id).value === "" ? null : Number($(id).value));
  return { game: chosen().name, rules: ruleSpec(), clock: $("clock").value || null,
           rated: $("rated").checked, colour: $("colour").value,
           min_rating: rating("min-rating"), max_rating: rating("max-rating") };
}

function seekStatus(text) { $("seek-status").textContent = text; }

// A seek request's answer, or null once its refusal is shown on the seek line.
const answerOf = (request) => reported(request, $("seek-status"));

async function refreshSeeks() {
  const seeks = await get("/api/seeks");
  if (seeks) {
    const shown = $("seeks");
    shown.replaceChildren();
    for (const seek of seeks) {
      const li = document.createElement("li");
      const range = seek.min_rating !== null || seek.max_rating !== null
        ? t(", for %(low)s–%(high)s", { low: seek.min_rating ?? t("any"), high: seek.max_rating ?? t("any") }) : "";
      const plays = seek.colour === "random" ? t("plays either colour")
        : seek.colour === "white" ? t("plays White") : t("plays Black");
      // (the facts listed as the page's language lists them: Arabic's commas in Arabic)
      li.append(playerName(seek.player, seek.bot), ` (${seek.rating}) — ${list([seek.rules_title,
        seek.clock ? t("clock %(clock)s", { clock: controlText(seek.clock) }) : t("no clock"),
        seek.rated ? t("rated") : t("casual"), plays])}${range} `);
      const button = document.createElement("button");
      button.type = "button";
      if (seek.player === myName) {
        button.textContent = t("Cancel");
        button.onclick = async () => {
          if (await answerOf(deleteJSON(`/api/seeks/${seek.id}`))) refreshSeeks();
        };
      } else {
        button.textContent = t("Accept");
        button.disabled = !signedIn;
        button.onclick = async () => {
          const data = await answerOf(postJSON(`/api/seeks/${seek.id}/accept`));
          if (data) location.href = data.url;
        };
      }
      li.appendChild(button);
      shown.appendChild(li);
    }
    if (!shown.children.length) shown.replaceChildren(noneYet());
  }
  if (signedIn) {
    const mine = await get("/api/seeks/mine");
    if (mine) {
      const taken = mine.find((s) => s.game_id && posted.has(s.id));
      if (taken) {  // (once: a later visit to the lobby in this tab stays in the lobby)
        posted.delete(taken.id);
        keepPosted();
        location.href = `/game/${taken.game_id}`;
      }
    }
  }
}
const posted = new Set(JSON.parse(sessionStorage.getItem("ludoteca:seeks") || "[]"));

// The seeks this tab posted and has not yet followed to their game, kept for the tab's life.
function keepPosted() { sessionStorage.setItem("ludoteca:seeks", JSON.stringify([...posted])); }

function remember(seekId) {
  posted.add(seekId);
  keepPosted();
  seekStatus(t("Your seek is on offer; the game opens here when someone accepts it."));
  refreshSeeks();
}

async function main() {
  const daily = showDaily();  // on its own: the lists and the form do not wait for it
  const waiting = showYourTurn();  // (signed in: the correspondence games waiting for this player)
  const challenged = showChallenges();  // (signed in: the challenges received and sent)
  const tournaments = showTournaments();  // (the upcoming and running tournaments)
  // the remembered name fills the field at once, and never over what was typed meanwhile
  if (!$("name").value) $("name").value = localStorage.getItem("ludoteca:name") || "";
  const who = await whoAmI();
  signedIn = Boolean(who.name);
  myName = who.name;
  // a signed-in player plays under the account's name; only they may post seeks
  $("seek-choice").querySelector("input").disabled = !signedIn;
  $("seek-hint").hidden = signedIn;
  $("post-seek").onclick = async () => {
    const data = await answerOf(postJSON("/api/seeks", seekBody()));
    if (data) remember(data.id);
  };
  $("quick").onclick = async () => {
    const data = await answerOf(postJSON("/api/seeks/quick", seekBody()));
    if (data && data.game) location.href = `/game/${data.game}`;
    else if (data) remember(data.seek);
  };
  catalogue = await get("/api/catalogue");
  if (!catalogue) { startsNone(); return; }  // offline: the page's saved copy
  const titles = catalogue.map((g) => g.title);
  $("heading").textContent = t("Play %(games)s", { games: new Intl.ListFormat(lang).format(titles) });
  const box = $("games");
  catalogue.forEach((game, i) => {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="game" value="${game.name}"${i ? "" : " checked"}> ${game.title}`;
    box.appendChild(label);
  });
  box.addEventListener("change", showGame);
  $("rules").addEventListener("change", showRules);
  $("settings").addEventListener("change", settingsChanged);
  document.querySelectorAll('input[name="opponent"]').forEach((r) => r.addEventListener("change", showOpponent));
  $("new-game").addEventListener("submit", start);
  showGame();
  showOpponent();
  showQuickStart();
  const listed = refresh();
  setInterval(refresh, 5000);
  const seeks = refreshSeeks();
  setInterval(refreshSeeks, 2000);
  await Promise.all([daily, waiting, challenged, tournaments, listed, seeks]);
  ready();  // (the tests' ready marker)
}

// The saved lobby, offline: no form that looks as if it could start a game (its choices were
// never loaded), only the sentence that says why, at the top, until the network is back (the
// page is then loaded again, whole). The page asks
// the server every two seconds, and at once on an "online" event, which is no proof either way:
// a browser may send one while it still reports no network (seen when a navigation away
// starts, where a reload would steal that navigation) or none at all when the network comes
// back (Chromium under a test's emulated network). A page being left is never reloaded.
function startsNone() {
  $("new-game").hidden = true;
  $("quick-hint").hidden = true;
  $("start-offline").hidden = false;
  let leaving = false;
  window.addEventListener("pagehide", () => { leaving = true; });
  window.addEventListener("beforeunload", () => { leaving = true; });
  /** @type {number | undefined} */
  let asking;
  const back = async () => {
    clearTimeout(asking);
    const answers = !leaving && navigator.onLine && await serverAnswers();
    if (leaving) return;
    if (!answers) {
      asking = setTimeout(back, 2000);
      return;
    }
    window.removeEventListener("online", back);
    location.reload();
  };
  window.addEventListener("online", back);
  asking = setTimeout(back, 2000);
}

main();
