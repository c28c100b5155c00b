"""Moderation: players report and block; moderators mute, close, remove chat lines and mark
games unrated; every moderator's action is logged (see ``docs/operating.md``).

- A **report** names a player (or a chat line, whose author it names and whose text it keeps)
  with a reason from :data:`REASONS` and free text; moderators list them.
- A **block** is one player's: the blocked account's chat lines are not sent to the blocker
  (lines are matched by the author's name: a guest line written under that name is hidden
  too), and the two are never paired by a seek (:func:`blocked`, for any code that pairs).
- The **moderator** role is granted and revoked on the command line (``ludoteca users``).
- A **muted** account may not chat until its time is up; a **closed** one may not sign in, seek
  or chat: closing ends its sessions and its open seeks, and its live games end as losses on
  time through the games' one path of changes (ratings settled as for any game's end).
- A **removed** chat line is deleted from the store and disappears live from every page
  showing it (a ``chat_removed`` message; with several server processes, from the pages of the
  process that removed it at once, from the others' when they reload the game).
- **Unrating** a player's games marks their finished rated games unrated and recomputes the
  ratings of every category they touched from scratch, replaying the remaining rated games
  in the order they ended: Glicko-2 changes depend on the opponents' ratings at the time, so
  subtracting the changes would leave every later opponent's rating wrong.
- Chat lines are checked by :class:`ChatRules`: an account's mute and closure, its lines a
  minute, and the operator's word list.
"""

from __future__ import annotations

