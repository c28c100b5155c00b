"""Seeks: a signed-in player asks for an opponent (game, rule set, clock or days per move,
rated or casual, rating range, colour); another accepts it with one click, or quick pairing
matches two compatible seeks.  A seek is listed while its poster's lobby keeps asking about it
(every few seconds): a poster who left stops being offered."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from ...core import LudotecaError
from ...i18n import _
from ..errors import ActionError
from ..play.catalogue import playable, rules_title
from ..play.clock import parse_control
from ..play.opening import Opening
from ..schemas import HUMAN, Mode, OpenSeek, Pairing, SeekView
from ..store import Base, Store, now
from .moderation import blocked, may_play
from .people import User, UserRow
from .ratings import RatingRow, category, current

__all__ = ["SeekRow", "SeekSpec", "Seeks", "between", "check"]

SEEN_SECONDS = 20  # a seek whose poster has not asked about it for this long is not offered
SEEKS_PER_PLAYER = 3
COLOURS = ("white", "black", "random")


class SeekRow(Base):
    """An open request for a game (``game_id`` set once accepted)."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(String(200))
    clock: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    colour: Mapped[str] = mapped_column(String(8))  # the poster's: white, black or random
    min_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    seen: Mapped[datetime.datetime] = mapped_column(
        DateTime(timezone=True), default=now, index=True
    )
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


@dataclass(frozen=True)
class SeekSpec:
    """What a seek asks for, checked."""

    game: str
    rules: str
    clock: str | None
    rated: bool
    colour: str
    min_rating: int | None
    max_rating: int | None


#: opens a new game (stores it and holds it in memory)
Opener = Callable[[Opening], Awaitable[object]]


def check(
    game: str,
    rules: str | None,
    clock: str | None,
    rated: bool,
    colour: str,
    min_rating: int | None,
    max_rating: int | None,
) -> SeekSpec:
    """A seek's fields, checked (:class:`ActionError` saying what is wrong)."""
    try:
        bound = playable(game, rules or None)
        control = parse_control(clock) if clock else None
    except (LudotecaError, ValueError) as error:
        raise ActionError(400, str(error)) from None
    if colour not in COLOURS:
        raise ActionError(
            400, _("colour is white, black or random, not %(colour)s", colour=repr(colour))
        )
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise ActionError(400, _("the lowest rating is above the highest"))
    return SeekSpec(
        bound.name,
        str(bound.rules),
        str(control) if control else None,
        rated,
        colour,
        min_rating,
        max_rating,
    )


def between(
    spec: SeekSpec,
    white: tuple[int, str],
    black: tuple[int, str],
    game_id: str,
    kinds: Mapping[str, str] | None = None,
) -> Opening:
    """The online game between two accounts of an accepted seek or challenge (``spec``), under
    ``game_id``; ``kinds``: who plays each colour (default: both people; a level bot's seat
    is the computer's spec)."""
    return Opening(
        game=spec.game,
        rules=spec.rules,
        start=None,
        mode=Mode.ONLINE,
        kinds=kinds or {"white": HUMAN, "black": HUMAN},
        control=parse_control(spec.clock) if spec.clock else None,
        game_id=game_id,
        names={"white": white[1], "black": black[1]},
        users={"white": white[0], "black": black[0]},
        rated=spec.rated,
    )


