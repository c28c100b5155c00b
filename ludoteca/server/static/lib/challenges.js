// Challenges (docs/web.md): the signed-in player's, received and sent, in the "Challenges"
// panel of any page with one (#challenges: the lobby, /yourturn), asked for again every three
// seconds as the lobby's lists are, and answered there (accept: to the game; decline with one
// of the server's reasons; cancel one sent); and the challenge a player's profile sends (its
// dialog: game, rule set, colour, time control, rated), followed until it is answered.
import { controlText } from "/static/lib/days.js";
import { $, colourName, link, notice, playerName } from "/static/lib/dom.js";
import { getJSON, postJSON, quiet, reported, whoAmI } from "/static/lib/http.js";
import { list, t, tNodes } from "/static/lib/i18n.js";

/** @typedef {import("/static/lib/types.js").Challenge} Challenge */
/** @typedef {import("/static/lib/types.js").MyChallenges} MyChallenges */

const EVERY = 3000;  // ms between two looks at the challenges

// A challenge's options in words: "Morris, 5 min + 3 s, rated".
/** @param {Challenge} c */
export function terms(c) {
  return list([c.rules_title, c.clock ? controlText(c.clock) : t("no clock"), c.rated ? t("rated") : t("casual")]);
}

// The colour the reader plays in the game a challenge asks for (`colour`: the challenger's).
/** @param {Challenge} c  @param {boolean} sent  the reader sent it */
function colourText(c, sent) {
  if (c.colour === "random") return t("colours by chance");
  const yours = sent ? c.colour : c.colour === "white" ? "black" : "white";
  return t("you play %(colour)s", { colour: colourName(yours) });
}

// What became of a challenge sent, in words (a decline with its reason).
/** @param {Challenge} c */
export function outcome(c) {
  if (c.status === "open") return t("waiting for an answer");
  if (c.status === "declined") {
    const reason = c.reason_text || t("no reason given");
    return t("declined: %(reason)s", { reason });
  }
  if (c.status === "expired") return t("expired without an answer");
  if (c.status === "canceled") return t("cancelled");
  return t("accepted");
}

/** @param {string} text  @param {() => Promise<void>} act */
function button(text, act) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.onclick = async () => {
    b.disabled = true;
    await act();
    b.disabled = false;
  };
  return b;
}

// An answer to a challenge, or null once its refusal is shown under the lists.
const answered = (/** @type {Promise<any>} */ request) => reported(request, $("challenges-error"));

/** A challenge received: who, what, the reader's colour; accept, or decline with a reason.
 *  @param {Challenge} c  @param {{key: string, text: string}[]} reasons */
function received(c, reasons) {
  const item = document.createElement("li");
  item.className = "challenge incoming";
  item.dataset.challenge = c.id;
  const about = document.createElement("span");
  about.append(...tNodes("%(player)s challenges you: %(terms)s; %(colour)s", {
    player: playerName(c.challenger, c.challenger_bot), terms: terms(c), colour: colourText(c, false) }));
  const accept = button(t("Accept"), async () => {
    const data = await answered(postJSON(`/api/challenge/${encodeURIComponent(c.id)}/accept`));
    if (data) location.href = data.url;
  });
  accept.className = "accept";
  const why = document.createElement("select");
  why.className = "reason";
  why.setAttribute("aria-label", t("Why you decline"));
  why.append(...reasons.map((r) => new Option(r.text, r.key)));
  const decline = button(t("Decline"), async () => {
    const body = { reason: why.value };
    if (await answered(postJSON(`/api/challenge/${encodeURIComponent(c.id)}/decline`, body))) await show();
  });
  decline.className = "decline";
  const actions = document.createElement("span");
  actions.className = "challenge-actions";
  actions.append(accept, why, decline);
  item.append(about, actions);
  return item;
}

/** A challenge sent: to whom, what, where it stands; cancel it while open, its game once accepted.
 *  @param {Challenge} c */