import datetime
import functools
import re
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, Field
from sqlalchemy import (
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ...core import Color, Outcome, Termination
from ...i18n import N_, _
from ..errors import ActionError
from ..limits import CHAT_LINES_PER_MINUTE, RateLimit
from ..play import conduct
from ..play.clock import now_ms
from ..play.conduct import Change, Context
from ..play.live import LiveGame, Watcher
from ..schemas import ChatMessage, ChatRemoved, Room, Status
from ..store import Base, GameRow, Store, now
from . import glicko2
from .chat import ChatRow
from .people import SessionRow, User, UserRow
from .ratings import RatingHistoryRow, RatingRow, category, settle

__all__ = [
    "REASONS",
    "ROLES",
    "ChatRules",
    "Moderation",
    "blocked",
    "may_play",
    "read_words",
]

#: why a player is reported: a key and its title (translated where shown)
REASONS: dict[str, str] = {
    "abuse": N_("abusive or hateful language"),
    "cheating": N_("cheating (help from a program or a person)"),
    "spam": N_("spam or advertising"),
    "sandbagging": N_("losing on purpose"),
    "other": N_("something else (say what)"),
}
ROLES = ("moderator",)
#: what a moderator does (:meth:`Moderation.act`); grant and revoke are the command line's
Action = Literal["mute", "unmute", "close", "reopen", "remove_line", "unrate"]
#: the longest mute or closure (minutes): ten years
LONGEST = 10 * 366 * 24 * 60
#: reports one account may make an hour
REPORTS_PER_HOUR = 10
MAX_TEXT = 500
#: who the log names for what the command line did
OPERATOR = "(command line)"


# --- tables ------------------------------------------------------------------------------------
class RoleRow(Base):
    """A role held by an account (``moderator``)."""

    __tablename__ = "roles"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[str] = mapped_column(String(16), primary_key=True)


class BlockRow(Base):
    """``user_id`` blocks ``blocked_id``."""

    __tablename__ = "blocks"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class RestrictionRow(Base):
    """Until when an account is muted, and closed (None: it is not)."""

    __tablename__ = "restrictions"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    muted_until: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    closed_until: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class PlayerReportRow(Base):
    """A player's report of another player (or of one of their chat lines)."""

    __tablename__ = "player_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(MAX_TEXT))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    chat_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    chat_text: Mapped[str | None] = mapped_column(String(300), nullable=True)
    at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class ModerationLogRow(Base):
    """One moderation action: who (a moderator's name, or :data:`OPERATOR`), when, what, to
    whom, why."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    moderator: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(16))
    player: Mapped[str | None] = mapped_column(String(20), nullable=True)
    detail: Mapped[str] = mapped_column(String(MAX_TEXT))
    reason: Mapped[str] = mapped_column(String(MAX_TEXT))


# --- answers -----------------------------------------------------------------------------------
class ReasonView(BaseModel):
    """A reason a report may give: its key and title."""

    key: str
    title: str


class ReportBody(BaseModel):
    """A report: of the player ``player`` or of the chat line ``chat_id`` (its author)."""

    player: str | None = Field(default=None, max_length=40)
    chat_id: int | None = None
    reason: str = Field(max_length=16)
    text: str = Field(default="", max_length=MAX_TEXT)


class BlockBody(BaseModel):
    player: str = Field(max_length=40)


class ActionBody(BaseModel):
    """A moderator's action: to a ``player`` (mute, unmute, close, reopen, unrate; ``minutes``
    for mute and close) or a chat line (``chat_id``, remove_line), and why."""

    action: Action
    player: str | None = Field(default=None, max_length=40)
    chat_id: int | None = None
    minutes: int | None = Field(default=None, ge=1, le=LONGEST)
    reason: str = Field(max_length=MAX_TEXT)


class ReportView(BaseModel):
    id: int
    at: str
    reporter: str | None
    player: str
    reason: str
    reason_title: str
    text: str
    game_id: str | None
    chat_id: int | None
    chat_text: str | None


class LogEntry(BaseModel):
    at: str
    moderator: str
    action: str
    player: str | None
    detail: str
    reason: str


class Standing(BaseModel):
    """The signed-in account's standing: whether it moderates, whom it blocks, until when it
    is muted or closed."""

    moderator: bool
    blocks: list[str]
    muted_until: str | None
    closed_until: str | None


# --- checks other code calls ---------------------------------------------------------------------
def _aware(when: datetime.datetime | None) -> datetime.datetime | None:
    return when.replace(tzinfo=datetime.UTC) if when and not when.tzinfo else when


def _until(when: datetime.datetime | None) -> datetime.datetime | None:
    """``when`` if it is still to come, else None."""
    when = _aware(when)
    return when if when is not None and when > now() else None


async def _restriction(store: Store, user_id: int) -> RestrictionRow | None:
    async with store.session() as session:
        return await session.get(RestrictionRow, user_id)


async def may_play(store: Store, user_id: int) -> None:
    """:class:`ActionError` (403) if the account is closed."""
    found = await _restriction(store, user_id)
    until = _until(found.closed_until) if found else None
    if until is not None:
        raise ActionError(403, _closed(until))


def _closed(until: datetime.datetime) -> str:
    return _("this account is closed until %(until)s", until=_when(until))


def _when(at: datetime.datetime) -> str:
    return (_aware(at) or at).strftime("%Y-%m-%d %H:%M UTC")


async def blocked(store: Store, one: int, other: int) -> bool:
    """Whether either of two accounts blocks the other (they are never paired)."""
    async with store.session() as session:
        found = await session.execute(
            select(BlockRow.user_id).where(
                or_(
                    (BlockRow.user_id == one) & (BlockRow.blocked_id == other),
                    (BlockRow.user_id == other) & (BlockRow.blocked_id == one),
                )
            )
        )
        return found.first() is not None


async def _blocked_names(store: Store, user_id: int) -> frozenset[str]:
    async with store.session() as session:
        names = await session.scalars(
            select(UserRow.name)
            .join(BlockRow, BlockRow.blocked_id == UserRow.id)
            .where(BlockRow.user_id == user_id)
        )
        return frozenset(names)


def read_words(path: Path) -> tuple[str, ...]:
    """The word list of a file: one word or phrase a line; blank lines and lines starting
    with ``#`` skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(
        line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")
    )


