"""Players' ratings: Glicko-2, one rating per account, game and time-control category (live
clocks by a game's expected length; days per move, "correspondence", apart).

A rated game is an online game between two accounts that both chose it rated.  When it ends
with a result, :func:`settle` updates both ratings in the transaction that ends the game (each
game is a rating period of its own; before it, a rating's deviation widens for the time the
player was away, one rating period every :data:`PERIOD_DAYS` days).  A rating whose deviation is
above :data:`PROVISIONAL` is provisional (shown with a ``?``).
"""

from __future__ import annotations

import contextlib
import datetime
import functools
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..play.clock import DaysPerMove, parse_control
from ..store import Base, GameRow, Store, now
from . import glicko2

__all__ = [
    "CATEGORIES",
    "PROVISIONAL",
    "RatingRow",
    "category",
    "current",
    "settle",
]

PERIOD_DAYS = 5.0  # a rating period of inactivity
PROVISIONAL = 110.0  # a deviation above this: the rating is still provisional
#: time-control categories: live clocks by the expected length of a game (base + 40
#: increments), no clock, and days per move
CATEGORIES = ("blitz", "rapid", "classical", "untimed", "correspondence")
SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


class RatingRow(Base):
    """An account's rating for one game (family of rule sets) and time-control category."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    category: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)  # rated games played
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingHistoryRow(Base):
    """A rating after one rated game."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    category: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    change: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


def category(clock: str | None) -> str:
    """The category of a time control ("5+0"): blitz under 8 minutes expected, rapid under
    25, classical above; ``untimed`` without a clock; ``correspondence`` for days per move
    ("3d", whatever the days)."""
    if not clock:
        return "untimed"
    control = parse_control(clock)
    if isinstance(control, DaysPerMove):
        return "correspondence"
    seconds = (control.start_ms + 40 * control.increment_ms) / 1000
    return "blitz" if seconds < 480 else "rapid" if seconds < 1500 else "classical"


def _aware(when: datetime.datetime) -> datetime.datetime:
    return when if when.tzinfo else when.replace(tzinfo=datetime.UTC)


def current(row: Any, at: datetime.datetime | None = None) -> glicko2.Rating:
    """A stored rating as it stands ``at`` (default now): widened for the time since its last
    game."""
    days = max(0.0, ((at or now()) - _aware(row.updated)).total_seconds() / 86400)
    return glicko2.idle(
        glicko2.Rating(row.rating, row.deviation, row.volatility), days / PERIOD_DAYS
    )


async def ensure(store: Store, users: Sequence[int], game: str, clock: str | None) -> None:
    """Make the rating rows of ``users`` for a game and category (a new player's rating), so
    that a game's end only updates rows."""
    kind = category(clock)
    for user in users:
        values = {
            "user_id": user,
            "game": game,
            "category": kind,
            "rating": glicko2.NEW.rating,
            "deviation": glicko2.NEW.deviation,
            "volatility": glicko2.NEW.volatility,
            "games": 0,
            "updated": now(),
        }
        with contextlib.suppress(IntegrityError):  # there already
            await store.write(functools.partial(_insert_rating, values=values))


def _insert_rating(connection: Connection, values: dict[str, object]) -> None:
    connection.execute(insert(RatingRow).values(**values))


def settle(connection: Connection, game_id: str, at: datetime.datetime | None = None) -> None:
    """Update both players' ratings for the finished rated game ``game_id`` (in the caller's
    transaction; nothing for an unrated game or one without a result), as it ended ``at``
    (default now; a recomputation replays earlier games at their times)."""
    game = connection.execute(select(GameRow).where(GameRow.id == game_id)).one()
    scores = SCORES.get(game.result)
    if not game.rated or scores is None or game.white_user is None or game.black_user is None:
        return
    kind = category(game.clock)
    users = (game.white_user, game.black_user)
    rows = {
        row.user_id: row
        for row in connection.execute(
            select(RatingRow)
            .where(
                RatingRow.user_id.in_(users),
                RatingRow.game == game.game,
                RatingRow.category == kind,
            )
            .with_for_update()
        )
    }
    at = at or now()
    before = [current(rows[u], at) for u in users]
    after = [
        glicko2.rate(before[0], [(before[1], scores[0])]),
        glicko2.rate(before[1], [(before[0], scores[1])]),
    ]
    for user, old, new in zip(users, before, after, strict=True):
        connection.execute(
            update(RatingRow)
            .where(
                RatingRow.user_id == user, RatingRow.game == game.game, RatingRow.category == kind
            )
            .values(
                rating=new.rating,
                deviation=new.deviation,
                volatility=new.volatility,
                games=RatingRow.games + 1,
                updated=at,
            )
        )
        connection.execute(
            insert(RatingHistoryRow).values(
                user_id=user,
                game=game.game,
                category=kind,
                game_id=game_id,
                rating=new.rating,
                deviation=new.deviation,
                change=new.rating - old.rating,
                at=at,
            )
        )
