"""Bots: accounts an engine plays, flagged ``bot`` (shown "BOT"; left off the leaderboards).

An account becomes a bot by the operator (``ludoteca users bot NAME``) or by itself before it
played any game; either way it gets an API token (printed once; the store keeps its SHA-256)
for the Bot API (see ``docs/web.md``).  A bot plays at most ``settings.bot_games`` games at once:
a challenge beyond is declined at once with the reason "later".

The server's own computer levels are bot accounts too (:func:`level_name`: ``felli-level-2``,
made the first time a seek of their game family waits): a challenge to one is accepted at once
(unless the game is another family, the level is not on its ladder, or it plays its most games
already: then declined) and its seat
is the computer player's, driven by the hub's duties like any game against the computer; the
game is rated as the challenge says, so the levels' ratings come from their games against
people.  A seek nobody took for ``settings.seek_wait`` seconds is accepted by the level of its
game whose rating is the closest to its poster's (:meth:`Bots.answer_seeks`).
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import hashlib
import logging
import re
import secrets
from collections.abc import Callable

from sqlalchemy import (
    Connection,
    DateTime,
    ForeignKey,
    String,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from ...ai.levels import levels
from ...i18n import _
from ..errors import ActionError
from ..limits import RateLimit
from ..play.catalogue import rule_set
from ..schemas import Status
from ..store import Base, GameRow, Store, now
from .challenges import Challenges, ChallengeView
from .people import UserRow
from .ratings import RatingRow, category, current
from .seeks import SEEN_SECONDS, SeekRow, Seeks

__all__ = ["BotTokenRow", "Bots", "level_name"]

log = logging.getLogger("ludoteca.server")

LEVEL_NAME = re.compile(r"([a-z]+)-level-([0-9]+)")


def level_name(game: str, level: int) -> str:
    """The account name of the server's ``level`` of a game family."""
    return f"{game}-level-{level}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class BotTokenRow(Base):
    """A bot's API token (its SHA-256; a new token replaces the old)."""

    __tablename__ = "bot_tokens"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


def _make_bot(connection: Connection, user: int, digest: str) -> None:
    connection.execute(update(UserRow).where(UserRow.id == user).values(bot=True))
    connection.execute(delete(BotTokenRow).where(BotTokenRow.user_id == user))
    connection.execute(insert(BotTokenRow).values(user_id=user, digest=digest, created=now()))


def _make_level(connection: Connection, name: str) -> None:
    """A level bot's account (no password can match "!")."""
    connection.execute(
        insert(UserRow).values(name=name, name_key=name, password="!", created=now(), bot=True)
    )


async def make_bot(store: Store, name: str, played_none: bool = False) -> str:
    """Flag the account ``name`` a bot and give it a new API token (returned, the only time
    it is seen); 404 for no such account; with ``played_none`` (the account asking for
    itself), 409 if it played any game."""
    async with store.session() as session:
        row = (
            await session.scalars(select(UserRow).where(UserRow.name_key == name.lower()[:40]))
        ).first()
        if row is None:
            raise ActionError(404, _("no player %(name)s", name=repr(name[:40])))
        played = (
            await session.scalars(
                select(func.count())
                .select_from(GameRow)
                .where(or_(GameRow.white_user == row.id, GameRow.black_user == row.id))
            )
        ).one()
    if played_none and played:
        raise ActionError(409, _("only an account that never played a game can become a bot"))
    token = secrets.token_urlsafe(32)
    await store.write(functools.partial(_make_bot, user=row.id, digest=_digest(token)))
    return token