class Seeks:
    """The seeks in the store; an accepted seek's game is opened with ``opener``."""

    def __init__(self, store: Store, opener: Opener) -> None:
        self.store = store
        self.opener = opener

    async def rating(self, user_id: int, game: str, clock: str | None) -> int:
        """A player's current rating for a game and time control, rounded (a new player's if
        none)."""
        async with self.store.session() as session:
            row = await session.get(RatingRow, (user_id, game, category(clock)))
        return round(current(row).rating) if row is not None else 1500

    async def post(self, user: User, spec: SeekSpec) -> str:
        """Offer a seek; 403 for a closed account, 429 past :data:`SEEKS_PER_PLAYER`."""
        await may_play(self.store, user.id)
        async with self.store.session() as session:
            mine = len(
                (
                    await session.scalars(
                        select(SeekRow.id).where(
                            SeekRow.user_id == user.id, SeekRow.game_id.is_(None)
                        )
                    )
                ).all()
            )
        if mine >= SEEKS_PER_PLAYER:
            raise ActionError(
                429,
                _(
                    "at most %(seeks_per_player)s open seeks at once; cancel one",
                    seeks_per_player=SEEKS_PER_PLAYER,
                ),
            )
        seek_id = secrets.token_urlsafe(8)
        at = now()
        await self.store.write(
            lambda c: c.execute(
                insert(SeekRow).values(
                    id=seek_id,
                    user_id=user.id,
                    game=spec.game,
                    rules=spec.rules,
                    clock=spec.clock,
                    rated=spec.rated,
                    colour=spec.colour,
                    min_rating=spec.min_rating,
                    max_rating=spec.max_rating,
                    created=at,
                    seen=at,
                )
            )
        )
        return seek_id

    async def open(self) -> list[OpenSeek]:
        """The seeks on offer, newest first, with their posters' names (and whether each is a
        bot) and ratings."""
        since = now() - datetime.timedelta(seconds=SEEN_SECONDS)
        async with self.store.session() as session:
            rows = (
                await session.execute(
                    select(SeekRow, UserRow.name, UserRow.bot)
                    .join(UserRow, UserRow.id == SeekRow.user_id)
                    .where(SeekRow.game_id.is_(None), SeekRow.seen >= since)
                    .order_by(SeekRow.created.desc())
                    .limit(100)
                )
            ).all()
        return [
            OpenSeek(
                **_brief(seek).model_dump(),
                player=name,
                bot=bot,
                rating=await self.rating(seek.user_id, seek.game, seek.clock),
            )
            for seek, name, bot in rows
        ]

    async def mine(self, user: User) -> list[SeekView]:
        """The poster's seeks, open or just accepted (then with the game's id); asking keeps
        the open ones on offer."""
        at = now()
        await self.store.write(
            lambda c: c.execute(
                update(SeekRow)
                .where(SeekRow.user_id == user.id, SeekRow.game_id.is_(None))
                .values(seen=at)
            )
        )
        async with self.store.session() as session:
            rows = (
                await session.scalars(
                    select(SeekRow)
                    .where(SeekRow.user_id == user.id)
                    .order_by(SeekRow.created.desc())
                    .limit(20)
                )
            ).all()
        return [_brief(seek) for seek in rows]

    async def cancel(self, user: User, seek_id: str) -> None:
        done = await self.store.write(
            lambda c: (
                c.execute(
                    delete(SeekRow).where(
                        SeekRow.id == seek_id, SeekRow.user_id == user.id, SeekRow.game_id.is_(None)
                    )
                ).rowcount
            )
        )
        if not done:
            raise ActionError(404, _("no open seek of yours with that id"))

    async def accept(self, user: User, seek_id: str) -> str:
        """Accept a seek: the new game's id (409 if it was taken or withdrawn first, 403 if
        it is your own, your rating is outside its range, your account is closed or either
        of you blocks the other)."""
        return await self.accept_as(user.id, user.name, seek_id)

    async def accept_as(
        self, user_id: int, name: str, seek_id: str, computer: str | None = None
    ) -> str:
        """:meth:`accept` for the account ``user_id`` called ``name``; ``computer``: the spec
        of the server's computer player taking its seat (a level bot's)."""
        await may_play(self.store, user_id)
        async with self.store.session() as session:
            seek = await session.get(SeekRow, seek_id)
            poster = await session.get(UserRow, seek.user_id) if seek else None
        if seek is None or poster is None or seek.game_id is not None:
            raise ActionError(409, _("that seek is no longer open"))
        if seek.user_id == user_id:
            raise ActionError(403, _("that is your own seek"))
        if await blocked(self.store, seek.user_id, user_id):
            raise ActionError(403, _("you cannot play this player"))
        mine = await self.rating(user_id, seek.game, seek.clock)
        if (seek.min_rating is not None and mine < seek.min_rating) or (
            seek.max_rating is not None and mine > seek.max_rating
        ):
            raise ActionError(
                403,
                _(
                    "the seek is for ratings %(low)s to %(high)s; yours is %(mine)s",
                    low=seek.min_rating or "…",
                    high=seek.max_rating or "…",
                    mine=format(mine, ".0f"),
                ),
            )
        game_id = secrets.token_urlsafe(8)
        claimed = await self.store.write(
            lambda c: (
                c.execute(
                    update(SeekRow)
                    .where(SeekRow.id == seek_id, SeekRow.game_id.is_(None))
                    .values(game_id=game_id)
                ).rowcount
            )
        )
        if not claimed:
            raise ActionError(409, _("that seek was taken a moment ago"))
        colour = seek.colour if seek.colour != "random" else secrets.choice(["white", "black"])
        them, me = (poster.id, poster.name), (user_id, name)
        white, black = (them, me) if colour == "white" else (me, them)
        spec = SeekSpec(
            seek.game,
            seek.rules,
            seek.clock,
            seek.rated,
            seek.colour,
            seek.min_rating,
            seek.max_rating,
        )
        kinds = {"white": HUMAN, "black": HUMAN}
        if computer is not None:
            kinds["black" if colour == "white" else "white"] = computer
        await self.opener(between(spec, white, black, game_id, kinds))
        return game_id

    async def quick(self, user: User, spec: SeekSpec) -> Pairing:
        """Accept the oldest compatible seek on offer (same game, rule set, clock and rated
        or not; your rating in its range; its poster's in yours), or post this one:
        ``{"game": id}`` or ``{"seek": id}``."""
        since = now() - datetime.timedelta(seconds=SEEN_SECONDS)
        async with self.store.session() as session:
            rows = (
                await session.scalars(
                    select(SeekRow)
                    .where(
                        SeekRow.game_id.is_(None),
                        SeekRow.seen >= since,
                        SeekRow.user_id != user.id,
                        SeekRow.game == spec.game,
                        SeekRow.rules == spec.rules,
                        SeekRow.rated == spec.rated,
                        SeekRow.clock.is_(None)
                        if spec.clock is None
                        else SeekRow.clock == spec.clock,
                    )
                    .order_by(SeekRow.created)
                )
            ).all()
        for seek in rows:
            theirs = await self.rating(seek.user_id, seek.game, seek.clock)
            if (spec.min_rating is not None and theirs < spec.min_rating) or (
                spec.max_rating is not None and theirs > spec.max_rating
            ):
                continue
            try:
                return Pairing(game=await self.accept(user, seek.id))
            except ActionError:
                continue  # taken meanwhile, or your rating is outside its range
        return Pairing(seek=await self.post(user, spec))


def _brief(seek: SeekRow) -> SeekView:
    return SeekView.model_validate(
        {
            "id": seek.id,
            "game": seek.game,
            "rules": seek.rules,
            "rules_title": rules_title(seek.game, seek.rules),
            "clock": seek.clock,
            "rated": seek.rated,
            "colour": seek.colour,
            "min_rating": seek.min_rating,
            "max_rating": seek.max_rating,
            "game_id": seek.game_id,
        }
    )