function sent(c) {
  const item = document.createElement("li");
  item.className = `challenge outgoing ${c.status}`;
  item.dataset.challenge = c.id;
  const about = document.createElement("span");
  about.append(...tNodes("To %(player)s: %(terms)s; %(colour)s", {
    player: playerName(c.challenged, c.challenged_bot), terms: terms(c), colour: colourText(c, true) }));
  const stage = document.createElement("span");
  stage.className = "stage";
  stage.textContent = ` — ${outcome(c)}`;
  item.append(about, stage);
  if (c.status === "open") {
    const cancel = button(t("Cancel"), async () => {
      if (await answered(postJSON(`/api/challenge/${encodeURIComponent(c.id)}/cancel`))) await show();
    });
    cancel.className = "cancel";
    item.append(" ", cancel);
  }
  if (c.status === "accepted" && c.game_id) item.append(" ", link(`/game/${c.game_id}`, t("Go to the game")));
  return item;
}

/** @param {HTMLElement} box  @param {HTMLElement[]} items */
function fill(box, items) {
  if (!items.length) {
    const none = document.createElement("li");
    none.textContent = t("None yet.");
    items = [none];
  }
  box.replaceChildren(...items);
}

async function show() {
  /** @type {MyChallenges | null} */
  const mine = await quiet(getJSON("/api/challenges"));
  if (!mine) return;  // no network (the panel keeps what it shows): asked again soon
  fill($("challenges-in"), mine.incoming.map((c) => received(c, mine.reasons)));
  fill($("challenges-out"), mine.outgoing.map(sent));
  $("challenges").hidden = false;
  $("challenges").dataset.listed = "true";  // (the server's lists, not the page's placeholder)
}

// Show the panel where the page has one, and keep it current (signed in only: a guest has none).
export async function showChallenges() {
  if (!$("challenges-in") || !(await whoAmI()).name) return;
  setInterval(show, EVERY);
  await show();  // (drawn: for the page's ready marker)
}

// The profile's "Challenge" button and its dialog, for the player `name`: the form's choices
// from the catalogue (the lobby's), sent; then the challenge followed on the line under the
// button until it is answered (accepted: its game opens here).
/** @param {string} name */
export async function offerChallenge(name) {
  const dialog = /** @type {HTMLDialogElement} */ ($("challenge-dialog"));
  /** @type {import("/static/lib/types.js").CatalogueGame[] | null} */
  const catalogue = await quiet(getJSON("/api/catalogue"));
  if (!catalogue) return;
  const showRules = () => {
    const game = catalogue.find((g) => g.name === $("challenge-game").value) || catalogue[0];
    // (not a custom rule set: this form asks for no settings)
    const named = game.rule_sets.filter((r) => !r.custom);
    $("challenge-rules").replaceChildren(...named.map((r) => new Option(r.title, r.name)));
  };
  $("challenge-game").replaceChildren(...catalogue.map((g) => new Option(g.title, g.name)));
  $("challenge-game").onchange = showRules;
  showRules();
  $("challenge-box").hidden = false;
  $("challenge-button").onclick = () => {
    notice("", false, $("challenge-error"));
    dialog.showModal();
  };
  $("challenge-close").onclick = () => dialog.close();
  $("challenge-form").onsubmit = async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    const body = { game: $("challenge-game").value, rules: $("challenge-rules").value,
                   colour: $("challenge-colour").value, clock: $("challenge-clock").value || null,
                   rated: $("challenge-rated").checked };
    /** @type {Challenge | null} */
    const challenge = await reported(postJSON(`/api/challenge/${encodeURIComponent(name)}`, body), $("challenge-error"));
    if (!challenge) return;
    dialog.close();
    follow(challenge);
  };
}

// The line under the button tells where the challenge stands, asked for again until it is
// answered; accepted, the game opens.
/** @param {Challenge} challenge */
function follow(challenge) {
  const line = $("challenge-status");
  const tell = (/** @type {Challenge} */ c) => {
    if (c.status === "accepted" && c.game_id) location.href = `/game/${c.game_id}`;
    line.textContent = t("Your challenge (%(terms)s): %(outcome)s", { terms: terms(c), outcome: outcome(c) });
    return c.status === "open";
  };
  if (!tell(challenge)) return;
  const timer = setInterval(async () => {
    /** @type {MyChallenges | null} */
    const mine = await quiet(getJSON("/api/challenges"));
    const now = mine && mine.outgoing.find((c) => c.id === challenge.id);
    if (now && !tell(now)) clearInterval(timer);
  }, EVERY);
}
