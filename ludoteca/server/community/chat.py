"""Chat in a game: the players' room and the spectators' room, plain text, stored with the game.

Players see and write only the players' room, everyone else only the spectators' room.  A line
is at most :data:`MAX_TEXT` printable characters (its markup is never interpreted: pages show it
as text); each connection may send :data:`LINES_PER_WINDOW` lines in :data:`WINDOW` seconds.
"""

from __future__ import annotations

import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, String, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from ..errors import ActionError
from ..store import Base, Store, now

__all__ = ["ROOMS", "ChatRow", "clean", "history", "say"]

MAX_TEXT = 300
LINES_PER_WINDOW = 5
WINDOW = 10.0
HISTORY = 100  # lines sent to a page when it opens the game
ROOMS = ("players", "spectators")


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
        raise ActionError(400, "say something")
    if len(tidy) > MAX_TEXT:
        raise ActionError(400, f"a chat line is at most {MAX_TEXT} characters")
    if not tidy.isprintable():
        raise ActionError(400, "a chat line is plain text")
    return tidy


def line(number: int, room: str, name: str, text: str, at: datetime.datetime) -> dict[str, Any]:
    """The chat message sent to pages (``id``: the line's number, increasing: a page that
    gets a line both live and in the history it asked for shows it once)."""
    at = at if at.tzinfo else at.replace(tzinfo=datetime.UTC)
    return {
        "type": "chat",
        "id": number,
        "room": room,
        "name": name,
        "text": text,
        "at": at.isoformat(),
    }


async def say(
    store: Store, game_id: str, room: str, user: int | None, name: str, text: str
) -> dict[str, Any]:
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


async def history(store: Store, game_id: str, room: str) -> list[dict[str, Any]]:
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
    return [line(row.id, row.room, row.name, row.text, row.at) for row in reversed(rows)]
