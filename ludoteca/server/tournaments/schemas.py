"""The tournaments' request bodies, answers and websocket message (see docs/web.md)."""

from __future__ import annotations

import datetime
from typing import Literal

from pydantic import AwareDatetime, BaseModel, Field

__all__ = [
    "BoardView",
    "LevelEntry",
    "PlayerTournament",
    "StandingView",
    "System",
    "TournamentBody",
    "TournamentBrief",
    "TournamentCreated",
    "TournamentMessage",
    "TournamentView",
    "epoch_ms",
]

System = Literal["swiss", "roundrobin", "arena"]


class TournamentBody(BaseModel):
    """A tournament to create: ``rounds`` for a Swiss, ``minutes`` for an arena (a round
    robin has one round fewer than players, or as many with an odd count); ``clock`` a live
    clock "M+S" or days per move "Nd"; ``starts`` with its time zone, in the future."""

    name: str = Field(min_length=1, max_length=80)
    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    clock: str = Field(max_length=16)
    system: System
    rounds: int | None = Field(default=None, ge=0, le=30)
    minutes: int | None = Field(default=None, ge=0, le=60 * 24 * 60)
    starts: AwareDatetime
    rated: bool = True
    max_players: int = Field(default=64, ge=2, le=1000)


class TournamentCreated(BaseModel):
    id: str
    url: str


class TournamentBrief(BaseModel):
    """A tournament in a list: times are epoch ms; ``state`` upcoming, running or finished;
    ``round`` the last round paired (an arena: its pairings so far)."""

    id: str
    url: str
    name: str
    game: str
    rules: str
    rules_title: str
    clock: str
    system: System
    rounds: int | None
    minutes: int | None
    starts: int
    ends: int | None
    rated: bool
    max_players: int
    state: str
    round: int
    players: int


class StandingView(BaseModel):
    """A line of the standings (tie-breaks: see :mod:`.scoring`; ``bot``: an engine plays the
    account, shown "BOT")."""

    rank: int
    name: str
    bot: bool
    rating: int
    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    performance: int | None
    games: int
    streak: bool
    withdrawn: bool


class BoardView(BaseModel):
    """A pairing: ``black`` None for ``white``'s bye (or rest round); ``result`` "*" while
    the game is played; ``url`` its game's page; ``*_bot``: that player is a bot account."""

    round: int
    white: str
    white_bot: bool
    black: str | None
    black_bot: bool
    result: str
    url: str | None


class TournamentView(TournamentBrief):
    """A tournament's page: the standings, best first, every round's pairings, and the name
    of the account that created it (None: the operator), who may enter the computer."""

    creator: str | None
    standings: list[StandingView]
    boards: list[BoardView]


class LevelEntry(BaseModel):
    """The computer's level to enter in a tournament."""

    level: int = Field(ge=1, le=99)


class TournamentMessage(BaseModel):
    """What ``/ws/tournaments/ID`` sends: the whole view, at once and after every change."""

    type: Literal["tournament"] = "tournament"
    tournament: TournamentView


class PlayerTournament(BaseModel):
    """A tournament on a player's profile: the place and points there (so far)."""

    id: str
    url: str
    name: str
    system: System
    state: str
    rank: int
    points: float
    players: int
    starts: int


def epoch_ms(at: datetime.datetime) -> int:
    """An aware datetime as epoch milliseconds."""
    return int(at.timestamp() * 1000)