class ChatRules:
    """What every chat line passes before it is said (:meth:`check`), and whose lines each
    connection is not shown (the accounts its signed-in reader blocks)."""

    def __init__(
        self, store: Store, words: Sequence[str] = (), per_minute: int = CHAT_LINES_PER_MINUTE
    ) -> None:
        self.store = store
        self.per_minute = per_minute
        self.limit = RateLimit(per_minute, 60.0)
        alternatives = "|".join(
            r"\s+".join(map(re.escape, word.split()))
            for word in sorted(words, key=len, reverse=True)
        )
        self.words = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.I) if words else None
        #: the signed-in reader of each open connection, and the names it blocks
        self.readers: weakref.WeakKeyDictionary[Watcher, tuple[int, frozenset[str]]] = (
            weakref.WeakKeyDictionary()
        )

    async def check(self, user: int | None, text: str) -> None:
        """:class:`ActionError` with a sentence if the line may not be said: the account is
        closed or muted (403), has said :attr:`per_minute` lines this minute (429), or the line
        has a word of the list (400)."""
        if user is not None:
            found = await _restriction(self.store, user)
            if found is not None:
                closed, muted = _until(found.closed_until), _until(found.muted_until)
                if closed is not None:
                    raise ActionError(403, _closed(closed))
                if muted is not None:
                    raise ActionError(
                        403, _("you are muted until %(until)s: you cannot chat", until=_when(muted))
                    )
        if self.words is not None and self.words.search(text):
            raise ActionError(400, _("this server does not allow one of the words of that line"))
        if user is not None and not self.limit.allow(str(user)):
            raise ActionError(
                429, _("at most %(lines)s chat lines a minute", lines=self.per_minute)
            )

    async def read_by(self, watcher: Watcher, user: int | None) -> None:
        """Remember the signed-in reader of a connection (its blocks hide lines from it)."""
        if user is not None:
            self.readers[watcher] = (user, await _blocked_names(self.store, user))

    def shown(self, watcher: Watcher, message: ChatMessage) -> bool:
        """Whether a line is shown to a connection (not if its reader blocks the author)."""
        reader = self.readers.get(watcher)
        return reader is None or message.name not in reader[1]

    async def blocks_changed(self, user: int) -> None:
        """The account ``user`` blocked or unblocked someone: its open connections learn it."""
        names = await _blocked_names(self.store, user)
        for watcher, (reader, _names) in list(self.readers.items()):
            if reader == user:
                self.readers[watcher] = (user, names)


# --- the service ---------------------------------------------------------------------------------
class Games(Protocol):
    """What moderation uses of the hub: a live game by id, and its one path of changes."""

    games: dict[str, LiveGame]

    async def get(self, game_id: str) -> LiveGame: ...

    async def carry_out(
        self, live: LiveGame, decide: Callable[[], Change | None], tell: bool = True
    ) -> None: ...


