"""The tournaments' tables: a tournament, its entries (who joined) and its boards (who plays
whom in which round, the game, the result)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..store import Base

__all__ = ["BoardRow", "EntryRow", "TournamentRow"]


class TournamentRow(Base):
    """A tournament.  ``state`` goes upcoming -> running -> finished; ``round`` is the last
    round paired (an arena counts its pairings), changed only by a write conditional on its
    old value, so that of several processes one alone pairs a round."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(String(200))
    clock: Mapped[str] = mapped_column(String(16))
    system: Mapped[str] = mapped_column(String(16))  # swiss | roundrobin | arena
    rounds: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # Swiss (round robin: set at start)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)  # arena
    starts: Mapped[int] = mapped_column(BigInteger, index=True)  # epoch ms
    ends: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # epoch ms (arena)
    rated: Mapped[bool] = mapped_column(Boolean)
    max_players: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16), index=True)
    round: Mapped[int] = mapped_column(Integer, default=0)
    creator: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    created: Mapped[int] = mapped_column(BigInteger)


class EntryRow(Base):
    """A player in a tournament: rating when it joined (the seeding), the first round it
    could play (a late entrant's), and whether it withdrew (or, in an arena, paused)."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    name: Mapped[str] = mapped_column(String(32))
    rating: Mapped[int] = mapped_column(Integer)
    joined: Mapped[int] = mapped_column(BigInteger)
    first_round: Mapped[int] = mapped_column(Integer, default=1)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)


class BoardRow(Base):
    """A pairing of a round: white against black (None: white's bye, worth ``bye`` points),
    its game and its result ("*" until the game ends)."""

    __tablename__ = "tournament_boards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    white: Mapped[int] = mapped_column(Integer)
    black: Mapped[int | None] = mapped_column(Integer, nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    result: Mapped[str] = mapped_column(String(8), default="*")
    bye: Mapped[float] = mapped_column(Float, default=0.0)
