"""The level ladder of each game: level 1 (a beginner can win) up to the strongest.

Each level is an agent spec (see :mod:`.agents`).  The weak levels search shallowly and blur
their root scores with noise, so they still prefer good moves but miss some; they never play at
random.  Ratings are measured with ``ludoteca tournament`` and stored in ``ratings.json`` beside
this file (Elo, anchored at level 1 = 1000, with the 95% error bar and the number of games).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..core import LudotecaError, RuleSet
from .agents import Agent, make_agent, parse_spec
from .tournament import Tournament, elo_ratings

__all__ = ["Level", "level_agent", "levels", "ratings", "store_ratings"]

RATINGS_FILE = Path(__file__).with_name("ratings.json")


@dataclass(frozen=True)
class Level:
    """One rung: its number, the agent spec, a description, and its measured rating if any."""

    number: int
    spec: str
    description: str
    rating: tuple[float, float, int] | None = None  # Elo, 95% error, games


_LADDERS: dict[str, list[tuple[str, str]]] = {
    "morris": [
        ("search:depth=1,noise=1500", "looks one move ahead and often misjudges it"),
        ("search:depth=1,noise=400", "looks one move ahead, sometimes misjudges"),
        ("search:depth=2,noise=100", "sees the reply"),
        ("search:depth=3", "three plies"),
        ("search:depth=5", "five plies"),
        ("search:time=1", "iterative deepening, 1 s a move"),
    ],
    "felli": [
        ("search:depth=1,noise=1500", "looks one move ahead and often misjudges it"),
        ("search:depth=1,noise=400", "looks one move ahead, sometimes misjudges"),
        ("search:depth=2,noise=150", "sees the reply"),
        ("search:depth=3,noise=50", "three plies"),
        ("search:depth=4", "four plies"),
        ("perfect", "perfect play from the solved table"),
    ],
    "morelli": [
        ("search:depth=1,noise=1500", "looks one move ahead and often misjudges it"),
        ("search:depth=1,noise=400", "looks one move ahead, sometimes misjudges"),
        ("search:depth=1", "the best move one ply ahead"),
        ("search:depth=2", "two plies"),
        ("search:time=3", "iterative deepening, 3 s a move"),
    ],
}
_FALLBACK = _LADDERS["morris"]


@cache
def ratings() -> dict[str, dict[str, list[float]]]:
    """The measured ratings: game rule set -> level number (as text) -> [elo, error, games]."""
    if not RATINGS_FILE.exists():
        return {}
    data: dict[str, dict[str, list[float]]] = json.loads(RATINGS_FILE.read_text())
    return data


def levels(rules: RuleSet) -> list[Level]:
    """The ladder for a rule set, with measured ratings where they exist."""
    ladder = list(_LADDERS.get(rules.game, _FALLBACK))
    if rules.game == "felli" and rules["mullah"]:
        ladder[-1] = ("search:time=2", "iterative deepening, 2 s a move")
    measured = ratings().get(str(rules), {})
    out = []
    for i, (spec, text) in enumerate(ladder, start=1):
        entry = measured.get(str(i))
        rating = None if entry is None else (entry[0], entry[1], int(entry[2]))
        out.append(Level(i, spec, text, rating))
    return out


def level_agent(rules: RuleSet, number: int, seed: int | None = None) -> Agent:
    """The agent of level ``number`` for a rule set."""
    ladder = levels(rules)
    if not 1 <= number <= len(ladder):
        raise LudotecaError(f"{rules.game} has levels 1 to {len(ladder)}, not {number}")
    agent = make_agent(ladder[number - 1].spec, rules, seed)
    agent.name = f"level:{number}"
    return agent


def store_ratings(rules: RuleSet, tournament: Tournament) -> None:
    """Save the measured ratings of the ``level:N`` agents of a tournament, re-anchored so that
    level 1 has 1000 when it took part."""
    elo = elo_ratings(tournament.scores(), tournament.games_between())
    games = tournament.games_between()
    measured: dict[str, list[float]] = {}
    for i, spec in enumerate(tournament.agents):
        kind, options = parse_spec(spec)
        if kind == "level":
            measured[str(int(options["level"]))] = [round(elo[i][0], 1), round(elo[i][1], 1),
                                                    sum(games[i])]
    if "1" in measured:
        shift = 1000 - measured["1"][0]
        for entry in measured.values():
            entry[0] = round(entry[0] + shift, 1)
    data = dict(ratings())
    data[str(rules)] = measured
    RATINGS_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    ratings.cache_clear()
