"""Chat in a game: the players' room and the spectators' room, plain text, stored with the game.

Players see and write only the players' room, everyone else only the spectators' room.  A line
is at most :data:`MAX_TEXT` printable characters (its markup is never interpreted: pages show it
as text); each connection may send :data:`LINES_PER_WINDOW` lines in :data:`WINDOW` seconds.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING

from sqlalchemy import DateTime, ForeignKey, Integer, String, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from ...i18n import _
from ..cluster.adoption import Cluster
from ..errors import ActionError
from ..limits import RateLimit
from ..play.live import LiveGame, Watcher
from ..play.views import encode, player
from ..schemas import ChatHistory, ChatMessage, Room
from ..store import Base, Store, now

if TYPE_CHECKING:
    from .moderation import ChatRules

__all__ = ["ROOMS", "Chat", "ChatRow", "clean", "history", "say"]

MAX_TEXT = 300
LINES_PER_WINDOW = 5
WINDOW = 10.0
HISTORY = 100  # lines sent to a page when it opens the game
ROOMS: tuple[Room, ...] = ("players", "spectators")


class ChatRow(Base):
    """One line of chat."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    room: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(MAX_TEXT))
    at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


def clean(text: str) -> str:
    """A chat line tidied (spaces collapsed), or :class:`ActionError` if empty, too long or
    holding control characters."""
    tidy = " ".join(text.split())
    if not tidy:
        raise ActionError(400, _("say something"))
    if len(tidy) > MAX_TEXT:
        raise ActionError(
            400, _("a chat line is at most %(max_text)s characters", max_text=MAX_TEXT)
        )
    if not tidy.isprintable():
        raise ActionError(400, _("a chat line is plain text"))
    return tidy


def line(number: int, room: Room, name: str, text: str, at: datetime.datetime) -> ChatMessage:
    """The chat message sent to pages (``id``: the line's number, increasing: a page that
    gets a line both live and in the history it asked for shows it once)."""
    at = at if at.tzinfo else at.replace(tzinfo=datetime.UTC)
    return ChatMessage(type="chat", id=number, room=room, name=name, text=text, at=at.isoformat())


async def say(
    store: Store, game_id: str, room: Room, user: int | None, name: str, text: str
) -> ChatMessage:
    """Store a line; the message to send to the room."""
    tidy, at, name = clean(text), now(), name[:40]
    number = await store.write(
        lambda c: (
            c.execute(
                insert(ChatRow).values(
                    game_id=game_id, room=room, user_id=user, name=name, text=tidy, at=at
                )
            ).inserted_primary_key
        )
    )
    assert number is not None
    return line(int(number[0]), room, name, tidy, at)


async def history(store: Store, game_id: str, room: Room) -> list[ChatMessage]:
    """The room's last lines, oldest first."""
    async with store.session() as session:
        rows = (
            await session.scalars(
                select(ChatRow)
                .where(ChatRow.game_id == game_id, ChatRow.room == room)
                .order_by(ChatRow.id.desc())
                .limit(HISTORY)
            )
        ).all()
    return [line(row.id, room, row.name, row.text, row.at) for row in reversed(rows)]


class Chat:
    """The chat of the games held in ``games`` (this process's live games): lines said here are
    stored, sent to the room's watchers and passed on to the other processes (``cluster``).
    Every line passes ``rules`` first (mutes, closures, lines a minute, the word list), and is
    not sent to the connections whose reader blocks its author."""

    def __init__(
        self, store: Store, games: Mapping[str, LiveGame], cluster: Cluster, rules: ChatRules
    ) -> None:
        self.store = store
        self.games = games
        self.cluster = cluster
        self.rules = rules
        self.limit = RateLimit(LINES_PER_WINDOW, WINDOW)

    async def say(
        self, live: LiveGame, watcher: Watcher, room: Room, text: str, user: tuple[int, str] | None
    ) -> None:
        """Say a line in a room of the game: the players' room is the seat holders', the
        spectators' room everyone else's; sent to the room's watchers only."""
        seated = bool(watcher.seats)
        if (room == "players") != seated:
            raise ActionError(403, _("players talk in the players' room, spectators in theirs"))
        await self.rules.check(user[0] if user else None, text)
        if not self.limit.allow(str(id(watcher))):
            raise ActionError(
                429,
                _(
                    "at most %(lines_per_window)s lines in %(window)s seconds",
                    lines_per_window=LINES_PER_WINDOW,
                    window=format(WINDOW, ".0f"),
                ),
            )
        if user is not None:
            name = user[1]
        elif seated:
            name = " and ".join(player(live, c).label for c in sorted(watcher.seats))
        else:
            name = "Spectator"
        message = await say(self.store, live.row.id, room, user[0] if user else None, name, text)
        self._tell(live, message)
        self.cluster.said(live.row.id, message)

    async def earlier(
        self, live: LiveGame, watcher: Watcher, user: int | None = None
    ) -> ChatHistory:
        """The earlier lines of the watcher's room (read from the store for the room's first
        watcher in this process, then kept with the game in memory), but those of the accounts
        its signed-in ``user`` blocks."""
        await self.rules.read_by(watcher, user)
        room: Room = "players" if watcher.seats else "spectators"
        if room not in live.chat_read:
            stored = await history(self.store, live.row.id, room)
            if room not in live.chat_read:  # (unless read meanwhile for another watcher)
                told = live.chat.get(room, [])
                lines = {one.id: one for one in [*stored, *told]}
                live.chat[room] = [lines[n] for n in sorted(lines)][-HISTORY:]
                live.chat_read.add(room)
        shown = [one for one in live.chat.get(room, []) if self.rules.shown(watcher, one)]
        return ChatHistory(type="chat_history", room=room, lines=shown)

    def said_elsewhere(self, game_id: str, message: ChatMessage) -> None:
        """A line said through another process: to this process's watchers of its room."""
        live = self.games.get(game_id)
        if live is not None:
            self._tell(live, message)

    def _tell(self, live: LiveGame, message: ChatMessage) -> None:
        kept = live.chat.setdefault(message.room, [])
        kept.append(message)
        del kept[:-HISTORY]
        text = encode(message)
        players = message.room == "players"
        for watcher in live.watchers:
            if bool(watcher.seats) == players and self.rules.shown(watcher, message):
                watcher.push(text)
