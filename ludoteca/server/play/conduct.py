"""The rules of conduct of a game in play: what each intent of a seat holder does.

Every handler is pure: it reads the live game (its row and engine state), the seats of whoever
acts and the intent, and answers with a :class:`Change` (the row's fields to set, the move to
push or the number of moves to pop, the outcome when the game ends, a rematch to open) or
refuses with an :class:`~..errors.ActionError` saying why.  Nothing is stored or changed here:
the hub stores the change, then applies it (:func:`apply`) and tells the watchers.

Moves, take-backs and ends are checked against the engine: a move must be legal in the current
position at the ply it was chosen for, a game ends when the engine says so (or by resignation,
agreement or a flag), a take-back pops exactly the moves that lead back to the asker's turn.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core import Color, LudotecaError, Move, Outcome, Termination
from ...i18n import N_, SOURCE, _, use
from ..errors import ActionError
from ..schemas import HUMAN, Colour, Mode, MoveIntent, Plain, Status
from . import views
from .catalogue import start_of
from .clock import TimeControl, deadline_fields, parse_control, ticking
from .live import LiveGame, token_hash
from .opening import Opening
from .seats import COLOURS, SWAP, colour_name, seat

__all__ = [
    "HANDLERS",
    "Change",
    "Context",
    "apply",
    "computer_move",
    "decide",
    "flag",
    "join",
]

#: the fields every end of a game leaves without a pending offer
NO_OFFERS: Mapping[str, object] = {"draw_offer": None, "undo_offer": None}


@dataclass(frozen=True)
class Context:
    """What a handler may need besides the game: the time (wall-clock ms, for the clocks) and
    the server's key for the seat tokens of rematches."""

    now: int
    rematch_key: bytes = b""


@dataclass(frozen=True)
class Change:
    """What an intent does to a game, before it is stored.

    ``fields``: the row's fields to set; ``push``: the move to play (stored at the game's ply,
    refused if the game moved on meanwhile); ``pop``: how many moves to take back; ``outcome``:
    the game ends so (with ``push``: that move ends it; alone: it ends in the position as it
    stands, if still in play at this ply); ``rematch``: the new game to open, once no rematch
    is recorded; ``rate``: the accounts whose ratings the game needs (opened when missing);
    ``note``: what to log."""

    fields: Mapping[str, Any] = field(default_factory=dict)
    push: Move | None = None
    pop: int = 0
    outcome: Outcome | None = None
    rematch: Opening | None = None
    rate: tuple[int, ...] = ()
    note: str | None = None


def apply(live: LiveGame, change: Change) -> None:
    """Make a stored change in memory: the moves pushed or popped, then the row's fields."""
    if change.push is not None:
        live.state.push_code(change.push.code)
    for _step in range(change.pop):
        live.state.pop_code()
    if change.push is not None or change.pop:
        live.version += 1
    for key, value in change.fields.items():
        setattr(live.row, key, value)


# --- checks shared by the handlers ---------------------------------------------------------------
def require_live(live: LiveGame) -> None:
    """409 unless the game is in play."""
    if live.row.status == Status.WAITING:
        raise ActionError(409, _("the game has not started: the other seat is still free"))
    if live.row.status != Status.LIVE:
        raise ActionError(409, _("the game is over"))


def mover(live: LiveGame, seats: frozenset[str]) -> Color:
    """The colour a seat holder acts for: the side to move when it holds both seats."""
    if len(seats) == 2:
        return live.state.turn
    return COLOURS[next(iter(seats))]


def pending(live: LiveGame, seats: frozenset[str], offer: str) -> str:
    """The colour whose pending offer (``offer``: "draw_offer" or "undo_offer") these seats
    may answer; 409 if there is none or it is their own."""
    colour: str | None = getattr(live.row, offer)
    if colour is None or seats == {colour}:
        if offer == "draw_offer":
            raise ActionError(409, _("there is no draw offer to answer"))
        raise ActionError(409, _("there is no take-back request to answer"))
    return colour


def moves_of(live: LiveGame, colour: Color) -> int:
    """How many moves must go for ``colour``'s last move to be taken back (0: none)."""
    probe = live.state.copy()
    count = 0
    while probe.move_stack:
        probe.pop_code()
        count += 1
        if probe.turn is colour:
            return count
    return 0


# --- ends -------------------------------------------------------------------------------------
def ending(outcome: Outcome) -> dict[str, object]:
    """The fields of a game that ended with ``outcome`` (the reason stored in English; pages
    read it in their language)."""
    with use(SOURCE):
        reason = outcome.explain()
    return {
        "status": Status.OVER,
        "result": outcome.result,
        "termination": outcome.termination.label,
        "reason": reason,
    }


def finish(live: LiveGame, outcome: Outcome, context: Context) -> Change:
    """End the game in the position as it stands (the running clock stops)."""
    fields = {**NO_OFFERS, **ending(outcome)}
    if ticking(live.row.clock) and live.row.status == Status.LIVE:
        turn = live.state.turn
        fields[seat(turn).ms] = max(live.time_left(turn, context.now), 0)
    return Change(fields, outcome=outcome, note=f"over: {outcome.result} {outcome.explain()}")


