// The side panels and buttons of the game page, shown and enabled as the game and the seat
// allow: joining, the invite link, an offer to answer, the rematch, the toolbar, the move box.
import { $, colourName } from "/static/lib/dom.js";
import { gameId, mine, state } from "/static/lib/state.js";
import { t, tn } from "/static/lib/i18n.js";

// Whether the offer of `colour` (draw or take-back) is this page's own: its one seat's.
const ownOffer = (view, colour) => Boolean(colour) && view.you.length === 1 && view.you[0] === colour;

// An offer (draw or take-back) from the other side, which this page may answer.
function theirOffer(view, seated, colour) {
  return colour && seated && !ownOffer(view, colour);
}

function showOffer(view, seated) {
  const offer = $("offer");
  const draw = theirOffer(view, seated, view.draw_offer);
  const undo = theirOffer(view, seated, view.undo_offer);
  offer.hidden = !(view.status === "live" && (draw || undo));
  if (draw) {
    offer.dataset.kind = "draw";
    $("offer-text").textContent = t("%(colour)s offers a draw.", { colour: colourName(view.draw_offer) });
  } else if (undo) {
    offer.dataset.kind = "undo";
    $("offer-text").textContent = t("%(colour)s asks to take back a move.", { colour: colourName(view.undo_offer) });
  }
}

function showRematch(view) {
  const rematch = view.rematch;
  $("rematch").hidden = !rematch;
  if (!rematch) return;
  $("rematch-go").href = `/game/${rematch.id}`;
  if (rematch.token) {
    localStorage.setItem(`ludoteca:${rematch.id}`, rematch.token);
    if (state.askedRematch) location.href = `/game/${rematch.id}`;
    $("rematch-text").textContent = t("A rematch has started, with colours swapped.");
    $("rematch-go").textContent = t("Play the rematch");
  } else {
    $("rematch-text").textContent = t("The players started a rematch.");
    $("rematch-go").textContent = t("Watch the rematch");
  }
}

export function showPanels() {
  const view = state.view;
  const seated = view.you.length > 0;
  const live = view.status === "live";
  $("move-input").disabled = !live || !seated;
  $("move-form").querySelector("button").disabled = !live || !seated;
  $("move-form").hidden = !seated;
  const free = view.players.white.seated ? "black" : "white";
  $("join").hidden = !(view.status === "waiting" && !seated);
  $("join-text").textContent = free === "white" ? t("This game waits for a player for White.")
    : t("This game waits for a player for Black.");
  $("invite").hidden = !(view.status === "waiting" && seated);
  $("invite-link").value = `${location.origin}/game/${gameId}`;
  showOffer(view, seated);
  $("undo").hidden = !seated;
  $("undo").textContent = view.mode === "online" ? t("Ask to take back") : t("Take back");
  $("undo").disabled = !view.moves.length || !live;
  $("hint").hidden = view.mode !== "computer" || !seated;
  $("hint").disabled = !mine();
  $("draw").hidden = !seated;
  // this seat's offer waits for an answer: the button says it was sent
  const offered = live && ownOffer(view, view.draw_offer);
  $("draw").disabled = !live || offered;
  $("draw").textContent = offered ? t("Draw offer sent") : t("Offer draw");
  $("resign").hidden = !seated;
  $("resign").disabled = !live;
  $("export").href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("picture").href = `/api/games/${encodeURIComponent(gameId)}/picture.svg${state.flipped ? "?flipped=true" : ""}`;
  const others = view.watchers - 1;  // this page is one of the game's watchers, seated or not
  $("watchers").textContent = others > 0
    ? tn("%(num)s other page open on this game", "%(num)s other pages open on this game", others) : "";
  if (!state.hint) $("evaluation").hidden = true;
  $("rematch-button").hidden = !(seated && view.status === "over" && !view.rematch);
  showRematch(view);
}