class Moderation:
    """Reports, blocks and the moderators' actions on the store, ending games through ``hub``
    and chat lines live through ``rules``' connections' games (``games``)."""

    def __init__(self, store: Store, hub: Games, rules: ChatRules) -> None:
        self.store = store
        self.hub = hub
        self.rules = rules
        self.reports_limit = RateLimit(REPORTS_PER_HOUR, 3600.0)

    # -- anyone signed in ---------------------------------------------------------------------
    async def _account(self, name: str | None) -> tuple[int, str]:
        if not name:
            raise ActionError(400, _("name a player"))
        async with self.store.session() as session:
            found = (
                await session.execute(
                    select(UserRow.id, UserRow.name).where(UserRow.name_key == name.lower())
                )
            ).first()
        if found is None:
            raise ActionError(404, _("no player %(name)s", name=repr(name)))
        return int(found.id), str(found.name)

    async def report(self, user: User, body: ReportBody) -> None:
        """Store a report; 400 for an unknown reason or a missing text with ``other``, 404
        for an unknown player or line, 400 for a report of oneself, 429 past
        :data:`REPORTS_PER_HOUR`."""
        if body.reason not in REASONS:
            raise ActionError(400, _("a reason is one of %(reasons)s", reasons=", ".join(REASONS)))
        text = " ".join(body.text.split())
        if body.reason == "other" and not text:
            raise ActionError(400, _("say what the report is about"))
        game_id = chat_text = None
        if body.chat_id is not None:
            async with self.store.session() as session:
                line = await session.get(ChatRow, body.chat_id)
            if line is None or line.user_id is None:
                raise ActionError(404, _("no chat line of a player with that number"))
            player, game_id, chat_text = line.user_id, line.game_id, line.text
        else:
            player = (await self._account(body.player))[0]
        if player == user.id:
            raise ActionError(400, _("you cannot report yourself"))
        if not self.reports_limit.allow(str(user.id)):
            raise ActionError(429, _("at most %(count)s reports an hour", count=REPORTS_PER_HOUR))
        values = {
            "reporter_id": user.id,
            "player_id": player,
            "reason": body.reason,
            "text": text,
            "game_id": game_id,
            "chat_id": body.chat_id,
            "chat_text": chat_text,
            "at": now(),
        }
        await self.store.write(lambda c: c.execute(insert(PlayerReportRow).values(**values)))

    async def block(self, user: User, name: str) -> None:
        """Block a player (again: nothing more); 400 for oneself, 404 for no such player."""
        other, _name = await self._account(name)
        if other == user.id:
            raise ActionError(400, _("you cannot block yourself"))
        try:
            await self.store.write(
                lambda c: c.execute(
                    insert(BlockRow).values(user_id=user.id, blocked_id=other, at=now())
                )
            )
        except IntegrityError:
            return  # blocked already
        await self.rules.blocks_changed(user.id)

    async def unblock(self, user: User, name: str) -> None:
        other, _name = await self._account(name)
        await self.store.write(
            lambda c: c.execute(
                delete(BlockRow).where(BlockRow.user_id == user.id, BlockRow.blocked_id == other)
            )
        )
        await self.rules.blocks_changed(user.id)

    async def standing(self, user: User) -> Standing:
        found = await _restriction(self.store, user.id)
        muted = _until(found.muted_until) if found else None
        closed = _until(found.closed_until) if found else None
        return Standing(
            moderator=await self.is_moderator(user.id),
            blocks=sorted(await _blocked_names(self.store, user.id), key=str.lower),
            muted_until=muted.isoformat() if muted else None,
            closed_until=closed.isoformat() if closed else None,
        )

    async def admit(self, user: User) -> None:
        """Refuse (403) the sign-in of a closed account, ending the session just opened."""
        try:
            await may_play(self.store, user.id)
        except ActionError:
            await self._end_sessions(user.id)
            raise

    # -- moderators -----------------------------------------------------------------------------
    async def is_moderator(self, user_id: int) -> bool:
        async with self.store.session() as session:
            return await session.get(RoleRow, (user_id, "moderator")) is not None

    async def require(self, user: User) -> None:
        """:class:`ActionError` (403) unless the account is a moderator."""
        if not await self.is_moderator(user.id):
            raise ActionError(403, _("only moderators may do that"))

    async def reports(self, limit: int = 200) -> list[ReportView]:
        """The latest reports, newest first."""
        reporter, player = UserRow.__table__.alias(), UserRow.__table__.alias()
        async with self.store.session() as session:
            rows = (
                await session.execute(
                    select(PlayerReportRow, reporter.c.name, player.c.name)
                    .outerjoin(reporter, reporter.c.id == PlayerReportRow.reporter_id)
                    .join(player, player.c.id == PlayerReportRow.player_id)
                    .order_by(PlayerReportRow.id.desc())
                    .limit(limit)
                )
            ).all()
        return [
            ReportView(
                id=row.id,
                at=(_aware(row.at) or row.at).isoformat(),
                reporter=by,
                player=of,
                reason=row.reason,
                reason_title=_(REASONS.get(row.reason, row.reason)),
                text=row.text,
                game_id=row.game_id,
                chat_id=row.chat_id,
                chat_text=row.chat_text,
            )
            for row, by, of in rows
        ]

    async def log(self, limit: int = 200) -> list[LogEntry]:
        """The latest moderation actions, newest first."""
        async with self.store.session() as session:
            rows = (
                await session.scalars(
                    select(ModerationLogRow).order_by(ModerationLogRow.id.desc()).limit(limit)
                )
            ).all()
        return [
            LogEntry(
                at=(_aware(row.at) or row.at).isoformat(),
                moderator=row.moderator,
                action=row.action,
                player=row.player,
                detail=row.detail,
                reason=row.reason,
            )
            for row in rows
        ]

    async def act(self, moderator: User, body: ActionBody) -> None:
        """Carry out a moderator's action (checked first: :class:`ActionError`, nothing
        changed) and log it."""
        await self.require(moderator)
        reason = " ".join(body.reason.split())
        if not reason:
            raise ActionError(400, _("say why"))
        if body.action == "remove_line":
            if body.chat_id is None:
                raise ActionError(400, _("name the chat line (chat_id)"))
            await self._remove_line(moderator.name, body.chat_id, reason)
            return
        player, name = await self._account(body.player)
        if body.action in ("mute", "close"):
            if body.minutes is None:
                raise ActionError(400, _("say for how many minutes"))
            until = now() + datetime.timedelta(minutes=body.minutes)
            detail = f"until {_when(until)}"
            await self._restrict(player, body.action, until, moderator.name, name, detail, reason)
            if body.action == "close":
                await self._close(player)
        elif body.action in ("unmute", "reopen"):
            kind = "mute" if body.action == "unmute" else "close"
            await self._restrict(player, kind, None, moderator.name, name, body.action, reason)
        else:
            games = await self.store.write(lambda c: _unrate(c, player))
            await self.store.write(
                lambda c: _log(c, moderator.name, "unrate", name, f"{games} games", reason)
            )

    async def _restrict(
        self,
        player: int,
        kind: str,
        until: datetime.datetime | None,
        moderator: str,
        name: str,
        detail: str,
        reason: str,
    ) -> None:
        """Set (or lift, ``until`` None) the mute or closure of an account, logged."""
        column = "muted_until" if kind == "mute" else "closed_until"
        action = kind if until is not None else ("unmute" if kind == "mute" else "reopen")

        def work(connection: Connection) -> None:
            done = connection.execute(
                update(RestrictionRow)
                .where(RestrictionRow.user_id == player)
                .values({column: until})
            )
            if not done.rowcount:
                connection.execute(
                    insert(RestrictionRow).values({"user_id": player, column: until})
                )
            _log(connection, moderator, action, name, detail, reason)

        await self.store.write(work)

    async def _end_sessions(self, player: int) -> None:
        await self.store.write(
            lambda c: c.execute(delete(SessionRow).where(SessionRow.user_id == player))
        )

    async def _close(self, player: int) -> None:
        """End a closed account's sessions and open seeks, and its live games as losses on
        time."""
        from .seeks import SeekRow  # (seeks call this module's checks)

        await self._end_sessions(player)
        await self.store.write(
            lambda c: c.execute(
                delete(SeekRow).where(SeekRow.user_id == player, SeekRow.game_id.is_(None))
            )
        )
        async with self.store.session() as session:
            ids = list(
                await session.scalars(
                    select(GameRow.id).where(
                        GameRow.status == Status.LIVE,
                        or_(GameRow.white_user == player, GameRow.black_user == player),
                    )
                )
            )
        for game_id in ids:
            live = await self.hub.get(game_id)
            await self.hub.carry_out(live, functools.partial(_lost_on_time, live, player))

    async def _remove_line(self, moderator: str, chat_id: int, reason: str) -> None:
        """Delete a chat line, logged; the pages showing it are told."""
        async with self.store.session() as session:
            line = await session.get(ChatRow, chat_id)
        if line is None:
            raise ActionError(404, _("no chat line with that number"))

        def work(connection: Connection) -> None:
            connection.execute(delete(ChatRow).where(ChatRow.id == chat_id))
            _log(connection, moderator, "remove_line", line.name[:20], line.text, reason)

        await self.store.write(work)
        room: Room = "players" if line.room == "players" else "spectators"
        live = self.hub.games.get(line.game_id)
        if live is not None:
            forget(live, room, chat_id)


