"""What a game declares for its computer opponents: the rungs of its ladder, weakest first
(``Game.ladder``).  :mod:`ludoteca.ai.levels` numbers them, rates them and makes them agents;
this module imports nothing of the players, so that a game can declare its ladder."""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_

__all__ = ["LADDER", "Rung"]


@dataclass(frozen=True)
class Rung:
    """One level of a computer ladder: the agent spec (see ``ludoteca.ai.agents``), what it
    does in words, and its name for people ("Beginner", "Club player")."""

    spec: str
    description: str
    name: str


#: the ladder of a game that declares none: alpha-beta search with its evaluation
LADDER: tuple[Rung, ...] = (
    Rung(
        "search:depth=1,noise=1500",
        N_("looks one move ahead and often misjudges it"),
        N_("Beginner"),
    ),
    Rung("search:depth=1,noise=400", N_("looks one move ahead, sometimes misjudges"), N_("Novice")),
    Rung("search:depth=2,noise=100", N_("sees the reply"), N_("Casual")),
    Rung("search:depth=3", N_("three plies"), N_("Club player")),
    Rung("search:time=1", N_("iterative deepening, 1 s a move"), N_("Expert")),
)
