"""New games and their seats: what a request to play asks for, checked (:func:`plan`), the row
to store and the starting position of a game about to open (:func:`build`), the quota of games
against the computer, and guest seats becoming an account's (:func:`claim`)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...ai.levels import levels
from ...core import LudotecaError, State
from ...i18n import _
from ..errors import ActionError
from ..schemas import HUMAN, Mode, NewGame, Status
from ..store import GameRow, Store
from .catalogue import new_state, playable
from .clock import DaysPerMove, TimeControl, deadline_fields, parse_control
from .live import LiveGame, token_hash
from .seats import COLOURS, SWAP, colour_name, seat

__all__ = ["ComputerQuota", "Opening", "build", "claim", "display_name", "plan"]


@dataclass(frozen=True)
class Opening:
    """A game about to open: its game and rule set, its start (None: the usual start with a
    fresh setup), who plays (``mode``; ``kinds``: "human" or the computer's spec per colour),
    the seats already taken (``tokens``: by a seat token, ``users``: by an account), the
    players' display ``names``, its time control (a live clock or days per move), its id
    (None: a new one) and whether it is rated."""

    game: str
    rules: str
    start: State | None
    mode: str
    kinds: Mapping[str, str]
    tokens: Mapping[str, str] = field(default_factory=dict)
    control: TimeControl | DaysPerMove | None = None
    game_id: str | None = None
    names: Mapping[str, str | None] = field(default_factory=dict)
    users: Mapping[str, int | None] = field(default_factory=dict)
    rated: bool = False

    @property
    def free(self) -> bool:
        """Whether a seat is still free (nobody's token, no account)."""
        return any(c not in self.tokens and self.users.get(c) is None for c in COLOURS)


class ComputerQuota:
    """At most ``most`` games against the computer in play at once from one client address."""

    def __init__(self, most: int) -> None:
        self.most = most
        #: per client address, the games against the computer it created (pruned as they end)
        self._games: dict[str, set[str]] = {}

    def check(self, client: str, games: Mapping[str, LiveGame]) -> None:
        """429 if ``client`` has its most games in play (those of ``games``, live)."""
        mine = {
            g
            for g in self._games.get(client, set())
            if g in games and games[g].row.status == Status.LIVE
        }
        if len(mine) >= self.most:
            raise ActionError(
                429,
                _(
                    "at most %(most)s games against the computer at once from one address; "
                    "finish or resign one first",
                    most=self.most,
                ),
            )
        self._games[client] = mine

    def add(self, client: str, game_id: str) -> None:
        self._games.setdefault(client, set()).add(game_id)


def display_name(name: str | None) -> str | None:
    """A player's display name, tidied (spaces collapsed), or ``None`` for none given;
    :class:`ActionError` for one that is too long or holds control characters."""
    if name is None:
        return None
    tidy = " ".join(name.split())
    if not tidy:
        return None
    if len(tidy) > 24 or not tidy.isprintable() or any(c in tidy for c in '"[]\\'):
        raise ActionError(
            400,
            _("a name is at most 24 printable characters, without quotes, brackets or backslashes"),
        )
    return tidy


def plan(request: NewGame, user: tuple[int, str] | None) -> tuple[Opening, dict[str, str]]:
    """The game a creator asks for (signed in: ``user``, id and name; the seat is then the
    account's too), checked, and the creator's seat tokens (colour name -> token);
    :class:`ActionError` (400) naming what is wrong.  A ``rated`` game is an online game
    between two accounts; days per move are for online games only."""
    game, rules, opponent, colour = request.game, request.rules, request.opponent, request.colour
    position, clock, rated = request.position, request.clock, request.rated
    name = user[1] if user else display_name(request.name)
    if rated and (opponent != Mode.ONLINE or user is None or position):
        raise ActionError(
            400,
            _("a rated game is an online game from the usual start between two signed-in players"),
        )
    try:
        bound = playable(game, rules or None)
        start = bound.from_position_code(position.strip()) if position else None
        control = parse_control(clock) if clock else None
    except (LudotecaError, ValueError) as error:
        raise ActionError(400, str(error)) from None
    if isinstance(control, DaysPerMove) and opponent != Mode.ONLINE:
        raise ActionError(400, _("days per move are for games online between two people"))
    if opponent not in set(Mode):
        raise ActionError(
            400,
            _(
                "opponent is one of %(choices)s, not %(opponent)s",
                choices=", ".join(Mode),
                opponent=repr(opponent),
            ),
        )
    if colour == "random":
        colour = secrets.choice(["white", "black"])
    if colour not in COLOURS:
        raise ActionError(
            400, _("colour is white, black or random, not %(colour)s", colour=repr(colour))
        )
    other = SWAP[colour]
    kinds = {"white": HUMAN, "black": HUMAN}
    token = secrets.token_urlsafe(24)
    tokens = {colour: token}
    if opponent == Mode.COMPUTER:
        ladder = levels(bound.rules)
        number = request.level or 1
        if not 1 <= number <= len(ladder):
            raise ActionError(
                400, _("%(title)s has levels 1 to %(count)s", title=bound.title, count=len(ladder))
            )
        kinds[other] = f"level:{number}"
    elif opponent == Mode.HOTSEAT:
        tokens[other] = token
    opening = Opening(
        game=bound.name,
        rules=str(bound.rules),
        start=start,
        mode=opponent,
        kinds=kinds,
        tokens=tokens,
        control=control,
        names={colour: name} if name and opponent != Mode.HOTSEAT else {},
        users={c: user[0] for c in tokens} if user else {},
        rated=rated,
    )
    return opening, tokens


def build(opening: Opening, now: int) -> tuple[GameRow, State]:
    """The row to store for a game about to open at ``now`` (epoch ms), and its starting
    position.  Live clocks start with the first move: nobody is charged before the game has
    begun; under days per move, a game opening in play gives the side to move its deadline."""
    start = opening.start
    state = start or new_state(opening.game, opening.rules, seed=secrets.randbits(32))
    control = opening.control
    columns: dict[str, object] = {}
    for name in COLOURS:
        token = opening.tokens.get(name)
        columns |= seat(name).values(
            kind=opening.kinds[name],
            token=None if token is None else token_hash(token),
            user=opening.users.get(name),
            display=opening.names.get(name),
            ms=control.start_ms if isinstance(control, TimeControl) else None,
        )
    clock = str(control) if control else None
    status = Status.WAITING if opening.free and opening.mode == Mode.ONLINE else Status.LIVE
    if status == Status.LIVE:
        columns |= deadline_fields(clock, colour_name(state.turn), now)
    row = GameRow(
        id=opening.game_id or secrets.token_urlsafe(8),
        game=opening.game,
        rules=opening.rules,
        setup=None if start else getattr(state, "setup", None),
        position=state.start if start else None,
        mode=opening.mode,
        rated=opening.rated,
        status=status,
        ply=0,
        result="*",
        clock=clock,
        **columns,
    )
    return row, state


async def claim(
    store: Store, games: Mapping[str, LiveGame], user: int, claims: list[tuple[str, str]]
) -> int:
    """Give the account ``user`` the guest seats of ``claims`` ((game id, seat token) pairs a
    browser holds) still held by no account (in the store, and in ``games`` held in memory);
    how many seats it got."""
    count = 0
    for game_id, token in claims:
        digest = token_hash(token)
        for colour in COLOURS:
            taken = await store.claim(game_id, colour, digest, user)
            live = games.get(game_id)
            if taken and live is not None:
                setattr(live.row, seat(colour).user, user)
            count += taken
    return count