def forget(live: LiveGame, room: Room, chat_id: int) -> None:
    """Drop a removed line from a game in memory and tell the room's connections."""
    kept = live.chat.get(room, [])
    kept[:] = [one for one in kept if one.id != chat_id]
    message = ChatRemoved(type="chat_removed", room=room, id=chat_id).model_dump_json()
    for watcher in live.watchers:
        if bool(watcher.seats) == (room == "players"):
            watcher.push(message)


def _lost_on_time(live: LiveGame, player: int) -> Change | None:
    """The change ending a live game of a closed account as its loss on time (None if it
    is over already)."""
    if live.row.status != Status.LIVE:
        return None
    loser = Color.WHITE if live.row.white_user == player else Color.BLACK
    outcome = Outcome(Termination.TIME_FORFEIT, Color(1 - loser))
    return conduct.finish(live, outcome, Context(now_ms()))


def _log(
    connection: Connection,
    moderator: str,
    action: str,
    player: str | None,
    detail: str,
    reason: str,
) -> None:
    connection.execute(
        insert(ModerationLogRow).values(
            at=now(),
            moderator=moderator,
            action=action,
            player=player,
            detail=detail[:MAX_TEXT],
            reason=reason[:MAX_TEXT],
        )
    )


def _unrate(connection: Connection, player: int) -> int:
    """Mark the player's finished rated games unrated and recompute the ratings of the
    categories they were in (:func:`_recompute`); how many games."""
    games = connection.execute(
        select(GameRow.id, GameRow.game, GameRow.clock).where(
            GameRow.rated,
            GameRow.status == Status.OVER,
            or_(GameRow.white_user == player, GameRow.black_user == player),
        )
    ).all()
    if not games:
        return 0
    connection.execute(
        update(GameRow).where(GameRow.id.in_([g.id for g in games])).values(rated=False)
    )
    for game, kind in {(g.game, category(g.clock)) for g in games}:
        _recompute(connection, game, kind)
    return len(games)


