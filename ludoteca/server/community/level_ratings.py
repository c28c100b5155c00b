"""The computer levels' ratings on people's scale.

Each level of each rule set is rated from the finished games signed-in players played against
it from the usual start: Glicko-2, as people are rated (:mod:`.ratings`), the level a new player
(1500) meeting, in one rating period, each of those players as rated now in the game and the
time-control category of that game (a player not rated there counts as a new player).  People's
own ratings are never changed by a game against the computer.  A level's estimate is given once
:data:`MIN_GAMES` such games exist; until then the level has no number.

The ladder's own Elo (``ludoteca tournament --store-ratings``: levels against each other,
anchored at level 1 = 1000) is another scale, kept in ``bench/results`` and ``docs/ai.md``, and
never shown as a rating.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select

from ...ai.base import parse_spec
from ..play.seats import seat
from ..store import GameRow, Store
from . import glicko2
from .ratings import SCORES, RatingRow, category, current

__all__ = ["FRESH", "MIN_GAMES", "Estimates", "LevelRating", "LevelRatings", "estimates"]

#: games against signed-in players a level needs before its rating is shown
MIN_GAMES = 30
#: seconds an estimate is served without being worked out again while no game against the
#: computer has finished (the players it met are rated anew by their other games meanwhile)
FRESH = 600.0


@dataclass(frozen=True)
class LevelRating:
    """A level's estimated rating, its deviation and the games it rests on."""

    rating: float
    deviation: float
    games: int


#: rule-set spec and level number -> the level's estimate (only levels with enough games)
Estimates = dict[tuple[str, int], LevelRating]


def _level_and_player(row: GameRow) -> tuple[int, int, float] | None:
    """A computer game's level number, the account that played it and the account's score;
    None unless one seat is a computer level and the other an account."""
    found = None
    for colour in ("white", "black"):
        place, other = seat(colour), seat("black" if colour == "white" else "white")
        kind, user = place.kind_of(row), other.user_of(row)
        if kind.startswith("level:") and user is not None:
            found = (int(parse_spec(kind)[1]["level"]), user, SCORES[row.result][other.colour])
    return found


async def estimates(store: Store) -> Estimates:
    """The estimate of every level of every rule set that has :data:`MIN_GAMES` games or more
    against signed-in players (worked out from the store each time)."""
    query = select(GameRow).where(
        GameRow.mode == "computer",
        GameRow.status == "over",
        GameRow.result.in_(tuple(SCORES)),
        GameRow.position.is_(None),
        or_(GameRow.white_user.is_not(None), GameRow.black_user.is_not(None)),
    )
    async with store.session() as session:
        games = (await session.scalars(query)).all()
        users = {found[1] for row in games if (found := _level_and_player(row))}
        ratings: dict[tuple[int, str, str], Any] = {}
        if users:
            for rating in await session.scalars(
                select(RatingRow).where(RatingRow.user_id.in_(users))
            ):
                ratings[rating.user_id, rating.game, rating.category] = rating
    met: dict[tuple[str, int], list[tuple[glicko2.Rating, float]]] = defaultdict(list)
    for row in games:
        found = _level_and_player(row)
        if found is None:
            continue
        number, user, score = found
        rating = ratings.get((user, row.game, category(row.clock)))
        opponent = current(rating) if rating is not None else glicko2.NEW
        met[row.rules, number].append((opponent, 1.0 - score))
    out: Estimates = {}
    for key, results in met.items():
        if len(results) >= MIN_GAMES:
            rated = glicko2.rate(glicko2.NEW, results)
            out[key] = LevelRating(rated.rating, rated.deviation, len(results))
    return out


class LevelRatings:
    """The estimates as the server serves them: worked out anew (:func:`estimates`) only when
    the number of finished games against the computer has changed, or after :data:`FRESH`
    seconds; one computation at a time, the callers meanwhile waiting for its answer."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = asyncio.Lock()
        self.known: tuple[int, float, Estimates] | None = None

    async def get(self) -> Estimates:
        """The current estimates."""
        finished = select(func.count()).where(GameRow.mode == "computer", GameRow.status == "over")
        async with self.lock:
            async with self.store.session() as session:
                count = int((await session.execute(finished)).scalar() or 0)
            now = time.monotonic()
            if self.known is None or self.known[0] != count or now - self.known[1] > FRESH:
                self.known = (count, now, await estimates(self.store))
            return self.known[2]