def flag(live: LiveGame, context: Context) -> Change:
    """The side to move ran out of time: it loses."""
    return finish(live, Outcome(Termination.TIME_FORFEIT, Color(1 - live.state.turn)), context)


# --- moves ------------------------------------------------------------------------------------
def play(live: LiveGame, text: str, ply: int, context: Context) -> Change:
    """Play the move ``text`` chosen at ``ply``: 409 if the game moved on since, 400 if the
    engine does not accept it; the side to move loses on time instead if its clock ran out or
    its deadline passed.  Under days per move the move gives the opponent its deadline."""
    if ply != live.ply:
        raise ActionError(
            409,
            _(
                "the position has changed since this move was chosen; "
                "the board now shows the current position"
            ),
        )
    state = live.state
    try:
        # the legal moves the player was shown, if any (the computer's turns have none):
        # otherwise the engine checks the move (and says why it is not legal)
        shown = views.known_legal_codes(live)
        move = state.read_move(text)
        if shown is None or move.code not in shown:
            move = state.parse_move(text)
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None
    fields: dict[str, object] = dict(NO_OFFERS)
    if live.row.deadline is not None and context.now >= live.row.deadline:
        return flag(live, context)
    if ticking(live.row.clock):
        if live.row.clock_started is not None:  # the first move is not timed
            left = live.time_left(state.turn, context.now)
            if left <= 0:
                return flag(live, context)
            fields[seat(state.turn).ms] = left + TimeControl.parse(live.row.clock).increment_ms
        fields["clock_started"] = context.now
    state.push_code(move.code)  # to see whether it ends the game, and who moves next
    outcome = state.outcome()
    fields |= deadline_fields(live.row.clock, colour_name(state.turn), context.now)
    state.pop_code()
    if outcome is None:
        return Change(fields, push=move)
    note = f"over: {outcome.result} {outcome.explain()}"
    return Change({**fields, **ending(outcome)}, push=move, outcome=outcome, note=note)


def move(live: LiveGame, seats: frozenset[str], intent: MoveIntent, context: Context) -> Change:
    """A seat holder's move, on its own turn."""
    require_live(live)
    turn = live.state.turn
    if colour_name(turn) not in seats or live.kind(turn) != HUMAN:
        raise ActionError(409, _("it is %(colour)s's turn, not yours", colour=_(turn.title)))
    return play(live, intent.move, intent.ply, context)


def computer_move(live: LiveGame, version: int, text: str, context: Context) -> Change | None:
    """The computer's move, thought out for position ``version``: nothing if the position
    changed meanwhile or the computer is no longer to move."""
    if live.version != version or not live.computer_to_move():
        return None
    return play(live, text, live.ply, context)