def _recompute(connection: Connection, game: str, kind: str) -> None:
    """Rate a game's category again from scratch: every rating reset to a new player's, then
    every game still rated settled again in the order it ended (when it was first settled)."""
    ended = {
        row.game_id: _aware(row.at)
        for row in connection.execute(
            select(RatingHistoryRow.game_id, RatingHistoryRow.at).where(
                RatingHistoryRow.game == game, RatingHistoryRow.category == kind
            )
        )
    }
    still = set(
        connection.scalars(select(GameRow.id).where(GameRow.id.in_(list(ended)), GameRow.rated))
    )
    connection.execute(
        delete(RatingHistoryRow).where(
            RatingHistoryRow.game == game, RatingHistoryRow.category == kind
        )
    )
    first = min((at for at in ended.values() if at is not None), default=now())
    connection.execute(
        update(RatingRow)
        .where(RatingRow.game == game, RatingRow.category == kind)
        .values(
            rating=glicko2.NEW.rating,
            deviation=glicko2.NEW.deviation,
            volatility=glicko2.NEW.volatility,
            games=0,
            updated=first,
        )
    )
    for game_id in sorted(still, key=lambda g: (ended[g] or first, g)):
        settle(connection, game_id, at=ended[game_id])


def reasons() -> list[ReasonView]:
    """The reasons a report may give, titled in the current language."""
    return [ReasonView(key=key, title=_(title)) for key, title in REASONS.items()]


# --- the command line's (``ludoteca users``) ----------------------------------------------------
class AccountLine(BaseModel):
    """An account as ``ludoteca users list`` shows it."""

    name: str
    created: str
    roles: list[str]
    muted_until: str | None
    closed_until: str | None


async def set_role(store: Store, name: str, role: str, held: bool) -> bool:
    """Grant (``held``) or revoke a role of the account ``name``, logged as the operator's;
    whether it changed anything.  :class:`ActionError` for an unknown role or account."""
    if role not in ROLES:
        raise ActionError(400, _("a role is one of %(roles)s", roles=", ".join(ROLES)))
    async with store.session() as session:
        found = (
            await session.execute(
                select(UserRow.id, UserRow.name).where(UserRow.name_key == name.lower())
            )
        ).first()
    if found is None:
        raise ActionError(404, _("no player %(name)s", name=repr(name)))

    def work(connection: Connection) -> bool:
        there = connection.execute(
            select(RoleRow.role).where(RoleRow.user_id == found.id, RoleRow.role == role)
        ).first()
        if (there is not None) == held:
            return False
        if held:
            connection.execute(insert(RoleRow).values(user_id=found.id, role=role))
        else:
            connection.execute(
                delete(RoleRow).where(RoleRow.user_id == found.id, RoleRow.role == role)
            )
        action = "grant" if held else "revoke"
        _log(connection, OPERATOR, action, found.name, role, action)
        return True

    changed: bool = await store.write(work)
    return changed


async def account_lines(store: Store) -> list[AccountLine]:
    """Every account, by name, with its roles and restrictions."""
    async with store.session() as session:
        users = (
            await session.execute(
                select(UserRow, RestrictionRow)
                .outerjoin(RestrictionRow, RestrictionRow.user_id == UserRow.id)
                .order_by(UserRow.name_key)
            )
        ).all()
        roles = (await session.execute(select(RoleRow.user_id, RoleRow.role))).all()
    held: dict[int, list[str]] = {}
    for user_id, role in roles:
        held.setdefault(user_id, []).append(role)

    def shown(when: datetime.datetime | None) -> str | None:
        until = _until(when)
        return _when(until) if until else None

    return [
        AccountLine(
            name=user.name,
            created=_when(user.created),
            roles=sorted(held.get(user.id, [])),
            muted_until=shown(restriction.muted_until) if restriction else None,
            closed_until=shown(restriction.closed_until) if restriction else None,
        )
        for user, restriction in users
    ]
