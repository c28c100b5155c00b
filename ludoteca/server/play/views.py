"""What pages are sent about a game: the whole view (``state``, a :class:`~..schemas.GameView`)
when a page connects or asks over HTTP, and after each change only what changed (``update``),
encoded once for every watcher who sees the same thing.

The view is made as JSON values (dicts, lists, strings, numbers: exactly what the models of
:mod:`..schemas` give as JSON, which the HTTP answer checks by validating it as a
:class:`~..schemas.GameView`), because a live game makes it after every move: the models'
validation would cost the event loop more than the rest of the move.

The view has a shared part (the same for everyone who reads the same language: board,
position, moves, players, clocks, outcome; its texts in that language) and a seat part
(``you``, ``legal`` for the holder of the seat to move, ``rematch`` with the holder's seat
token).  An update holds the shared fields whose value changed, with two
compact forms: ``set`` (``[[point, token], ...]``, the points whose piece changed) instead of
``pieces``, and ``moves_from`` with ``append`` (keep that many moves of the list, then add these)
instead of ``moves``; then the seat part where it changed.  Every value in an update is
absolute, so applying an update twice, or to a newer view, changes nothing.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

import orjson
from pydantic import BaseModel

from ...ai.base import parse_spec
from ...ai.levels import levels
from ...core import Color, Outcome, State, Termination
from ...i18n import _, current, use
from ...record import dumps, from_state
from ..schemas import (
    HUMAN,
    BoardView,
    Colour,
    GameView,
    Mode,
    PlayerView,
    Status,
)
from .catalogue import StaticValues, static_part
from .clock import now_ms, ticking
from .live import LiveGame, Watcher
from .seats import COLOURS, SWAP, colour_name, colour_named, seat

__all__ = [
    "ClockValues",
    "OutcomeValues",
    "PlayerValues",
    "RematchValues",
    "SeatValues",
    "SharedValues",
    "apply",
    "delta",
    "encode",
    "full_view",
    "legal_entries",
    "legal_entry",
    "record_text",
    "rematch_token",
    "seat_part",
    "shared_view",
]


class PlayerValues(TypedDict):
    """A :class:`~..schemas.PlayerView` as JSON values."""

    kind: Literal["human", "computer"]
    label: str
    seated: bool
    account: str | None
    bot: bool


class OutcomeValues(TypedDict):
    """An :class:`~..schemas.OutcomeView` as JSON values."""

    result: str
    termination: str
    text: str


class ClockValues(TypedDict):
    """A :class:`~..schemas.ClockView` as JSON values."""

    control: str
    running: Colour | None
    white: int
    black: int


class RematchValues(TypedDict):
    """A :class:`~..schemas.RematchView` as JSON values (no ``token`` for a watcher)."""

    id: str
    token: NotRequired[str]


class SharedValues(StaticValues):
    """A :class:`~..schemas.SharedView` as JSON values (``tests/server/test_server_contract.py``
    checks that the fields are the model's)."""

    id: str
    mode: str
    rated: bool
    status: str
    players: dict[str, PlayerValues]
    pieces: list[str]
    marked: list[int]
    turn: Colour
    ply: int
    first_ply: int
    moves: list[str]
    last: list[list[str | int]] | None
    last_note: str
    last_colour: Colour | None
    hand: list[int] | None
    notice: str | None
    description: str
    outcome: OutcomeValues | None
    draw_offer: Colour | None
    undo_offer: Colour | None
    thinking: bool
    watchers: int
    clock: ClockValues | None


class SeatValues(TypedDict):
    """A :class:`~..schemas.SeatView` as JSON values."""

    you: list[Colour]
    legal: list[str]
    rematch: RematchValues | None


#: a message as JSON values: an ``update`` (any fields of the view, see :func:`delta`), or the
#: whole view (``state``) as a client holds it (see :func:`apply`)
Values = dict[str, object]

#: per rule set, the page's entry of each move that removes nothing (notation and gesture depend
#: on the move's code alone; bounded by the number of codes of the rule set's moves)
_ENTRIES: dict[str, dict[int, str]] = {}


def encode(message: Mapping[str, object] | BaseModel) -> str:
    """A message as JSON text (a message model, or JSON values that may hold models)."""
    return orjson.dumps(message, default=_plain).decode()


def _plain(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"{type(value).__name__} is not part of a message")


@functools.lru_cache(maxsize=256)
def _static(game: str, rules: str, language: str) -> StaticValues:
    """The fields of the view that never change for a rule set and a language, as JSON values
    (the board checked once)."""
    static = static_part(game, rules, language)
    board = BoardView.model_validate(static["board"]).model_dump(mode="json")
    return {**static, "board": board}


def shared_view(live: LiveGame) -> SharedValues:
    """The part of the view that is the same for everyone, its texts in the current language,
    as the JSON values of a :class:`~..schemas.SharedView` (a new dict, its lists new)."""
    state, row = live.state, live.row
    stack = state.move_stack
    return {
        **_static(row.game, row.rules, current()),
        "id": row.id,
        "mode": Mode(row.mode).value,
        "rated": bool(row.rated),
        "status": Status(row.status).value,
        "players": {place.name: _player_values(live, place.name) for place in map(seat, Color)},
        "pieces": state.pieces(),
        "marked": state.marked_points(),
        "turn": colour_name(state.turn),
        "ply": live.ply,
        "first_ply": state.ply - live.ply,
        "moves": live.move_labels(),
        "last": [[role, point] for role, point in state.gesture(stack[-1])] if stack else None,
        "last_note": live.last_note(),
        "last_colour": colour_name(mover) if (mover := live.last_mover()) is not None else None,
        "hand": list(hand) if (hand := state.in_hand()) is not None else None,
        "notice": state.notice(),
        "description": state.describe(),
        "outcome": outcome(live),
        "draw_offer": colour_named(row.draw_offer),
        "undo_offer": colour_named(row.undo_offer),
        "thinking": live.thinking,
        "watchers": len(live.watchers),
        "clock": clock_view(live),
    }


def legal_entries(live: LiveGame) -> list[str]:
    """The legal moves as the page uses them (worked out once per position)."""
    return _legal(live)[1]


def known_legal_codes(live: LiveGame) -> set[int] | None:
    """The codes of the legal moves, if already worked out for this position (for a page)."""
    if live.legal is None or live.legal[0] != live.version:
        return None
    return live.legal[2]


def _legal(live: LiveGame) -> tuple[int, list[str], set[int]]:
    if live.legal is None or live.legal[0] != live.version:
        state = live.state
        known = _ENTRIES.setdefault(live.row.rules, {})
        codes = state.legal_codes()
        entries: list[str | None] = list(map(known.get, codes))
        if None in entries:
            for index, code in enumerate(codes):
                if entries[index] is None:
                    entry = legal_entry(state, code)
                    if " r" not in entry:  # the same in every position: kept
                        known[code] = entry
                    entries[index] = entry
        live.legal = live.version, cast("list[str]", entries), set(codes)
    return live.legal


def _seat_legal(live: LiveGame, seats: frozenset[str]) -> list[str]:
    """The legal moves for the holder of ``seats``: those of the position on its turn (the
    list worked out once per position: not to be changed), else none."""
    turn = live.state.turn
    if live.row.status == Status.LIVE and colour_name(turn) in seats and live.kind(turn) == HUMAN:
        return legal_entries(live)
    return []


def seat_part(live: LiveGame, seats: frozenset[str], key: bytes) -> SeatValues:
    """The part of the view for the holder of ``seats``, as the JSON values of a
    :class:`~..schemas.SeatView`: its seats, its legal moves (when its turn) and the rematch
    with its seat token."""
    you: list[Colour] = [name for name in ("black", "white") if name in seats]
    return {
        "you": you,
        "legal": _seat_legal(live, seats),
        "rematch": rematch_view(live, seats, key),
    }


def full_view(live: LiveGame, seats: frozenset[str], key: bytes) -> GameView:
    """Everything a page needs to draw the game for someone holding ``seats`` (checked)."""
    return GameView.model_validate({**shared_view(live), **seat_part(live, seats, key)})


def delta(before: SharedValues | None, after: SharedValues) -> Values:
    """The ``update`` (the JSON values of an :class:`~..schemas.Update`) that turns the shared
    view ``before`` into ``after`` (only ``type`` if equal; every field when there was none
    before)."""
    change: Values = {"type": "update"}
    earlier: Mapping[str, object] = before if before is not None else {}
    for name, value in after.items():
        old = earlier.get(name)
        if value is old or value == old or name == "type":
            continue
        if (
            name == "pieces"
            and before is not None
            and len(before["pieces"]) == len(after["pieces"])
        ):
            change["set"] = [
                [i, v]
                for i, (o, v) in enumerate(zip(before["pieces"], after["pieces"], strict=True))
                if o != v
            ]
        elif name == "moves" and before is not None:
            keep, append = _kept(before["moves"], after["moves"])
            change["moves_from"] = keep
            change["append"] = append
        else:
            change[name] = value
    return change


def _kept(old: list[str], new: list[str]) -> tuple[int, list[str]]:
    """How many moves of ``old`` the list ``new`` keeps, and the moves it adds after them."""
    keep = len(old) if new[: len(old)] == old else 0  # moves added: all kept
    if not keep:  # taken back (and others played): the common start
        end = min(len(old), len(new))
        while keep < end and old[keep] == new[keep]:
            keep += 1
    return keep, new[keep:]


def apply(view: Mapping[str, object], message: Mapping[str, object]) -> Values:
    """The view a client holds after a ``state`` or ``update`` message (how a page, or any
    other client, follows a game; the JSON values of each)."""
    if message.get("type") != "update":
        return dict(message)
    merged = {**view, **message, "type": "state"}
    for name in ("set", "moves_from", "append"):
        merged.pop(name, None)
    if "set" in message:
        pieces = list(cast("list[str]", view["pieces"]))
        for point, token in cast("list[tuple[int, str]]", message["set"]):
            pieces[point] = token
        merged["pieces"] = pieces
    if "append" in message:
        kept = cast("list[str]", view["moves"])[: cast("int", message["moves_from"])]
        merged["moves"] = [*kept, *cast("list[str]", message["append"])]
    return merged


def broadcast_texts(
    live: LiveGame, watchers: list[Watcher], key: bytes
) -> list[tuple[Watcher, str]]:
    """The update each watcher needs after a change (none for a watcher with nothing new), its
    texts in the watcher's language, and the shared view of each language remembered as sent
    (that of a language no watcher reads now is forgotten: it is made afresh when needed)."""
    languages: dict[str, list[Watcher]] = {}
    for watcher in watchers:
        languages.setdefault(watcher.language, []).append(watcher)
    for language in set(live.sent) - set(languages):
        del live.sent[language]
    out = []
    for language, readers in languages.items():
        with use(language):
            shared = shared_view(live)
        change = delta(live.sent.get(language), shared)
        live.sent[language] = shared
        out += _updates(live, readers, change, key)
    return out


def _updates(
    live: LiveGame, watchers: list[Watcher], change: Values, key: bytes
) -> list[tuple[Watcher, str]]:
    """The texts of the update ``change`` to the shared view, with each watcher's seat part
    where it changed (none for a watcher with nothing new)."""
    common: str | None = None
    out = []
    # (a spectator's seat part is the same for all: worked out once)
    nobody = frozenset[str]()
    spectators = _seat_legal(live, nobody), rematch_view(live, nobody, key)
    for watcher in watchers:
        part: Values = {}
        if watcher.seats:
            legal = _seat_legal(live, watcher.seats)
            rematch = rematch_view(live, watcher.seats, key)
        else:
            legal, rematch = spectators
        if legal or watcher.had_legal:
            part["legal"] = legal
        if rematch != watcher.rematch:
            part["rematch"] = rematch
        watcher.had_legal = bool(legal)
        watcher.rematch = rematch
        if part:
            out.append((watcher, encode({**change, **part})))
        elif len(change) > 1:
            common = common or encode(change)
            out.append((watcher, common))
    return out


def hello_text(live: LiveGame, watcher: Watcher, key: bytes) -> str:
    """The whole view for a watcher that just connected (or fell behind), in its language (the
    count of watchers as it is now: the others are told later, see ``Hub.watch``)."""
    with use(watcher.language):
        if watcher.language not in live.sent:
            live.sent[watcher.language] = shared_view(live)
        part = seat_part(live, watcher.seats, key)
    watcher.had_legal = bool(part["legal"])
    watcher.rematch = part["rematch"]
    return encode({**live.sent[watcher.language], **part, "watchers": len(live.watchers)})


def clock_view(live: LiveGame) -> ClockValues | None:
    """Time left per side in ms, the side whose clock runs, and the time control (the JSON
    values of a :class:`~..schemas.ClockView`); None without a live clock (days per move
    have no clock to show: see :mod:`.correspondence`)."""
    if not ticking(live.row.clock):
        return None
    now = now_ms()
    running = live.row.status == Status.LIVE and live.row.clock_started is not None
    return {
        "control": live.row.clock,
        "running": colour_name(live.state.turn) if running else None,
        "white": max(live.time_left(Color.WHITE, now), 0),
        "black": max(live.time_left(Color.BLACK, now), 0),
    }


def rematch_token(key: bytes, rematch_id: str, seat: str) -> str:
    """The seat token of ``seat`` ("white", "black" or "hotseat") in a rematch: derived from the
    server's key, so it survives restarts without being stored."""
    digest = hmac.new(key, f"{rematch_id}:{seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:24]).decode()


def rematch_seat(live: LiveGame, name: str) -> str:
    """The rematch seat of this game's player ``name``: the other colour."""
    return "hotseat" if live.row.mode == Mode.HOTSEAT else SWAP[name]


def rematch_view(live: LiveGame, seats: frozenset[str], key: bytes) -> RematchValues | None:
    """The rematch's id, with the seat token of a player of this game (the JSON values of a
    :class:`~..schemas.RematchView`: no ``token`` for a watcher)."""
    rematch = live.row.rematch
    if not rematch:
        return None
    mine = [
        rematch_token(key, rematch, rematch_seat(live, seat))
        for seat in sorted(seats)
        if live.kind(COLOURS[seat]) == HUMAN
    ]
    return {"id": rematch, "token": mine[0]} if mine else {"id": rematch}


def player(live: LiveGame, name: str) -> PlayerView:
    """How a seat is shown: a person (display name) or the computer (its level's name and
    number)."""
    return PlayerView(**_player_values(live, name))


def _player_values(live: LiveGame, name: str) -> PlayerValues:
    """:func:`player` as JSON values."""
    row, place = live.row, seat(name)
    kind = place.kind_of(row)
    if kind == HUMAN:
        chosen = place.display_of(row)
        seated = place.taken(row)
        return {
            "kind": "human",
            "label": chosen or (_("Player") if seated else _("(free seat)")),
            "seated": seated,
            "account": chosen if place.user_of(row) is not None else None,
            "bot": place.user_of(row) in live.bots,
        }
    number = int(parse_spec(kind)[1]["level"])
    level = levels(live.state.rules)[number - 1]
    label = _("Computer: %(name)s (level %(number)s)", name=_(level.name), number=level.number)
    # a level bot's seat (see ..community.bots) is its account's
    account = place.display_of(row) if place.user_of(row) is not None else None
    bot = place.user_of(row) in live.bots
    return {"kind": "computer", "label": label, "seated": True, "account": account, "bot": bot}


def outcome(live: LiveGame) -> OutcomeValues | None:
    """How a finished game ended: its result, the termination's label, the reason in words (in
    the current language: worked out again from the termination and the result, or the stored
    sentence translated); the JSON values of an :class:`~..schemas.OutcomeView`."""
    row = live.row
    if row.status != Status.OVER:
        return None
    winner = {"1-0": Color.WHITE, "0-1": Color.BLACK}.get(row.result or "")
    if row.termination and (winner is not None or row.result == "1/2-1/2"):
        text = Outcome(Termination.from_label(row.termination), winner).explain()
    else:
        text = _(row.reason) if row.reason else ""
    return {"result": row.result, "termination": row.termination or "", "text": text}


#: how a touch's role is written in a legal move's text
ROLE_LETTERS = {"from": "f", "to": "t", "take": "x"}


def legal_entry(state: State, code: int) -> str:
    """A legal move for the page, as one short text: its notation, then each touch of its
    gesture (role letter and point: ``f12``, ``t15``, ``x20``), then for a move of more than two
    touches (a capture chain) ``r`` and the points whose pieces it removes, so that the page can
    show the chain under way: ``"b2-d4-b6 f3 t9 t15 r6,12"``."""
    gesture = state.gesture(code)
    parts = [str(state.move_of(code)), *(f"{ROLE_LETTERS[role]}{point}" for role, point in gesture)]
    if len(gesture) > 2:
        before = state.pieces()
        state.push_code(code)
        after = state.pieces()
        state.pop_code()
        removed = [
            i
            for i, (a, b) in enumerate(zip(before, after, strict=True))
            if a and not b and i != gesture[0][1]
        ]
        parts.append("r" + ",".join(map(str, removed)))
    return " ".join(parts)


def record_text(live: LiveGame) -> str:
    """The game's text record (the players as the page names them)."""
    row = live.row
    names = {name: player(live, name).label for name in COLOURS}
    termination = Termination.from_label(row.termination) if row.termination else None
    return dumps(
        from_state(
            live.state,
            white=names["white"],
            black=names["black"],
            result=row.result if row.status == Status.OVER else None,
            termination=termination,
            extra={"Site": f"Ludoteca game {row.id}"},
        )
    )