# --- resignation, cancellation, draws ----------------------------------------------------------
def resign(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    require_live(live)
    loser = mover(live, seats)
    return finish(live, Outcome(Termination.RESIGNATION, Color(1 - loser)), context)


def cancel(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    """Withdraw an online game no one has joined yet (it leaves the lobby; no result)."""
    if live.row.status != Status.WAITING:
        raise ActionError(
            409,
            _(
                "only a game still waiting for its second player can be "
                "cancelled; resign or offer a draw instead"
            ),
        )
    fields = {
        "status": Status.OVER,
        "result": "*",
        "termination": N_("cancelled"),
        "reason": N_("The game was cancelled before a second player joined."),
    }
    return Change(fields)


def offer_draw(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    """Offer a draw; the computer answers at once (it accepts unless it stands better)."""
    require_live(live)
    offerer = mover(live, seats)
    other = Color(1 - offerer)
    if live.kind(other) != HUMAN:
        if live.state.evaluate() * (1 if live.state.turn is other else -1) > 0.1:
            raise ActionError(409, _("the computer declines the draw"))
        return finish(live, Outcome(Termination.DRAW_AGREED, None), context)
    return Change({"draw_offer": colour_name(offerer)})


def accept_draw(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    require_live(live)
    pending(live, seats, "draw_offer")
    return finish(live, Outcome(Termination.DRAW_AGREED, None), context)


def decline(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    """Decline the other side's draw offer (``decline_draw``) or take-back request."""
    offer = "draw_offer" if intent.type == "decline_draw" else "undo_offer"
    pending(live, seats, offer)
    return Change({offer: None})


# --- take-backs -------------------------------------------------------------------------------
def take_back(live: LiveGame, colour: Color | None, context: Context) -> Change:
    """Take back the last move (``colour`` None) or back to before ``colour``'s last move; the
    game is in play again (a running clock restarts for the side to move then; under days per
    move its deadline starts afresh)."""
    count = 1 if colour is None else moves_of(live, colour)
    if count == 0:
        raise ActionError(409, _("there is no move of yours to take back"))
    probe = live.state.copy()
    for _step in range(count):
        probe.pop_code()
    fields: dict[str, object] = {
        "status": Status.LIVE,
        "result": "*",
        "termination": None,
        "reason": None,
        **NO_OFFERS,
        **deadline_fields(live.row.clock, colour_name(probe.turn), context.now),
    }
    if ticking(live.row.clock):
        if live.row.status == Status.LIVE:
            turn = live.state.turn
            fields[seat(turn).ms] = live.time_left(turn, context.now)
        fields["clock_started"] = context.now
    return Change(fields, pop=count)


def undo(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    """Online: ask the opponent to take back your last move.  Hot-seat: take back the last
    move.  Against the computer: take back to before your last move."""
    require_live(live)
    if live.row.mode == Mode.ONLINE:
        asker = mover(live, seats)
        if not moves_of(live, asker):
            raise ActionError(409, _("you have no move to take back"))
        return Change({"undo_offer": colour_name(asker)})
    if not live.state.move_stack:
        raise ActionError(409, _("there is no move to take back"))
    human = mover(live, seats) if live.row.mode == Mode.COMPUTER else None
    return take_back(live, human, context)


def accept_undo(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    require_live(live)
    return take_back(live, COLOURS[pending(live, seats, "undo_offer")], context)


# --- rematches and seats ----------------------------------------------------------------------
def rematch(live: LiveGame, seats: frozenset[str], intent: Plain, context: Context) -> Change:
    """Open the rematch of a finished game: each player takes the other colour, keeping the
    seat's kind, name and account; the players' seat tokens are derived from the server's key
    (see :func:`~.views.rematch_token`)."""
    row = live.row
    if row.status != Status.OVER:
        raise ActionError(409, _("a rematch follows a finished game"))
    if row.rematch:
        raise ActionError(409, _("the rematch has already been started"))
    rematch_id = secrets.token_urlsafe(8)
    seats_of = {name: seat(name) for name in COLOURS}
    tokens = {
        SWAP[name]: views.rematch_token(
            context.rematch_key, rematch_id, views.rematch_seat(live, name)
        )
        for name, place in seats_of.items()
        if place.kind_of(row) == HUMAN
    }
    opening = Opening(
        game=row.game,
        rules=row.rules,
        start=start_of(row) if row.position else None,
        mode=row.mode,
        kinds={SWAP[name]: place.kind_of(row) for name, place in seats_of.items()},
        tokens=tokens,
        control=parse_control(row.clock) if row.clock else None,
        game_id=rematch_id,
        names={SWAP[name]: place.display_of(row) for name, place in seats_of.items()},
        users={SWAP[name]: place.user_of(row) for name, place in seats_of.items()},
        rated=bool(row.rated),
    )
    return Change({"rematch": rematch_id}, rematch=opening)


def join(
    live: LiveGame, name: str | None, user: tuple[int, str] | None, token: str, context: Context
) -> tuple[Colour, Change]:
    """Take the free seat of an online game with the new seat ``token`` (under a display
    ``name``, or as the signed-in ``user``): the colour taken and the change (under days per
    move, the side to move's first deadline); 409 if no seat is free or the account holds the
    other, 403 for a rated game without an account."""
    row = live.row
    if row.status != Status.WAITING:
        raise ActionError(409, _("this game has no free seat; you can watch it"))
    if row.rated and user is None:
        raise ActionError(403, _("sign in to play a rated game"))
    white, black = seat(Color.WHITE), seat(Color.BLACK)
    if user is not None and user[0] in (white.user_of(row), black.user_of(row)):
        raise ActionError(409, _("you already hold the other seat of this game"))
    free = black if white.taken(row) else white
    account = user[0] if user else None
    fields = {
        "status": Status.LIVE,
        **free.values(token=token_hash(token), display=name, user=account),
        **deadline_fields(row.clock, colour_name(live.state.turn), context.now),
    }
    users = [account if place is free else place.user_of(row) for place in (white, black)]
    rate = tuple(u for u in users if u is not None) if row.rated and None not in users else ()
    return free.name, Change(fields, rate=rate, note=f"joined by a player as {free.name}")


#: the handler of each intent of a seat holder
Handler = Callable[[LiveGame, frozenset[str], Any, Context], Change]
HANDLERS: dict[str, Handler] = {
    "move": move,
    "resign": resign,
    "offer_draw": offer_draw,
    "accept_draw": accept_draw,
    "decline_draw": decline,
    "undo": undo,
    "accept_undo": accept_undo,
    "decline_undo": decline,
    "rematch": rematch,
    "cancel": cancel,
}


def decide(
    live: LiveGame, seats: frozenset[str], intent: MoveIntent | Plain, context: Context
) -> Change:
    """What the holder of ``seats`` doing ``intent`` changes; :class:`ActionError` if refused."""
    if not seats:
        raise ActionError(403, _("you do not hold a seat in this game (watching only)"))
    return HANDLERS[intent.type](live, seats, intent, context)