class Bots:
    """The bots of ``store``: their tokens and limits (``games`` at once, ``requests`` a
    minute, ``streams`` open at once), the level bots answering ``challenges`` and, after
    ``seek_wait`` seconds, ``seeks``."""

    def __init__(
        self,
        store: Store,
        challenges: Challenges,
        seeks: Seeks,
        games: int,
        requests: int,
        streams: int,
        seek_wait: float,
    ) -> None:
        self.store = store
        self.challenges = challenges
        self.seeks = seeks
        self.games = games
        self.streams = streams
        self.seek_wait = seek_wait
        self.requests = RateLimit(requests, 60.0)
        #: open streams per bot account
        self.open: dict[int, int] = {}
        challenges.arrival = self.arrival

    async def bot_of(self, authorization: str | None) -> tuple[int, str]:
        """The bot account (id, name) of an ``Authorization: Bearer TOKEN`` header, its request
        counted: 401 without a valid token, 429 past its requests a minute."""
        token = (authorization or "").removeprefix("Bearer ").strip()
        if not token or len(token) > 100:
            raise ActionError(401, _("a bot's token is needed (Authorization: Bearer TOKEN)"))
        async with self.store.session() as session:
            found = (
                await session.execute(
                    select(UserRow.id, UserRow.name)
                    .join(BotTokenRow, BotTokenRow.user_id == UserRow.id)
                    .where(BotTokenRow.digest == _digest(token), UserRow.bot.is_(True))
                )
            ).first()
        if found is None:
            raise ActionError(401, _("a bot's token is needed (Authorization: Bearer TOKEN)"))
        if not self.requests.allow(str(found.id)):
            raise ActionError(
                429,
                _(
                    "at most %(most)s requests a minute from a bot; wait a minute",
                    most=self.requests.events,
                ),
            )
        return found.id, found.name

    def stream(self, user: int) -> Callable[[], None]:
        """Count a stream the bot ``user`` opens (429 past :attr:`streams`); the function
        that counts it closed."""
        if self.open.get(user, 0) >= self.streams:
            raise ActionError(
                429, _("at most %(most)s streams open at once for a bot", most=self.streams)
            )
        self.open[user] = self.open.get(user, 0) + 1

        def closed() -> None:
            self.open[user] -= 1
            if not self.open[user]:
                del self.open[user]

        return closed

    async def is_bot(self, user: int) -> bool:
        """Whether the account ``user`` is a bot."""
        async with self.store.session() as session:
            found = await session.scalars(select(UserRow.bot).where(UserRow.id == user))
            return bool(found.first())

    async def playing(self, user: int) -> list[str]:
        """The games ``user`` plays now (waiting or in play)."""
        async with self.store.session() as session:
            return list(
                await session.scalars(
                    select(GameRow.id).where(
                        or_(GameRow.white_user == user, GameRow.black_user == user),
                        GameRow.status != Status.OVER,
                    )
                )
            )

    async def check_room(self, user: int) -> None:
        """429 if the bot ``user`` plays its most games at once."""
        if len(await self.playing(user)) >= self.games:
            raise ActionError(429, _("a bot plays at most %(most)s games at once", most=self.games))

    # --- answering challenges -----------------------------------------------------------------
    async def arrival(self, view: ChallengeView, bot: int) -> None:
        """A challenge to the bot account ``bot``: declined ("later") when it plays its most
        games; to a level bot, accepted at once when it can play it (else declined)."""
        if len(await self.playing(bot)) >= self.games:
            await self.challenges.decline(bot, view.id, "later")
            return
        level = LEVEL_NAME.fullmatch(view.challenged.lower())
        if level is None:
            return  # an engine's bot: it answers through the Bot API
        game, number = level[1], int(level[2])
        if view.game != game or number > len(levels(rule_set(game, view.rules).rules)):
            await self.challenges.decline(bot, view.id, "variant")
        else:
            await self.challenges.accept(bot, view.id, computer=f"level:{number}")

    async def ensure_levels(self, game: str, rules: str) -> int:
        """Make the missing level bots' accounts of a game family, as many as the ladder of
        ``rules``; how many were made."""
        made = 0
        for number in range(1, len(levels(rule_set(game, rules).rules)) + 1):
            name = level_name(game, number)
            async with self.store.session() as session:
                found = (
                    await session.scalars(select(UserRow.id).where(UserRow.name_key == name))
                ).first()
            if found is None:
                await self.store.write(functools.partial(_make_level, name=name))
                made += 1
        return made

    # --- answering seeks ----------------------------------------------------------------------
    async def answer_seeks(self, every: float = 2.0) -> None:
        """Every ``every`` seconds, until cancelled (runs for the server): the seeks open for
        ``seek_wait`` seconds and still on offer are accepted by a level bot (see
        :meth:`answer_seek`)."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.answer_waiting()
            except Exception:
                log.exception("level bots answering seeks failed")

    async def answer_waiting(self) -> int:
        """Answer the seeks waiting for ``seek_wait`` seconds; how many."""
        at = now()
        waited = at - datetime.timedelta(seconds=self.seek_wait)
        seen = at - datetime.timedelta(seconds=SEEN_SECONDS)
        async with self.store.session() as session:
            waiting = list(
                await session.scalars(
                    select(SeekRow).where(
                        SeekRow.game_id.is_(None),
                        SeekRow.created <= waited,
                        SeekRow.seen >= seen,
                    )
                )
            )
        answered = 0
        for seek in waiting:
            answered += await self.answer_seek(seek)
        return answered

    async def answer_seek(self, seek: SeekRow) -> bool:
        """Accept ``seek`` as the level bot of its game whose rating is the closest to its
        poster's, among those on its rule set's ladder and in its rating range with room for
        a game; whether one did."""
        await self.ensure_levels(seek.game, seek.rules)
        wanted = await self.seeks.rating(seek.user_id, seek.game, seek.clock)
        ladder = len(levels(rule_set(seek.game, seek.rules).rules))
        names = [level_name(seek.game, n) for n in range(1, ladder + 1)]
        async with self.store.session() as session:
            bots = (
                await session.execute(
                    select(UserRow.id, UserRow.name, RatingRow)
                    .outerjoin(
                        RatingRow,
                        (RatingRow.user_id == UserRow.id)
                        & (RatingRow.game == seek.game)
                        & (RatingRow.category == category(seek.clock)),
                    )
                    .where(UserRow.name_key.in_(names), UserRow.bot.is_(True))
                )
            ).all()
        ranked = []
        for bot_id, name, rating in bots:
            # a level never rated is placed by its number on the ladder (1500 in the middle)
            number = int(name.rsplit("-", 1)[1])
            value = current(rating).rating if rating else 1500 + 200 * (number - (ladder + 1) / 2)
            if (seek.min_rating is None or value >= seek.min_rating) and (
                seek.max_rating is None or value <= seek.max_rating
            ):
                ranked.append((abs(value - wanted), bot_id, name, number))
        for _gap, bot_id, name, number in sorted(ranked):
            if len(await self.playing(bot_id)) >= self.games:
                continue
            try:
                await self.seeks.accept_as(bot_id, name, seek.id, f"level:{number}")
            except ActionError:
                return False  # taken or withdrawn meanwhile
            return True
        return False
